# Periplus in words and forecasts for the screen and the log: what a legal action is called,
# which squares it touches, what a ship is, what the last event did told from one player's side
# (news) and the short log line games.describe gives for it (describe). Rules-side and
# pure (no UI): the screen asks, it never works these out itself.
from fathom.compat import const
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus import engine as E
from fathom.sealed.hooks import DEAL_TAGS, deal_line
from fathom.games.periplus.fleet import HITS, SHIP_ABBR, SHIP_NAMES, abbr, ahead_dest, grid

# The schema's names this module reads (the engine's, the fleet's, and base's): private
# copies that MicroPython folds into the code, so they cost no heap; a test holds each
# to its schema.
_SETUP = const("setup")
_CONCEDE = const("concede")
_TAG = const(0)
_EV_DISCARD = const("discard")
_DISCARD_CARD = const(1)
_EV_MOVE = const("move")
_MOVE_CARD = const(1)
_MOVE_SHIP = const(2)
_MOVE_TO = const(3)
_EV_AHEAD = const("ahead")
_AHEAD_CARD = const(1)
_AHEAD_SHIP = const(2)
_EV_ALSO = const("also")
_ALSO_SHIP = const(1)
_EV_HALT = const("halt")
_EV_PASS = const("pass")
_EV_FIRE = const("fire")
_FIRE_CARD = const(1)
_FIRE_SHIP = const(2)
_FIRE_TARGET = const(3)
_EV_TAKE = const("take")
_EV_DEFEND = const("defend")
_DEFEND_CARD = const(1)
_PHASE = const("phase")
_FLEET_RANGE = const("fleet")
_PENDING = const("pending")
_P_CARD = const(0)
_P_BY = const(1)
_P_AT = const(2)
_PH_MOVE = const("move")
_SHIPS = const("ships")
_NSHIPS = const(8)
_TYPE = const(0)
_SQUARE = const(1)
_LEFT = const(2)
_SHEARED = const(3)

# The one short form of a card (the hand, a row of cards), shown with its name on the first
# page of the help; parallel to cards.CARDS. Everywhere else a card goes by its name.
CODE = ("R1", "R2", "R3", "R4", "PER", "PRG", "RRM", "RAM", "SHR", "HOP", "HPX", "CRV", "MAR",
        "FDK", "ARC", "JAV", "SLG", "GFI", "BAL", "CAT", "TRB", "TWR", "PAR", "RHL", "DIS")
_KIND_WORDS = {C.MOVE: "move", C.RAM: "ram", C.BOARD: "board", C.SHOOT: "shot", C.DEFENSE: "defence"}


def next_square(player, row):
    """The back-row square the next ship of the set-up goes to."""
    return B.back_row(player) * B.SIZE + len(row)


def ahead_to(pub, sid, n):
    return ahead_dest(pub, grid(pub), sid, n)


def card_words(k):
    """'Javelins: shot, range 2' / 'Periplus: move, knight' / 'Parablemata: stops shots'."""
    t = C.ctype(k)
    r = C.rng(k)
    if t == C.DEFENSE:
        return "%s: stops %ss" % (C.name(k), _KIND_WORDS[r])
    return "%s: %s, %s" % (C.name(k), _KIND_WORDS[t], "knight jump" if r == C.KNIGHT
                           else "range %d" % r)


def squares(pub, player, row, a):
    """(from, to) squares an action touches, -1 for none: the ship and its goal, the attacker
    and its target, the next set-up square. Where a fleet move ends is a forecast."""
    sh = pub[_SHIPS]
    if not isinstance(a, list):
        return next_square(player, row), -1
    tag = a[_TAG]
    if tag == _EV_MOVE:
        return sh[a[_MOVE_SHIP]][_SQUARE], a[_MOVE_TO]
    if tag == _EV_AHEAD:
        s = a[_AHEAD_SHIP]
        return sh[s][_SQUARE], ahead_to(pub, s, C.rng(a[_AHEAD_CARD]))
    if tag == _EV_ALSO:
        s = a[_ALSO_SHIP]
        return sh[s][_SQUARE], ahead_to(pub, s, pub[_FLEET_RANGE])
    if tag == _EV_FIRE:
        return sh[a[_FIRE_SHIP]][_SQUARE], sh[a[_FIRE_TARGET]][_SQUARE]
    atk = pub[_PENDING]
    if (tag == _EV_TAKE or tag == _EV_DEFEND) and atk:
        return sh[atk[_P_BY]][_SQUARE], sh[atk[_P_AT]][_SQUARE]
    return -1, -1


