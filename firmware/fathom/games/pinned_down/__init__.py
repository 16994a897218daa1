# Pinned Down (cooperative starship card game): engine, card pool, deck files.
from fathom.games.pinned_down.engine import ENGINE, PinnedDown  # noqa: F401
