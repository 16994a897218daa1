# Pinned Down companion: the threat pool with its per-phase additions, a phase guide, the
# attack-deck reveal (stop at the first card that costs more than the pool) from the game's
# attack deck or from costs typed in off printed cards, and the fight calculator.
import os

from fathom.compat import const

from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fights as FT
from fathom.prng import Prng
from fathom.ui.companion import NumberPick, Panel, Store, confirm, load, open_with

FILE = "comp_pinned_down"
PHASES = ("Main", "Jump", "Attack", "Assign", "Fight", "Wrap-up")
_MAIN = const(0)                  # indices in PHASES
_JUMP = const(1)
_ATTACK = const(2)
_FIGHT = const(4)
# the saved panel's keys (its file keeps them: they do not change)
_PHASE = const("ph")              # the phase, an index in PHASES
_FLEET_POWER = const("fp")        # the fight calculator's two sides
_ENEMY_POWER = const("ep")
GUIDE = (
    "Deploy and play cards; add their threat.",
    "Upkeep added. Reveal 2 locations, jump to 1.",
    "Added 2 a location, 1 a ship. Reveal attackers.",
    "Each ship fights one attacker; spares join fights; spare attackers go to the weakest.",
    "Fleet > enemy: win. Otherwise damaged; enemy >= double: overpowered.",
    "Discard, draw up to 4. Enemy ships leave; threat stays.",
)
WIN = "win"
DAMAGED = "damaged"
OVERPOWERED = "overpowered"


def _shuffled(ids):
    return Prng(os.urandom(16), b"attack").shuffle(list(ids))


def fresh():
    # deck/adisc: attack card ids; foes: ids (or "#cost:power" typed by hand) revealed this turn
    return {"pool": 0, "turn": 1, _PHASE: _MAIN, "ships": 1, "locs": 0, "upkeep": 1, "dist": 0,
            "deck": _shuffled(C.expand(C.ATTACK)), "adisc": [], "foes": [], "stop": 0,
            _FLEET_POWER: 0, _ENEMY_POWER: 0, "log": ""}


def check(st):
    for f in st["foes"]:
        foe_power(f)           # a typed-in card must parse: ValueError otherwise
    return (0 <= st[_PHASE] < len(PHASES) and st["pool"] >= 0
            and all(C.known(c) for c in st["deck"] + st["adisc"]))


# ---- pure logic -----------------------------------------------------------------------------
_WORDS = {FT.WIN: WIN, FT.DAMAGED: DAMAGED, FT.OVERPOWERED: OVERPOWERED}


def fight(fleet, enemy):
    """Rule 8.5, as the game's engine resolves it (fights.outcome), in the panel's words."""
    return _WORDS[FT.outcome(fleet, enemy, 1)]


def enter_phase(st, ph):
    """Move to phase ph, adding the threat the rules add on entering it."""
    st[_PHASE] = ph
    if ph == _JUMP:           # upkeep (rule 8.2)
        st["pool"] += st["upkeep"]
        st["log"] = "upkeep +%d" % st["upkeep"]
    elif ph == _ATTACK:       # two a location, one a ship (rule 8.3)
        add = 2 * st["locs"] + st["ships"]
        st["pool"] += add
        st["stop"] = 0
        st["log"] = "attack +%d" % add
    elif ph == _FIGHT:
        st[_ENEMY_POWER] = foes_power(st)
    elif ph == _MAIN:         # a new turn: last turn's attackers are discarded
        st["turn"] += 1
        for f in st["foes"]:
            if C.known(f):
                st["adisc"].append(f)
        st["foes"] = []
        st["log"] = "turn %d" % st["turn"]


def next_phase(st):
    enter_phase(st, (st[_PHASE] + 1) % len(PHASES))


def reveal_cost(st, cost, what):
    """Reveal one attack card of `cost`: pay it from the pool, or, if it costs more, discard
    it and stop revealing. Returns True when it attacks."""
    if st["stop"]:
        return False
    if cost > st["pool"]:
        st["stop"] = 1
        st["log"] = "STOP %d>%d %s" % (cost, st["pool"], _short(what))
        return False
    st["pool"] -= cost
    st["foes"].append(what)
    st["log"] = "-%d %s attacks" % (cost, _short(what))
    return True


def reveal_top(st):
    """Reveal from the unit's attack deck; an empty deck takes the shuffled discards."""
    if st["stop"]:
        return False
    if not st["deck"]:
        st["deck"] = _shuffled(st["adisc"])
        st["adisc"] = []
        if not st["deck"]:
            st["log"] = "attack deck empty"
            return False
    cid = st["deck"].pop()
    card = C.get(cid)
    if reveal_cost(st, card[C.THREAT], cid):
        return True
    st["adisc"].append(cid)
    return False


