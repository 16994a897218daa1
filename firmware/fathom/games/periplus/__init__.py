# Periplus (Greek warship skirmish on an 8x8 board): engine, card list and board geometry.
# Leaves first, each imported from here, so no import nests inside another more than one deep
# (each level holds a path buffer and interpreter frames on the C stack; issue 14).
from fathom import prng  # noqa: F401
from fathom.games import base  # noqa: F401
from fathom.games.periplus import board  # noqa: F401
from fathom.games.periplus import cards  # noqa: F401
from fathom.games.periplus import fleet  # noqa: F401
from fathom.games.periplus import say  # noqa: F401
from fathom.games.periplus.engine import ENGINE, PeriplusEngine  # noqa: F401
