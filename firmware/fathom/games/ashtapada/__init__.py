# Lake Ashtapada: two PT boats hunt each other's secret mines by sonar
# (docs/rules/lake_ashtapada.md).
ID = "ashtapada"
TITLE = "Lake Ashtapada"
PLAYERS = (2, 2)
OPTIONS = (
    ("size", "Lake", (8, 10, 12), 10),
    ("mines", "Mines", (3, 4, 5, 6, 7), 5),
    ("islands", "Islands", (0, 1, 2, 3), 1),
    ("calm", "Draw after", (40, 60, 100), 60),
)
HARD = True   # its hard bot beats sharp (67 % of 200 decided games, `fathom bench bots`): offered
PARTS = ("engine", "say", "bot", "screen", "companion", "replay")
SHOTS = (10, "your move", "OK")  # docs pictures: choices made, top line then, 2nd picture's keys
