# Sugar Dog: hidden submarines, mines and loud torpedoes, one unit per player
# (docs/rules/sugar_dog.md).
ID = "sugardog"
TITLE = "Sugar Dog"
PLAYERS = (2, 8)   # the source: "any number of additional players"; the map grows with them
# A host's live heap, bytes: about HOST_HEAP[0] + HOST_HEAP[1] per partner (fathom bench device
# --link, frozen; docs/ARCHITECTURE.md "Linked games"): the game menu offers to host only the
# groups whose host fits this unit's heap (flow/pairing.py)
HOST_HEAP = (47234, 2318)
OPTIONS = (("calm", "Calm rounds", (10, 20, 30, 50), 20),)
QUICK = (("calm", 10),)   # a game that ends in minutes: what the benches' groups play
HARD = True   # its hard bot beats sharp (68 % of decided games, `fathom bench bots`): offered
PARTS = ("engine", "say", "bot", "screen", "companion", "replay")
SHOTS = (2, "Your move", "OK")  # docs pictures: choices made, top line then, 2nd picture's keys
