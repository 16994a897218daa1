# Pinned Down: what a player may do now. The legal actions of each phase (the bots and the
# screen list them) and the public check of an event: an event is accepted only if its author
# could have chosen it with some hand and draw deck, so a unit never trusts another's word for
# the rules (docs/rules/pinned_down.md, "Players, units and secrets"). Pure functions over pub.
from fathom.compat import const
from fathom.games.base import IllegalAction
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fleet as F

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_PHASE = const("ph")
_TURN = const("turn")
_LEAD = const("lead")
_ACTIONS = const("acts")
_JUMP_OPTIONS = const("lopts")
_FIGHTERS = const("fs")
_ASSIGNED = const("asg")
_FIGHTS = const("fights")
_FIGHT_WINDOW = const("fw")
_FOES = const("foes")
_SHIPS = const("ships")
_HAND_SIZES = const("hs")
_DECK_SIZES = const("dn")
_DISCARDS = const("disc")
_SHOWN = const("shown")
_ATTACK_DECK = const("adeck")
_LOCATION_DECK = const("ldeck")
_PHASE_MAIN = const("main")
_PHASE_JUMP = const("jump")
_PHASE_JUMP_CONFIRM = const("jconf")
_PHASE_CLOAK = const("cloak")
_PHASE_ASSIGN = const("assign")
_PHASE_ASSIGN_CONFIRM = const("aconf")
_PHASE_FIGHT = const("fight")
_EV_JUMP = const("jump")
_EV_AGREE = const("yes")
_EV_OBJECT = const("no")
_EV_CLOAK = const("cloak")
_EV_DEFEND = const("def")
_EV_KEEP = const("keep")
_HAND = const("hand")
_DECK = const("deck")
_SHIP_OWNER = const(0)
_SHIP_CARD = const(1)
_SHIP_DAMAGE = const(2)
_SHIP_ABOARD = const(3)
_SHIP_USED = const(7)
_ABOARD_OWNER = const(0)
_ABOARD_CARD = const(1)
_ABOARD_USED = const(2)
_FIGHT_DONE = const(2)
_SHOWN_TURN = const(0)
_PLAY_CARD = const(1)
_OWN_POWER = const(-1)
_SPARE_CARD = const(1)
_SHOW_CARDS = const(1)
_TAG = const(0)

MAX_ACTS = 15            # main-phase actions per player per turn (termination guard)
MAIN, FIGHT = "main", "fight"   # the two windows a card may be played in


def distinct(xs):
    """xs without repeats, in order (a hand holds copies; one choice per card id)."""
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


def open_fights(pub):
    """The indices of the fights not yet resolved."""
    fights = pub[_FIGHTS]
    return [k for k in range(len(fights)) if not fights[k][_FIGHT_DONE]]


def main_choices(pub, p, priv):
    """Rule 8.1: ready always; until the action guard, every card, power, move and spare part,
    and showing the hand once a turn."""
    out = [["ready"]]
    if pub[_ACTIONS][p] >= MAX_ACTS:
        return out
    hand = distinct(priv[_HAND])
    for cid in hand:
        out.extend(card_options(pub, p, cid, MAIN, priv[_DECK]))
    out.extend(uses(pub, p))
    out.extend(moves(pub, p))
    for cid in hand:
        out.extend(spares(pub, cid))
    shown = pub[_SHOWN][p]
    if shown is None or shown[_SHOWN_TURN] != pub[_TURN]:
        out.append(["show"])
    return out


def fight_choices(pub, p, priv):
    """Rule 8.5: a fight window offers threat-0 effects; the others pass, the lead (last)
    picks the fight to resolve."""
    out = []
    for cid in distinct(priv[_HAND]):
        out.extend(card_options(pub, p, cid, FIGHT, priv[_DECK]))
    if p == pub[_LEAD] and len(pub[_FIGHT_WINDOW]) == 1:
        out.extend(["fight", k] for k in open_fights(pub))
    else:
        out.append(["pass"])
    return out


