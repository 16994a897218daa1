# The sealed deal: a deck two units shuffle and lock together, so that a unit learns a card
# only when the other unit publishes its share for it (docs/SEALED_DEAL.md). Pure: no I/O, no
# clock; the same bytes on CPython and MicroPython.
#   group.py  the group (a fathom-specific safe prime), element codec, fixed-base tables
#   deal.py   one player's steps: key, shuffle chunks, shares, private opening
#   stage.py  the deal as a stage of a game: pub["sd"], the work queue, answers, and the deal's
#             one apply (its live checks), with the schema of its events and queue
#   hooks.py  the engine hooks every game with a sealed deal shares
# The bench's and the protocol tests' deal without a game (its table and audit over stage.py's
# apply) is host-only code: hostmodes/sealedtable.py, hostmodes/sealedaudit.py.
