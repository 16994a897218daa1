# Periplus ships on the board, and what the public board alone decides: which ship may move
# where, and which ship may attack which with a given card. The engine validates events with it
# and the bots plan with it.
from fathom.compat import const
from fathom.games.periplus import cards as C
from fathom.games.periplus import board as B

# The public state this module reads (the engine's schema names the rest).
_SHIPS = const("ships")   # pub[SHIPS]: every ship by id, a ship entry below
_ISLANDS = const("isl")   # pub[ISLANDS]: the island squares
_MOVED = const("moved")   # pub[MOVED]: the ships moved this turn (a ram needs a ship that moved)

SHIP_NAMES = ("Bireme", "Trireme", "Quadrireme", "Quinquereme")
SHIP_ABBR = ("B", "T", "D", "Q")   # the board's letters, as the help says
HITS = (2, 3, 4, 5)
FLEET = (2, 3, 2, 1)     # ships of each type per fleet
QUINQ = const(3)
NSHIPS = const(8)        # per player; ship id = player * 8 + its starting column

# fields of a ship entry [type, square (-1 = sunk), hits left, sheared (0/1)]
TYPE = const(0)
SQUARE = const(1)
LEFT = const(2)
SHEARED = const(3)


def owner(sid):
    return sid // NSHIPS


def abbr(pub, sid):
    """Ship sid's board letter (B T D Q)."""
    return SHIP_ABBR[pub[_SHIPS][sid][TYPE]]


def grid(pub):
    g = bytearray(64)
    for sq in pub[_ISLANDS]:
        g[sq] = B.ISLAND
    for sh in pub[_SHIPS]:
        if sh[SQUARE] >= 0:
            g[sh[SQUARE]] = B.SHIP
    return g


def can_move(pub, player, sid):
    sh = pub[_SHIPS][sid]
    return owner(sid) == player and sh[SQUARE] >= 0 and not sh[SHEARED]


def move_dests(pub, g, sid, k):
    sq = pub[_SHIPS][sid][SQUARE]
    r = C.rng(k)
    if r == C.KNIGHT:
        return B.knight_moves(sq, g)
    return B.slides(sq, r, g)


def ahead_dest(pub, g, sid, n):
    return B.slide(pub[_SHIPS][sid][SQUARE], B.forward(owner(sid)), 0, n, g)


def can_attack(pub, g, player, sid, k, tid):
    """Public legality of ship sid (player's) attacking ship tid with attack card k."""
    a = pub[_SHIPS][sid]
    t = pub[_SHIPS][tid]
    if owner(sid) != player or owner(tid) == player or a[SQUARE] < 0 or t[SQUARE] < 0:
        return False
    if C.ctype(k) == C.RAM and (sid not in pub[_MOVED] or a[SHEARED]):
        return False
    r = C.rng(k)
    if r == C.KNIGHT:
        return B.is_knight(a[SQUARE], t[SQUARE])
    return B.in_line(a[SQUARE], t[SQUARE], r, g)
