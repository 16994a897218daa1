# The game registry: ids in menu order, loaded lazily so only the game being played costs heap.
GAMES = (
    ("ping", "PING", "fathom.games.ping"),
    ("ashtapada", "Lake Ashtapada", "fathom.games.ashtapada"),
    ("sugardog", "Sugar Dog", "fathom.games.sugardog"),
    ("periplus", "Periplus", "fathom.games.periplus"),
    ("pinned_down", "Pinned Down", "fathom.games.pinned_down"),
)
# Which games can be started; kept as data so the home menu costs no engine import (each
# engine is 15-20 KB of heap on the unix port).
PLAYABLE = ("ping", "ashtapada", "sugardog", "periplus", "pinned_down")


def engine(name):
    """The engine instance for a game id; ImportError/KeyError if not available."""
    for gid, _title, mod in GAMES:
        if gid == name:
            m = __import__(mod, None, None, ("ENGINE",))
            return m.ENGINE
    raise KeyError("unknown game " + str(name))


def available(name):
    return name in PLAYABLE


def unload(name):
    """Drop a game's modules after play so the next game starts with the heap it had."""
    import sys
    from fathom import forget
    for gid, _title, mod in GAMES:
        if gid == name:
            # parents before their submodules: a package forgotten first keeps its own names
            # (a live engine still calls the submodules it imported), and nothing is left behind
            for key in sorted(sys.modules):
                if key == mod or key.startswith(mod + ".") or key in (
                        "fathom.bots." + gid, "fathom.ui.games." + gid):
                    forget(key)
