# Pinned Down, read for the screen: what a choice is about (its card or ship, for grouping
# the choices and for drawing what it touches), how the fights would go if it were chosen (the
# forecast, by the engine's own fight rules in fights.py), and the status in words. Rules
# logic the screen needs lives here, beside the engine, so the screen only draws.
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import schema as K
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down.engine import GOAL

RESULT = {FT.WIN: "win", FT.DAMAGED: "damaged", FT.OVERPOWERED: "overpowered",
        FT.NO_SHIPS: "no ships"}
_PH = {"setup": "Set up", "main": "Main", "jump": "Jump", "jconf": "Jump?", "cloak": "Cloak",
       "assign": "Assign", "aconf": "Assign?", "fight": "Fight", "wrap": "Wrap-up",
       "over": "Over"}


def subject(a):
    """What a choice is about, to group the choices under it: ('c', card) for a hand card
    played, spared or discarded; ('s', ship) for a ship's power or attachment; None for a
    choice that is its own item (ready, jump, agree, assign, resolve...)."""
    tag = a[0]
    if tag in ("play", "spare", "discard"):
        return ("c", a[1])
    if tag in ("use", "move"):
        return ("s", a[1])
    return None


def subject_name(pub, sub):
    if sub[0] == "c":
        return C.get(sub[1])[C.NAME]
    return C.get(pub[K.SHIPS][sub[1]][K.SHIP_CARD])[C.NAME]


def target_ship(pub, a):
    """The ship the choice acts on (deploy, boost, repair, overload, assign, cloak), or -1."""
    if not a:
        return -1
    tag = a[0]
    if tag == "play" and len(a) >= 3 and type(a[2]) is int and pub[K.PHASE] == "main":
        kws = C.get(a[1])[C.KW]
        if C.get(a[1])[C.TYPE] in (C.CHAR, C.EQUIP) or "REP" in kws or \
                [1 for k in kws if k.startswith("BO")]:
            return a[2]
        return -1
    if tag == "use":
        if a[2] < 0:
            return a[3] if len(a) > 3 else a[1]
        return a[1]
    if tag == "move":
        return a[3]
    if tag == "spare":
        return a[2]
    if tag == "def":
        return pub[K.FIGHTERS][len(pub[K.ASSIGNED])]
    if tag == "cloak" and pub[K.CLOAK_QUEUE]:
        return pub[K.CLOAK_QUEUE][0]
    return -1


def preview(pub, a):
    """The fights as they stand or as choice `a` would make them ([ships, foes, done] each).
    While an assignment is being proposed only the attackers chosen so far have fights; the
    last ship's choice shows the full build (leftover attackers joined). pub is not changed."""
    ph = pub[K.PHASE]
    if ph == "assign":
        asg = list(pub[K.ASSIGNED])
        if a and a[0] == "def":
            asg.append(a[1])
        if asg and len(asg) == len(pub[K.FIGHTERS]):
            return FT.build(pub, asg)
        out = []
        for f in range(len(pub[K.FOES])):
            ships = [pub[K.FIGHTERS][i] for i in range(len(asg)) if asg[i] == f]
            if ships:
                out.append([ships, [f], False])
        return out
    if ph in ("aconf", "fight"):
        return pub[K.FIGHTS]
    return []


def hot_fight(pub, fights, a):
    """Index of the fight the choice is about (resolve it, an effect in it, the assigned
    attacker's), else the first fight still open, else -1."""
    if a:
        if a[0] == "fight":
            return a[1]
        if a[0] == "play" and pub[K.PHASE] == "fight" and len(a) == 3 and type(a[2]) is int:
            return a[2]
        if a[0] == "def":
            for k in range(len(fights)):
                if a[1] in fights[k][1]:
                    return k
    for k in range(len(fights)):
        if not fights[k][2]:
            return k
    return -1


def effect_bonus(pub, me, a, fight):
    """Power the fight effect `a` (Alpha Strike, Swarm Tactics) would add to this fight."""
    if not (a and a[0] == "play" and pub[K.PHASE] == "fight"):
        return 0
    add = 0
    for k in C.get(a[1])[C.KW]:
        if k.startswith("FT") or k.startswith("FA"):
            n = int(k[2:])
            for s in fight[0]:
                ship = pub[K.SHIPS][s]
                if ship[K.SHIP_ALIVE] and not F.has_dmg(pub, s, "NB") and (
                        (k.startswith("FT") and ship[K.SHIP_OWNER] == me)
                        or (k.startswith("FA") and F.is_acarr(ship[K.SHIP_CARD]))):
                    add += n
    return add


