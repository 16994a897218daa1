# Pinned Down in words: everything a player reads about the game. The label of each choice,
# the log line and the news line of each event, the status (distance, threat, place), a ship
# and a card in full; and what the screen needs to show a choice: what it is about (to group
# the choices under a card or a ship), the ship it touches, and how the fights would go if it
# were chosen (the forecast, by the engine's own fight rules in fights.py, so a forecast never
# disagrees with the resolution). The screen only lays these out.
from fathom.compat import const
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_GOAL = const(10)
_PLAYER_COUNT = const("n")
_PHASE = const("ph")
_THREAT = const("threat")
_DISTANCE = const("dist")
_LOCATIONS = const("locs")
_JUMP_OPTIONS = const("lopts")
_CLOAK_QUEUE = const("cq")
_FIGHTERS = const("fs")
_ASSIGNED = const("asg")
_FIGHTS = const("fights")
_FOES = const("foes")
_SHIPS = const("ships")
_LAST_FIGHT = const("last")
_ATTACK_DECK = const("adeck")
_LOCATION_DECK = const("ldeck")
_PHASE_SETUP = const("setup")
_PHASE_MAIN = const("main")
_PHASE_JUMP = const("jump")
_PHASE_JUMP_CONFIRM = const("jconf")
_PHASE_CLOAK = const("cloak")
_PHASE_ASSIGN = const("assign")
_PHASE_ASSIGN_CONFIRM = const("aconf")
_PHASE_FIGHT = const("fight")
_PHASE_WRAP = const("wrap")
_PHASE_OVER = const("over")
_SHIP_OWNER = const(0)
_SHIP_CARD = const(1)
_SHIP_DAMAGE = const(2)
_SHIP_ABOARD = const(3)
_SHIP_ALIVE = const(4)
_SHIP_CLOAKED = const(6)
_ABOARD_CARD = const(1)
_FOE_CARD = const(0)
_FIGHT_SHIPS = const(0)
_FIGHT_FOES = const(1)
_FIGHT_DONE = const(2)
_NEXT = const(0)
_EV_SHOW = const("show")
_EV_READY = const("ready")
_EV_AGREE = const("yes")
_EV_OBJECT = const("no")
_EV_PASS = const("pass")
_EV_KEEP = const("keep")
_PLAY_CARD = const(1)
_PLAY_TARGET = const(2)
_PLAY_DAMAGE = const(3)
_USE_SHIP = const(1)
_USE_ABOARD = const(2)
_USE_CHOICE = const(3)
_USE_REPAIR_SHIP = const(3)
_OWN_POWER = const(-1)
_MOVE_SHIP = const(1)
_MOVE_ABOARD = const(2)
_MOVE_TO = const(3)
_SPARE_CARD = const(1)
_SPARE_SHIP = const(2)
_SHOW_CARDS = const(1)
_JUMP_OPTION = const(1)
_CLOAK_ON = const(1)
_DEFEND_FOE = const(1)
_RESOLVE_FIGHT = const(1)
_DISCARD_CARD = const(1)
_TAG = const(0)

_SHORT = {_EV_AGREE: "agree", _EV_OBJECT: "object", _EV_READY: "ready", _EV_PASS: "pass",
          _EV_KEEP: "keep hand", _EV_SHOW: "show hand"}
_RES = {"win": "won", "dmg": "damaged", "over": "overpowered", "none": "no ships"}


def name(cid):
    return C.get(cid)[C.NAME]


def ship(pub, s):
    return name(pub[_SHIPS][s][_SHIP_CARD])


def foe(pub, f):
    return name(pub[_FOES][f][_FOE_CARD])


def _top(deck):
    """The top card's name, for a peek ('-' when the deck is empty)."""
    for cid in deck:
        return name(cid)
    return "-"


