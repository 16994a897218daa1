# PING in words, from the rules' side: what a choice is called, where on the map it points, one
# line per event for the player who reads it ("You", the other captain "P2") and the short log
# line games.describe gives for it. The screen and any other front end ask here;
# nothing in this module draws, and events carry only public facts.
from fathom.compat import const
from fathom.games.ping import board as B
from fathom.games.ping import engine as E
from fathom.sealed import hooks

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_SETUP = const("setup")
_CONCEDE = const("concede")
_TAG = const(0)
_EV_REPORT = const("report")
_REPORT_SQ = const(1)
_REPORT_WIN = const(2)
_EV_UP = const("up")
_UP_CARD = const(1)
_UP_MODE = const(2)
_UP_SQ = const(3)
_UP_REPORT = const(4)
_UP_DIR = const(4)
_UP_WIN = const(5)
_EV_DOWN = const("down")
_DOWN_SQ = const(1)
_DOWN_WIN = const(2)
_EV_LISTEN = const("listen")
_EV_SEEN = const("seen")
_SEEN_CARD = const(1)
_SEEN_MODE = const(2)
_SEEN_SQ = const(3)
_EV_DIVE = const("dive")
_EV_MISS = const("miss")
_EV_HIT = const("hit")
_EV_SHUFFLE = const("shuffle")
_EV_DISABLE = const("disable")
_DISABLE_FIRST = const(1)
_DISABLE_SECOND = const(2)
_EV_DAMAGE = const("damage")
_DAMAGE_SUNK = const(1)
_DAMAGE_SQ = const(2)
_EV_HAND = const("hand")
_EV_END = const("end")
_HAND_CARD = const(1)
_HAND_MODE = const(2)
_A_MOVE = const("move")
_A_TORPEDO = const("torpedo")
_A_REPAIR = const("repair")
_ACT_CARD = const(1)
_MOVE_DEST = const(2)
_MOVE_REPORT = const(3)
_TORPEDO_DIR = const(2)

# The one short form of a card's action, shown on the help's first page (M2 PING: MOVE 2 /
# PING); a narrower place takes its first three letters.
_U4 = ("PING", "LSTN", "TORP", "GUN", "ENCR", "DIVE")
_VERB = {"ping": "ping", "listen": "listen", "gun": "deck gun", "encrypt": "encrypt",
         "dive": "dive"}


def code(c):
    """A card in four characters: MOVE 2 / PING is '2PIN'."""
    steps, util = B.CARDS[c]
    return "%d%s" % (steps, _U4[util][:3])


def card(c):
    """A card in words short enough for a side strip: 'M2 PING' (MOVE 2, then its action)."""
    steps, util = B.CARDS[c]
    return "M%d %s" % (steps, _U4[util])


def util_short(u):
    """A card's action alone in its short form ('LSTN'), where only the action is public."""
    return _U4[u]


def card_short(c):
    """A card in six characters for a narrow side strip: '2 PING'."""
    steps, util = B.CARDS[c]
    return "%d %s" % (steps, _U4[util])


def label(action, narrow=False):
    """A legal action (or set-up square) in words, for a menu opened on its square; narrow:
    for a menu of 18 characters (72 pixels), the card in its six-character form."""
    if not isinstance(action, list):
        return "start here"
    kind = action[_TAG]
    if kind == _EV_REPORT:
        return "report objective"
    if kind == _EV_END:
        return "end turn"
    if kind == _EV_SHUFFLE:
        return "shuffle hand"
    if kind == _EV_DISABLE:
        return "cards %d+%d" % (action[_DISABLE_FIRST] + 1, action[_DISABLE_SECOND] + 1)
    c = action[_ACT_CARD]
    c = card_short(c) if narrow else card(c)
    if kind == _A_REPAIR:
        return "repair " + c
    if kind == _A_MOVE:
        return ("move+report " if action[_MOVE_REPORT] else "move ") + c
    if kind == _A_TORPEDO:
        return "torpedo %s %s" % (B.DIR_NAMES[action[_TORPEDO_DIR]], c)
    return _VERB[kind] + " " + c


def squares_of(action, me):
    """The squares an action is pointed at on the map (where its menu offers it): the start
    square, the move's destination, every square of the torpedo's run; else your own square."""
    if not isinstance(action, list):
        return [action]
    if action[_TAG] == _A_MOVE:
        return [action[_MOVE_DEST]]
    if action[_TAG] == _A_TORPEDO:
        return B.path(me, action[_TORPEDO_DIR])
    return [me]


def reaches(action, me):
    """The squares an action touches (shown when it is highlighted)."""
    if isinstance(action, list) and action[_TAG] == "gun":
        return [me] + B.squares(B.NB[me])
    return squares_of(action, me)


def rank(action):
    """Menu order on a square: the free report first, then what fires or listens, then moves,
    then repairs (what a captain reaches for most, nearest the top)."""
    if not isinstance(action, list):
        return 0
    kind = action[_TAG]
    return _RANKED.index(kind) if kind in _RANKED else 10


_RANKED = ("report", "end", "torpedo", "gun", "ping", "listen", "encrypt", "dive", "move", "repair")
RANKS = 11                 # rank() is below this


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
    if ev[_TAG] != _EV_UP or ev[_UP_MODE] != B.UTILITY:
        return None
    util = B.CARDS[ev[_UP_CARD]][1]
    if util == B.TORPEDO:
        return "Torpedo from %s heading %s" % (B.name(ev[_UP_SQ]), B.DIR_NAMES[ev[_UP_DIR]])
    if util == B.DECK_GUN:
        return "Deck gun at " + B.name(ev[_UP_SQ])
    return None


