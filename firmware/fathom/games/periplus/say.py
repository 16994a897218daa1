# Periplus in words and forecasts for the screen and the log: what a legal action is called,
# which squares it touches, what a ship is, what the last event did told from one player's side
# (news) and the short log line the engine's describe() gives for it (say). Rules-side and pure
# (no UI): the screen asks, it never works these out itself.
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus.fleet import (HITS, LEFT, NSHIPS, SHEARED, SHIP_ABBR, SHIP_NAMES,
                                         SQ, TYPE, ahead_dest, grid)

# The one short form of a card (the hand, a row of cards), shown with its name on the first
# page of the help; parallel to cards.CARDS. Everywhere else a card goes by its name.
CODE = ("R1", "R2", "R3", "R4", "PER", "PRG", "RRM", "RAM", "SHR", "HOP", "HPX", "CRV", "MAR",
        "FDK", "ARC", "JAV", "SLG", "GFI", "BAL", "CAT", "TRB", "TWR", "PAR", "RHL", "DIS")
_TYPE = {C.MOVE: "move", C.RAM: "ram", C.BOARD: "board", C.SHOOT: "shot", C.DEFENSE: "defence"}


def _abbr(pub, sid):
    return SHIP_ABBR[pub["ships"][sid][TYPE]]


def next_square(player, row):
    """The back-row square the next ship of the set-up goes to."""
    return B.back_row(player) * B.SIZE + len(row)


def ahead_to(pub, sid, n):
    return ahead_dest(pub, grid(pub), sid, n)


def ship_words(pub, sid, me):
    """'your Trireme c3 2/3' or 'foe Quinquereme e8 5/5 no oars'."""
    sh = pub["ships"][sid]
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
    sh = pub["ships"]
    if not isinstance(a, list):
        return next_square(player, row), -1
    tag = a[0]
    if tag == "move":
        return sh[a[2]][SQ], a[3]
    if tag == "ahead":
        return sh[a[2]][SQ], ahead_to(pub, a[2], C.rng(a[1]))
    if tag == "also":
        return sh[a[1]][SQ], ahead_to(pub, a[1], pub["fleet"])
    if tag == "fire":
        return sh[a[2]][SQ], sh[a[3]][SQ]
    if tag in ("take", "defend") and pub["pending"]:
        return sh[pub["pending"][1]][SQ], sh[pub["pending"][2]][SQ]
    return -1, -1


def label(pub, player, row, a):
    """One line per action (the full list a test or a log reads)."""
    if not isinstance(a, list):
        return "Place %s at %s" % (SHIP_NAMES[a], B.sq_name(next_square(player, row)))
    tag = a[0]
    if tag == "discard":
        return "Discard " + C.name(a[1])
    if tag == "pass":
        return "Pass (no move)" if pub["phase"] == "move" else "Pass (no attack)"
    if tag == "halt":
        return "Halt the fleet"
    if tag == "take":
        return "Take the hit"
    if tag == "defend":
        return "Negate with " + C.name(a[1])
    s, t = squares(pub, player, row, a)
    if tag == "move":
        return "%s: %s %s>%s" % (C.name(a[1]), _abbr(pub, a[2]), B.sq_name(s),
                                 B.sq_name(t))
    if tag == "ahead":
        return "%s: fleet %s %s>%s" % (C.name(a[1]), _abbr(pub, a[2]), B.sq_name(s),
                                       B.sq_name(t))
    if tag == "also":
        return "Also %s %s>%s" % (_abbr(pub, a[1]), B.sq_name(s), B.sq_name(t))
    if tag == "fire":
        return "%s: %s %s>%s %s" % (C.name(a[1]), _abbr(pub, a[2]), B.sq_name(s),
                                    _abbr(pub, a[3]), B.sq_name(t))
    return tag


def choice(pub, a):
    """An action in the few words of a menu opened on its square (the square says the rest)."""
    tag = a[0]
    if tag == "move":
        return C.name(a[1])
    if tag == "ahead":
        return "Fleet ahead"     # the goal's one move card, the line above, with the fleet
    if tag == "also":
        return "Follow"
    if tag == "halt":
        return "Halt fleet"
    if tag == "pass":
        return "Pass"
    if tag == "fire":
        return "%s %s" % (C.name(a[1]), B.sq_name(pub["ships"][a[2]][SQ]))
    if tag == "take":
        return "Take hit"
    if tag == "defend":
        return "Negate"
    return tag


