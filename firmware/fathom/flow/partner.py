# The overlay over a game while a partner's unit is silent. Loaded when a partner first goes
# silent, not for every game.
from fathom.hal.clock import ticks_diff
from fathom.ui.font import CH
from fathom.ui.listview import ListView
from fathom.ui.menu import Item
from fathom.ui.gamekit import partner_name, silent
from fathom.flow.leaving import say_bye
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar


class PartnerScreen(Screen):
    """Over the game while a partner's unit is silent: what is known, in words, and what can
    be done. It closes by itself when the partner is heard again or the game ends."""
    title = "No answer"
    partner = True  # GameBase.tick replaces it with the claim, without importing this module

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        r = game.runner
        self.shown = None  # the time said, in the steps it is said in (_ago)
        self.page = TextPage("")
        self._say(r._now)
        self.title = "Partner left" if r.left else "No answer"
        self.items = [Item("Wait", lambda a: a.pop()),
                      Item("Leave (keep)", lambda a: say_bye(a, r)),
                      Item("Concede", lambda a: _concede(a, r))]
        self.view = ListView([it.label for it in self.items])

    def _say(self, now):
        """Who this unit waits for and since when, said again when the time shown changes."""
        r = self.game.runner
        p, since = _waited(r)
        t = max(0, ticks_diff(now, since)) // 1000 if now is not None and since is not None \
            else 0
        step = t // 10 * 10 if t < 60 else t // 60 * 60
        if step == self.shown:
            return False  # every loop: nothing allocated until the time shown changes
        self.shown = step
        who = partner_name(r, p)
        ago = "%d s" % step if step < 60 else "%d min" % (step // 60)
        where = "both units" if r.seat.n == 2 else "every unit"
        if r.left:
            self.text = ("%s left the game %s ago. It is saved on %s: play goes on when it "
                         "is resumed there." % (who, ago, where))
        else:
            self.text = ("%s is not answering: nothing for %s. The unit left the game, was "
                         "switched off or is out of range. The game is saved on %s." % (
                             who, ago, where))
        self.page.set(self.text)
        return True

    def tick(self, now):
        r = self.game.runner
        if r.desync is not None or r.result() is not None or not silent(r):
            self.app.pop()  # the game screen, on top again, shows what happened
            return True
        # it asks about a claim once the partner vanished
        return self._say(now) | self.game.watch(now)

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state)
        h = d.height - CH
        lh = min(len(self.items), max(1, h // CH - 2)) * CH
        self.page.draw(d, 0, CH, d.width, h - lh)
        self.view.draw(d, 0, d.height - lh, d.width, lh)

    def lines(self):
        return [self.title, self.text] + [(">" if i == self.view.cursor else " ") + it.label
                                          for i, it in enumerate(self.items)]

    def key(self, k):
        if k in ("LEFT", "RIGHT"):  # the text, when a small panel cannot show all of it
            self.page.key("UP" if k == "LEFT" else "DOWN")
        elif self.view.key(k):
            return
        elif k == "OK":
            self.items[self.view.cursor].action(self.app)
        elif k == "BACK":
            self.app.pop()  # as "Wait"


def _waited(r):
    """(player or None, since when) this unit waits for: a partner that said it left, else the
    first whose link is silent (in a group the host knows which partner; a partner hears only
    the host). None: a game of two's partner, named by partner_name."""
    if r.left:
        p = min(r.left)
        return p, r.left[p]
    for peer in r.peers:
        if getattr(peer, "state", None) == "lost":
            return (None if r.seat.n == 2 else (r._seat(peer) if r.relay else 0),
                    r._heard.get(peer))
    return None, None


def _concede(app, runner):
    from fathom.ui.confirm import concede  # the question's module loads only when asked
    concede(app, runner)
