# Pinned Down's fight rules in one place (rules 8.4-8.5): an attacker's power, the fights an
# assignment makes, the power sums a fight is resolved with, and its outcome. The engine
# resolves with them, the bot scores assignments with them, the screen forecasts with them:
# a forecast can never disagree with the resolution it announces. A leaf: cards and fleet only.
from fathom.compat import const
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fleet as F

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_LOCATIONS = const("locs")
_FIGHTERS = const("fs")
_FOES = const("foes")
_AMBUSH = const("ab")
_SHIPS = const("ships")
_SHIP_ALIVE = const(4)
_FOE_CARD = const(0)
_FIGHT_SHIPS = const(0)
_FIGHT_FOES = const(1)
# The slots of `fx` (build's and sums'), as the bot's figures() fills them: per attacker its
# foe_power and its battle destinies; the attackers as power * 64 + index, sorted; per ship
# (power or None, battle destinies, ...)
_FX_POWER = const(0)
_FX_DESTINIES = const(1)
_FX_ORDER = const(2)
_FX_SHIPS = const(3)
_SX_POWER = const(0)
_SX_DESTINIES = const(1)

WIN = "win"
DAMAGED = "dmg"
OVERPOWERED = "over"
NO_SHIPS = "none"


def foe_power(pub, f):
    """Attacker f's power: its card, the Ambush bonus, the current location's bonus."""
    cur = pub[_LOCATIONS][-1] if pub[_LOCATIONS] else None
    ep = C.kwnum(cur, "EP") if cur else 0
    return C.get(pub[_FOES][f][_FOE_CARD])[C.POWER] + pub[_AMBUSH] + ep


def build(pub, asg, fx):
    """The fights assignment `asg` (attacker per ship of pub[_FIGHTERS]) makes, pub unchanged:
    one fight per defended attacker; the other attackers join, lowest power first, the fight
    where the enemy power is lowest (the earlier fight on ties).
    `fx`: None, or what is the same for every assignment of one attack worked out once (the
    bot's figures(pub), held to these functions' own by a test): the bot scores up to
    hundreds of assignments of one attack, and recomputing these for each was most of its
    slowest decisions' work. A parameter without a default: a default makes the function
    object a bigger heap block on a unit, and Pinned Down's replay is at its heap budget."""
    if fx is None:
        # Sorted as plain ints, power * 64 + index (fewer than 64 attackers: MAX_REVEAL): a
        # key function would run under the C quicksort's recursion, which made this the C
        # stack's peak. Loops, not comprehensions: each of those is one more frame under
        # foe_power.
        fp = []
        order = []
        for a in range(len(pub[_FOES])):
            fp.append(foe_power(pub, a))
            order.append(fp[a] * 64 + a)
        order.sort()
    else:
        fp, order = fx[_FX_POWER], fx[_FX_ORDER]
    fights = []
    done = []
    for a in asg:
        if a not in done:
            done.append(a)
    done.sort()
    tps = []   # each fight's enemy power so far
    for a in done:
        ships = [pub[_FIGHTERS][i] for i in range(len(asg)) if asg[i] == a]
        fights.append([ships, [a], False])
        tps.append(fp[a])
    for o in order:
        a = o % 64
        if a in asg:
            continue
        best = 0
        for k in range(1, len(tps)):
            if tps[k] < tps[best]:
                best = k
        fights[best][_FIGHT_FOES].append(a)
        tps[best] += fp[a]
    return fights


def sums(pub, fight, fx):
    """(fleet power, its battle destinies, enemy power, its destinies, ships still in it):
    what the fight is resolved with before the destiny cards are drawn. `fx`: as build's."""
    ships = [s for s in fight[_FIGHT_SHIPS] if pub[_SHIPS][s][_SHIP_ALIVE]]
    foes = None
    pp = pd = 0
    for s in ships:
        if fx is not None:
            x = fx[_FX_SHIPS][s]
            pd += x[_SX_DESTINIES]
            if x[_SX_POWER] is not None:
                pp += x[_SX_POWER]
                continue
        if foes is None:
            foes = [pub[_FOES][f][_FOE_CARD] for f in fight[_FIGHT_FOES]]
        pp += F.power(pub, s, foes, ships)
        if fx is None and "BD" in F.abilities(pub, s) and not F.has_dmg(pub, s, "NB"):
            pd += 1
    ep = ed = 0
    for f in fight[_FIGHT_FOES]:
        if fx is not None:
            ep += fx[_FX_POWER][f]
            ed += fx[_FX_DESTINIES][f]
        else:
            ep += foe_power(pub, f)
            if C.kw(pub[_FOES][f][_FOE_CARD], "BD"):
                ed += 1
    return pp, pd, ep, ed, len(ships)


def forecast(pub, fight):
    """(fleet power, its destinies, enemy power, its destinies, outcome) of `fight` as the
    resolution counts it before the destiny cards are drawn: what the screen shows (the bot
    scores the same sums)."""
    pp, pd, ep, ed, n = sums(pub, fight, None)
    return pp, pd, ep, ed, outcome(pp, ep, n)


def outcome(pp, ep, nships):
    """Rule 8.5: more power wins; an enemy with at least double overpowers; else damaged."""
    if not nships:
        return NO_SHIPS
    if pp > ep:
        return WIN
    return OVERPOWERED if ep >= 2 * pp else DAMAGED
