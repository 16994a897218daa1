# Sugar Dog companion: the paper map kept by the unit. Your submarine, mines and torpedoes,
# the command log the source asks for, contacts noted by square, and your torpedoes flown
# 2 squares at the start of each of your turns (the engine's rule and its step()).
from fathom.games.sugardog import engine as G
from fathom.ui.companion import Grid, Panel, Store, choose, confirm, load, open_with, \
    squares_ok

FILE = "comp_sugardog"
MAX_LOG = 40      # command-log lines kept (oldest dropped): bounded flash and heap
PLAYERS = (2, 3, 4, 5, 6)


def fresh(np=2):
    return {"np": np, "size": G.map_size(np), "turn": 0, "sub": -1, "mines": [],
            "left": G.MINES, "torps": [], "contacts": [], "log": []}


def check(st):
    n = st["size"] * st["size"]
    return (st["np"] in PLAYERS and st["size"] == G.map_size(st["np"])
            and (st["sub"] == -1 or squares_ok([st["sub"]], n)) and squares_ok(st["mines"], n)
            and all(squares_ok([t[0]], n) and t[1] in (0, 1, 2, 3) for t in st["torps"])
            and all(squares_ok([c[0]], n) and type(c[1]) is int for c in st["contacts"])
            and all(isinstance(line, str) for line in st["log"]))


# ---- pure logic -----------------------------------------------------------------------------
def nm(st, sq):
    return G.name(st["size"], sq)


def _note(st, text):
    st["log"].append("T%d %s" % (st["turn"], text))
    del st["log"][:-MAX_LOG]


def fly(st, t):
    """Move torpedo t = [square, heading] 2 squares; the squares entered, and whether it left
    the map (then it is lost to the void)."""
    entered = []
    for _ in range(2):
        nxt = G.step(st["size"], t[0], t[1])
        if nxt < 0:
            return entered, True
        t[0] = nxt
        entered.append(nxt)
    return entered, False


def _fly_note(st, t, head):
    entered, lost = fly(st, t)
    text = head + ": " + ",".join([nm(st, q) for q in entered])
    if lost:
        text += " lost"
    _note(st, text)
    return lost


def start_turn(st):
    """A new turn of yours: your torpedoes move first, oldest first (docs/rules/sugar_dog.md)."""
    st["turn"] += 1
    keep = []
    for t in st["torps"]:
        if not _fly_note(st, t, "torp %s>%s" % (nm(st, t[0]), G.DIRS[t[1]])):
            keep.append(t)
    st["torps"] = keep


def commands(st, sq):
    """(label, command) the map offers for square sq."""
    sub = st["sub"]
    size = st["size"]
    if sub < 0:
        return [("Start here", ["start", sq])]
    out = []
    if sq == sub:
        out.append(("Silent: stay", ["run", sq]))
        if st["left"] > 0 and sub not in st["mines"]:
            out.append(("Place mine", ["mine"]))
        out.append(("Active sonar", ["sonar"]))
        for d in range(4):
            if G.step(size, sub, d) >= 0:
                out.append(("Fire " + G.DIRS[d], ["fire", d]))
    elif sq in G.neighbours(size, sub):
        out.append(("Silent to " + nm(st, sq), ["run", sq]))
        out.append(("Cruise 1, stop", ["cruise", sq]))   # "no further contacts" after one
    elif G.dist(size, sub, sq) == 2:
        for via in G.neighbours(size, sub):
            if sq in G.neighbours(size, via):
                out.append(("Cruise via " + nm(st, via), ["cruise", via, sq]))
    has = [c for c in st["contacts"] if c[0] == sq]
    out.append(("Clear contact" if has else "Contact here", ["contact", sq]))
    if [t for t in st["torps"] if t[0] == sq]:
        out.append(("Torpedo gone", ["untorp", sq]))
    if sq in st["mines"]:
        out.append(("Mine gone", ["unmine", sq]))
    return out


