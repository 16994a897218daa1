# The sealed deal: a deck two units shuffle and lock together, so that a unit learns a card
# only when the other unit publishes its share for it (docs/SEALED_DEAL.md). Pure: no I/O, no
# clock; the same bytes on CPython and MicroPython.
#   group.py  the group (a fathom-specific safe prime), element codec, fixed-base tables
#   deal.py   one player's steps: key, shuffle chunks, shares, private opening
#   audit.py  the end-of-game check of one player's steps from its revealed secret (a game's
#             seat audit does the same through stage.py's answers; this one is for the bench
#             and the protocol tests)
#   stage.py  the deal as a stage of a game: pub["sd"], the work queue, answers, live checks
