# The game registry: ids in menu order, loaded lazily so only the game being played costs heap.
GAMES = (
    ("ping", "PING", "fathom.games.ping"),
    ("ashtapada", "Lake Ashtapada", "fathom.games.ashtapada"),
    ("sugardog", "Sugar Dog", "fathom.games.sugardog"),
    ("periplus", "Periplus", "fathom.games.periplus"),
    ("pinned_down", "Pinned Down", "fathom.games.pinned_down"),
)


def engine(name):
    """The engine instance for a game id; ImportError/KeyError if not available."""
    for gid, _title, mod in GAMES:
        if gid == name:
            m = __import__(mod, None, None, ("ENGINE",))
            return m.ENGINE
    raise KeyError("unknown game " + str(name))


def available(name):
    try:
        return engine(name).PLAYABLE
    except ImportError:
        return False
