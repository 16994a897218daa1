# Lake Ashtapada companion: enter your lake once; when the opponent sounds a square the unit
# gives the exact report to read out, from the engine's own report() (one implementation);
# log your own charges and the reports you heard, and see the squares still consistent with
# them, from the engine's candidates() fed a small pub-like dict.
from fathom.games.ashtapada import engine as A
from fathom.ui.companion import Grid, NumberPick, Panel, Store, choose, confirm, load, \
    open_with, squares_ok

FILE = "comp_ashtapada"
SIZES = (8, 10, 12)
SIDES = ("South", "North")


def fresh():
    # log: ["s", square, [distances heard]] or ["d", square, 1 hit / 0 miss], oldest first
    return {"size": 10, "side": 0, "isl": [], "oisl": [], "mines": [], "dead": [], "log": []}


def check(st):
    n = st["size"] * st["size"]
    if st["size"] not in SIZES or st["side"] not in (0, 1):
        return False
    for k in ("isl", "oisl", "mines", "dead"):
        if not squares_ok(st[k], n):
            return False
    for kind, sq, val in st["log"]:
        if kind == "s":
            if not squares_ok(val, 2 * st["size"]):
                return False
        elif kind != "d" or val not in (0, 1):
            return False
        if not squares_ok([sq], n):
            return False
    return True


# ---- pure logic (tests call these) ----------------------------------------------------------
def islands(st):
    return st["isl"] + st["oisl"]


def live(st):
    return [m for m in st["mines"] if m not in st["dead"]]


def their_report(st, charge):
    """What to read out for the opponent's sounding charge: the engine's report(), or None
    for a charge on an island (not allowed)."""
    try:
        return A.report(st["size"], islands(st), live(st), charge)
    except A.IllegalAction:
        return None


def pub_like(st):
    """The slice of an engine pub that candidates() reads, built from the charges logged."""
    me = st["side"]
    isl = [[], []]
    isl[me] = st["isl"]
    isl[1 - me] = st["oisl"]
    dead = [[], []]
    miss = [[], []]
    sonar = []
    for kind, sq, val in st["log"]:
        if kind == "s":
            sonar.append(bytes([me, sq, len(dead[1 - me])] + list(val)))
        elif val:
            dead[1 - me].append(sq)
        else:
            miss[me].append(sq)
    return {"size": st["size"], "islands": isl, "dead": dead, "miss": miss,
            "clear": [[], []], "sonar": sonar}


def consistent(st):
    """Squares where a live enemy mine may still be, given everything logged."""
    cand = A.candidates(pub_like(st), st["side"])
    return [s for s in range(len(cand)) if cand[s]]


def cycle_own(st, sq):
    """My half: empty -> mine -> destroyed mine -> island (off the shore) -> empty."""
    n = st["size"]
    if A.side(sq, n) != st["side"]:
        return False
    if sq in st["isl"]:
        st["isl"].remove(sq)
    elif sq in st["dead"]:
        st["dead"].remove(sq)
        st["mines"].remove(sq)
        if not A.near_shore(sq, n):
            st["isl"].append(sq)
    elif sq in st["mines"]:
        st["dead"].append(sq)
    else:
        st["mines"].append(sq)
    return True


def toggle_theirs(st, sq):
    n = st["size"]
    if A.side(sq, n) == st["side"] or A.near_shore(sq, n):
        return False
    if sq in st["oisl"]:
        st["oisl"].remove(sq)
    else:
        st["oisl"].append(sq)
    return True


def entry_text(e, n):
    kind, sq, val = e
    if kind == "s":
        return "%s sound: %s" % (A.name(sq, n), ",".join([str(x) for x in val]) or "none")
    return "%s depth: %s" % (A.name(sq, n), "hit" if val else "miss")


# ---- screens --------------------------------------------------------------------------------
def open_mode(app):
    st, problem = load(app, FILE, fresh, check)
    open_with(app, Hub(app, Store(app, FILE, st)), problem)


