# Periplus in words and forecasts for the screen: what a legal action is called, which squares
# it touches, what a ship is, and what the last event did told from one player's side (news);
# the log's terse line is the engine's describe(). Rules-side and pure (no UI): the screen
# asks, it never works these out itself.
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus.engine import (AHEAD, ALSO, CARD, DEFEND, DISCARD, FIRE, FLEET_RANGE,
                                          FOLLOWER, HALT, MOVE, P_AT, P_BY, P_CARD, PASS,
                                          PENDING, PH_MOVE, PHASE, SHIP, TAG, TAKE, TARGET, TO)
from fathom.games.periplus.fleet import (HITS, LEFT, NSHIPS, SHEARED, SHIP_ABBR, SHIP_NAMES,
                                         SHIPS, SQ, TYPE, abbr, ahead_dest, grid)

# The one short form of a card (the hand, a row of cards), shown with its name on the first
# page of the help; parallel to cards.CARDS. Everywhere else a card goes by its name.
CODE = ("R1", "R2", "R3", "R4", "PER", "PRG", "RRM", "RAM", "SHR", "HOP", "HPX", "CRV", "MAR",
        "FDK", "ARC", "JAV", "SLG", "GFI", "BAL", "CAT", "TRB", "TWR", "PAR", "RHL", "DIS")
_TYPE = {C.MOVE: "move", C.RAM: "ram", C.BOARD: "board", C.SHOOT: "shot", C.DEFENSE: "defence"}


def next_square(player, row):
    """The back-row square the next ship of the set-up goes to."""
    return B.back_row(player) * B.SIZE + len(row)


def ahead_to(pub, sid, n):
    return ahead_dest(pub, grid(pub), sid, n)


def ship_words(pub, sid, me):
    """'your Trireme c3 2/3' or 'foe Quinquereme e8 5/5 no oars'."""
    sh = pub[SHIPS][sid]
    return "%s %s %s %d/%d%s" % ("your" if sid // NSHIPS == me else "foe", SHIP_NAMES[sh[TYPE]],
                                 B.sq_name(sh[SQ]), sh[LEFT], HITS[sh[TYPE]],
                                 " no oars" if sh[SHEARED] else "")


def card_words(k):
    """'Javelins: shot, range 2' / 'Periplus: move, knight' / 'Parablemata: stops shots'."""
    t = C.ctype(k)
    r = C.rng(k)
    if t == C.DEFENSE:
        return "%s: stops %ss" % (C.name(k), _TYPE[r])
    return "%s: %s, %s" % (C.name(k), _TYPE[t], "knight jump" if r == C.KNIGHT
                           else "range %d" % r)


def card_note(k):
    """Type and range in two characters: m2 move 2, s3 shot 3, N knight, -S negates shots."""
    t = C.ctype(k)
    r = C.rng(k)
    if t == C.DEFENSE:
        return "-" + r
    if r == C.KNIGHT:
        return t.lower() + "N"
    return t.lower() + str(r)


def squares(pub, player, row, a):
    """(from, to) squares an action touches, -1 for none: the ship and its goal, the attacker
    and its target, the next set-up square. Where a fleet move ends is a forecast."""
    sh = pub[SHIPS]
    if not isinstance(a, list):
        return next_square(player, row), -1
    tag = a[TAG]
    if tag == MOVE:
        return sh[a[SHIP]][SQ], a[TO]
    if tag == AHEAD:
        return sh[a[SHIP]][SQ], ahead_to(pub, a[SHIP], C.rng(a[CARD]))
    if tag == ALSO:
        return sh[a[FOLLOWER]][SQ], ahead_to(pub, a[FOLLOWER], pub[FLEET_RANGE])
    if tag == FIRE:
        return sh[a[SHIP]][SQ], sh[a[TARGET]][SQ]
    atk = pub[PENDING]
    if (tag == TAKE or tag == DEFEND) and atk:
        return sh[atk[P_BY]][SQ], sh[atk[P_AT]][SQ]
    return -1, -1


def label(pub, player, row, a):
    """One line per action (the full list a test or a log reads)."""
    if not isinstance(a, list):
        return "Place %s at %s" % (SHIP_NAMES[a], B.sq_name(next_square(player, row)))
    tag = a[TAG]
    if tag == DISCARD:
        return "Discard " + C.name(a[CARD])
    if tag == PASS:
        return "Pass (no move)" if pub[PHASE] == PH_MOVE else "Pass (no attack)"
    if tag == HALT:
        return "Halt the fleet"
    if tag == TAKE:
        return "Take the hit"
    if tag == DEFEND:
        return "Negate with " + C.name(a[CARD])
    s, t = squares(pub, player, row, a)
    if tag == MOVE:
        return "%s: %s %s>%s" % (C.name(a[CARD]), abbr(pub, a[SHIP]), B.sq_name(s),
                                 B.sq_name(t))
    if tag == AHEAD:
        return "%s: fleet %s %s>%s" % (C.name(a[CARD]), abbr(pub, a[SHIP]), B.sq_name(s),
                                       B.sq_name(t))
    if tag == ALSO:
        return "Also %s %s>%s" % (abbr(pub, a[FOLLOWER]), B.sq_name(s), B.sq_name(t))
    if tag == FIRE:
        return "%s: %s %s>%s %s" % (C.name(a[CARD]), abbr(pub, a[SHIP]), B.sq_name(s),
                                    abbr(pub, a[TARGET]), B.sq_name(t))
    return tag


