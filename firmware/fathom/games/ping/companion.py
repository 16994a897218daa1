# PING companion: your secret location on the lettered map (no fingers on a location card for
# the adversary to read), your hand with its disabled cards, what the adversary revealed, the
# tracker of squares where the adversary can still be (the engine's track module fed a small
# pub-like dict), and the objectives completed.
from fathom.games.ping import board as B
from fathom.games.ping import track as T
from fathom.ui.companion import Grid, Panel, Store, choose, confirm, load, open_with, \
    squares_ok

FILE = "comp_ping"
MAX_LOG = 20
HAND_MAX = 4      # three, and a fourth between taking a card and playing one


def fresh():
    # hand: [[card, disabled 0/1]]; tr: the adversary's tracker entry [mask, pending facts]
    return {"sq": -1, "hand": [], "obj": 0, "aobj": 0, "tr": [B.ALL, []], "log": []}


def check(st):
    return ((st["sq"] == -1 or squares_ok([st["sq"]], B.NSQ)) and len(st["hand"]) <= HAND_MAX
            and all(len(c) == 2 and squares_ok(c, B.NCARDS) and c[1] < 2 for c in st["hand"])
            and all(isinstance(line, str) for line in st["log"])
            and len(st["tr"]) == 2 and type(st["tr"][0]) is int)


# ---- pure logic -----------------------------------------------------------------------------
def _pub(st):
    return {"tr": [[B.ALL, []], st["tr"]]}


def fact(st, kind, x, y=0):
    """Add a public fact about the adversary (track.F_* kinds)."""
    T.add(_pub(st), 1, kind, x, y)


def face_down_was(st, steps):
    T.resolve(_pub(st), 1, steps)


def unknown_play(st):
    pend = st["tr"][1]
    for i in range(0, len(pend), 3):
        if pend[i] == T.F_PLAY and pend[i + 1] < 0:
            return True
    return False


def possible(st):
    return B.squares(T.possible(_pub(st), 1))


def note(st, text):
    st["log"].append(text)
    del st["log"][:-MAX_LOG]


def sunk(st):
    return len(st["hand"]) >= 3 and all(c[1] for c in st["hand"])


def obj_names(mask):
    return "".join([B.name(B.OBJECTIVES[i]) for i in range(5) if mask >> i & 1]) or "-"


def card_text(c):
    return B.card_name(c[0]) + (" off" if c[1] else "")


# ---- screens --------------------------------------------------------------------------------
def open_mode(app):
    st, problem = load(app, FILE, fresh, check)
    open_with(app, Hub(app, Store(app, FILE, st)), problem)


class Hub(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "PING")
        self.s = store

    def info(self):
        st = self.s.st
        off = len([c for c in st["hand"] if c[1]])
        where = B.name(st["sq"]) if st["sq"] >= 0 else "-"
        return ["you %s obj %s" % (where, obj_names(st["obj"])),
                "hand %d off %d%s" % (len(st["hand"]), off, " sunk" if sunk(st) else ""),
                "adv can be %d" % len(possible(st))]

    def items(self):
        push = self.app.push
        s = self.s
        return [("My location", lambda: push(Map(self.app, s, "me")), None),
                ("My hand", lambda: push(Hand(self.app, s)), None),
                ("Adversary did", lambda: push(Adversary(self.app, s)), None),
                ("Tracker", lambda: push(Map(self.app, s, "track")), None),
                ("Objectives", lambda: push(Objectives(self.app, s)), None),
                ("New game", lambda: confirm(self.app, "Clear everything?", self._reset), None)]

    def _reset(self):
        self.s.st = fresh()
        self.s.save()


class Map(Grid):
    flip = False     # the location card is drawn top row first

    def __init__(self, app, store, mode, on_pick=None):
        sq = store.st["sq"]
        Grid.__init__(self, app, {"me": "Location", "track": "Tracker", "pick": "Where?"}[mode],
                      B.COLS, B.NROWS, B.cell(sq if sq >= 0 else 12))
        self.s = store
        self.mode = mode
        self.on_pick = on_pick
        self.poss = T.possible(_pub(store.st), 1) if mode == "track" else 0

    def _sq(self, cell):
        return B.at(cell)

    def name(self, cell):
        sq = self._sq(cell)
        return B.name(sq) if sq >= 0 else "reef"

    def glyph(self, cell):
        sq = self._sq(cell)
        if sq < 0:
            return None
        if self.mode == "me" and sq == self.s.st["sq"]:
            return "#"
        if self.mode == "track" and not self.poss >> sq & 1:
            return "."
        return B.name(sq)

    def side(self):
        st = self.s.st
        if self.mode == "track":
            sqs = B.squares(self.poss)
            return ["%d left" % len(sqs), "".join([B.name(q) for q in sqs])]
        if self.mode == "me":
            return ["you " + (B.name(st["sq"]) if st["sq"] >= 0 else "-"), "OK=go"]
        return ["OK=pick"]

    def ok(self, cell):
        sq = self._sq(cell)
        if sq < 0:
            return
        if self.mode == "me":
            self.s.st["sq"] = sq
            self.s.save()
        elif self.on_pick:
            self.on_pick(sq)


