# Periplus: two Greek fleets on an 8x8 board with a shared deck (docs/rules/periplus.md).
ID = "periplus"
TITLE = "Periplus"
PLAYERS = (2, 2)
# sealed: 1 deals the deck with the sealed deal (docs/SEALED_DEAL.md), 0 from the joint seed.
OPTIONS = (("islands", "Islands", (0, 2, 4), 0), ("sealed", "Sealed deal", (0, 1), 0))
PARTS = ("engine", "bot", "screen", "companion")
