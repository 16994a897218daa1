# Sugar Dog in words, for the screen and anything else that shows the game: where on the map an
# action is pointed at, its label in the short menu of that square, what an event meant, said
# from one player's side, and the log's short line (describe). Rules questions (which square a torpedo enters first) are
# answered here with the engine's own step(), so the UI never re-derives them.
from fathom.compat import const
from fathom.games.sugardog.engine import DIRS, back, name, step

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_SETUP = const("setup")
_CONCEDE = const("concede")
_TAG = const(0)
_EV_QUIET = const("q")
_EV_CRUISE = const("c")
_CRUISE_AT = const(1)
_EV_STOP = const("n")
_EV_FIRE = const("f")
_FIRE_AT = const(1)
_FIRE_HEADING = const(2)
_EV_SONAR = const("s")
_SONAR_AT = const(1)
_SONAR_MINES = const(2)
_EV_ECHO = const("e")
_EV_ANSWER = const("a")
_ANSWER_SQUARES = const(1)
_ANSWER_RES = const(2)
_CLEAR = const(0)
_MINE_HIT = const(1)
_SIZE = const("size")
_A_KIND = const(0)
_A_TO = const(1)
_A_HEADING = const(1)
_G_SUB = const(115)
_G_TORP = const(116)
_G_MINE = const(109)
_G_CONTACT = const(99)

_HEADINGS = ("north", "east", "south", "west")


def anchor(size, pos, action):
    """The square a player points at to choose `action` (a set-up choice is a square): where
    the submarine goes, the torpedo's first square, or the submarine's own square."""
    if not isinstance(action, list):
        return action
    kind = action[_A_KIND]
    if kind in ("run", "cruise"):
        return action[_A_TO]
    if kind == "fire":
        return step(size, pos, action[_A_HEADING])
    return pos


# Menu order at a square: the likelier choice first (fewer presses).
_ORDER = {"run": 0, "mine": 1, "sonar": 2, "cruise": 1, "fire": 2, "stop": 0}


def order(action):
    return _ORDER[action[_A_KIND]] if isinstance(action, list) else 0


def label(pos, action, second=False):
    """The action in a few words, for the menu of its square (the square is the menu's title).
    second: the second step of a cruise."""
    if not isinstance(action, list):
        return "Start here"
    kind = action[_A_KIND]
    if kind == "run":
        return "Stay put" if action[_A_TO] == pos else "Sneak here"
    if kind == "mine":
        return "Lay mine"
    if kind == "cruise":
        return "Cruise on" if second else "Cruise here"
    if kind == "stop":
        return "Stop here"
    if kind == "sonar":
        return "Sonar ping"
    return "Torpedo " + DIRS[action[_A_HEADING]]


def path(size, pos, action):
    """The squares an action touches this turn, to light them on the map."""
    if not isinstance(action, list):
        return [action]
    if action[_A_KIND] != "fire":
        return [anchor(size, pos, action)]
    out = []
    q = pos
    for _i in range(2):
        q = step(size, q, action[_A_HEADING])
        if q < 0:
            break
        out.append(q)
    return out


def _who(viewer, p):
    if p == viewer:
        return "You"
    return "P%d" % (p + 1)


def _squares(size, sqs):
    return " ".join([name(size, q) for q in sqs])


def happened(size, viewer, author, event):
    """One event in words from `viewer`'s side: 'Torpedo from C2 heading north',
    'P2: your torpedo hit P2 at C4'. Malformed events are said as such, never trusted."""
    who = _who(viewer, author)
    try:
        tag = event[_TAG]
        if tag == _SETUP:
            return who + (" are" if author == viewer else " is") + " ready"
        if tag == _CONCEDE:
            return who + " conceded"
        if tag == _EV_QUIET:
            return who + " ran silent"
        if tag == _EV_CRUISE:
            return who + " cruised into " + name(size, event[_CRUISE_AT])
        if tag == _EV_STOP:
            return who + " stopped: no further contacts"
        if tag == _EV_FIRE:
            heading = event[_FIRE_HEADING]
            launch = step(size, event[_FIRE_AT], back(heading))
            return "Torpedo from %s heading %s" % (name(size, launch), _HEADINGS[heading])
        if tag == _EV_SONAR or tag == _EV_ECHO:   # an echo has a ping's shape
            mines = event[_SONAR_MINES]
            what = ("mines " + _squares(size, mines)) if mines else "no mines"
            verb = " pinged at " if tag == _EV_SONAR else " echoed from "
            return who + verb + name(size, event[_SONAR_AT]) + ": " + what
        if tag == _EV_ANSWER:
            sqs = event[_ANSWER_SQUARES]
            res = event[_ANSWER_RES]
            at = name(size, sqs[-1])
            if res == _CLEAR:
                have = " have" if author == viewer else " has"
                return who + have + " nothing at " + _squares(size, sqs)
            if res == _MINE_HIT:
                mine = "Your mine" if author == viewer else "%s's mine" % who
                return "%s at %s blew up" % (mine, at)
            if author == viewer:
                return "Your submarine at %s is hit: sunk" % at
            return "Hit! %s sunk at %s" % (who, at)
    except (IndexError, TypeError, ValueError, KeyError):
        pass
    return who + " sent something odd"


def you_are(viewer, n):
    return "You are P%d of %d" % (viewer + 1, n)


def here(glyph):
    """What the map shows on a square, in a word (a glyph of engine.marks: G_SUB...)."""
    return _HERE.get(glyph, "")


_HERE = {_G_SUB: "your sub", _G_MINE: "your mine", _G_TORP: "your torp", _G_CONTACT: "contact"}
HERE_WORDS = tuple(_HERE.values())
HERE_MAX = max([len(w) for w in HERE_WORDS])   # the longest of here()'s words


# ---- the log line (games.describe), in the source's notation ----------------------
def describe(pub, author, event):
    """One short line for the log screen: 'P1 torpedo C4>N', 'P2 impact C5 sub'."""
    size = pub[_SIZE]
    who = "P%d " % (author + 1)
    tag = event[_TAG] if isinstance(event, list) and event else "?"
    try:
        if tag == _EV_QUIET:
            return who + "runs silent"
        if tag == _EV_CRUISE:
            return who + "contact " + name(size, event[_CRUISE_AT])
        if tag == _EV_STOP:
            return who + "no further contacts"
        if tag == _EV_FIRE:
            return who + "torpedo %s>%s" % (name(size, event[_FIRE_AT]),
                                            DIRS[event[_FIRE_HEADING]])
        if tag == _EV_SONAR or tag == _EV_ECHO:   # an echo has a ping's shape
            line = who + ("ping " if tag == _EV_SONAR else "echo ") + \
                name(size, event[_SONAR_AT])
            if event[_SONAR_MINES]:
                line += " m:" + ",".join([name(size, m) for m in event[_SONAR_MINES]])
            return line
        if tag == _EV_ANSWER:
            sqs = event[_ANSWER_SQUARES]
            if event[_ANSWER_RES] == _CLEAR:
                return who + "clear " + ",".join([name(size, q) for q in sqs])
            return who + "impact %s %s" % (name(size, sqs[-1]),
                                           "mine" if event[_ANSWER_RES] == _MINE_HIT else "sub")
    except (IndexError, TypeError, ValueError, OverflowError):  # shown, never trusted
        pass
    return who + str(tag)
