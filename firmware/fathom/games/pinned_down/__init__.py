# Pinned Down (cooperative starship card game): engine, card pool, deck files.
# The engine's modules are imported leaves first, each from here: an import runs inside the
# one that asked for it, with a path buffer and an interpreter frame on the C stack per level,
# so engine -> deckfile -> cards -> res nested four deep at the start of a game (issue 14).
from fathom import prng, res  # noqa: F401
from fathom.games import base  # noqa: F401
from fathom.games.pinned_down import cards  # noqa: F401
from fathom.games.pinned_down import fleet  # noqa: F401
from fathom.games.pinned_down import deckfile  # noqa: F401
from fathom.games.pinned_down import say  # noqa: F401
from fathom.games.pinned_down.engine import ENGINE, PinnedDown  # noqa: F401
