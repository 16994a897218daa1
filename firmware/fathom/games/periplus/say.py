# Periplus in words and forecasts for the screen and the log: what a legal action is called,
# which squares it touches, what a ship is, what the last event did told from one player's side
# (news) and the short log line games.describe gives for it (describe). Rules-side and
# pure (no UI): the screen asks, it never works these out itself.
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.base import CONCEDE, SETUP, TAG
from fathom.games.periplus import engine as E
from fathom.sealed.hooks import DEAL_TAGS, deal_line
from fathom.games.periplus.fleet import (HITS, LEFT, NSHIPS, SHEARED, SHIP_ABBR, SHIP_NAMES,
                                         SHIPS, SQUARE, TYPE, abbr, ahead_dest, grid)

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
                                 B.sq_name(sh[SQUARE]), sh[LEFT], HITS[sh[TYPE]],
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
    if tag == E.EV_MOVE:
        return sh[a[E.MOVE_SHIP]][SQUARE], a[E.MOVE_TO]
    if tag == E.EV_AHEAD:
        s = a[E.AHEAD_SHIP]
        return sh[s][SQUARE], ahead_to(pub, s, C.rng(a[E.AHEAD_CARD]))
    if tag == E.EV_ALSO:
        s = a[E.ALSO_SHIP]
        return sh[s][SQUARE], ahead_to(pub, s, pub[E.FLEET_RANGE])
    if tag == E.EV_FIRE:
        return sh[a[E.FIRE_SHIP]][SQUARE], sh[a[E.FIRE_TARGET]][SQUARE]
    atk = pub[E.PENDING]
    if (tag == E.EV_TAKE or tag == E.EV_DEFEND) and atk:
        return sh[atk[E.P_BY]][SQUARE], sh[atk[E.P_AT]][SQUARE]
    return -1, -1


def label(pub, player, row, a):
    """One line per action (the full list a test or a log reads)."""
    if not isinstance(a, list):
        return "Place %s at %s" % (SHIP_NAMES[a], B.sq_name(next_square(player, row)))
    tag = a[TAG]
    if tag == E.EV_DISCARD:
        return "Discard " + C.name(a[E.DISCARD_CARD])
    if tag == E.EV_PASS:
        return "Pass (no move)" if pub[E.PHASE] == E.PH_MOVE else "Pass (no attack)"
    if tag == E.EV_HALT:
        return "Halt the fleet"
    if tag == E.EV_TAKE:
        return "Take the hit"
    if tag == E.EV_DEFEND:
        return "Negate with " + C.name(a[E.DEFEND_CARD])
    s, t = squares(pub, player, row, a)
    if tag == E.EV_MOVE:
        return "%s: %s %s>%s" % (C.name(a[E.MOVE_CARD]), abbr(pub, a[E.MOVE_SHIP]),
                                 B.sq_name(s), B.sq_name(t))
    if tag == E.EV_AHEAD:
        return "%s: fleet %s %s>%s" % (C.name(a[E.AHEAD_CARD]), abbr(pub, a[E.AHEAD_SHIP]),
                                       B.sq_name(s), B.sq_name(t))
    if tag == E.EV_ALSO:
        return "Also %s %s>%s" % (abbr(pub, a[E.ALSO_SHIP]), B.sq_name(s), B.sq_name(t))
    if tag == E.EV_FIRE:
        return "%s: %s %s>%s %s" % (C.name(a[E.FIRE_CARD]), abbr(pub, a[E.FIRE_SHIP]),
                                    B.sq_name(s), abbr(pub, a[E.FIRE_TARGET]), B.sq_name(t))
    return tag


def choice(pub, a):
    """An action in the few words of a menu opened on its square (the square says the rest)."""
    tag = a[TAG]
    if tag == E.EV_MOVE:
        return C.name(a[E.MOVE_CARD])
    if tag == E.EV_AHEAD:
        return "Fleet ahead"     # the goal's one move card, the line above, with the fleet
    if tag == E.EV_ALSO:
        return "Follow"
    if tag == E.EV_HALT:
        return "Halt fleet"
    if tag == E.EV_PASS:
        return "Pass"
    if tag == E.EV_FIRE:
        return "%s %s" % (C.name(a[E.FIRE_CARD]), B.sq_name(pub[SHIPS][a[E.FIRE_SHIP]][SQUARE]))
    if tag == E.EV_TAKE:
        return "Take hit"
    if tag == E.EV_DEFEND:
        return "Negate"
    return tag


def prompt(pub, hand, me):
    """The defender's question: what attacks which ship, and whether a card can stop it."""
    atk = pub[E.PENDING]
    k, s, t = atk[E.P_CARD], atk[E.P_BY], atk[E.P_AT]
    d = C.defense_for(k)
    tgt = pub[SHIPS][t]
    text = "%s from %s at your %s %s %d/%d. " % (
        C.name(k), B.sq_name(pub[SHIPS][s][SQUARE]), SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQUARE]),
        tgt[LEFT], HITS[tgt[TYPE]])
    if d in hand:
        return text + "Negate it with %s?" % C.name(d)
    return text + "No %s in hand." % C.name(d)


