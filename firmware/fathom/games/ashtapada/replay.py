# Lake Ashtapada's replay (flow/replay.py): the lake from South's shore with both boats, both
# sides' islands and every mine still afloat, each side's own marked; in words where each
# side's mines were and what a charge or a manoeuvre met of them.
from fathom.compat import const
from fathom.games.ashtapada.engine import name
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.revealmarks import lines, mine, sub

_TAG = const(0)
_SIZE = const("size")
_ISLANDS = const("islands")
_BOATS = const("boats")
_DEAD = const("dead")
_MY_MINES = const("mines")
_EV_MINE = const("mine")
_MINE_SQ = const(1)
_EV_PING = const("ping")
_PING_SQ = const(1)
_EV_HIT = const("hit")
_HIT_SQ = const(1)
_HIT_MINE = const(2)
_SIDES = ("South", "North")

GRID = None   # the grid the last draw laid out (tests find a square's pixels with it)


def afloat(rp, p):
    """Side p's mines not yet destroyed, as placed."""
    dead = rp.pub[_DEAD][p]
    return [m for m in rp.privs[p][_MY_MINES] if m not in dead]


def _nearest(n, sq, mines):
    best = None
    for m in mines:
        d = abs(m % n - sq % n) + abs(m // n - sq // n)
        if best is None or d < best[0]:
            best = (d, m)
    return best


def words(rp, viewer):
    pub = rp.pub
    n = pub[_SIZE]
    out = []
    if rp.last is not None:
        author, event, _k = rp.last
        tag = event[_TAG]
        if tag in (_EV_PING, _EV_HIT) or (tag == _EV_MINE and event[_MINE_SQ] < 0):
            sq = event[_PING_SQ] if tag != _EV_MINE else pub[_BOATS][1 - author]
            near = _nearest(n, sq, afloat(rp, author))
            if near is not None and not (tag == _EV_HIT and event[_HIT_MINE]):
                out.append("%s's nearest mine was at %s, %d squares from %s" % (
                    _SIDES[author], name(near[1], n), near[0], name(sq, n)))
    for p in range(rp.n):
        out.append("%s mines: %s" % (_SIDES[p], " ".join([name(m, n) for m in afloat(rp, p)])
                                     or "none"))
    return out


def draw(d, rp, viewer, x, y, w, h):
    global GRID
    pub = rp.pub
    n = pub[_SIZE]
    boats = pub[_BOATS]
    mines = [afloat(rp, p) for p in range(rp.n)]
    isl = pub[_ISLANDS]

    def cell(d, c, cx, cy, px):
        if c in isl[0] or c in isl[1]:
            d.fill_rect(cx + 1, cy + 1, px - 3, px - 3, 1)   # an island: solid ground
        for p in (0, 1):
            if boats[p] == c:
                sub(d, cx, cy, px, str(p + 1))
        for p in (0, 1):
            if c in mines[p]:
                mine(d, cx, cy, px, 0 if c in boats or c in isl[0] or c in isl[1] else 1)

    g = GRID = BoardGrid(n, n, 0, flip=True, min_px=3, max_px=9)
    used = g.draw(d, x, y, w, h, cell, frame=False, dots=True)
    rows = []
    for p in range(rp.n):
        rows.append("P%d %d MINES" % (p + 1, len(mines[p])))
        rows.append(" ".join([name(m, n) for m in mines[p]]))
    lines(d, rows, x + used + 2, y + 1, w - used - 2, y + h)