def action(pub, a):
    """The label of choice `a` (an action has its event's slots) in the choice list."""
    tag = a[_TAG]
    if tag in _SHORT:
        return _SHORT[tag]
    if tag == "play":
        c = C.get(a[_PLAY_CARD])
        if len(a) == 2:
            return "play " + c[C.NAME]
        kws = c[C.KEYWORDS]
        to = a[_PLAY_TARGET]
        if c[C.TYPE] in (C.CHAR, C.EQUIP) or [1 for k in kws if k.startswith("BO")]:
            return "%s>%s" % (c[C.NAME], ship(pub, to))
        if "PKL" in kws:
            return "%s: %s %s" % (c[C.NAME], _top(pub[_LOCATION_DECK]),
                                  "to bottom" if to else "stays")
        if "REP" in kws:
            return "%s %s:%s" % (c[C.NAME], ship(pub, to),
                                 name(pub[_SHIPS][to][_SHIP_DAMAGE][a[_PLAY_DAMAGE]]))
        if "RET" in kws or "PDS" in kws:
            return "%s: %s" % (c[C.NAME], name(to))
        return "%s fight %d" % (c[C.NAME], to + 1)
    if tag == "use":
        s = pub[_SHIPS][a[_USE_SHIP]]
        if a[_USE_ABOARD] == _OWN_POWER:
            if len(a) == 3:
                return "overload " + name(s[_SHIP_CARD])
            return "%s repairs %s" % (name(s[_SHIP_CARD]), ship(pub, a[_USE_REPAIR_SHIP]))
        card = s[_SHIP_ABOARD][a[_USE_ABOARD]][_ABOARD_CARD]
        who = name(card)
        choice = a[_USE_CHOICE]
        if C.kw(card, "PKA"):
            return "%s: %s %s" % (who, _top(pub[_ATTACK_DECK]),
                                  "to bottom" if choice else "stays")
        if isinstance(choice, str):
            return "%s takes %s" % (who, name(choice))
        return "%s repairs %s" % (who, name(s[_SHIP_DAMAGE][choice]))
    if tag == "move":
        aboard = pub[_SHIPS][a[_MOVE_SHIP]][_SHIP_ABOARD][a[_MOVE_ABOARD]]
        return "%s>%s" % (name(aboard[_ABOARD_CARD]), ship(pub, a[_MOVE_TO]))
    if tag == "spare":
        return "spare %s>%s" % (name(a[_SPARE_CARD]), ship(pub, a[_SPARE_SHIP]))
    if tag == "jump":
        c = C.get(pub[_JUMP_OPTIONS][a[_JUMP_OPTION]])
        return "jump %s +%d" % (c[C.NAME], c[C.POWER])   # the distance it gains
    if tag == "cloak":
        return "cloak" if a[_CLOAK_ON] else "fight"
    if tag == "def":
        card = pub[_FOES][a[_DEFEND_FOE]][_FOE_CARD]
        return "%s vs %s %d" % (ship(pub, pub[_FIGHTERS][len(pub[_ASSIGNED])]), name(card),
                                C.get(card)[C.POWER])
    if tag == "fight":
        return "resolve fight %d" % (a[_RESOLVE_FIGHT] + 1)
    if tag == "discard":
        return "discard " + name(a[_DISCARD_CARD])
    return tag


def describe(pub, author, e):
    """The log line for an event (games.describe): what `event` says of it."""
    return event(pub, author, e)


def event(pub, author, e):
    """Called after the event was applied: the line describes what was sent."""
    tag = e[_TAG]
    who = "P%d " % (author + 1)
    if tag == "show":
        return who + "shows %d cards" % len(e[_SHOW_CARDS])
    if tag == "play":
        return who + "plays " + name(e[_PLAY_CARD])
    if tag == "fight" and pub.get(_LAST_FIGHT):
        k, pp, ep, res = pub[_LAST_FIGHT]
        return "fight %d: %d vs %d %s" % (k + 1, pp, ep, _RES[res])
    if tag in ("yes", "no", "ready", "pass", "keep"):
        return who + _SHORT[tag]
    if tag == "discard":
        return who + "discards " + name(e[_DISCARD_CARD])
    if tag == "jump":
        return who + "proposes a jump"
    if tag == "def":
        return who + "assigns a ship"
    return who + tag


_NEWS = {_EV_READY: "ready", _EV_PASS: "passed", _EV_KEEP: "kept the hand",
         _EV_AGREE: "agreed", _EV_OBJECT: "objected"}