def line(log, me):
    """The last event of `log` (a sequence of (author, event)) as one line for player `me`;
    an answer is told with what it answers ('Torpedo from K heading E: miss')."""
    n = len(log)
    author, ev = log[n - 1] if n else (0, None)
    if ev is None or ev[_TAG] == _SETUP:
        return "You are P%d%s" % (me + 1, ": you start" if me == 0 else "")
    who = _who(author, me)
    whose = "Your" if author == me else who
    tag = ev[_TAG]
    prev = None
    if n > 1:
        _author, prev = log[n - 2]
    if tag == _EV_HIT or tag == _EV_MISS or tag == _EV_DIVE:
        shot = _shot(prev) if prev is not None else None
        what = "hit!" if tag == _EV_HIT else "miss" if tag == _EV_MISS else "dived, no effect"
        return (shot or "Shot") + ": " + what
    if tag == _EV_REPORT:
        return "%s reported objective %s" % (who, B.name(ev[_REPORT_SQ])) + \
            (": WIN" if ev[_REPORT_WIN] else "")
    if tag == _EV_UP:
        mode, sq = ev[_UP_MODE], ev[_UP_SQ]
        shot = _shot(ev)
        if shot:
            return who + (" fire: " if author == me else " fires: ") + shot
        if mode == B.MOVEMENT:
            s = "%s moved 3 to %s" % (who, B.name(sq))
            return s + (" and reported it" if ev[_UP_REPORT] else "") + \
                (": WIN" if ev[_UP_WIN] else "")
        return "%s PING from %s" % (who, B.name(sq))
    if tag == _EV_DOWN:
        s = who + " played a card face down"
        if ev[_DOWN_SQ] >= 0:
            s = "%s moved to %s and reported it" % (who, B.name(ev[_DOWN_SQ]))
        return s + (": WIN" if ev[_DOWN_WIN] else "")
    if tag == _EV_LISTEN:
        return who + " listen" + ("" if author == me else "s")
    if tag == _EV_END:
        return who + " ended the turn, no report"
    if tag == _EV_SEEN:
        s = "%s card was %s" % (whose, _use(ev[_SEEN_CARD], ev[_SEEN_MODE]))
        sq = ev[_SEEN_SQ]
        return s + (" at " + B.name(sq) if sq >= 0 else ": place hidden")
    if tag == _EV_HAND:
        return "%s card taken: it was %s" % (whose, _use(ev[_HAND_CARD], ev[_HAND_MODE]))
    if tag == _EV_SHUFFLE:
        return who + " shuffled the hand"
    if tag == _EV_DISABLE:
        return "%s disabled cards %d+%d" % (who, ev[_DISABLE_FIRST] + 1,
                                            ev[_DISABLE_SECOND] + 1)
    if tag == _EV_DAMAGE:
        return "%s %s at %s" % (who, "SUNK" if ev[_DAMAGE_SUNK] else "damaged",
                                B.name(ev[_DAMAGE_SQ]))
    if tag == _CONCEDE:
        return who + " conceded"
    return "%s: %s" % (who, tag)


# ---- the log line (games.describe) ---------------------------------------------
def describe(pub, author, ev):
    """One short line for the log screen: the author as P1/P2, then the event in a few words."""
    who = "P%d " % (author + 1)
    tag = ev[_TAG]
    try:
        if tag == _EV_REPORT:
            return who + "report at " + B.name(ev[_REPORT_SQ])
        if tag == _EV_UP:
            c, mode, sq = ev[_UP_CARD], ev[_UP_MODE], ev[_UP_SQ]
            s = who + _use(c, mode) + " " + B.name(sq)
            if mode == B.UTILITY and B.CARDS[c][1] == B.TORPEDO:
                s += " " + B.DIR_NAMES[ev[_UP_DIR]]
            return s + (" rep" if mode == B.MOVEMENT and ev[_UP_REPORT] else "")
        if tag == _EV_DOWN:
            sq, win = ev[_DOWN_SQ], ev[_DOWN_WIN]
            if sq < 0 and not win:
                return who + "face-down card"
            return who + "down" + (", rep " + B.name(sq) if sq >= 0 else "") + \
                (" WIN" if win else "")
        if tag == _EV_LISTEN:
            return who + "LISTEN"
        if tag == _EV_END:
            return who + "ends turn"
        if tag == _EV_SEEN:
            s = who + "was " + _use(ev[_SEEN_CARD], ev[_SEEN_MODE])
            sq = ev[_SEEN_SQ]
            return s + (" at " + B.name(sq) if sq >= 0 else "")
        if tag == _EV_HAND:
            return who + "gave " + _use(ev[_HAND_CARD], ev[_HAND_MODE])
        if tag == _EV_DIVE:
            return who + "DIVE: no effect"
        if tag == _EV_HIT:
            return who + "hit"
        if tag == _EV_MISS:
            return who + "missed"
        if tag == _EV_SHUFFLE:
            return who + "shuffles hand"
        if tag == _EV_DISABLE:
            return who + "disables %d,%d" % (ev[_DISABLE_FIRST] + 1, ev[_DISABLE_SECOND] + 1)
        if tag == _EV_DAMAGE:
            return who + ("SUNK" if ev[_DAMAGE_SUNK] else "damaged") + " at " + \
                B.name(ev[_DAMAGE_SQ])
        if tag in hooks.DEAL_TAGS:
            return who + hooks.deal_line(ev)
        if tag == E.EV_FOUL:
            return who + "FOUL: bad card"
        if tag == _SETUP:
            return who + "ready"
        if tag == _CONCEDE:
            return who + "concedes"
    except (IndexError, TypeError, ValueError):
        pass
    return who + str(tag)