def _short(what):
    return C.get(what)[C.NAME] if C.known(what) else what


def foe_power(f):
    if C.known(f):
        return C.get(f)[C.POWER]
    return int(f.split(":")[1]) if ":" in f else 0


def foes_power(st):
    return sum([foe_power(f) for f in st["foes"]])


# ---- screens --------------------------------------------------------------------------------
def open_mode(app):
    st, problem = load(app, FILE, fresh, check)
    open_with(app, Hub(app, Store(app, FILE, st)), problem)


class Hub(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Pinned Down")
        self.s = store

    def info(self):
        st = self.s.st
        return ["T%d %s" % (st["turn"], PHASES[st[_PHASE]]), "threat pool %d" % st["pool"],
                st["log"]]

    def _num(self, key, lo=0):
        def go(step):
            self.s.st[key] = max(lo, self.s.st[key] + step)
            self.s.save()
        return go

    def items(self):
        st = self.s.st
        return [("Next phase", self._next, None),
                ("Guide", self._guide, None),
                ("Threat %d" % st["pool"], self._add, self._num("pool")),
                ("Reveal attack", self._reveal, None),
                ("Reveal by cost", self._by_cost, None),
                ("Attackers %d" % len(st["foes"]), lambda: self.app.push(Foes(self.app, self.s)),
                 None),
                ("Fight", lambda: self.app.push(Fight(self.app, self.s)), None),
                ("Ships %d" % st["ships"], None, self._num("ships")),
                ("Locations %d" % st["locs"], None, self._num("locs")),
                ("Upkeep %d" % st["upkeep"], None, self._num("upkeep")),
                ("Distance %d/10" % st["dist"], None, self._num("dist")),
                ("New game", lambda: confirm(self.app, "Start over?", self._reset), None)]

    def _next(self):
        next_phase(self.s.st)
        self.s.save()

    def _guide(self):
        from fathom.ui.dialog import Message
        ph = self.s.st[_PHASE]
        self.app.push(Message(self.app, PHASES[ph], GUIDE[ph]))

    def _add(self):
        def add(v):
            self.s.st["pool"] += v[0]
            self.s.st["log"] = "threat +%d" % v[0]
            self.s.save()
        self.app.push(NumberPick(self.app, "Add threat", 0, 20, add, single=True, start=1))

    def _reveal(self):
        reveal_top(self.s.st)
        self.s.save()

    def _by_cost(self):
        def got(v):
            self.app.push(NumberPick(self.app, "Its power", 0, 20, lambda p: done(v[0], p[0]),
                                     single=True, start=v[0]))

        def done(cost, power):
            reveal_cost(self.s.st, cost, "#%d:%d" % (cost, power))
            self.s.save()
        self.app.push(NumberPick(self.app, "Card cost", 0, 20, got, single=True, start=1))

    def _reset(self):
        self.s.st = fresh()
        self.s.save()


class Foes(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Attackers")
        self.s = store

    def info(self):
        return ["power %d" % foes_power(self.s.st)]

    def items(self):
        return [("%s p%d" % (_short(f), foe_power(f)), self._text(f), None)
                for f in self.s.st["foes"]] or [("(none)", None, None)]

    def _text(self, f):
        def go():
            if C.known(f):
                from fathom.ui.dialog import Message
                c = C.get(f)
                self.app.push(Message(self.app, c[C.NAME], C.text(f) or "Enemy starship."))
        return go


class Fight(Panel):
    """LEFT/RIGHT set each side's power; the verdict follows rule 8.5."""

    def __init__(self, app, store):
        Panel.__init__(self, app, "Fight")
        self.s = store

    def info(self):
        st = self.s.st
        return ["=> " + fight(st[_FLEET_POWER], st[_ENEMY_POWER])]

    def _num(self, key):
        def go(step):
            self.s.st[key] = max(0, self.s.st[key] + step)
            self.s.save()
        return go

    def items(self):
        st = self.s.st
        return [("Fleet power %d" % st[_FLEET_POWER], None, self._num(_FLEET_POWER)),
                ("Enemy power %d" % st[_ENEMY_POWER], None, self._num(_ENEMY_POWER)),
                ("Enemy=attackers", self._foes, None)]

    def _foes(self):
        self.s.st[_ENEMY_POWER] = foes_power(self.s.st)
        self.s.save()