def _on(pub, c, e):
    """Where a played card went, told with it ("on Valiant", "in fight 2"): a line that ended
    in the card's name read as cut before its target."""
    if len(e) <= _PLAY_TARGET:
        return ""
    to = e[_PLAY_TARGET]
    kws = c[C.KEYWORDS]
    if c[C.TYPE] in (C.CHAR, C.EQUIP) or "REP" in kws or [1 for k in kws if k.startswith("BO")]:
        return " on " + ship(pub, to) if 0 <= to < len(pub[_SHIPS]) else ""
    if "PKL" in kws or "RET" in kws or "PDS" in kws:
        return ""
    return " in fight %d" % (to + 1)


def news(pub, me, author, e):
    """What just happened, in words, for the player at seat `me` ("You" or "P2"), told as done
    (never to be read as advice); called after the event was applied, so it reads the result
    (a fight's sums, the new location). A card that raises the threat says by how much."""
    tag = e[_TAG]
    who = "You" if author == me else "P%d" % (author + 1)
    if tag == "setup":
        n = pub[_PLAYER_COUNT]
        return "You are P%d of %d" % (me + 1, n) if n > 1 else "Solo: you are P1"
    if tag == "fight" and pub.get(_LAST_FIGHT):
        k, pp, ep, res = pub[_LAST_FIGHT]
        return "Fight %d: %d vs %d, %s" % (k + 1, pp, ep, _RES[res])
    if tag == "play":
        c = C.get(e[_PLAY_CARD])
        t = c[C.THREAT]
        return "%s played %s%s%s" % (who, c[C.NAME], _on(pub, c, e),
                                     ": threat +%d, now %d" % (t, pub[_THREAT]) if t else "")
    if tag == "jump":
        return "%s proposed a jump to %s" % (who, name(pub[_JUMP_OPTIONS][e[_JUMP_OPTION]])) \
            if pub[_JUMP_OPTIONS] else "Jumped to %s" % name(pub[_LOCATIONS][-1])
    if tag == "yes" and pub[_PHASE] not in (_PHASE_JUMP_CONFIRM, _PHASE_ASSIGN_CONFIRM):
        # the last agreement: the decision stands
        return "%s agreed: %s" % (who, "fights set" if pub[_PHASE] == _PHASE_FIGHT else
                                  "jumped to " + name(pub[_LOCATIONS][-1]))
    if tag == "ready":
        return "%s %s ready" % (who, "are" if author == me else "is")
    if tag in _NEWS:
        return "%s %s" % (who, _NEWS[tag])
    if tag == "discard":
        return "%s discarded %s" % (who, name(e[_DISCARD_CARD]))
    if tag == "spare":
        return "%s spared %s" % (who, name(e[_SPARE_CARD]))
    if tag == "show":
        return "%s showed the hand" % who
    if tag == "cloak":
        return "%s %s" % (who, "cloaked" if e[_CLOAK_ON] else "stayed to fight")
    if tag == "def":
        return "%s assigned a ship vs %s" % (who, foe(pub, e[_DEFEND_FOE])) \
            if e[_DEFEND_FOE] < len(pub[_FOES]) else "%s assigned a ship" % who
    if tag in ("use", "move"):
        return "%s %s" % (who, "moved crew" if tag == "move" else "used a power")
    if tag == "concede":
        return "%s conceded" % who
    return "%s: %s" % (who, tag)


# ---- what a choice is about, and how the fights would go -------------------------------
RESULT = {FT.WIN: "win", FT.DAMAGED: "damaged", FT.OVERPOWERED: "overpowered",
        FT.NO_SHIPS: "no ships"}
_PH = {_PHASE_SETUP: "Set up", _PHASE_MAIN: "Main", _PHASE_JUMP: "Jump",
       _PHASE_JUMP_CONFIRM: "Jump?", _PHASE_CLOAK: "Cloak", _PHASE_ASSIGN: "Assign",
       _PHASE_ASSIGN_CONFIRM: "Assign?", _PHASE_FIGHT: "Fight", _PHASE_WRAP: "Wrap-up",
       _PHASE_OVER: "Over"}
CARD, SHIP = "card", "ship"     # what a choice is about: subject()