def fleet_words(pub, owner):
    out = []
    for sid in range(owner * NSHIPS, (owner + 1) * NSHIPS):
        sh = pub[SHIPS][sid]
        if sh[SQUARE] >= 0:
            out.append("%s %s %d%s" % (SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQUARE]), sh[LEFT],
                                       "*" if sh[SHEARED] else ""))
    return ", ".join(out)


def _who(author, me):
    return "You" if author == me else "P%d" % (author + 1)


def _ship(pub, sid, me):
    sh = pub[SHIPS][sid]
    return "%s %s" % ("your " + SHIP_ABBR[sh[TYPE]] if sid // NSHIPS == me
                      else SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQUARE]) if sh[SQUARE] >= 0 else "")


def news(pub, log, me):
    """What the last event did, in words from player me's side; read right after the event
    (the squares are where the ships are now). `log` is [(author, event)]."""
    if not log:
        return "You are P%d" % (me + 1)
    author, ev = log[-1]
    if ev[TAG] == SETUP:
        return "You are P%d" % (me + 1)
    who = _who(author, me)
    tag = ev[TAG]
    sh = pub[SHIPS]
    if tag == E.EV_DISCARD:
        return "%s discarded %s" % (who, C.name(ev[E.DISCARD_CARD]))
    if tag == E.EV_MOVE:
        return "%s: %s %s to %s" % (who, C.name(ev[E.MOVE_CARD]), abbr(pub, ev[E.MOVE_SHIP]),
                                    B.sq_name(ev[E.MOVE_TO]))
    if tag == E.EV_AHEAD:
        s = ev[E.AHEAD_SHIP]
        return "%s: %s fleet ahead, %s to %s" % (who, C.name(ev[E.AHEAD_CARD]), abbr(pub, s),
                                                 B.sq_name(sh[s][SQUARE]))
    if tag == E.EV_ALSO:
        s = ev[E.ALSO_SHIP]
        return "%s: %s follows to %s" % (who, abbr(pub, s), B.sq_name(sh[s][SQUARE]))
    if tag == E.EV_HALT:
        return "%s halted the fleet" % who
    if tag == E.EV_PASS:
        return "%s passed" % who
    if tag == E.EV_FIRE:
        return "%s: %s from %s at %s" % (who, C.name(ev[E.FIRE_CARD]),
                                         B.sq_name(sh[ev[E.FIRE_SHIP]][SQUARE]),
                                         _ship(pub, ev[E.FIRE_TARGET], me))
    # The answer to an attack: the attack is the event before it.
    attack = None
    if len(log) >= 2:
        _by, attack = log[-2]
    if (tag == E.EV_TAKE or tag == E.EV_DEFEND) and attack and attack[TAG] == E.EV_FIRE:
        k, t = attack[E.FIRE_CARD], attack[E.FIRE_TARGET]
        tgt = sh[t]
        if tag == E.EV_DEFEND:
            return "%s negated %s with %s" % (who, C.name(k), C.name(ev[E.DEFEND_CARD]))
        what = "Your" if t // NSHIPS == me else "Foe"
        if tgt[SQUARE] < 0:
            return "%s %s sunk by %s" % (what, SHIP_NAMES[tgt[TYPE]], C.name(k))
        if k == C.SHEAR_OARS:
            return "%s %s %s: oars sheared" % (what, SHIP_NAMES[tgt[TYPE]],
                                               B.sq_name(tgt[SQUARE]))
        return "%s %s %s hit: %d/%d left" % (what, SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQUARE]),
                                             tgt[LEFT], HITS[tgt[TYPE]])
    if tag == CONCEDE:
        return "%s conceded" % who
    return "%s: %s" % (who, tag)


# ---- the log line (games.describe) ---------------------------------------------
def describe(pub, author, event):
    """One short line for the log screen: the author as P1/P2, then the event in a few words."""
    try:
        return "P%d %s" % (author + 1, _line(pub, event))
    except Exception:  # a log line must never take the screen down
        return "P%d %s" % (author + 1, event[TAG])


def _line(pub, ev):
    """What an event did, in a few words for the log screen (the player is added before)."""
    tag = ev[TAG]
    if tag == E.EV_DISCARD:
        return "discards " + C.name(ev[E.DISCARD_CARD])
    if tag == E.EV_DEFEND:
        return "plays " + C.name(ev[E.DEFEND_CARD])
    if tag == E.EV_MOVE:
        return "%s %s>%s" % (C.name(ev[E.MOVE_CARD]), abbr(pub, ev[E.MOVE_SHIP]),
                             B.sq_name(ev[E.MOVE_TO]))
    if tag == E.EV_AHEAD:
        return "%s ahead %s" % (C.name(ev[E.AHEAD_CARD]), abbr(pub, ev[E.AHEAD_SHIP]))
    if tag == E.EV_ALSO:
        return "also " + abbr(pub, ev[E.ALSO_SHIP])
    if tag == E.EV_FIRE:
        return "%s %s>%s" % (C.name(ev[E.FIRE_CARD]), abbr(pub, ev[E.FIRE_SHIP]),
                             abbr(pub, ev[E.FIRE_TARGET]))
    if tag == E.EV_TAKE:
        return "takes the hit"
    if tag in DEAL_TAGS:
        return deal_line(ev)
    if tag == E.EV_FOUL:
        return "FOUL: bad card"
    return tag