def prompt(pub, hand, me):
    """The defender's question: what attacks which ship, and whether a card can stop it."""
    k, s, t = pub["pending"]
    d = C.defense_for(k)
    tgt = pub["ships"][t]
    text = "%s from %s at your %s %s %d/%d. " % (
        C.name(k), B.sq_name(pub["ships"][s][SQ]), SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQ]),
        tgt[LEFT], HITS[tgt[TYPE]])
    if d in hand:
        return text + "Negate it with %s?" % C.name(d)
    return text + "No %s in hand." % C.name(d)


def fleet_words(pub, owner):
    out = []
    for sid in range(owner * NSHIPS, (owner + 1) * NSHIPS):
        sh = pub["ships"][sid]
        if sh[SQ] >= 0:
            out.append("%s %s %d%s" % (SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQ]), sh[LEFT],
                                       "*" if sh[SHEARED] else ""))
    return ", ".join(out)


def _who(author, me):
    return "You" if author == me else "P%d" % (author + 1)


def _ship(pub, sid, me):
    sh = pub["ships"][sid]
    return "%s %s" % ("your " + SHIP_ABBR[sh[TYPE]] if sid // NSHIPS == me
                      else SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQ]) if sh[SQ] >= 0 else "")


def news(pub, log, me):
    """What the last event did, in words from player me's side; read right after the event
    (the squares are where the ships are now). `log` is [(author, event)]."""
    if not log or log[-1][1][0] == "setup":
        return "You are P%d" % (me + 1)
    author, ev = log[-1]
    who = _who(author, me)
    tag = ev[0]
    sh = pub["ships"]
    if tag == "discard":
        return "%s discarded %s" % (who, C.name(ev[1]))
    if tag == "move":
        return "%s: %s %s to %s" % (who, C.name(ev[1]), _abbr(pub, ev[2]),
                                    B.sq_name(ev[3]))
    if tag == "ahead":
        return "%s: %s fleet ahead, %s to %s" % (who, C.name(ev[1]), _abbr(pub, ev[2]),
                                                 B.sq_name(sh[ev[2]][SQ]))
    if tag == "also":
        return "%s: %s follows to %s" % (who, _abbr(pub, ev[1]),
                                         B.sq_name(sh[ev[1]][SQ]))
    if tag == "halt":
        return "%s halted the fleet" % who
    if tag == "pass":
        return "%s passed" % who
    if tag == "fire":
        return "%s: %s from %s at %s" % (who, C.name(ev[1]), B.sq_name(sh[ev[2]][SQ]),
                                         _ship(pub, ev[3], me))
    if tag in ("take", "defend") and len(log) >= 2 and log[-2][1][0] == "fire":
        k, t = log[-2][1][1], log[-2][1][3]
        tgt = sh[t]
        if tag == "defend":
            return "%s negated %s with %s" % (who, C.name(k), C.name(ev[1]))
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


# ---- the log line (the engine's describe()) ---------------------------------------------
def say(pub, ev):
    """What an event did, in a few words for the log screen (player prefix added by the caller)."""
    tag = ev[0]
    if tag in ("discard", "defend"):
        return "%s %s" % ("plays" if tag == "defend" else "discards", C.name(ev[1]))
    if tag == "move":
        return "%s %s>%s" % (C.name(ev[1]), _abbr(pub, ev[2]), B.sq_name(ev[3]))
    if tag == "ahead":
        return "%s ahead %s" % (C.name(ev[1]), _abbr(pub, ev[2]))
    if tag == "also":
        return "also " + _abbr(pub, ev[1])
    if tag == "fire":
        return "%s %s>%s" % (C.name(ev[1]), _abbr(pub, ev[2]), _abbr(pub, ev[3]))
    if tag == "take":
        return "takes the hit"
    if tag == "sk":
        return "deal key"
    if tag == "ss":
        return "shuffles %d-%d" % (ev[2] + 1, ev[2] + len(ev[3]) // 2)
    if tag == "so":
        return "opens %d card%s" % (len(ev[2]), "" if len(ev[2]) == 1 else "s")
    if tag == "foul":
        return "FOUL: bad card"
    return tag
