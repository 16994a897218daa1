# Periplus: two Greek fleets on an 8x8 board with a shared deck (docs/rules/periplus.md).
ID = "periplus"
TITLE = "Periplus"
PLAYERS = (2, 2)
OPTIONS = (("islands", "Islands", (0, 2, 4), 0),)
PARTS = ("engine", "bot", "screen", "companion")