def card_options(pub, p, cid, window, deck):
    """Every way to play card `cid` now (rule 7). deck=None (the public check) accepts any
    card the draw deck could hold."""
    c = C.get(cid)
    t = c[C.TYPE]
    if window == FIGHT and (t != C.EFFECT or c[C.THREAT] > 0):
        return []
    alive = F.alive(pub)
    ships = pub[_SHIPS]
    if t == C.SHIP:
        return [["play", cid]] if F.ship_ok(pub, p, cid) else []
    if t in (C.CHAR, C.EQUIP):
        if not F.unique_ok(pub, cid):
            return []
        return [["play", cid, s] for s in alive
                if len(ships[s][_SHIP_ABOARD]) < F.capacity(pub, s)]
    if t != C.EFFECT:
        return []
    out = []
    for k in c[C.KEYWORDS]:
        if k.startswith("RM"):
            out.append(["play", cid])
        elif k == "PKL" and pub[_LOCATION_DECK]:
            out.extend([["play", cid, 0], ["play", cid, 1]])
        elif k.startswith("BO"):
            out.extend(["play", cid, s] for s in alive)
        elif k == "PDS":
            # any ship for the public check, read off the table (a list of every id
            # would be a 512 B block); a loop, not a generator: one frame less under legal()
            for x in (C.CARDS if deck is None else distinct(deck)):
                x = x[C.CARD_ID] if deck is None else x
                if C.get(x)[C.TYPE] == C.SHIP and F.ship_ok(pub, p, x):
                    out.append(["play", cid, x])
        elif k == "PDD":
            if (deck is None or "A2" in deck) and F.ship_ok(pub, p, "A2"):
                out.append(["play", cid])
        elif k == "REP":
            for s in alive:
                out.extend(["play", cid, s, j] for j in range(len(ships[s][_SHIP_DAMAGE])))
        elif k == "RET":
            out.extend(["play", cid, x] for x in distinct(pub[_DISCARDS][p]))
        elif k.startswith("FT") or k.startswith("FA"):
            if window == FIGHT:
                out.extend(["play", cid, f] for f in open_fights(pub))
    return out


def uses(pub, p):
    """The powers player p may use (once a turn each): their ships' own (overload, repair)
    and their cards aboard any ship (peek, repair, retrieve)."""
    out = []
    ships = pub[_SHIPS]
    alive = F.alive(pub)
    for s in alive:
        ship = ships[s]
        if ship[_SHIP_OWNER] == p and not ship[_SHIP_USED]:
            codes = F.abilities(pub, s)
            if [1 for k in codes if k.startswith("OV")] and F.can_overload(pub, s):
                out.append(["use", s, _OWN_POWER])
            if "RPU" in C.get(ship[_SHIP_CARD])[C.KEYWORDS]:
                for t in alive:
                    out.extend(["use", s, _OWN_POWER, t, j]
                               for j in range(len(ships[t][_SHIP_DAMAGE])))
        aboard = ship[_SHIP_ABOARD]
        for i in range(len(aboard)):
            a = aboard[i]
            if a[_ABOARD_OWNER] != p or a[_ABOARD_USED]:
                continue
            kws = C.get(a[_ABOARD_CARD])[C.KEYWORDS]
            if "PKA" in kws and pub[_ATTACK_DECK]:
                out.extend([["use", s, i, 0], ["use", s, i, 1]])
            if "RPA" in kws or "DCK" in kws:
                out.extend(["use", s, i, j] for j in range(len(ship[_SHIP_DAMAGE])))
            if "RET" in kws:
                out.extend(["use", s, i, x] for x in distinct(pub[_DISCARDS][p]))
    return out


def moves(pub, p):
    """Rule 7: a player may move their own characters and equipment to a ship with room."""
    out = []
    ships = pub[_SHIPS]
    alive = F.alive(pub)
    for s in alive:
        aboard = ships[s][_SHIP_ABOARD]
        for i in range(len(aboard)):
            if aboard[i][_ABOARD_OWNER] != p:
                continue
            for t in alive:
                if t != s and len(ships[t][_SHIP_ABOARD]) < F.capacity(pub, t):
                    out.append(["move", s, i, t])
    return out


def spares(pub, cid):
    """Every repair a spare ship card `cid` can make (spare parts: a ship of the same class)."""
    c = C.get(cid)
    if c[C.TYPE] != C.SHIP:
        return []
    out = []
    for s in F.alive(pub):
        ship = pub[_SHIPS][s]
        if C.get(ship[_SHIP_CARD])[C.CLS] == c[C.CLS]:
            out.extend(["spare", cid, s, j] for j in range(len(ship[_SHIP_DAMAGE])))
    return out


