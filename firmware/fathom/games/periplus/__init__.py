# Periplus (Greek warship skirmish on an 8x8 board): engine, card list and board geometry.
from fathom.games.periplus.engine import ENGINE, PeriplusEngine  # noqa: F401
