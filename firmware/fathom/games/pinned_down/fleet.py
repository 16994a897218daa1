# Pinned Down: the player starships on the table and what happens to them (power, damage,
# repair, destruction), plus the shared attack and damage decks. Pure functions over pub.
from fathom.compat import const
from fathom.prng import Prng
from fathom.games.pinned_down import cards as C

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_AFFILIATIONS = const("aff")
_PHASE = const("ph")
_LOCATIONS = const("locs")
_TABLE = const("tbl")
_SHIPS = const("ships")
_DISCARDS = const("disc")
_DESTROYED = const("dest")
_ATTACK_DECK = const("adeck")
_ATTACK_DISCARD = const("adisc")
_DAMAGE_DECK = const("ddeck")
_DAMAGE_DISCARD = const("ddisc")
_CHANCE_KEY = const("key")
_CHANCE_COUNT = const("rc")
_END = const("end")
_SHIP_OWNER = const(0)
_SHIP_CARD = const(1)
_SHIP_DAMAGE = const(2)
_SHIP_ABOARD = const(3)
_SHIP_ALIVE = const(4)
_SHIP_BOOST = const(5)
_SHIP_CLOAKED = const(6)
_SHIP_OVERLOADS = const(8)
_ABOARD_OWNER = const(0)
_ABOARD_CARD = const(1)
_TOKEN_CARD = const(0)

SHIP_LIMIT = 3
ACARR_LIMIT = 6
CAPTAIN_BONUS = 2
_NOT_SHARED = ("F",)        # Ac'arr share game texts, not the FLAGSHIP attribute or upkeep
# power(), abilities() and what damage() calls run at the bottom of the deepest call chains
# (an attack event that damages the strongest ship, a fight resolved): they read the card
# table directly, CARDS[IDS.find(cid) // 3], not through cards.get/is_acarr, each one more
# Python frame (~260 B of C stack here, ~320 B on an ESP32) at the bottom of the chain. They
# read ids from the public state, which the engine checked when they came in.
_CARDS = C.CARDS
_FIND = C.IDS.find  # a bound C method: no Python frame


def new_ship(owner, cid):
    """A ship record (schema.SHIP_ slots, in order): undamaged, nothing aboard, alive."""
    return [owner, cid, [], [], True, 0, False, 0, []]


def rng(pub):
    """Public chance (reshuffles, random discards) from the game key and a counter."""
    pub[_CHANCE_COUNT] += 1
    return Prng(pub[_CHANCE_KEY], b"r%d" % pub[_CHANCE_COUNT])


def alive(pub):
    return [s for s in range(len(pub[_SHIPS])) if pub[_SHIPS][s][_SHIP_ALIVE]]


def limit(pub, p):
    return ACARR_LIMIT if pub[_AFFILIATIONS][p] == "acarr" else SHIP_LIMIT


def count_ships(pub, p):
    n = 0
    for s in pub[_SHIPS]:
        if s[_SHIP_ALIVE] and s[_SHIP_OWNER] == p:
            n += 1
    return n


