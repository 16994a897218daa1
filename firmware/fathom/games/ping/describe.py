# PING in words, from the rules' side: what a choice is called, where on the map it points, one
# line per event for the player who reads it ("You", the other captain "P2") and the short log
# line the engine's describe() gives for it. The screen and any other front end ask here;
# nothing in this module draws, and events carry only public facts.
from fathom.games.ping import board as B

# The one short form of a card's action, shown on the help's first page (M2 PING: MOVE 2 /
# PING); a narrower place takes its first three letters.
_U4 = ("PING", "LSTN", "TORP", "GUN", "ENCR", "DIVE")
_VERB = {"ping": "ping", "listen": "listen", "gun": "deck gun", "encrypt": "encrypt",
         "dive": "dive"}
_DIR_WORD = ("north", "east", "south", "west")


def code(c):
    """A card in four characters: MOVE 2 / PING is '2PIN'."""
    steps, util = B.CARDS[c]
    return "%d%s" % (steps, _U4[util][:3])


def card(c):
    """A card in words short enough for a side strip: 'M2 PING' (MOVE 2, then its action)."""
    steps, util = B.CARDS[c]
    return "M%d %s" % (steps, _U4[util])


def card_short(c):
    """A card in six characters for a narrow side strip: '2 PING'."""
    steps, util = B.CARDS[c]
    return "%d %s" % (steps, _U4[util])


def label(a, narrow=False):
    """A legal action (or set-up square) in words, for a menu opened on its square; narrow:
    for a menu of 18 characters (72 pixels), the card in its six-character form."""
    if not isinstance(a, list):
        return "start here"
    kind = a[0]
    if kind == "report":
        return "report objective"
    if kind == "shuffle":
        return "shuffle hand"
    if kind == "disable":
        return "cards %d+%d" % (a[1] + 1, a[2] + 1)
    c = card_short(a[1]) if narrow else card(a[1])
    if kind == "repair":
        return "repair " + c
    if kind == "move":
        return ("move+report " if a[3] else "move ") + c
    if kind == "torpedo":
        return "torpedo %s %s" % (B.DIR_NAMES[a[2]], c)
    return _VERB[kind] + " " + c


def played_card(a):
    """The card an action plays, or -1."""
    if isinstance(a, list) and len(a) > 1 and a[0] not in ("shuffle", "disable"):
        return a[1]
    return -1


def squares_of(a, me):
    """The squares an action is pointed at on the map (where its menu offers it): the start
    square, the move's destination, every square of the torpedo's run; else your own square."""
    if not isinstance(a, list):
        return [a]
    if a[0] == "move":
        return [a[2]]
    if a[0] == "torpedo":
        return B.path(me, a[2])
    return [me]


def reaches(a, me):
    """The squares an action touches (shown when it is highlighted)."""
    if isinstance(a, list) and a[0] == "gun":
        return [me] + B.squares(B.NB[me])
    return squares_of(a, me)


def rank(a):
    """Menu order on a square: the free report first, then what fires or listens, then moves,
    then repairs (what a captain reaches for most, nearest the top)."""
    if not isinstance(a, list):
        return 0
    return _RANKED.index(a[0]) if a[0] in _RANKED else 9


_RANKED = ("report", "torpedo", "gun", "ping", "listen", "encrypt", "dive", "move", "repair")
RANKS = 10                 # rank() is below this


# ---- what happened, in words ------------------------------------------------------------
def _who(author, me):
    return "You" if author == me else "P%d" % (author + 1)


def _use(c, mode):
    steps, util = B.CARDS[c]
    if mode == B.MOVEMENT:
        return "MOVE %d" % steps
    if mode == B.UTILITY:
        return B.UTIL_NAMES[util]
    return "repair"


def _shot(ev):
    """'Torpedo from K heading E' / 'Deck gun at K' for an 'up' event that fired, else None."""
    if ev[0] != "up" or ev[2] != B.UTILITY:
        return None
    util = B.CARDS[ev[1]][1]
    if util == B.TORPEDO:
        return "Torpedo from %s heading %s" % (B.name(ev[3]), B.DIR_NAMES[ev[4]])
    if util == B.DECK_GUN:
        return "Deck gun at " + B.name(ev[3])
    return None


