# Periplus companion: the shared 55-card deck for tables without the printed cards (shuffle,
# draw 3, hand limit 5, discard, reshuffle the discards when the deck runs out), one hand per
# player shown only when asked (pass the unit), and a hit tracker for every ship.
import os

from fathom.games.periplus import cards as C
from fathom.games.periplus import fleet as F
from fathom.prng import Prng
from fathom.ui.companion import Panel, Store, confirm, load, open_with

FILE = "comp_periplus"
DRAW = 3
HAND_MAX = 5
NSHIPS = 2 * F.NSHIPS


def _ship_types():
    out = []
    for t in range(len(F.FLEET)):
        out.extend([t] * F.FLEET[t])
    return out


def fresh(seed=None):
    deck = C.full_deck()
    Prng(seed if seed is not None else os.urandom(16), b"companion").shuffle(deck)
    return {"deck": deck, "disc": [], "hands": [[], []], "cur": 0, "dmg": [0] * NSHIPS,
            "shear": [0] * NSHIPS, "shuf": 0, "log": ""}


def check(st):
    kinds = st["deck"] + st["disc"] + st["hands"][0] + st["hands"][1]
    if len(kinds) != C.DECK_SIZE or sorted(kinds) != C.full_deck():
        return False
    return (st["cur"] in (0, 1) and len(st["dmg"]) == NSHIPS and len(st["shear"]) == NSHIPS
            and all(type(x) is int for x in st["dmg"] + st["shear"])
            and isinstance(st["log"], str))


# ---- pure logic -----------------------------------------------------------------------------
def draw(st, n=DRAW):
    """Draw n cards for the player to move; an empty deck takes the shuffled discards.
    Returns how many were drawn (fewer only when every card is in a hand)."""
    hand = st["hands"][st["cur"]]
    got = 0
    for _ in range(n):
        if not st["deck"]:
            if not st["disc"]:
                break
            st["shuf"] += 1
            st["deck"] = Prng(os.urandom(16), b"reshuffle").shuffle(st["disc"])
            st["disc"] = []
            st["log"] = "discards reshuffled"
        hand.append(st["deck"].pop())
        got += 1
    return got


def excess(st, p=None):
    return max(0, len(st["hands"][st["cur"] if p is None else p]) - HAND_MAX)


def discard(st, p, i):
    k = st["hands"][p].pop(i)
    st["disc"].append(k)
    st["log"] = "P%d played %s" % (p + 1, C.name(k))
    return k


def ship_label(sid):
    t = _ship_types()[sid % F.NSHIPS]
    same = [i for i in range(sid % F.NSHIPS) if _ship_types()[i] == t]
    return "P%d %s%d" % (sid // F.NSHIPS + 1, F.SHIP_ABBR[t], len(same) + 1)


def hits_left(st, sid):
    return max(0, F.HITS[_ship_types()[sid % F.NSHIPS]] - st["dmg"][sid])


def hit(st, sid, step):
    """step +1: one more damage (a Ram does 2: press twice); -1 takes one back."""
    full = F.HITS[_ship_types()[sid % F.NSHIPS]]
    st["dmg"][sid] = max(0, min(full, st["dmg"][sid] + step))


def card_text(k):
    r = C.rng(k)
    t = C.ctype(k)
    if t == C.DEFENSE:
        return "%s D-%s" % (C.name(k), r)
    return "%s %s%s" % (C.name(k), t, "K" if r == C.KNIGHT else r)


# ---- screens --------------------------------------------------------------------------------
def open_mode(app):
    st, problem = load(app, FILE, fresh, check)
    open_with(app, Hub(app, Store(app, FILE, st)), problem)


class Hub(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Periplus")
        self.s = store

    def info(self):
        st = self.s.st
        return ["P%d to play" % (st["cur"] + 1),
                "deck %d disc %d" % (len(st["deck"]), len(st["disc"])),
                st["log"]]

    def items(self):
        st = self.s.st
        p = st["cur"]
        return [("Draw %d (P%d)" % (DRAW, p + 1), self._draw, None),
                ("Hand P%d: %d" % (p + 1, len(st["hands"][p])), lambda: self._hand(p), None),
                ("Hand P%d: %d" % (2 - p, len(st["hands"][1 - p])), lambda: self._hand(1 - p),
                 None),
                ("End turn", self._end, None),
                ("Ships", lambda: self.app.push(Ships(self.app, self.s)), None),
                ("New game", lambda: confirm(self.app, "New deck and fleets?", self._reset),
                 None)]

    def _draw(self):
        st = self.s.st
        draw(st)
        self.s.save()
        self._hand(st["cur"])

    def _hand(self, p):
        from fathom.ui.dialog import Message

        def show(a):
            a.replace(Hand(a, self.s, p))
        self.app.push(Message(self.app, "Hand P%d" % (p + 1),
                              "Only P%d looks. OK: show" % (p + 1), on_ok=show))

    def _end(self):
        st = self.s.st
        st["cur"] = 1 - st["cur"]
        st["log"] = "P%d to play" % (st["cur"] + 1)
        self.s.save()

    def _reset(self):
        self.s.st = fresh()
        self.s.save()


class Hand(Panel):
    """A player's hand: OK plays (discards) the card. Over the limit, BACK waits until the
    excess is discarded."""

    def __init__(self, app, store, p):
        Panel.__init__(self, app, "Hand P%d" % (p + 1))
        self.s = store
        self.p = p

    def info(self):
        n = excess(self.s.st, self.p)
        return ["discard %d" % n] if n else ["OK: play card"]

    def items(self):
        return [(card_text(k), self._play(i), None)
                for i, k in enumerate(self.s.st["hands"][self.p])] or [("(empty)", None, None)]

    def _play(self, i):
        def go():
            discard(self.s.st, self.p, i)
            self.s.save()
        return go

    def back(self):
        if not excess(self.s.st, self.p):
            self.app.pop()


class Ships(Panel):
    """Per ship: LEFT one more hit, RIGHT one back, OK toggles Shear Oars."""

    def __init__(self, app, store):
        Panel.__init__(self, app, "Ships")
        self.s = store

    def info(self):
        return ["L-hit R+ OK=oars"]

    def items(self):
        st = self.s.st
        out = []
        for sid in range(NSHIPS):
            left = hits_left(st, sid)
            full = left + st["dmg"][sid]
            text = "%d/%d %s" % (left, full, ship_label(sid))   # hits first: 9 columns
            if not left:
                text += " sunk"
            elif st["shear"][sid]:
                text += " oars"
            out.append((text, self._shear(sid), self._hit(sid)))
        return out

    def _hit(self, sid):
        def go(step):
            hit(self.s.st, sid, -step)
            self.s.save()
        return go

    def _shear(self, sid):
        def go():
            self.s.st["shear"][sid] ^= 1
            self.s.save()
        return go
