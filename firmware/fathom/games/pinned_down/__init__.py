# Pinned Down: a cooperative starship fleet against the attack deck, 1 to 4 players
# (docs/rules/pinned_down.md). Its data: decks/*.txt and texts.txt beside the code.
ID = "pinned_down"
TITLE = "Pinned Down"
HOST_HEAP = (53128, 3112)  # a host's live heap: bytes + bytes per partner (as games/sugardog)
PLAYERS = (1, 4)
DECKS = ("purple", "red", "blue", "acarr")   # the four affiliations' starting decks
OPTIONS = (("deck", "P1 deck", DECKS, "red"),
           ("level", "Difficulty", ("easy", "normal", "hard"), "normal"))
# its hard bot is a better partner for a sharp player than sharp: 175 and 172 goals of 200 against
# sharp's 171 and 171 (`fathom bench bots --game pinned_down`, and `--first 200`): offered
HARD = True
PARTS = ("engine", "say", "bot", "screen", "companion", "replay")
SHOTS = (2, "Main", "RIGHT")  # docs pictures: choices made, top line then, 2nd picture's keys