def subject(a):
    """What a choice is about, to group the choices under it: ("card", card) for a hand card
    played, spared or discarded; ("ship", ship) for a ship's power or attachment; None for a
    choice that is its own item (ready, jump, agree, assign, resolve...)."""
    tag = a[_TAG]
    if tag in ("play", "spare", "discard"):
        return (CARD, a[_PLAY_CARD])      # the card slot of all three
    if tag in ("use", "move"):
        return (SHIP, a[_USE_SHIP])       # the ship slot of both
    return None


def subject_name(pub, sub):
    kind, what = sub
    if kind == CARD:
        return name(what)
    return ship(pub, what)


def target_ship(pub, a):
    """The ship the choice acts on (deploy, boost, repair, overload, assign, cloak), or -1."""
    if not a:
        return -1
    tag = a[_TAG]
    if tag == "play" and len(a) >= 3 and type(a[_PLAY_TARGET]) is int \
            and pub[_PHASE] == _PHASE_MAIN:
        kws = C.get(a[_PLAY_CARD])[C.KEYWORDS]
        if C.get(a[_PLAY_CARD])[C.TYPE] in (C.CHAR, C.EQUIP) or "REP" in kws or \
                [1 for k in kws if k.startswith("BO")]:
            return a[_PLAY_TARGET]
        return -1
    if tag == "use":
        if a[_USE_ABOARD] == _OWN_POWER and len(a) > 3:
            return a[_USE_REPAIR_SHIP]
        return a[_USE_SHIP]
    if tag == "move":
        return a[_MOVE_TO]
    if tag == "spare":
        return a[_SPARE_SHIP]
    if tag == "def":
        return pub[_FIGHTERS][len(pub[_ASSIGNED])]
    if tag == "cloak" and pub[_CLOAK_QUEUE]:
        return pub[_CLOAK_QUEUE][_NEXT]             # the next to decide
    return -1


def preview(pub, a):
    """The fights as they stand or as choice `a` would make them ([ships, foes, done] each).
    While an assignment is being proposed only the attackers chosen so far have fights; the
    last ship's choice shows the full build (leftover attackers joined). pub is not changed."""
    ph = pub[_PHASE]
    if ph == "assign":
        asg = list(pub[_ASSIGNED])
        if a and a[_TAG] == "def":
            asg.append(a[_DEFEND_FOE])
        if asg and len(asg) == len(pub[_FIGHTERS]):
            return FT.build(pub, asg, None)
        out = []
        for f in range(len(pub[_FOES])):
            ships = [pub[_FIGHTERS][i] for i in range(len(asg)) if asg[i] == f]
            if ships:
                out.append([ships, [f], False])
        return out
    if ph == _PHASE_ASSIGN_CONFIRM or ph == _PHASE_FIGHT:
        return pub[_FIGHTS]
    return []


def hot_fight(pub, fights, a):
    """Index of the fight the choice is about (resolve it, an effect in it, the assigned
    attacker's), else the first fight still open, else -1."""
    if a:
        tag = a[_TAG]
        if tag == "fight":
            return a[_RESOLVE_FIGHT]
        if tag == "play" and pub[_PHASE] == _PHASE_FIGHT and len(a) == 3 \
                and type(a[_PLAY_TARGET]) is int:
            return a[_PLAY_TARGET]
        if tag == "def":
            for k in range(len(fights)):
                if a[_DEFEND_FOE] in fights[k][_FIGHT_FOES]:
                    return k
    for k in range(len(fights)):
        if not fights[k][_FIGHT_DONE]:
            return k
    return -1


def effect_bonus(pub, me, a, fight):
    """Power the fight effect `a` (Alpha Strike, Swarm Tactics) would add to this fight."""
    if not (a and a[_TAG] == "play" and pub[_PHASE] == _PHASE_FIGHT):
        return 0
    add = 0
    for k in C.get(a[_PLAY_CARD])[C.KEYWORDS]:
        if k.startswith("FT") or k.startswith("FA"):
            n = int(k[2:])
            for s in fight[_FIGHT_SHIPS]:
                ship = pub[_SHIPS][s]
                if ship[_SHIP_ALIVE] and not F.has_dmg(pub, s, "NB") and (
                        (k.startswith("FT") and ship[_SHIP_OWNER] == me)
                        or (k.startswith("FA") and F.is_acarr(ship[_SHIP_CARD]))):
                    add += n
    return add