def forecast(pub, fight, bonus=0):
    """(fleet power, its destinies, enemy power, its destinies, outcome) with `bonus` added
    to the fleet: the sums and the rule the engine resolves the fight with."""
    pp, pd, ep, ed, n = FT.sums(pub, fight)
    pp += bonus
    return pp, pd, ep, ed, FT.outcome(pp, ep, n)


def forecast_words(pub, k, fight, bonus=0):
    """'Fight 1: 11+d vs 9, win': a destiny still to draw shows as +d (it may change it)."""
    pp, pd, ep, ed, res = forecast(pub, fight, bonus)
    return "Fight %d: %d%s vs %d%s: %s" % (k + 1, pp, "+d" * pd, ep, "+d" * ed,
                                           "done" if fight[2] else RESULT[res])


def choice_forecast(pub, me, a):
    """The forecast line for choice `a` (or the fights as they stand), or None."""
    fights = preview(pub, a)
    k = hot_fight(pub, fights, a)
    if k < 0:
        return None
    return forecast_words(pub, k, fights[k], effect_bonus(pub, me, a, fights[k]))


def choice_lines(pub, me, acts):
    """choice_line() of every choice in `acts`, one list, for a screen to build once per event
    (a ship's line is worked out once however many choices act on it)."""
    ships = {}
    out = []
    for a in acts:
        out.append(choice_line(pub, me, a, ships))
    return out


def choice_line(pub, me, a, ships=None):
    """The line a screen shows for choice `a` (None: no one choice): the fight forecast while
    fights are formed or fought, else the ship the choice acts on, else None. `ships`, a dict,
    keeps ship lines already made."""
    out = None
    if isinstance(a, list) or pub[K.PHASE] in ("aconf", "fight"):
        out = choice_forecast(pub, me, a if isinstance(a, list) else None)
        t = target_ship(pub, a) if isinstance(a, list) else -1
        if out is None and t >= 0:
            if ships is None:
                return ship_line(pub, t)
            out = ships.get(t)
            if out is None:
                out = ships[t] = ship_line(pub, t)
    return out


def phase_words(pub):
    return _PH.get(pub[K.PHASE], pub[K.PHASE])


def status(pub, room=40):
    """Distance, threat and where the fleet is, in words that fit `room` characters
    (distance and threat first: they fit 18, a 72 px panel's 3x5 line)."""
    where = C.get(pub[K.LOCATIONS][-1])[C.NAME] if pub[K.LOCATIONS] else "the start"
    out = "Distance %d/%d  threat %d  at %s" % (pub[K.DISTANCE], GOAL, pub[K.THREAT], where)
    if len(out) > room:
        out = "Distance %d/%d  threat %d" % (pub[K.DISTANCE], GOAL, pub[K.THREAT])
    if len(out) > room:
        out = "Dist %d/%d threat %d" % (pub[K.DISTANCE], GOAL, pub[K.THREAT])
    if len(out) > room:   # the goal is on the help page: the distance alone, never cut
        out = "Dist %d threat %d" % (pub[K.DISTANCE], pub[K.THREAT])
    return out


def ship_line(pub, s):
    """'Cruiser: power 6, 20% lost' ('cloaked' when it is)."""
    ship = pub[K.SHIPS][s]
    out = "%s: power %d" % (C.get(ship[K.SHIP_CARD])[C.NAME], F.power(pub, s))
    lost = F.structure_lost(pub, s)
    if lost:
        out += ", %d%% lost" % lost
    if ship[K.SHIP_CLOAKED]:
        out += ", cloaked"
    return out


def card_words(cid):
    """A hand card in full: name, what it is, its threat, its text."""
    c = C.get(cid)
    t = c[C.TYPE]
    if t == C.SHIP:
        what = "Ship, %s, power %d, holds %d" % (c[C.CLS], c[C.PW], c[C.CAP])
    elif t == C.CHAR:
        what = "Character"
    elif t == C.EQUIP:
        what = "Equipment" + (" +%d power" % c[C.PW] if c[C.PW] else "")
    else:
        what = "Effect"
    text = C.text(cid)
    return "%s\n%s, threat %d\n%s" % (c[C.NAME], what, c[C.THREAT], text) if text else \
        "%s\n%s, threat %d" % (c[C.NAME], what, c[C.THREAT])
