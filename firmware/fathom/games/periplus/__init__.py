# Periplus: two Greek fleets on an 8x8 board with a shared deck (docs/rules/periplus.md).
ID = "periplus"
TITLE = "Periplus"
PLAYERS = (2, 2)
# sealed: 1 (on, the default) deals the deck with the sealed deal (docs/SEALED_DEAL.md), 0 from
# the joint seed; a game against the in-unit bot is always 0 (base.LINK_ONLY).
OPTIONS = (("islands", "Islands", (0, 2, 4), 0),
           ("sealed", "Sealed deal", (0, 1), 1, ("off", "on")))
PARTS = ("engine", "say", "bot", "screen", "companion", "replay")
LONG_BOTS = "random"  # sharp bots end it in tens of moves: the device bench plays one more
SHOTS = (10, "P1 move", "OK,OK")  # docs pictures: choices made, top line then, 2nd picture's keys
