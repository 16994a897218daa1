# The marks a replay draws for what was hidden during play, inside a board square of px pixels
# (x, y its top left): a submarine is the square filled with its player's number cut out of it
# (lit: the tests find it by its pixels), a mine a hollow diamond, a torpedo an arrow's head. One
# job: how a secret looks; the games' replay parts say where.
from fathom.ui.font import tiny

_DIGIT_PX = 7   # the smallest square a 3x5 digit reads in, cut out of the lit square
_ARROW = ((0, -1), (1, 0), (0, 1), (-1, 0))   # N E S W, as a torpedo's heading


def sub(d, x, y, px, label):
    """A submarine: the square lit, `label` (a player's digit) dark in it. A square too small
    for a digit: player 1's lit, any other's a frame with a dot, two at once lit with a dot."""
    if px >= _DIGIT_PX:
        d.fill_rect(x, y, px - 1, px - 1, 1)
        tiny(d, label, x + (px - 4) // 2, y + (px - 6) // 2, 0)
        return
    if label == "1" or label == "*":
        d.fill_rect(x, y, px - 1, px - 1, 1)
    else:
        d.rect(x, y, px - 1, px - 1, 1)
    if label != "1":
        d.pixel(x + (px - 1) // 2, y + (px - 1) // 2, 1 if label != "*" else 0)


def mine(d, x, y, px, c=1):
    """A mine: a small diamond in the square's lower right quarter."""
    r = max(1, px // 4)
    cx, cy = x + px - 1 - r - 1, y + px - 1 - r - 1
    d.line(cx - r, cy, cx, cy - r, c)
    d.line(cx, cy - r, cx + r, cy, c)
    d.line(cx + r, cy, cx, cy + r, c)
    d.line(cx, cy + r, cx - r, cy, c)


def torpedo(d, x, y, px, heading, c=1):
    """A torpedo: a line through the square's centre along its heading, dot at its head."""
    dx, dy = _ARROW[heading % 4]
    h = px // 2 - 1
    cx, cy = x + px // 2, y + px // 2
    d.line(cx - dx * h, cy - dy * h, cx + dx * h, cy + dy * h, c)
    d.fill_rect(cx + dx * h - 1, cy + dy * h - 1, 2, 2, c)


def lines(d, rows, x, y, w, bottom, pitch=6):
    """Rows of 3x5 text from x, y down, as many as end above `bottom`, each cut to w px."""
    n = max(0, (w + 1) // 4)
    for row in rows:
        if y + 5 > bottom:
            return
        tiny(d, row[:n], x, y)
        y += pitch
