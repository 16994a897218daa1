# The game registry. A game is one folder, fathom/games/<id>/: its __init__.py declares it (ID,
# TITLE, PLAYERS, OPTIONS, and PARTS: which of engine, say, bot, screen, companion, replay it has)
# and each part is a module beside it. Menus, the companion, the bench, `fathom sim` and the tests that
# run over every game all read this list; nothing else names the games. A declaration is a
# few names; a part is imported only when used (each engine is 15-20 KB of heap unfrozen).
IDS = ["ping", "ashtapada", "sugardog", "periplus", "pinned_down"]   # in menu order
_outside = {}   # id -> package, for a game folder registered from elsewhere (a test's game)


class MissingPart(ImportError):
    """A game lacks a part, or a declared part does not import; the message names both."""


def package(gid):
    if gid in _outside:
        return _outside[gid]
    if gid in IDS:
        return "fathom.games." + gid
    raise KeyError("unknown game %r (known: %s)" % (gid, ", ".join(IDS)))


def declaration(gid):
    return __import__(package(gid), None, None, ("ID",))


def has(gid, name):
    return name in declaration(gid).PARTS


def part(gid, name):
    """The game's part module; MissingPart if it is not declared or does not import."""
    if not has(gid, name):
        raise MissingPart("%s has no %s" % (gid, name))
    mod = package(gid) + "." + name
    try:
        return __import__(mod, None, None, ("_",))
    except ImportError as e:
        raise MissingPart("%s declares a %s but %s does not import: %s" % (gid, name, mod, e))


def engine(gid):
    return part(gid, "engine").ENGINE


def options(gid, given=None):
    """The game's options with defaults filled in; IllegalAction for a bad one. Reads only the
    declaration, so a menu checks options without loading the engine."""
    from fathom.games.base import check_options
    return check_options(declaration(gid).OPTIONS, given)


def describe(eng, seat, author, event):
    """The log line for an event: the framework's own events here, the game's from its words
    (the part `say`: describe(pub, author, event), one short line, <= 21 chars ideally, for
    every event the engine accepts: the generic tests hold it to that). The registry finds the
    words, as they import their engine for its names and an engine never imports its words."""
    from fathom.games.base import CONCEDE, SETUP, event_tag
    tag = event_tag(event)
    if tag == SETUP:
        return "P%d ready" % (author + 1)
    if tag == CONCEDE:
        return "P%d concedes" % (author + 1)
    return part(eng.NAME, "say").describe(seat.pub, author, event)


def with_part(name):
    """The ids of the games that have a part, in menu order."""
    return [gid for gid in IDS if has(gid, name)]


def register(pkg):
    """Add a game folder that lives outside fathom.games (a package on sys.path)."""
    d = __import__(pkg, None, None, ("ID",))
    _outside[d.ID] = pkg
    if d.ID not in IDS:
        IDS.append(d.ID)
    return d.ID


def unregister(gid):
    unload(gid)
    del _outside[gid]
    IDS.remove(gid)


def unload(gid):
    """Drop a game's modules after play so the next game starts with the heap it had."""
    import sys
    from fathom import forget
    pkg = package(gid)
    # parents before their submodules: a package forgotten first keeps its own names (a live
    # engine still calls the submodules it imported), and nothing is left behind
    for key in sorted(sys.modules):
        if key.startswith(pkg + "."):
            forget(key)