class Hand(Panel):
    """OK on a card: disable/enable or played; LEFT/RIGHT: change which card it is."""

    def __init__(self, app, store):
        Panel.__init__(self, app, "My hand")
        self.s = store

    def info(self):
        return ["SUNK: all disabled"] if sunk(self.s.st) else []

    def items(self):
        out = []
        for i, c in enumerate(self.s.st["hand"]):
            out.append((card_text(c), self._card(i), self._change(i)))
        if len(self.s.st["hand"]) < HAND_MAX:
            out.append(("Take card", self._take, None))
        return out

    def _change(self, i):
        def go(step):
            c = self.s.st["hand"][i]
            c[0] = (c[0] + step) % B.NCARDS
            self.s.save()
        return go

    def _card(self, i):
        def act(v):
            hand = self.s.st["hand"]
            if v == "off":
                hand[i][1] ^= 1
            else:
                note(self.s.st, "played " + B.card_name(hand.pop(i)[0]))
            self.s.save()
        c = self.s.st["hand"][i]

        def go():
            choose(self.app, B.card_name(c[0]), (("Enable" if c[1] else "Disable", "off"),
                                                 ("Played it", "play")), act)
        return go

    def _take(self):
        def take(card):
            self.s.st["hand"].append([card, 0])
            self.s.save()
        choose(self.app, "Take card", [(B.card_name(c), c) for c in range(B.NCARDS)], take)


class Adversary(Panel):
    """Enter what the adversary did or showed; each entry narrows the tracker."""

    def __init__(self, app, store):
        Panel.__init__(self, app, "Adversary")
        self.s = store

    def info(self):
        log = self.s.st["log"]
        return ["can be %d" % len(possible(self.s.st))] + log[-1:]

    def items(self):
        st = self.s.st
        out = [("Face-down card", lambda: self._play(-1, "face-down card"), None),
               ("Up: MOVE 3", lambda: self._play(3, "MOVE 3"), None),
               ("Up: action", lambda: self._play(0, "loud action"), None),
               ("Revealed at", self._at, None)]
        if unknown_play(st):
            out.append(("Face-down was", self._was, None))
        if st["sq"] >= 0:
            out.append(("My torpedo missed", self._torp, None))
            out.append(("My deck gun missed", self._gun, None))
        return out

    def _done(self, text):
        note(self.s.st, text)
        self.s.save()

    def _play(self, steps, text):
        fact(self.s.st, T.F_PLAY, steps)
        self._done(text)

    def _at(self):
        def pick(sq):
            self.app.pop()
            fact(self.s.st, T.F_AT, sq)
            self._done("at " + B.name(sq))
        self.app.push(Map(self.app, self.s, "pick", pick))

    def _was(self):
        def was(steps):
            face_down_was(self.s.st, steps)
            self._done("face-down was %d steps" % steps)
        choose(self.app, "Its steps", (("0: action/repair", 0), ("MOVE 1", 1), ("MOVE 2", 2)),
               was)

    def _torp(self):
        def fire(d):
            fact(self.s.st, T.F_LINE, self.s.st["sq"], d)
            self._done("torpedo %s missed" % B.DIR_NAMES[d])
        here = self.s.st["sq"]
        ds = [("Heading " + B.DIR_NAMES[d], d) for d in range(4) if B.step(here, d) >= 0]
        choose(self.app, "Torpedo from " + B.name(self.s.st["sq"]), ds, fire)

    def _gun(self):
        fact(self.s.st, T.F_NEAR, self.s.st["sq"])
        self._done("deck gun missed")


class Objectives(Panel):
    """OK: yours done/undone; LEFT/RIGHT: the adversary's."""

    def __init__(self, app, store):
        Panel.__init__(self, app, "Objectives")
        self.s = store

    def info(self):
        st = self.s.st
        return ["me %s adv %s" % (obj_names(st["obj"]), obj_names(st["aobj"]))]

    def items(self):
        st = self.s.st
        out = []
        for i in range(5):
            out.append(("%s me %s adv %s" % (B.name(B.OBJECTIVES[i]),
                                            "done" if st["obj"] >> i & 1 else "-",
                                            "done" if st["aobj"] >> i & 1 else "-"),
                        self._flip("obj", i), lambda step, i=i: self._flip("aobj", i)()))
        return out

    def _flip(self, key, i):
        def go():
            self.s.st[key] ^= 1 << i
            self.s.save()
        return go