def is_acarr(cid):
    return _CARDS[_FIND(cid) // 3][C.AFF] == "A"


def abilities(pub, s):
    """Keyword codes in force for ship s: its own, its attachments', shared Ac'arr texts."""
    ship = pub[_SHIPS][s]
    c = _CARDS[_FIND(ship[_SHIP_CARD]) // 3]
    out = list(c[C.KEYWORDS])
    for a in ship[_SHIP_ABOARD]:
        out.extend(_CARDS[_FIND(a[_ABOARD_CARD]) // 3][C.KEYWORDS])
    if c[C.AFF] == "A":
        for o in pub[_SHIPS]:
            if o[_SHIP_ALIVE] and o is not ship:
                oc = _CARDS[_FIND(o[_SHIP_CARD]) // 3]
                if oc[C.AFF] == "A":
                    for k in oc[C.KEYWORDS]:
                        if k not in _NOT_SHARED and not k.startswith("U") and k not in out:
                            out.append(k)
    return out


def keyword_total(codes, prefix):
    """The numbers after `prefix` in keyword codes, added up (SH10 + SH10: a shield of 20)."""
    t = 0
    for k in codes:
        if k.startswith(prefix) and k[len(prefix):].isdigit():
            t += int(k[len(prefix):])
    return t


def has_dmg(pub, s, code):
    for d in pub[_SHIPS][s][_SHIP_DAMAGE]:
        if code in _CARDS[_FIND(d) // 3][C.KEYWORDS]:
            return True
    return False


def power(pub, s, foes, mates):
    """Ship power now. In a fight, `foes` (attack card ids) and `mates` (ship indices) let the
    conditional bonuses (Intertia Stabilizer, the Ac'arr swarm) count; out of one, None.
    This module's functions take no default arguments: a default makes the function a bigger
    heap block on a unit, resident while a replay plays, whose heap is at its budget."""
    ship = pub[_SHIPS][s]
    c = _CARDS[_FIND(ship[_SHIP_CARD]) // 3]
    p = c[C.POWER]
    bonuses = True
    for d in ship[_SHIP_DAMAGE]:
        dc = _CARDS[_FIND(d) // 3]
        p += dc[C.POWER]
        if "NB" in dc[C.KEYWORDS]:
            bonuses = False
    if bonuses:
        codes = abilities(pub, s)
        if "PL" in codes:
            p += len(pub[_LOCATIONS])
        if "SW" in codes and mates:
            for m in mates:
                if m != s and _CARDS[_FIND(pub[_SHIPS][m][_SHIP_CARD]) // 3][C.AFF] == "A":
                    p += 1
        for a in ship[_SHIP_ABOARD]:
            ac = _CARDS[_FIND(a[_ABOARD_CARD]) // 3]
            # startswith, not k[0]: indexing a str interns the character as a qstr, which can
            # grow MicroPython's qstr pool (a block of several hundred bytes) mid-game
            for k in ac[C.KEYWORDS]:
                if k.startswith("P") and k[1:].isdigit():
                    p += int(k[1:])
                elif k.startswith("CAP:") and k[4:] == ship[_SHIP_CARD]:
                    p += CAPTAIN_BONUS
            if "IS" in ac[C.KEYWORDS] and foes:
                top = 0
                for f in foes:
                    top = max(top, _CARDS[_FIND(f) // 3][C.POWER])
                if top >= c[C.POWER]:
                    p += ac[C.POWER]
        p += ship[_SHIP_BOOST]
    return max(0, p)


def capacity(pub, s):
    ship = pub[_SHIPS][s]
    n = _CARDS[_FIND(ship[_SHIP_CARD]) // 3][C.CAP]
    for d in ship[_SHIP_DAMAGE]:
        n += _CARDS[_FIND(d) // 3][C.CAP]
    return max(0, n)


def structure_lost(pub, s, codes):
    """Structure lost in %. A shield (SH<n>) lessens each damage card, except one attached by an
    overload: rule 9.3, "Damage taken from overloading cannot be prevented". `codes`: the
    ship's abilities when the caller has them (damage(): one frame less under it), else None."""
    ship = pub[_SHIPS][s]
    shield = keyword_total(abilities(pub, s) if codes is None else codes, "SH")
    t = 0
    for j in range(len(ship[_SHIP_DAMAGE])):
        loss = _CARDS[_FIND(ship[_SHIP_DAMAGE][j]) // 3][C.CLS]
        t += loss if ship[_SHIP_OVERLOADS][j] else max(0, loss - shield)
    return t


def can_cloak(pub, s):
    if has_dmg(pub, s, "NC"):
        return False
    cur = pub[_LOCATIONS][-1] if pub[_LOCATIONS] else None
    return "CK" in abilities(pub, s) or (cur is not None and C.kw(cur, "NEB"))


def can_overload(pub, s):
    """A ship may choose to overload unless a damage card forbids it, or no damage card is left
    to attach (rule 9.3: overloading "is done by attaching the top card of the damage deck")."""
    return not has_dmg(pub, s, "NO") and bool(pub[_DAMAGE_DECK] or pub[_DAMAGE_DISCARD])


def flagships_left(pub):
    n = 0
    for s in pub[_SHIPS]:
        if s[_SHIP_ALIVE] and "F" in _CARDS[_FIND(s[_SHIP_CARD]) // 3][C.KEYWORDS]:
            n += 1
    return n


# ---- the shared decks ----------------------------------------------------------------------
def attack_top(pub):
    """Take the top attack card (reshuffling the attack discard pile into an empty deck)."""
    if not pub[_ATTACK_DECK]:
        pub[_ATTACK_DECK] = rng(pub).shuffle(pub[_ATTACK_DISCARD])
        pub[_ATTACK_DISCARD] = []
    return pub[_ATTACK_DECK].pop(0) if pub[_ATTACK_DECK] else None


# ---- what happens to ships -----------------------------------------------------------------
def damage(pub, s, overload):
    """Attach the top damage card (damage and overload alike); shed attachments over capacity
    at random; destroy the ship at 100% structure lost. With the damage deck and its discard
    pile both empty (every card is under a ship in play) the ship is destroyed: damage is never
    skipped, and no card is left to say how it is taken (docs/rules/pinned_down.md).
    `overload`: the ship overloads (its damage card cannot be lessened)."""
    ship = pub[_SHIPS][s]
    if not ship[_SHIP_ALIVE]:
        return
    # the top damage card, drawn here (not in a helper: damage runs at the bottom of the
    # deepest chains under apply, and the reshuffle's frames come on top of it)
    if not pub[_DAMAGE_DECK]:
        pub[_DAMAGE_DECK] = rng(pub).shuffle(pub[_DAMAGE_DISCARD])
        pub[_DAMAGE_DISCARD] = []
    d = pub[_DAMAGE_DECK].pop(0) if pub[_DAMAGE_DECK] else None
    if d is None:
        destroy(pub, s)
        return
    ship[_SHIP_DAMAGE].append(d)
    ship[_SHIP_OVERLOADS].append(1 if overload else 0)
    cap = capacity(pub, s)
    while len(ship[_SHIP_ABOARD]) > cap:
        a = ship[_SHIP_ABOARD].pop(rng(pub).below(len(ship[_SHIP_ABOARD])))
        pub[_DISCARDS][a[_ABOARD_OWNER]].append(a[_ABOARD_CARD])
    if structure_lost(pub, s, abilities(pub, s)) >= 100:
        destroy(pub, s)


def destroy(pub, s):
    ship = pub[_SHIPS][s]
    ship[_SHIP_ALIVE] = False
    ship[_SHIP_CLOAKED] = False
    pub[_DESTROYED][ship[_SHIP_OWNER]].append(ship[_SHIP_CARD])
    for a in ship[_SHIP_ABOARD]:
        pub[_DISCARDS][a[_ABOARD_OWNER]].append(a[_ABOARD_CARD])
    pub[_DAMAGE_DISCARD].extend(ship[_SHIP_DAMAGE])
    # A wreck keeps its place in the list (events name ships by index) but no lists of its
    # own: the empty tuple is one constant, where three empty lists held 96 B of heap for the
    # rest of the game, and late in a game of four most ships are wrecks (18 of 23). It
    # encodes as an empty list, and no rule adds to a wreck (choices offer living ships only).
    ship[_SHIP_ABOARD] = ship[_SHIP_DAMAGE] = ship[_SHIP_OVERLOADS] = ()
    if flagships_left(pub) == 0 and pub[_END] is None:
        pub[_END] = [False, "every flagship destroyed"]
        pub[_PHASE] = "over"


def repair(pub, s, j):
    ship = pub[_SHIPS][s]
    ship[_SHIP_OVERLOADS].pop(j)
    pub[_DAMAGE_DISCARD].append(ship[_SHIP_DAMAGE].pop(j))


def worst_damage(pub, s):
    """The damage card an automatic repair removes: the largest structure loss, first on ties."""
    best = 0
    dm = pub[_SHIPS][s][_SHIP_DAMAGE]
    for j in range(1, len(dm)):
        if C.get(dm[j])[C.CLS] > C.get(dm[best])[C.CLS]:
            best = j
    return best


def strongest(pub):
    """The alive ship with the highest power (lowest index on ties), or -1."""
    best, bp = -1, -1
    for s in alive(pub):
        p = power(pub, s, None, None)
        if p > bp:
            best, bp = s, p
    return best


def unique_ok(pub, cid):
    """A unique card may not deploy while a copy is in play or in any destroyed pile."""
    if not C.get(cid)[C.UNIQ]:
        return True
    for ship in pub[_SHIPS]:
        if ship[_SHIP_ALIVE] and (ship[_SHIP_CARD] == cid or [1 for a in ship[_SHIP_ABOARD] if a[_ABOARD_CARD] == cid]):
            return False
    for t in pub[_TABLE]:
        if t[_TOKEN_CARD] == cid:
            return False
    for pile in pub[_DESTROYED]:
        if cid in pile:
            return False
    return True


def ship_ok(pub, p, cid):
    return (C.get(cid)[C.TYPE] == C.SHIP and count_ships(pub, p) < limit(pub, p)
            and unique_ok(pub, cid))