def apply(st, cmd):
    kind = cmd[0]
    if kind == "start":
        st["sub"] = cmd[1]
        _note(st, "start " + nm(st, cmd[1]))
        return
    if kind == "contact":
        has = [c for c in st["contacts"] if c[0] == cmd[1]]
        if has:
            st["contacts"].remove(has[0])
        else:
            st["contacts"].append([cmd[1], st["turn"]])
        return
    if kind == "untorp":
        st["torps"] = [t for t in st["torps"] if t[0] != cmd[1]]
        _note(st, "torpedo at %s gone" % nm(st, cmd[1]))
        return
    if kind == "unmine":
        st["mines"].remove(cmd[1])
        _note(st, "mine at %s gone" % nm(st, cmd[1]))
        return
    start_turn(st)
    sub = st["sub"]
    if kind == "run":
        st["sub"] = cmd[1]
        _note(st, "silent" if cmd[1] == sub else "silent to " + nm(st, cmd[1]))
    elif kind == "mine":
        st["mines"].append(sub)
        st["left"] -= 1
        _note(st, "mine %s (%d left)" % (nm(st, sub), st["left"]))
    elif kind == "cruise":
        st["sub"] = cmd[-1]
        _note(st, "cruise " + ",".join([nm(st, q) for q in cmd[1:]]))
    elif kind == "sonar":
        mines = G.by_distance(st["size"], sub, st["mines"])
        _note(st, "ping " + " ".join([nm(st, q) for q in [sub] + mines]))
    elif kind == "fire":
        t = [sub, cmd[1]]
        if not _fly_note(st, t, "fire " + G.DIRS[cmd[1]]):
            st["torps"].append(t)


# ---- screens --------------------------------------------------------------------------------
def open_mode(app):
    st, problem = load(app, FILE, fresh, check)
    open_with(app, Hub(app, Store(app, FILE, st)), problem)


class Hub(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Sugar Dog")
        self.s = store

    def info(self):
        st = self.s.st
        sub = nm(st, st["sub"]) if st["sub"] >= 0 else "-"
        return ["T%d sub %s" % (st["turn"], sub),
                "mines %d left %d" % (len(st["mines"]), st["left"]),
                "torpedoes %d" % len(st["torps"])]

    def items(self):
        st = self.s.st
        return [("Map", lambda: self.app.push(Map(self.app, self.s)), None),
                ("Command log", lambda: self.app.push(Log(self.app, self.s)), None),
                ("Contacts %d" % len(st["contacts"]), lambda: self.app.push(
                    Contacts(self.app, self.s)), None),
                ("Players %d" % st["np"], self._np, lambda step: self._np(step)),
                ("New game", lambda: confirm(self.app, "Clear the map and log?", self._reset),
                 None)]

    def _np(self, step=1):
        st = self.s.st
        if st["sub"] >= 0:
            from fathom.ui.dialog import Message
            self.app.push(Message(self.app, "Sugar Dog", "A game is on: use New game first."))
            return
        i = (PLAYERS.index(st["np"]) + step) % len(PLAYERS)
        self.s.st = fresh(PLAYERS[i])
        self.s.save()

    def _reset(self):
        self.s.st = fresh(self.s.st["np"])
        self.s.save()


class Map(Grid):
    def __init__(self, app, store):
        st = store.st
        n = st["size"]
        Grid.__init__(self, app, "Sugar Dog", n, n, st["sub"] if st["sub"] >= 0 else 0)
        self.s = store

    def name(self, cell):
        return nm(self.s.st, cell)

    def glyph(self, cell):
        st = self.s.st
        if cell == st["sub"]:
            return "S"
        for t in st["torps"]:
            if t[0] == cell:
                return "T"
        if cell in st["mines"]:
            return "M"
        for c in st["contacts"]:
            if c[0] == cell:
                return "c"
        return "."

    def side(self):
        st = self.s.st
        out = ["T%d" % st["turn"], self.name(self.cursor)]
        if st["log"]:
            out.append(st["log"][-1])
        return out

    def ok(self, cell):
        def run(cmd):
            apply(self.s.st, cmd)
            self.s.save()
            if cmd[0] in ("run", "cruise"):
                self.cursor = self.s.st["sub"]
        choose(self.app, self.name(cell), commands(self.s.st, cell), run)


class Log(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Command log")
        self.s = store
        self.cursor = max(0, len(store.st["log"]) - 1)

    def items(self):
        return [(line, None, None) for line in self.s.st["log"]] or [("(empty)", None, None)]


class Contacts(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Contacts")
        self.s = store

    def items(self):
        st = self.s.st
        out = []
        for c in st["contacts"]:
            out.append(("%s T%d" % (nm(st, c[0]), c[1]), self._del(c), None))
        return out or [("(none: OK on map)", None, None)]

    def _del(self, c):
        def go():
            confirm(self.app, "Forget contact %s?" % nm(self.s.st, c[0]),
                    lambda: (self.s.st["contacts"].remove(c), self.s.save()))
        return go