def choice(pub, a):
    """An action in the few words of a menu opened on its square (the square says the rest)."""
    tag = a[TAG]
    if tag == MOVE:
        return C.name(a[CARD])
    if tag == AHEAD:
        return "Fleet ahead"     # the goal's one move card, the line above, with the fleet
    if tag == ALSO:
        return "Follow"
    if tag == HALT:
        return "Halt fleet"
    if tag == PASS:
        return "Pass"
    if tag == FIRE:
        return "%s %s" % (C.name(a[CARD]), B.sq_name(pub[SHIPS][a[SHIP]][SQ]))
    if tag == TAKE:
        return "Take hit"
    if tag == DEFEND:
        return "Negate"
    return tag


def prompt(pub, hand, me):
    """The defender's question: what attacks which ship, and whether a card can stop it."""
    atk = pub[PENDING]
    k, s, t = atk[P_CARD], atk[P_BY], atk[P_AT]
    d = C.defense_for(k)
    tgt = pub[SHIPS][t]
    text = "%s from %s at your %s %s %d/%d. " % (
        C.name(k), B.sq_name(pub[SHIPS][s][SQ]), SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQ]),
        tgt[LEFT], HITS[tgt[TYPE]])
    if d in hand:
        return text + "Negate it with %s?" % C.name(d)
    return text + "No %s in hand." % C.name(d)


def fleet_words(pub, owner):
    out = []
    for sid in range(owner * NSHIPS, (owner + 1) * NSHIPS):
        sh = pub[SHIPS][sid]
        if sh[SQ] >= 0:
            out.append("%s %s %d%s" % (SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQ]), sh[LEFT],
                                       "*" if sh[SHEARED] else ""))
    return ", ".join(out)


def _who(author, me):
    return "You" if author == me else "P%d" % (author + 1)


def _ship(pub, sid, me):
    sh = pub[SHIPS][sid]
    return "%s %s" % ("your " + SHIP_ABBR[sh[TYPE]] if sid // NSHIPS == me
                      else SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQ]) if sh[SQ] >= 0 else "")


def news(pub, log, me):
    """What the last event did, in words from player me's side; read right after the event
    (the squares are where the ships are now). `log` is [(author, event)]."""
    if not log:
        return "You are P%d" % (me + 1)
    author, ev = log[-1]
    if ev[TAG] == "setup":
        return "You are P%d" % (me + 1)
    who = _who(author, me)
    tag = ev[TAG]
    sh = pub[SHIPS]
    if tag == DISCARD:
        return "%s discarded %s" % (who, C.name(ev[CARD]))
    if tag == MOVE:
        return "%s: %s %s to %s" % (who, C.name(ev[CARD]), abbr(pub, ev[SHIP]),
                                    B.sq_name(ev[TO]))
    if tag == AHEAD:
        return "%s: %s fleet ahead, %s to %s" % (who, C.name(ev[CARD]), abbr(pub, ev[SHIP]),
                                                 B.sq_name(sh[ev[SHIP]][SQ]))
    if tag == ALSO:
        return "%s: %s follows to %s" % (who, abbr(pub, ev[FOLLOWER]),
                                         B.sq_name(sh[ev[FOLLOWER]][SQ]))
    if tag == HALT:
        return "%s halted the fleet" % who
    if tag == PASS:
        return "%s passed" % who
    if tag == FIRE:
        return "%s: %s from %s at %s" % (who, C.name(ev[CARD]), B.sq_name(sh[ev[SHIP]][SQ]),
                                         _ship(pub, ev[TARGET], me))
    # The answer to an attack: the attack is the event before it.
    attack = None
    if len(log) >= 2:
        _by, attack = log[-2]
    if (tag == TAKE or tag == DEFEND) and attack and attack[TAG] == FIRE:
        k, t = attack[CARD], attack[TARGET]
        tgt = sh[t]
        if tag == DEFEND:
            return "%s negated %s with %s" % (who, C.name(k), C.name(ev[CARD]))
        what = "Your" if t // NSHIPS == me else "Foe"
        if tgt[SQ] < 0:
            return "%s %s sunk by %s" % (what, SHIP_NAMES[tgt[TYPE]], C.name(k))
        if k == C.SHEAR_OARS:
            return "%s %s %s: oars sheared" % (what, SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQ]))
        return "%s %s %s hit: %d/%d left" % (what, SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQ]),
                                             tgt[LEFT], HITS[tgt[TYPE]])
    if tag == "concede":
        return "%s conceded" % who
    return "%s: %s" % (who, tag)
