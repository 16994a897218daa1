# PING's designed parts as data: the location card (26 squares on a 7x5 grid with reefs) and
# the 16 action cards. The source lost both pictures; docs/rules/ping.md explains the design.
from fathom.compat import const

# The location card, row by row: a letter is a square, '.' a reef (no square, no line).
# Lines join every two squares that are next to each other in a row or a column, so each
# square has up to four neighbours N/E/S/W and a "direction" is a compass direction.
ROWS = ("ABC..DE", "F.GH.IJ", "KL.MNO.", "PQ.RSTU", "VW..XYZ")
COLS = const(7)
NROWS = const(5)
NSQ = const(26)
PITCH = const(12)          # px between square centres on a 128x64 screen
MAP_W = const(84)          # the map's width in px; x >= MAP_W is free for side information

N = const(0)
E = const(1)
S = const(2)
W = const(3)
DIR_NAMES = ("N", "E", "S", "W")
_DC = (0, 1, 0, -1)
_DR = (-1, 0, 1, 0)

OBJECTIVES = (0, 4, 12, 21, 25)   # A E M V Z: the four corners and the centre

# _CELL[row*COLS+col] = square index, or 255 for a reef; _POS[sq] = row*COLS+col
_CELL = bytearray(b"\xff" * (COLS * NROWS))
_POS = bytearray(NSQ)
for _r in range(NROWS):
    for _c in range(COLS):
        _ch = ROWS[_r][_c]
        if _ch != ".":
            _CELL[_r * COLS + _c] = ord(_ch) - 65
            _POS[ord(_ch) - 65] = _r * COLS + _c


def name(sq):
    return chr(65 + sq)


def col_row(sq):
    return _POS[sq] % COLS, _POS[sq] // COLS


def at(cell):
    """The square on grid cell row*COLS+col, or -1 on a reef."""
    v = _CELL[cell]
    return -1 if v == 255 else v


def cell(sq):
    """The grid cell (row*COLS+col) a square sits on."""
    return _POS[sq]


def xy(sq):
    """Centre of the square's letter in px on the 128x64 drawing (the map is MAP_W wide)."""
    c, r = col_row(sq)
    return PITCH // 2 + c * PITCH, PITCH // 2 + r * PITCH


def step(sq, d):
    """The square one line away in direction d, or -1 (map edge or reef)."""
    c, r = col_row(sq)
    c += _DC[d]
    r += _DR[d]
    if not (0 <= c < COLS and 0 <= r < NROWS):
        return -1
    v = _CELL[r * COLS + c]
    return -1 if v == 255 else v


def edges():
    """Every line as (a, b), a drawn to b, each once."""
    out = []
    for a in range(NSQ):
        for d in (E, S):
            b = step(a, d)
            if b >= 0:
                out.append((a, b))
    return out


def path(sq, d):
    """The squares a torpedo launched from sq in direction d passes through, in order: it runs
    straight along the lines until the line ends. The launching square is never on the path."""
    out = []
    sq = step(sq, d)
    while sq >= 0:
        out.append(sq)
        sq = step(sq, d)
    return out


# NB[sq]: bitmask of the squares one line away; bitmasks keep the tracker cheap on the device.
NB = []
for _s in range(NSQ):
    _m = 0
    for _d in range(4):
        _t = step(_s, _d)
        if _t >= 0:
            _m |= 1 << _t
    NB.append(_m)
ALL = (1 << NSQ) - 1


def spread(mask):
    """Squares one step (exactly) from any square in mask."""
    out = 0
    s = 0
    while mask:
        if mask & 1:
            out |= NB[s]
        mask >>= 1
        s += 1
    return out


def reach(sq, n):
    """Bitmask of squares at the end of a walk of exactly n steps (revisits allowed)."""
    m = 1 << sq
    for _ in range(n):
        m = spread(m)
    return m


def squares(mask):
    out = []
    s = 0
    while mask:
        if mask & 1:
            out.append(s)
        mask >>= 1
        s += 1
    return out


# ---- the 16 action cards ------------------------------------------------------------------
PING = const(0)
LISTEN = const(1)
TORPEDO = const(2)
DECK_GUN = const(3)
ENCRYPT = const(4)
DIVE = const(5)
UTIL_NAMES = ("PING", "LISTEN", "TORPEDO", "DECK GUN", "ENCRYPT", "DIVE")

# Tags: 1 LOUD, 2 QUIET, 4 DEEP
LOUD = const(1)
QUIET = const(2)
DEEP = const(4)
UTIL_TAGS = (LOUD, QUIET, LOUD, LOUD, 0, DEEP)

# Card i = (steps of its MOVE, its utility action). Yellow (face up) = every LOUD action:
# MOVE 3, PING, TORPEDO, DECK GUN. See docs/rules/ping.md for the balance reasoning.
CARDS = (
    (1, TORPEDO), (1, TORPEDO), (2, TORPEDO),
    (1, DECK_GUN), (2, DECK_GUN),
    (1, PING), (2, PING), (3, PING),
    (1, LISTEN), (2, LISTEN), (3, LISTEN),
    (1, ENCRYPT), (2, ENCRYPT), (3, ENCRYPT),
    (2, DIVE), (3, DIVE),
)
NCARDS = const(16)

# How a card was played (the half closest to the centre of the play area).
REPAIR = const(0)
MOVEMENT = const(1)
UTILITY = const(2)


def move_tags(steps):
    return LOUD if steps == 3 else 0


def tags(card, mode):
    """Tags of the action a card was played for (a repair has none)."""
    if mode == MOVEMENT:
        return move_tags(CARDS[card][0])
    if mode == UTILITY:
        return UTIL_TAGS[CARDS[card][1]]
    return 0


def yellow(card, mode):
    """True if that use of the card is played face up (its name is printed in yellow)."""
    return mode != REPAIR and bool(tags(card, mode) & LOUD)


def card_name(card):
    m, u = CARDS[card]
    return "MOVE %d/%s" % (m, UTIL_NAMES[u])