def line(log, me):
    """The last event of `log` (a sequence of (author, event)) as one line for player `me`;
    an answer is told with what it answers ('Torpedo from K heading E: miss')."""
    n = len(log)
    if n == 0 or log[n - 1][1][0] == "setup":
        return "You are P%d%s" % (me + 1, ": you start" if me == 0 else "")
    author, ev = log[n - 1]
    who = _who(author, me)
    tag = ev[0]
    prev = log[n - 2][1] if n > 1 else None
    if tag in ("hit", "miss", "dive"):
        shot = _shot(prev) if prev is not None else None
        what = {"hit": "hit!", "miss": "miss", "dive": "dived, no effect"}[tag]
        return (shot or "Shot") + ": " + what
    if tag == "report":
        return "%s reported objective %s" % (who, B.name(ev[1])) + (": WIN" if ev[2] else "")
    if tag == "up":
        mode, sq = ev[2], ev[3]
        shot = _shot(ev)
        if shot:
            return who + (" fire: " if author == me else " fires: ") + shot
        if mode == B.MOVEMENT:
            s = "%s moved 3 to %s" % (who, B.name(sq))
            return s + (" and reported it" if ev[4] else "") + (": WIN" if ev[5] else "")
        return "%s PING from %s" % (who, B.name(sq))
    if tag == "down":
        s = who + " played a card face down"
        if ev[1] >= 0:
            s = "%s moved to %s and reported it" % (who, B.name(ev[1]))
        return s + (": WIN" if ev[2] else "")
    if tag == "listen":
        return who + " listen" + ("" if author == me else "s")
    if tag == "seen":
        s = "%s card was %s" % ("Your" if author == me else who, _use(ev[1], ev[2]))
        return s + (" at " + B.name(ev[3]) if ev[3] >= 0 else ": place hidden")
    if tag == "hand":
        return "%s card taken: it was %s" % ("Your" if author == me else who, _use(ev[1], ev[2]))
    if tag == "shuffle":
        return who + " shuffled the hand"
    if tag == "disable":
        return "%s disabled cards %d+%d" % (who, ev[1] + 1, ev[2] + 1)
    if tag == "damage":
        return "%s %s at %s" % (who, "SUNK" if ev[1] else "damaged", B.name(ev[2]))
    if tag == "concede":
        return who + " conceded"
    return "%s: %s" % (who, tag)


# ---- the log line (the engine's describe()) ---------------------------------------------
def describe(author, ev):
    """One short line for the log screen: the author as P1/P2, then the event in a few words."""
    who = "P%d " % (author + 1)
    tag = ev[0]
    try:
        if tag == "report":
            return who + "report at " + B.name(ev[1])
        if tag == "up":
            c, mode, sq = ev[1], ev[2], ev[3]
            s = who + _use(c, mode) + " " + B.name(sq)
            if mode == B.UTILITY and B.CARDS[c][1] == B.TORPEDO:
                s += " " + B.DIR_NAMES[ev[4]]
            return s + (" rep" if mode == B.MOVEMENT and ev[4] else "")
        if tag == "down":
            if ev[1] < 0 and not ev[2]:
                return who + "face-down card"
            s = who + "down"
            return s + (", rep " + B.name(ev[1]) if ev[1] >= 0 else "") + (" WIN" if ev[2] else "")
        if tag == "listen":
            return who + "LISTEN"
        if tag == "seen":
            s = who + "was " + _use(ev[1], ev[2])
            return s + (" at " + B.name(ev[3]) if ev[3] >= 0 else "")
        if tag == "hand":
            return who + "gave " + _use(ev[1], ev[2])
        if tag == "dive":
            return who + "DIVE: no effect"
        if tag == "hit":
            return who + "hit"
        if tag == "miss":
            return who + "missed"
        if tag == "shuffle":
            return who + "shuffles hand"
        if tag == "disable":
            return who + "disables %d,%d" % (ev[1] + 1, ev[2] + 1)
        if tag == "damage":
            return who + ("SUNK" if ev[1] else "damaged") + " at " + B.name(ev[2])
        if tag == "sk":
            return who + "deal key"
        if tag == "ss":
            return who + "shuffles %d-%d" % (ev[2] + 1, ev[2] + len(ev[3]) // 2)
        if tag == "so":
            return who + "opens %d card%s" % (len(ev[2]), "" if len(ev[2]) == 1 else "s")
        if tag == "foul":
            return who + "FOUL: bad card"
        if tag == "setup":
            return who + "ready"
        if tag == "concede":
            return who + "concedes"
    except (IndexError, TypeError, ValueError):
        pass
    return who + str(tag)
