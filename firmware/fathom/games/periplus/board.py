# Periplus board geometry on the 8x8 board: square = row * 8 + column, player 0's back row is
# row 0 and player 1's is row 7, so "forward" is +1 row for player 0 and -1 row for player 1.
# A `grid` is a bytearray(64): FREE, ISLAND or SHIP per square, built once per decision.

SIZE = 8
FREE = 0
ISLAND = 1
SHIP = 2
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def on_board(r, c):
    return 0 <= r < SIZE and 0 <= c < SIZE


def back_row(player):
    return 0 if player == 0 else SIZE - 1


def forward(player):
    return 1 if player == 0 else -1


# The move helpers test the board's edges inline instead of calling on_board: they sit at the
# bottom of every move's validation (runner -> seat -> engine -> fleet -> here), where each
# call is another frame on the 16 KB C stack of an ESP32.
def slide(sq, dr, dc, n, grid):
    """The square n steps from sq along (dr, dc) if every square on the way and the last one
    are free and on the board, else -1. Ships never jump on a straight move."""
    r, c = divmod(sq, SIZE)
    for _ in range(n):
        r += dr
        c += dc
        if not (0 <= r < SIZE and 0 <= c < SIZE) or grid[r * SIZE + c]:
            return -1
    return r * SIZE + c


def slides(sq, n, grid):
    """Every square a straight move of exactly n steps reaches (slide() in each direction)."""
    out = []
    r0, c0 = divmod(sq, SIZE)
    for dr, dc in DIRS:
        r, c = r0, c0
        for _ in range(n):
            r += dr
            c += dc
            if not (0 <= r < SIZE and 0 <= c < SIZE) or grid[r * SIZE + c]:
                break
        else:
            out.append(r * SIZE + c)
    return out


def knight_moves(sq, grid):
    """A knight's landing squares: jumps over anything, lands only on a free square."""
    r, c = divmod(sq, SIZE)
    out = []
    for dr, dc in KNIGHT_STEPS:
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE and not grid[(r + dr) * SIZE + c + dc]:
            out.append((r + dr) * SIZE + c + dc)
    return out


def is_knight(a, b):
    ar, ac = divmod(a, SIZE)
    br, bc = divmod(b, SIZE)
    dr = abs(ar - br)
    dc = abs(ac - bc)
    return (dr == 1 and dc == 2) or (dr == 2 and dc == 1)


def in_line(a, b, rng, grid):
    """b lies within rng squares of a on a rank, file or diagonal, with no island between.
    Ships do not block fire: missiles arc over them, and rams/boarding reach only range 1."""
    ar, ac = divmod(a, SIZE)
    br, bc = divmod(b, SIZE)
    dr = br - ar
    dc = bc - ac
    if dr == 0 and dc == 0:
        return False
    if dr != 0 and dc != 0 and abs(dr) != abs(dc):
        return False
    dist = max(abs(dr), abs(dc))
    if dist > rng:
        return False
    sr = (dr > 0) - (dr < 0)
    sc = (dc > 0) - (dc < 0)
    for i in range(1, dist):
        if grid[(ar + sr * i) * SIZE + ac + sc * i] == ISLAND:
            return False
    return True


def sq_name(sq):
    r, c = divmod(sq, SIZE)
    return "abcdefgh"[c] + str(r + 1)