def def_options(pub):
    """Attackers the next unassigned ship may defend against (rule 8.4): a different one each
    while there are enough; with more ships than attackers the choices narrow so the last
    ships cover the attackers still undefended."""
    nf = len(pub[_FOES])
    asg = pub[_ASSIGNED]
    free = [a for a in range(nf) if a not in asg]
    if len(pub[_FIGHTERS]) <= nf:
        return free
    left = len(pub[_FIGHTERS]) - len(asg)
    return free if left <= len(free) else list(range(nf))


def question(pub, ph):
    """The answers of a phase that asks one question (the jump, a proposal's confirmation, a
    cloak, an assignment), or None in a phase whose choices hang on a hand: the one list that
    Engine.legal offers and check accepts."""
    if ph == _PHASE_JUMP:
        return [[_EV_JUMP, i] for i in range(len(pub[_JUMP_OPTIONS]))]
    if ph == _PHASE_JUMP_CONFIRM or ph == _PHASE_ASSIGN_CONFIRM:
        return [[_EV_AGREE], [_EV_OBJECT]]
    if ph == _PHASE_CLOAK:
        return [[_EV_CLOAK, 1], [_EV_CLOAK, 0]]
    if ph == _PHASE_ASSIGN:
        return [[_EV_DEFEND, a] for a in def_options(pub)]
    return None


def check(pub, p, event):
    """Public legality: the event must be one its author could send with some hand. Runs
    before the handler changes anything, so a refused event leaves pub as it was."""
    tag = event[_TAG]
    if tag in ("play", "spare", "discard"):
        if len(event) < 2 or not C.known(event[_PLAY_CARD]):
            raise IllegalAction("unknown card")
        if pub[_HAND_SIZES][p] < 1:
            raise IllegalAction("empty hand")
        cid = event[_PLAY_CARD]
        if tag == "play" and (C.kw(cid, "PDS") or C.kw(cid, "PDD")) \
                and pub[_DECK_SIZES][p] < 1:
            raise IllegalAction("empty draw deck")
    ph = pub[_PHASE]
    if tag == "play":
        opts = card_options(pub, p, event[_PLAY_CARD],
                            FIGHT if ph == _PHASE_FIGHT else MAIN, None)
    elif tag == "use":
        opts = uses(pub, p)
    elif tag == "move":
        opts = moves(pub, p)
    elif tag == "spare":
        opts = spares(pub, event[_SPARE_CARD])
    elif tag == "fight":
        opts = [["fight", k] for k in open_fights(pub)] if len(pub[_FIGHT_WINDOW]) == 1 \
            and p == pub[_LEAD] else []
    elif tag == "pass":
        opts = [["pass"]] if not (p == pub[_LEAD] and len(pub[_FIGHT_WINDOW]) == 1) else []
    elif tag == "show":
        _check_show(pub, p, event)
        opts = None
    elif tag == "discard":
        opts = [event] if len(event) == 2 else []
    elif tag == "ready":
        opts = [["ready"]]
    elif tag == _EV_KEEP:
        opts = [[_EV_KEEP]]
    else:  # the phase's table (Engine.HANDLERS) let through only its question's tags
        opts = question(pub, ph)
    if tag in ("play", "use", "move", "spare", "show") and ph == _PHASE_MAIN \
            and pub[_ACTIONS][p] >= MAX_ACTS:
        raise IllegalAction("no main-phase actions left this turn")
    if opts is not None and event not in opts:
        raise IllegalAction("%s not possible now" % tag)


def _check_show(pub, p, event):
    """Show hand: the whole hand (the audit checks it), once a turn."""
    if len(event) != 2 or not isinstance(event[_SHOW_CARDS], list) \
            or len(event[_SHOW_CARDS]) != pub[_HAND_SIZES][p]:
        raise IllegalAction("show must list the whole hand")
    for c in event[_SHOW_CARDS]:
        if not C.known(c):
            raise IllegalAction("unknown card")
    shown = pub[_SHOWN][p]
    if shown is not None and shown[_SHOWN_TURN] == pub[_TURN]:
        raise IllegalAction("hand already shown this turn")