def forecast(pub, fight, bonus):
    """(fleet power, its destinies, enemy power, its destinies, outcome) with `bonus` added
    to the fleet: the sums and the rule the engine resolves the fight with."""
    pp, pd, ep, ed, n = FT.sums(pub, fight, None)
    pp += bonus
    return pp, pd, ep, ed, FT.outcome(pp, ep, n)


def forecast_words(pub, k, fight, bonus):
    """'Fight 1: 11+d vs 9, win': a destiny still to draw shows as +d (it may change it)."""
    pp, pd, ep, ed, res = forecast(pub, fight, bonus)
    return "Fight %d: %d%s vs %d%s: %s" % (k + 1, pp, "+d" * pd, ep, "+d" * ed,
                                           "done" if fight[_FIGHT_DONE] else RESULT[res])


def choice_forecast(pub, me, a):
    """The forecast line for choice `a` (or the fights as they stand), or None."""
    fights = preview(pub, a)
    k = hot_fight(pub, fights, a)
    if k < 0:
        return None
    return forecast_words(pub, k, fights[k], effect_bonus(pub, me, a, fights[k]))


def choice_lines(pub, me, acts):
    """choice_line() of every choice in `acts`, one list, for a screen to build once per event
    (a ship's line is worked out once however many choices act on it). Equal lines are one
    string: in a fight most choices forecast the same, and the screen keeps the list all turn."""
    ships = {}
    same = {}
    out = []
    for a in acts:
        line = choice_line(pub, me, a, ships)
        out.append(same.setdefault(line, line))
    return out


def choice_line(pub, me, a, ships):
    """The line a screen shows for choice `a` (None: no one choice): the fight forecast while
    fights are formed or fought, else the ship the choice acts on, else None. `ships`, a dict,
    keeps ship lines already made (None: none kept). This module's functions take no default
    arguments: a default makes the function a bigger heap block on a unit, and it is resident
    while a replay plays, whose heap is at its budget."""
    out = None
    if isinstance(a, list) or pub[_PHASE] in (_PHASE_ASSIGN_CONFIRM, _PHASE_FIGHT):
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
    return _PH.get(pub[_PHASE], pub[_PHASE])


def status(pub, room):
    """Distance, threat and where the fleet is, in words that fit `room` characters
    (distance and threat first: they fit 18, a 72 px panel's 3x5 line)."""
    where = C.get(pub[_LOCATIONS][-1])[C.NAME] if pub[_LOCATIONS] else "the start"
    out = "Distance %d/%d  threat %d  at %s" % (pub[_DISTANCE], _GOAL, pub[_THREAT], where)
    if len(out) > room:
        out = "Distance %d/%d  threat %d" % (pub[_DISTANCE], _GOAL, pub[_THREAT])
    if len(out) > room:
        out = "Dist %d/%d threat %d" % (pub[_DISTANCE], _GOAL, pub[_THREAT])
    if len(out) > room:   # the goal is on the help page: the distance alone, never cut
        out = "Dist %d threat %d" % (pub[_DISTANCE], pub[_THREAT])
    return out


def ship_line(pub, s):
    """'Cruiser: power 6, 20% lost' ('cloaked' when it is)."""
    ship = pub[_SHIPS][s]
    out = "%s: power %d" % (C.get(ship[_SHIP_CARD])[C.NAME], F.power(pub, s, None, None))
    lost = F.structure_lost(pub, s, None)
    if lost:
        out += ", %d%% lost" % lost
    if ship[_SHIP_CLOAKED]:
        out += ", cloaked"
    return out


def card_words(cid):
    """A hand card in full: name, what it is, its threat, its text."""
    c = C.get(cid)
    t = c[C.TYPE]
    if t == C.SHIP:
        what = "Ship, %s, power %d, holds %d" % (c[C.CLS], c[C.POWER], c[C.CAP])
    elif t == C.CHAR:
        what = "Character"
    elif t == C.EQUIP:
        what = "Equipment" + (" +%d power" % c[C.POWER] if c[C.POWER] else "")
    else:
        what = "Effect"
    text = C.text(cid)
    return "%s\n%s, threat %d\n%s" % (c[C.NAME], what, c[C.THREAT], text) if text else \
        "%s\n%s, threat %d" % (c[C.NAME], what, c[C.THREAT])
