# What every game screen shares (GameBase: the pause menu, the switch to the result, the
# sealed deal's progress overlay, the silent or vanished partner) and that overlay (DealScreen).
# The screens around a game (the result, the log, Leave, the silent partner) are flows, above
# this kit: it opens them through the app (App.game_flow(), flow/play.py), never by import.
from fathom.hal.clock import ticks_diff
from fathom.ui.font import CH, TH, put, tiny, tiny_cols
from fathom.ui.gamekit import silent
from fathom.ui.menu import Item, Menu
from fathom.ui.screen import Screen, clip, cols
from fathom.ui.topbar import top_bar


DEAL_MIN = 4   # sealed work of fewer units (a draw of 3, PING's face-down card: under 1 s on an
#                ESP32) leaves the board on the screen; the opening deal and a reshuffle get
#                the progress overlay


class GameBase(Screen):
    """What every game screen shares: the pause menu, the switch to the result, the sealed
    deal's progress overlay while its work runs, and the partner's side: a silent partner is
    said so in the status and, once, in an overlay."""

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        self.eng = runner.seat.engine
        self.title = self.eng.TITLE
        # bound once: a getattr in tick would allocate a bound method on every loop
        self.progress = getattr(self.eng, "deal_progress", None)
        self.asked = None  # when the vanished partner's choices were last offered
        self.told = False  # the silent partner's overlay was shown for this silence
        self.happened = None  # what happened since this player's last action (hear())
        self.said = None      # the TextPage the screen shows it in, turned when it overflows

    def wake_in(self, now):
        """App._rest: what this tick reacts to comes from a key, the runner (whose own wake_in
        times the link) or slow timers (silence, limits: the loop's REST_MAX_MS); the sealed
        deal works every loop."""
        return 0 if self.deal_progress() is not None else None

    def hear(self, words, start, page):
        """Keep the 'what happened' stack (ui/happened.py) with the game's `words` (`start`
        before any event), shown in `page`; news() folds in new events, gives its text."""
        from fathom.ui.happened import Happened
        self.happened = Happened(self.runner.seat, words, start)
        self.said = page
        page.set(self.happened.text)

    def said_page(self):
        """The TextPage the stack shows in now (a screen may move it while a prompt shows)."""
        return self.said

    def news(self):
        h = self.happened
        if h.update():
            self.said.set(h.text)
        return h.text

    def tick(self, now):
        r = self.runner
        if r.desync is not None or r.result() is not None:
            self.app.game_flow().ended(self.app, r)
            return True
        if r.gone():
            if self.asked is None or ticks_diff(now, self.asked) >= r.vanish_ms:
                self.asked = now  # "Wait" asks again only after another limit
                menu = Menu(self.app, "Partner vanished", [
                    Item("Wait", lambda a: a.pop()),
                    Item("Claim the game", lambda a: _claim(a, r))])
                if getattr(self.app.stack[-1], "partner", False):
                    self.app.replace(menu)  # the claim supersedes "not answering"
                else:
                    self.app.push(menu)
                return True
        else:
            self.asked = None
        if silent(r):
            if not self.told and self.app.stack[-1] is self:
                self.told = True  # once per silence: "Wait" means wait, the status says it
                self.app.game_flow().silent_partner(self.app, self)
                return True
        elif self.told:
            self.told = False
            return True
        pr = self.deal_progress()
        if pr is not None and pr[1] >= DEAL_MIN and self.app.stack[-1] is self:
            self.app.push(DealScreen(self.app, self))
            return True
        st = self.app.stack
        if self.said is not None and (not st or st[-1] is self):
            return self.happened.turn(self.said_page(), now)
        return False

    def deal_progress(self):
        """(done, total) of the sealed deal's work under way, or None."""
        return self.progress(self.runner.seat.pub) if self.progress is not None else None

    # The base tick by another name, for an overlay over the game (flow/partner.py) that runs
    # it without importing this module.
    watch = tick

    def pause(self):
        r = self.runner
        items = [Item("Back to game", lambda a: a.pop()),
                 Item("Game log", lambda a: a.game_flow().log(a, r)),
                 Item("Leave (keep)", lambda a: a.game_flow().bye(a, r)),
                 Item("Concede", lambda a: _concede(a, r))]
        if r.gone():
            items.append(Item("Claim the game", lambda a: _claim(a, r)))
        self.app.push(Menu(self.app, "Paused", items))

    def status(self):
        r = self.runner
        who = r.waiting_for()
        if r.gone():
            return "partner vanished"
        if r.left:
            return "partner left"
        if silent(r):
            return "no answer"
        if r.problem:
            return clip(r.problem, 40)
        if who is None:
            return "waiting"
        if who == r.seat.player:
            return "set up" if r.seat.setup_legal() else "your move"
        return "P%d plays" % (who + 1)   # short enough for a game's 8x8 title at 128 px


class DealScreen(Screen):
    """Over the game while the sealed deal's work runs (the opening deal, a reshuffle): who is
    shuffling ("You shuffle", "P2 shuffles") and a bar of done / total in words ("6 of 40
    steps"), which moves as the runner authors one sealed step a
    tick. It closes by itself when the work is done (or the game ends); BACK pauses."""
    title = "Sealed deal"

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        self.pr = None
        self.text = self.count = ""
        self._read()

    def _read(self):
        """Rebuild the strings when the progress moved (a redraw allocates nothing)."""
        r = self.game.runner
        pr = self.game.deal_progress()
        if pr is None or pr == self.pr:
            return False
        self.pr = pr
        who = r.waiting_for()
        mine = who is None or who == r.seat.player
        # who works now and how far the work is: a newcomer waits for the bar to fill
        self.text = "You shuffle" if mine else "P%d shuffles" % (who + 1)
        self.count = "%d of %d steps" % pr
        return True

    def tick(self, now):
        r = self.game.runner
        if r.desync is not None or r.result() is not None or self.game.deal_progress() is None:
            self.app.pop()   # the game screen, on top again, shows what comes next
            return True
        return self._read() or GameBase.tick(self.game, now)

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state, fit=True)
        w = d.width
        # one font for every line at a size (8x8 from 128 px, else 3x5): the words are short
        # enough for either, so nothing switches font as the work passes between units
        small = w < 128
        n = tiny_cols(w) if small else cols(d)
        put(d, self.text, 0, CH + (1 if small else 0), n, 1, small)
        y = 2 * CH + 1
        bh = min(6, d.height - y - CH - 1)   # the count needs a row under the bar
        if bh < 3:
            bh, y = 3, d.height - 4
        done, total = self.pr
        d.rect(0, y, w, bh, 1)
        d.fill_rect(1, y + 1, (w - 2) * done // max(1, total), bh - 2, 1)
        y += bh + 1
        if y + CH <= d.height:
            put(d, self.count, 0, y, n, 1, small)
        if not small and y + CH + 2 + TH <= d.height:   # why it takes a while, where it fits
            tiny(d, "NEITHER UNIT SEES THE CARDS", 0, y + CH + 2)

    def lines(self):
        return [self.title, self.text, self.count]

    def key(self, k):
        if k == "BACK":
            self.game.pause()


def _concede(app, runner):
    from fathom.ui.confirm import concede  # the question's module loads only when asked
    concede(app, runner)


def _claim(app, runner):
    if runner.gone():  # the partner may have come back while the menu was open
        runner.claim()
    app.pop()
