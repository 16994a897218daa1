# PING: two submarines hunt each other on a map of sea lanes with cards (docs/rules/ping.md).
ID = "ping"
TITLE = "PING"
PLAYERS = (2, 2)
OPTIONS = ()
PARTS = ("engine", "bot", "screen", "companion")
