# Sugar Dog's replay (flow/replay.py): the map with every player's submarine (sunk ones left
# off), every mine laid and every torpedo afloat; in words each player's square and mines, and
# for a quiet turn whether it was silent running or a mine laid.
from fathom.compat import const
from fathom.games.sugardog.engine import name
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.revealmarks import lines, mine, sub, torpedo

_TAG = const(0)
_SIZE = const("size")
_ALIVE = const("alive")
_TORPS = const("torps")
_T_SQ = const(2)
_T_HEADING = const(3)
_POS = const("pos")
_OWN_MINES = const("mines")
_EV_QUIET = const("q")

KEPT = _OWN_MINES   # the mines before each step: a quiet turn that laid one
GRID = None   # the grid the last draw laid out (tests find a square's pixels with it)


def subs(rp):
    """[(player, square)] of the submarines afloat."""
    return [(p, rp.privs[p][_POS]) for p in range(rp.n)
            if rp.pub[_ALIVE][p] and rp.privs[p][_POS] is not None]


def words(rp, viewer):
    size = rp.pub[_SIZE]
    out = []
    if rp.last is not None:
        author, event, _k = rp.last
        if event[_TAG] == _EV_QUIET:
            laid = rp.gained(author)
            out.append("P%d %s" % (author + 1, "laid a mine at " + name(size, laid[0])
                                   if laid else "ran silent"))
    for p in range(rp.n):
        priv = rp.privs[p]
        at = "sunk" if not rp.pub[_ALIVE][p] else (
            "at " + name(size, priv[_POS]) if priv[_POS] is not None else "?")
        out.append("P%d %s, mines %s" % (p + 1, at, " ".join(
            [name(size, m) for m in priv[_OWN_MINES]]) or "none"))
    return out


def draw(d, rp, viewer, x, y, w, h):
    global GRID
    pub = rp.pub
    size = pub[_SIZE]
    afloat = subs(rp)
    mines = []
    for p in range(rp.n):
        mines.extend(rp.privs[p][_OWN_MINES])
    torps = pub[_TORPS]

    def cell(d, c, cx, cy, px):
        for p, sq in afloat:
            if sq == c:
                sub(d, cx, cy, px, str(p + 1))
        for t in torps:
            if t[_T_SQ] == c:
                torpedo(d, cx, cy, px, t[_T_HEADING])
        if c in mines:
            mine(d, cx, cy, px)

    g = GRID = BoardGrid(size, size, 0, min_px=3, max_px=9)
    used = g.draw(d, x, y, w, h, cell, frame=False, dots=True)
    rows = []
    for p, sq in afloat:
        rows.append("P%d %s" % (p + 1, name(size, sq)))
    lines(d, rows, x + used + 2, y + 1, w - used - 2, y + h)
