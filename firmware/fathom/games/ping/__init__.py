# PING: two submarines hunt each other on a map of sea lanes with cards (docs/rules/ping.md).
ID = "ping"
TITLE = "PING"
PLAYERS = (2, 2)
# sealed: 1 (on, the default) deals the hands with the sealed deal (docs/SEALED_DEAL.md), 0 from
# the joint seed; a game against the in-unit bot is always 0 (base.LINK_ONLY). Ints, like
# Periplus's islands: `fathom sim --option sealed=1`, and saves name them as such; the menu
# shows the names.
OPTIONS = (("sealed", "Sealed deal", (0, 1), 1, ("off", "on")),)
HARD = True   # its hard bot beats sharp (72 % of 200 decided games, `fathom bench bots`): offered
PARTS = ("engine", "say", "bot", "screen", "companion", "replay")
LONG_BOTS = "random"  # sharp bots end it in tens of moves: the device bench plays one more
SHOTS = (8, "your move", "OK")  # docs pictures: choices made, top line then, 2nd picture's keys
