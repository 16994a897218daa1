# Sugar Dog: hidden submarines, mines and loud torpedoes, one unit per player
# (docs/rules/sugar_dog.md).
ID = "sugardog"
TITLE = "Sugar Dog"
PLAYERS = (2, 8)   # the source: "any number of additional players"; the map grows with them
OPTIONS = (("calm", "Calm rounds", (10, 20, 30, 50), 20),)
PARTS = ("engine", "bot", "screen", "companion")
