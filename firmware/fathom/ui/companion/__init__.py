# The tabletop companion: one unit beside a paper game, no link. A game's mode is its
# `companion` part (fathom/games/<id>/companion.py), imported only when chosen (heap); this
# module is the kit the modes share. Every mode keeps its state in one storage file, saved on
# every change, so a power cut loses nothing.
from fathom import games
from fathom.ui.boardgrid import BoardGrid, mark
from fathom.ui.font import CH, put
from fathom.ui.listview import ListView, ViewCursor
from fathom.ui.menu import Item, Menu
from fathom.ui.screen import Screen, cols, rows, wrap
from fathom.ui.topbar import top_bar


def companion_menu(app):
    items = [Item(games.declaration(gid).TITLE, _opener(gid))
             for gid in games.with_part("companion")]
    return Menu(app, "Companion", items)


def _opener(gid):
    def go(app):
        games.part(gid, "companion").open_mode(app)
    return go


# ---- persistence ------------------------------------------------------------------------------
def same_shape(st, ref):
    """True when st is a dict with ref's keys and, key by key, values of the same type."""
    if not isinstance(st, dict):
        return False
    for k in ref:
        if k not in st or type(st[k]) is not type(ref[k]):
            return False
    return True


def load(app, fname, fresh, check):
    """(state, problem): the saved state, or fresh() and a message when it was unreadable."""
    try:
        st = app.hw.storage.read_obj(fname)
    except Exception as e:  # CorruptFile: storage kept the file aside as NAME.bad
        return fresh(), "Saved state was unreadable (%s). Starting fresh." % e
    if st is None:
        return fresh(), None
    try:
        ok = same_shape(st, fresh()) and check(st)
    except Exception:
        ok = False
    if not ok:
        return fresh(), "Saved state did not make sense. Starting fresh."
    return st, None


def open_with(app, scr, problem):
    app.push(scr)
    if problem:
        from fathom.ui.dialog import Message
        app.push(Message(app, "Companion", problem))


def squares_ok(xs, n):
    for s in xs:
        if type(s) is not int or not 0 <= s < n:
            return False
    return True


class Store:
    """A mode's state and its file: save() after every change."""

    def __init__(self, app, fname, st):
        self.app = app
        self.fname = fname
        self.st = st

    def save(self):
        self.app.hw.storage.write_obj(self.fname, self.st)


# ---- screens shared by the modes ---------------------------------------------------------------
class Panel(ViewCursor, Screen):
    """Status lines over a list view of actions. An action is (label, on_ok, on_lr): on_ok()
    runs on OK, on_lr(step) on LEFT (-1) / RIGHT (+1); either may be None."""

    def __init__(self, app, title):
        Screen.__init__(self, app)
        self.title = title
        self.view = ListView()

    def info(self):
        return []

    def items(self):
        return []

    def draw(self, d):
        w = cols(d)
        info = self.info()
        n_info = min(len(info), max(0, rows(d) - 3))
        its = self.items()
        v = self.view
        v.set([it[0] for it in its])
        y0 = (n_info + 1) * CH
        if its and not v.fits(d.height - y0):
            top_bar(d, self.title, self.app.link_state, None, v.cursor + 1, v.count())
        else:
            top_bar(d, self.title, self.app.link_state)
        for i in range(n_info):
            put(d, info[i], 0, (i + 1) * CH, w)
        v.draw(d, 0, y0, d.width, d.height - y0)

    def lines(self):
        out = [self.title]
        for line in self.info():
            out.append("| " + line)
        for i, it in enumerate(self.items()):
            out.append((">" if i == self.cursor else " ") + it[0])
        return out

    def key(self, k):
        its = self.items()
        if k == "BACK":
            self.back()
            return
        if not its:
            return
        self.cursor = min(self.cursor, len(its) - 1)
        it = its[self.cursor]
        if k in ("UP", "DOWN"):
            self.view.set(its)   # only the count matters for a move
            self.view.key(k)
        elif k in ("LEFT", "RIGHT") and len(it) > 2 and it[2]:
            it[2](-1 if k == "LEFT" else 1)
        elif k == "OK" or (k == "RIGHT" and it[1]):
            if it[1]:
                it[1]()

    def back(self):
        self.app.pop()