def label(pub, player, row, a):
    """One line per action (the full list a test or a log reads)."""
    if not isinstance(a, list):
        return "Place %s at %s" % (SHIP_NAMES[a], B.sq_name(next_square(player, row)))
    tag = a[_TAG]
    if tag == _EV_DISCARD:
        return "Discard " + C.name(a[_DISCARD_CARD])
    if tag == _EV_PASS:
        return "Pass (no move)" if pub[_PHASE] == _PH_MOVE else "Pass (no attack)"
    if tag == _EV_HALT:
        return "Halt the fleet"
    if tag == _EV_TAKE:
        return "Take the hit"
    if tag == _EV_DEFEND:
        return "Negate with " + C.name(a[_DEFEND_CARD])
    s, t = squares(pub, player, row, a)
    if tag == _EV_MOVE:
        return "%s: %s %s>%s" % (C.name(a[_MOVE_CARD]), abbr(pub, a[_MOVE_SHIP]),
                                 B.sq_name(s), B.sq_name(t))
    if tag == _EV_AHEAD:
        return "%s: fleet %s %s>%s" % (C.name(a[_AHEAD_CARD]), abbr(pub, a[_AHEAD_SHIP]),
                                       B.sq_name(s), B.sq_name(t))
    if tag == _EV_ALSO:
        return "Also %s %s>%s" % (abbr(pub, a[_ALSO_SHIP]), B.sq_name(s), B.sq_name(t))
    if tag == _EV_FIRE:
        return "%s: %s %s>%s %s" % (C.name(a[_FIRE_CARD]), abbr(pub, a[_FIRE_SHIP]),
                                    B.sq_name(s), abbr(pub, a[_FIRE_TARGET]), B.sq_name(t))
    return tag


def choice(pub, a):
    """An action in the few words of a menu opened on its square (the square says the rest)."""
    tag = a[_TAG]
    if tag == _EV_MOVE:
        return C.name(a[_MOVE_CARD])
    if tag == _EV_AHEAD:
        return "Fleet ahead"     # the goal's one move card, the line above, with the fleet
    if tag == _EV_ALSO:
        return "Follow"
    if tag == _EV_HALT:
        return "Halt fleet"
    if tag == _EV_PASS:
        return "Pass"
    if tag == _EV_FIRE:
        return "%s %s" % (C.name(a[_FIRE_CARD]), B.sq_name(pub[_SHIPS][a[_FIRE_SHIP]][_SQUARE]))
    if tag == _EV_TAKE:
        return "Take hit"
    if tag == _EV_DEFEND:
        return "Negate"
    return tag


def prompt(pub, hand, me):
    """The defender's question: what attacks which ship, and whether a card can stop it."""
    atk = pub[_PENDING]
    k, s, t = atk[_P_CARD], atk[_P_BY], atk[_P_AT]
    d = C.defense_for(k)
    tgt = pub[_SHIPS][t]
    text = "%s from %s at your %s %s %d/%d. " % (
        C.name(k), B.sq_name(pub[_SHIPS][s][_SQUARE]), SHIP_NAMES[tgt[_TYPE]], B.sq_name(tgt[_SQUARE]),
        tgt[_LEFT], HITS[tgt[_TYPE]])
    if d in hand:
        return text + "Negate it with %s?" % C.name(d)
    return text + "No %s in hand." % C.name(d)


def fleet_words(pub, owner):
    out = []
    for sid in range(owner * _NSHIPS, (owner + 1) * _NSHIPS):
        sh = pub[_SHIPS][sid]
        if sh[_SQUARE] >= 0:
            out.append("%s %s %d%s" % (SHIP_ABBR[sh[_TYPE]], B.sq_name(sh[_SQUARE]), sh[_LEFT],
                                       "*" if sh[_SHEARED] else ""))
    return ", ".join(out)


def _who(author, me):
    return "You" if author == me else "P%d" % (author + 1)


def _name(pub, sid):
    return SHIP_NAMES[pub[_SHIPS][sid][_TYPE]]


def _ship(pub, sid, me):
    sh = pub[_SHIPS][sid]
    return "%s%s %s" % ("your " if sid // _NSHIPS == me else "", SHIP_NAMES[sh[_TYPE]],
                        B.sq_name(sh[_SQUARE]) if sh[_SQUARE] >= 0 else "")