class Hub(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Lake Ashtapada")
        self.s = store

    def info(self):
        st = self.s.st
        return ["%s %dx%d" % (SIDES[st["side"]], st["size"], st["size"]),
                "mines %d isl %d/%d" % (len(live(st)), len(st["isl"]), len(st["oisl"]))]

    def items(self):
        st = self.s.st
        return [("Their charge", lambda: self._grid("report"), None),
                ("My lake", lambda: self._grid("edit"), None),
                ("Their islands", lambda: self._grid("theirs"), None),
                ("My charges %d" % len(st["log"]), self._charges, None),
                ("Mines can be", lambda: self._grid("cand"), None),
                ("Lake %d" % st["size"], self._size, lambda step: self._size(step)),
                ("Side " + SIDES[st["side"]], self._side, lambda step: self._side()),
                ("New game", lambda: confirm(self.app, "Clear the lake and the log?", self._reset),
                 None)]

    def _charges(self):
        self.app.push(Charges(self.app, self.s))

    def _grid(self, mode):
        self.app.push(LakeGrid(self.app, self.s, mode))

    def _empty(self):
        st = self.s.st
        if st["mines"] or st["isl"] or st["oisl"] or st["log"]:
            from fathom.ui.dialog import Message
            self.app.push(Message(self.app, "Lake", "Squares are entered: use New game first."))
            return False
        return True

    def _size(self, step=1):
        if self._empty():
            st = self.s.st
            st["size"] = SIZES[(SIZES.index(st["size"]) + step) % len(SIZES)]
            self.s.save()

    def _side(self):
        if self._empty():
            self.s.st["side"] = 1 - self.s.st["side"]
            self.s.save()

    def _reset(self):
        st = fresh()
        st["size"] = self.s.st["size"]
        st["side"] = self.s.st["side"]
        self.s.st = st
        self.s.save()


TITLES = {"edit": "My lake", "theirs": "Their isl", "report": "Their charge",
          "cand": "Mines can be", "pick": "My charge at"}


class LakeGrid(Grid):
    def __init__(self, app, store, mode, on_pick=None):
        st = store.st
        n = st["size"]
        # start on the half the mode is about
        mine_half = mode in ("edit", "report")
        row = (n // 4) if (st["side"] == 0) == mine_half else (3 * n // 4)
        Grid.__init__(self, app, TITLES[mode], n, n, row * n + n // 2)
        self.s = store
        self.mode = mode
        self.on_pick = on_pick
        self._rep = None
        self.cand = bytearray(n * n)
        if mode == "cand":
            for s in consistent(st):
                self.cand[s] = 1

    def name(self, cell):
        return A.name(cell, self.s.st["size"])

    def cells(self):
        # the whole lake at once: a few list writes instead of list searches per square
        st = self.s.st
        out = ["."] * (st["size"] * st["size"])
        if self.mode == "cand":
            for s in range(len(out)):
                if self.cand[s]:
                    out[s] = "?"
        if self.mode in ("edit", "report"):
            for s in st["mines"]:
                out[s] = "M"
            for s in st["dead"]:
                out[s] = "X"
        for s in st["isl"]:
            out[s] = "I"
        for s in st["oisl"]:
            out[s] = "I"
        return out

    def glyph(self, cell):
        st = self.s.st
        if cell in st["isl"] or cell in st["oisl"]:
            return "I"
        if self.mode in ("edit", "report"):
            if cell in st["dead"]:
                return "X"
            if cell in st["mines"]:
                return "M"
        if self.mode == "cand" and self.cand[cell]:
            return "?"
        return "."

    def side(self):
        st = self.s.st
        here = self.name(self.cursor)
        if self.mode == "report":
            return [self._report_line()]
        if self.mode == "edit":
            return [here, "mines %d" % len(live(st)), "isl %d" % len(st["isl"]), "OK=M>X>I"]
        if self.mode == "cand":
            left = [s for s in range(len(self.cand)) if self.cand[s]]
            out = [here, "%d left" % len(left)]
            if len(left) <= 8:
                out.append("can be: " + " ".join([self.name(s) for s in left]))
            return out
        return [here]

    def lines(self):
        out = Grid.lines(self)
        if self.mode == "report":  # one line a test or a reader can take whole
            out.insert(2, self._report_line())
        return out

    def _report_line(self):
        # the lake cannot change on this screen: one report() per cursor square
        if self._rep is not None and self._rep[0] == self.cursor:
            return self._rep[1]
        rep = their_report(self.s.st, self.cursor)
        text = "island" if rep is None else ",".join([str(x) for x in rep]) or "none"
        line = "report %s: %s" % (self.name(self.cursor), text)
        self._rep = (self.cursor, line)
        return line

    def ok(self, cell):
        if self.mode == "edit":
            if cycle_own(self.s.st, cell):
                self.s.save()
        elif self.mode == "theirs":
            if toggle_theirs(self.s.st, cell):
                self.s.save()
        elif self.mode == "pick" and self.on_pick:
            self.on_pick(cell)


class Charges(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "My charges")
        self.s = store

    def info(self):
        return ["logged %d" % len(self.s.st["log"])]

    def items(self):
        n = self.s.st["size"]
        out = [("Add charge", self._add, None)]
        for i, e in enumerate(self.s.st["log"]):
            out.append((entry_text(e, n), self._del(i), None))
        return out

    def _del(self, i):
        def go():
            confirm(self.app, "Delete this entry?", lambda: (self.s.st["log"].pop(i),
                                                              self.s.save()))
        return go

    def _add(self):
        def picked(sq):
            self.app.pop()
            if sq in islands(self.s.st):
                return
            where = A.name(sq, self.s.st["size"])
            choose(self.app, "Charge " + where, (("Sounding", "s"), ("Depth: hit", 1),
                                                 ("Depth: miss", 0)), lambda v: kind(sq, v))

        def kind(sq, v):
            if v == "s":
                hi = 2 * self.s.st["size"] - 2
                self.app.push(NumberPick(self.app, "Heard " + A.name(sq, self.s.st["size"]),
                                         0, hi, lambda ds: self._log(["s", sq, ds]), start=1))
            else:
                self._log(["d", sq, v])
        self.app.push(LakeGrid(self.app, self.s, "pick", picked))

    def _log(self, e):
        self.s.st["log"].append(e)
        self.s.save()