class Grid(Screen):
    """A square map with a cursor: the kit's board grid at the left (a window that follows the
    cursor when the map does not fit), status lines beside it. Subclasses give glyph(cell) (one
    char, None off the map), side() (status lines), name(cell) and ok(cell). Cell = r * ncols
    + c; with flip, row 0 is drawn at the bottom (lettered maps count their rows upward)."""
    flip = True

    def __init__(self, app, title, ncols, nrows, cursor=0):
        Screen.__init__(self, app)
        self.title = title
        self.nc = ncols
        self.nr = nrows
        self.board = BoardGrid(ncols, nrows, cursor, self.flip)
        self._gl = None           # this frame's glyphs, for the cell callback

    @property
    def cursor(self):
        return self.board.cursor

    @cursor.setter
    def cursor(self, cell):
        self.board.cursor = cell

    def glyph(self, cell):
        return "."

    def cells(self):
        """Every cell's glyph, computed once per frame (override for a faster whole map)."""
        return [self.glyph(c) for c in range(self.nc * self.nr)]

    def side(self):
        return []

    def name(self, cell):
        return self.board.name(cell)

    def ok(self, cell):
        pass

    def _cell(self, d, cell, x, y, px):
        g = self._gl[cell]
        if g is not None:
            mark(d, x, y, px, g)

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state)
        self._gl = self.cells()
        # the map takes up to two thirds of the width, the side text the rest
        used = self.board.draw(d, 0, CH, d.width * 2 // 3, d.height - CH, self._cell)
        self._gl = None
        x0 = used + 3
        w = (d.width - x0) // CH
        if w <= 0:
            return
        y = CH
        for line in self.side():
            for part in wrap(line, w):
                if y + CH > d.height:
                    return
                d.text(part, x0, y, 1)
                y += CH

    def lines(self):
        out = [self.title, "at " + self.name(self.cursor)]
        for line in self.side():
            out.append("| " + line)
        gl = self.cells()
        for r in range(self.nr):
            rr = self.nr - 1 - r if self.flip else r
            g = [gl[rr * self.nc + c] or " " for c in range(self.nc)]
            out.append("# " + "".join(g))
        return out

    def key(self, k):
        if k == "BACK":
            self.app.pop()
        elif k == "OK":
            self.ok(self.cursor)
        else:  # squares off the map (PING's reefs) are jumped over
            self.board.key(k, self._on_map)

    def _on_map(self, cell):
        return self.glyph(cell) is not None


class NumberPick(Panel):
    """Pick a set of distinct numbers (a ping report, costs): UP/DOWN the value, OK adds or
    removes it, RIGHT saves, BACK cancels. on_done(values) gets them sorted."""

    def __init__(self, app, title, lo, hi, on_done, single=False, start=None):
        Panel.__init__(self, app, title)
        self.lo = lo
        self.hi = hi
        self.v = lo if start is None else start
        self.vals = []
        self.on_done = on_done
        self.single = single

    def info(self):
        if self.single:
            return ["value: %d" % self.v, "UP/DOWN OK=save"]
        got = ",".join([str(x) for x in self.vals]) or "none"
        return ["value: %d" % self.v, "list: " + got, "OK=add RIGHT=save"]

    def key(self, k):
        if k == "UP":
            self.v = self.v + 1 if self.v < self.hi else self.lo
        elif k == "DOWN":
            self.v = self.v - 1 if self.v > self.lo else self.hi
        elif k == "OK" and self.single:
            self.app.pop()
            self.on_done([self.v])
        elif k == "OK":
            if self.v in self.vals:
                self.vals.remove(self.v)
            else:
                self.vals.append(self.v)
                self.vals.sort()
        elif k == "RIGHT" and not self.single:
            self.app.pop()
            self.on_done(list(self.vals))
        elif k == "BACK":
            self.app.pop()


def confirm(app, text, then):
    from fathom.ui.dialog import Message

    def ok(a):
        a.pop()
        then()
    app.push(Message(app, "Sure?", text + "\nOK: yes  BACK: no", on_ok=ok))


def choose(app, title, options, then):
    """A menu of (label, value); then(value) after the choice (the menu is closed first)."""
    def pick(v):
        def go(a):
            a.pop()
            then(v)
        return go
    app.push(Menu(app, title, [Item(lab, pick(v)) for lab, v in options]))
