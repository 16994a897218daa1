# The game log screen (from the pause menu, or BACK on the result). Loaded when first opened.
from fathom.games.base import describe
from fathom.ui.font import CH
from fathom.ui.listview import ListView
from fathom.ui.screen import Screen
from fathom.ui.topbar import top_bar


class _LogRows:
    """The game log as a sequence for a list view: "N text" per entry, read from the journal
    a window at a time (the whole log never sits in the heap)."""
    SPAN = 8

    def __init__(self, seat):
        self.s = seat
        self.lo = 0
        self.buf = []

    def __len__(self):
        return len(self.s.log)

    def __getitem__(self, i):
        if not self.lo <= i < self.lo + len(self.buf):
            s = self.s
            self.lo = max(0, i - self.SPAN // 2)
            self.buf = []
            for a, e in s.events(self.lo, self.lo + self.SPAN):
                self.buf.append("%d %s" % (self.lo + len(self.buf), describe(s.engine, s, a, e)))
        return self.buf[i - self.lo]


class LogScreen(Screen):
    """The game log: a list view from the newest entry back, the highlighted entry wrapped
    whole so no line is ever cut for good."""
    title = "Game log"

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        rows_ = _LogRows(runner.seat)
        self.view = ListView(rows_, max(0, len(rows_) - 1))

    def draw(self, d):
        v = self.view
        h = d.height - CH
        if v.fits(h):
            top_bar(d, self.title, self.app.link_state)
        else:
            top_bar(d, self.title, self.app.link_state, None, v.cursor + 1, v.count())
        v.draw(d, 0, CH, d.width, h)

    def lines(self):
        v = self.view
        out = [self.title]
        for i in range(v.top, min(v.count(), v.top + self.app.rows - 1)):
            out.append(v.labels[i])
        return out

    def key(self, k):
        if self.view.key(k):
            return
        if k in ("BACK", "OK", "LEFT"):
            self.app.pop()
