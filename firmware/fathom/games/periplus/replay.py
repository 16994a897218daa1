# Periplus's replay (flow/replay.py): the board with both fleets and, beside it, both hands as
# they were; in words each hand by name and the cards a draw brought.
from fathom.compat import const
from fathom.games.periplus import cards as C
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.revealmarks import lines, sub

_SHIPS = const("ships")
_ISLANDS = const("isl")
_SQUARE = const(1)
_NSHIPS = const(8)
_HELD = const("hand")
_SIZE = const(8)
# two letters a card kind, in CARDS order: the side strip's hands (the words name them whole)
CODES = "R1R2R3RSPEPRRRRASOHOHACOMAFDARJASLGFBACATRTAPARHDI"

KEPT = _HELD   # the hand before each step: what a draw added
GRID = None   # the grid the last draw laid out (tests find a square's pixels with it)
SIDE = None   # and the side strip's box (x, y, w, bottom)


def code(k):
    return CODES[2 * k:2 * k + 2]


def words(rp, viewer):
    out = []
    for p in range(rp.n):
        got = rp.gained(p)
        if got:
            out.append("P%d drew %s" % (p + 1, ", ".join([C.name(k) for k in got])))
    for p in range(rp.n):
        out.append("P%d hand: %s" % (p + 1, ", ".join(
            [C.name(k) for k in rp.privs[p][_HELD]]) or "empty"))
    return out


def draw(d, rp, viewer, x, y, w, h):
    global GRID, SIDE
    ships = rp.pub[_SHIPS]
    isl = rp.pub[_ISLANDS]

    def cell(d, c, cx, cy, px):
        if c in isl:
            d.fill_rect(cx + 1, cy + 1, px - 3, px - 3, 1)
        for i in range(len(ships)):
            if ships[i][_SQUARE] == c:
                sub(d, cx, cy, px, "1" if i < _NSHIPS else "2")

    g = GRID = BoardGrid(_SIZE, _SIZE, 0, flip=True, min_px=3, max_px=7)
    used = g.draw(d, x, y, w, h, cell, frame=False, dots=True)
    rows = []
    for p in range(rp.n):
        rows.append("P%d %d CARDS" % (p + 1, len(rp.privs[p][_HELD])))
        rows.append(" ".join([code(k) for k in rp.privs[p][_HELD]]))
    SIDE = (x + used + 2, y + 1, w - used - 2, y + h)
    lines(d, rows, *SIDE)
