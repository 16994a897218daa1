# The overlay over a game while a partner's unit is silent. Loaded when a partner first goes
# silent, not for every game.
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
        if r.left:
            self.title = "Partner left"
            self.text = ("%s left the game. It is saved on both units: play goes on when it is "
                         "resumed there." % partner_name(r, min(r.left)))
        else:
            self.text = ("%s is not answering: the unit left the game, was switched off or is "
                         "out of range. The game is saved on both units." % partner_name(r))
        self.page = TextPage(self.text)
        self.items = [Item("Wait", lambda a: a.pop()),
                      Item("Leave (keep)", lambda a: say_bye(a, r)),
                      Item("Concede", lambda a: _concede(a, r))]
        self.view = ListView([it.label for it in self.items])

    def tick(self, now):
        r = self.game.runner
        if r.desync is not None or r.result() is not None or not silent(r):
            self.app.pop()  # the game screen, on top again, shows what happened
            return True
        return self.game.watch(now)  # it asks about a claim once the partner vanished

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


def _concede(app, runner):
    from fathom.ui.confirm import concede  # the question's module loads only when asked
    concede(app, runner)
