# The game log screen (from the pause menu, or BACK on the result). Loaded when first opened.
# One row per event, except the sealed deal: its many messages (keys, shuffle chunks, shares)
# are one row per deal, which says whether it shuffled the deck or dealt cards.
from fathom.games import describe
from fathom.ui.font import CH
from fathom.ui.happened import DEAL, deal_line
from fathom.ui.listview import ListView
from fathom.ui.screen import Screen
from fathom.ui.topbar import top_bar


def deal_runs(seat):
    """[[first, end], ...]: the log's runs of sealed deal messages (one per deal: a handful a
    game, read from the journal once)."""
    runs = []
    i = 0
    for _a, e in seat.events():
        if e[0] in DEAL:
            if runs and runs[-1][1] == i:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
        i += 1
    return runs


class _LogRows:
    """The game log as a sequence for a list view: "N text" per entry (a deal: "N-M Deck
    shuffled in secret"), read from the journal a window at a time (the whole log never sits in the
    heap)."""
    SPAN = 8

    def __init__(self, seat):
        self.s = seat
        self.runs = deal_runs(seat)
        self.n = seat.n_log - sum([b - a - 1 for a, b in self.runs])
        self.lo = 0
        self.buf = []

    def __len__(self):
        return self.n

    def span(self, row):
        """The log entries [first, end) that row `row` stands for."""
        shift = 0                 # log entries folded into the deals before this row
        for a, b in self.runs:
            at = a - shift        # the deal's own row
            if row < at:
                break
            if row == at:
                return a, b
            shift += b - a - 1
        return row + shift, row + shift + 1

    def text(self, row):
        s = self.s
        a, b = self.span(row)
        if b - a > 1 or s.log[a][1][0] in DEAL:
            shuffled = False
            for i in range(a, b):
                if s.log[i][1][0] != DEAL[2]:   # a key or a shuffle, not only cards dealt
                    shuffled = True
            if b - a == 1:
                return "%d %s" % (a, deal_line(shuffled))
            return "%d-%d %s" % (a, b - 1, deal_line(shuffled))
        au, ev = s.log[a]
        return "%d %s" % (a, describe(s.engine, s, au, ev))

    def __getitem__(self, i):
        if not self.lo <= i < self.lo + len(self.buf):
            self.lo = max(0, i - self.SPAN // 2)
            self.buf = [self.text(r) for r in range(self.lo, min(self.n, self.lo + self.SPAN))]
        return self.buf[i - self.lo]


class LogScreen(Screen):
    """The game log: a list view from the newest entry back, every entry wrapped whole (an
    entry cut to 'shuffles~' said nothing), in the 3x5 font on a panel narrower than 128 px
    (17 characters a row, not 8) as everywhere else on it. The title is one that fits the bar
    in 8x8 beside the counter at every size, so it never changes font."""
    title = "Game log"

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        rows_ = _LogRows(runner.seat)
        self.view = ListView(rows_, max(0, len(rows_) - 1), whole=True)

    def draw(self, d):
        v = self.view
        v.small = d.width < 128
        h = d.height - CH
        title = self.title if d.width >= 128 else "Log"
        if v.fits(h):
            top_bar(d, title, self.app.link_state)
        else:
            top_bar(d, title, self.app.link_state, None, v.cursor + 1, v.count())
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
