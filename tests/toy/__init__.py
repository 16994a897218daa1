# The toy: a sixth game that lives outside fathom.games, registered by the tests with
# games.register("toy") exactly as a new game folder would be listed. It declares no bot
# and no screen part, so the menus offer only the random bot and the generic game screen.
ID = "toy"
TITLE = "Toy"
PLAYERS = (2, 2)
OPTIONS = (("top", "Top", (4, 6), 4),)
PARTS = ("engine", "say", "companion")