def news(pub, log, me):
    """What the last event did, in words from player me's side; read right after the event
    (the squares are where the ships are now). `log` is [(author, event)]."""
    if not log:
        return "You are P%d" % (me + 1)
    author, ev = log[-1]
    if ev[_TAG] == _SETUP:
        return "You are P%d" % (me + 1)
    who = _who(author, me)
    tag = ev[_TAG]
    sh = pub[_SHIPS]
    if tag == _EV_DISCARD:
        return "%s discarded %s" % (who, C.name(ev[_DISCARD_CARD]))
    if tag == _EV_MOVE:
        return "%s: %s, %s to %s" % (who, C.name(ev[_MOVE_CARD]), _name(pub, ev[_MOVE_SHIP]),
                                     B.sq_name(ev[_MOVE_TO]))
    if tag == _EV_AHEAD:
        s = ev[_AHEAD_SHIP]
        return "%s: %s fleet ahead, %s to %s" % (who, C.name(ev[_AHEAD_CARD]), _name(pub, s),
                                                 B.sq_name(sh[s][_SQUARE]))
    if tag == _EV_ALSO:
        s = ev[_ALSO_SHIP]
        return "%s: %s follows to %s" % (who, _name(pub, s), B.sq_name(sh[s][_SQUARE]))
    if tag == _EV_HALT:
        return "%s halted the fleet" % who
    if tag == _EV_PASS:
        return "%s passed" % who
    if tag == _EV_FIRE:
        return "%s: %s from %s at %s" % (who, C.name(ev[_FIRE_CARD]),
                                         B.sq_name(sh[ev[_FIRE_SHIP]][_SQUARE]),
                                         _ship(pub, ev[_FIRE_TARGET], me))
    # The answer to an attack: the attack is the event before it.
    attack = None
    if len(log) >= 2:
        _by, attack = log[-2]
    if (tag == _EV_TAKE or tag == _EV_DEFEND) and attack and attack[_TAG] == _EV_FIRE:
        k, t = attack[_FIRE_CARD], attack[_FIRE_TARGET]
        tgt = sh[t]
        if tag == _EV_DEFEND:
            return "%s negated %s with %s" % (who, C.name(k), C.name(ev[_DEFEND_CARD]))
        what = "Your" if t // _NSHIPS == me else "Foe"
        if tgt[_SQUARE] < 0:
            return "%s %s sunk by %s" % (what, SHIP_NAMES[tgt[_TYPE]], C.name(k))
        if k == C.SHEAR_OARS:
            return "%s %s %s: oars sheared" % (what, SHIP_NAMES[tgt[_TYPE]],
                                               B.sq_name(tgt[_SQUARE]))
        return "%s %s %s hit: %d/%d left" % (what, SHIP_NAMES[tgt[_TYPE]], B.sq_name(tgt[_SQUARE]),
                                             tgt[_LEFT], HITS[tgt[_TYPE]])
    if tag == _CONCEDE:
        return "%s conceded" % who
    return "%s: %s" % (who, tag)


# ---- the log line (games.describe) ---------------------------------------------
def describe(pub, author, event):
    """One short line for the log screen: the author as P1/P2, then the event in a few words."""
    try:
        return "P%d %s" % (author + 1, _line(pub, event))
    except Exception:  # a log line must never take the screen down
        return "P%d %s" % (author + 1, event[_TAG])


def _line(pub, ev):
    """What an event did, in a few words for the log screen (the player is added before)."""
    tag = ev[_TAG]
    if tag == _EV_DISCARD:
        return "discards " + C.name(ev[_DISCARD_CARD])
    if tag == _EV_DEFEND:
        return "plays " + C.name(ev[_DEFEND_CARD])
    if tag == _EV_MOVE:
        return "%s: %s to %s" % (C.name(ev[_MOVE_CARD]), _name(pub, ev[_MOVE_SHIP]),
                                 B.sq_name(ev[_MOVE_TO]))
    if tag == _EV_AHEAD:
        return "%s: fleet ahead, %s first" % (C.name(ev[_AHEAD_CARD]),
                                              _name(pub, ev[_AHEAD_SHIP]))
    if tag == _EV_ALSO:
        return "%s follows" % _name(pub, ev[_ALSO_SHIP])
    if tag == _EV_FIRE:
        return "%s: %s at %s" % (C.name(ev[_FIRE_CARD]), _name(pub, ev[_FIRE_SHIP]),
                                 _name(pub, ev[_FIRE_TARGET]))
    if tag == _EV_TAKE:
        return "takes the hit"
    if tag == _EV_PASS:
        return "passes"
    if tag == _EV_HALT:
        return "halts the fleet"
    if tag in DEAL_TAGS:
        return deal_line(ev)
    if tag == E.EV_FOUL:
        return "FOUL: bad card"
    return tag
