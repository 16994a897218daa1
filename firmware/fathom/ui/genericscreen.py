# The generic game screen, for a game that declares no screen part of its own
# (fathom/games/<id>/screen.py): loaded only for such a game.
from fathom.games import describe
from fathom.ui.font import CH, put
from fathom.ui.listview import ListView, ViewCursor
from fathom.ui.gamebase import GameBase
from fathom.ui.gamekit import label, setup_label
from fathom.ui.screen import cols, rows
from fathom.ui.topbar import top_bar


class GameScreen(ViewCursor, GameBase):
    """The generic game screen: the last log lines over a list view of the legal choices,
    the position among them in the top bar."""

    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        self.view = ListView()

    def choices(self):
        s = self.runner.seat
        if s.setup_legal():
            return [(c, setup_label(self.eng, self.runner, c)) for c in s.setup_legal()]
        return [(a, label(self.eng, self.runner, a)) for a in s.legal()]

    def draw(self, d):
        ch = self.choices()
        v = self.view
        v.set([text for _c, text in ch])
        n_log = max(0, min(2, rows(d) - 3)) if ch else rows(d) - 1
        y0 = (n_log + 1) * CH
        title = self.title + " " + self.status()
        if ch and not v.fits(d.height - y0):
            top_bar(d, title, self.app.link_state, None, v.cursor + 1, v.count())
        else:
            top_bar(d, title, self.app.link_state)
        log = self.runner.seat.log
        i = 1
        for a, e in log[-n_log:] if n_log else ():
            put(d, describe(self.eng, self.runner.seat, a, e), 0, i * CH, cols(d))
            i += 1
        v.draw(d, 0, y0, d.width, d.height - y0)

    def lines(self):
        # [title+status, "| " log lines (up to 3), then one line per choice: ">" cursor or " "]
        out = [self.title + " " + self.status()]
        for a, e in self.runner.seat.log[-3:]:
            out.append("| " + describe(self.eng, self.runner.seat, a, e))
        for i, (_c, text) in enumerate(self.choices()):
            out.append((">" if i == self.cursor else " ") + text)
        return out

    def keys_for(self, action):
        """The keys that author `action` from here: to its row, then OK."""
        ch = self.choices()
        self.view.set([text for _c, text in ch])
        for i, (c, _text) in enumerate(ch):
            if c == action:
                return self.view.keys_to(i) + ["OK"]
        raise ValueError("not a choice here: %r" % (action,))

    def key(self, k):
        ch = self.choices()
        if k == "BACK":
            self.pause()
        elif not ch:
            return
        elif k in ("UP", "DOWN"):
            self.view.set([text for _c, text in ch])
            self.view.key(k)
        elif k == "OK":
            choice = ch[min(self.cursor, len(ch) - 1)][0]
            if self.runner.seat.setup_legal():
                self.runner.setup_choose(choice)
            else:
                self.runner.play(choice)
            self.cursor = 0
