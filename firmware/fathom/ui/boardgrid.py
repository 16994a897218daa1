# A board of cols x rows squares with a cursor, drawn into any box. The cell size is chosen for
# the box (from max_px down to min_px); when even min_px does not fit, only a window of the
# board shows and it follows the cursor, keeping one square of margin where the board goes on,
# so the player sees what lies beyond. Optional edge labels in the 3x5 font (letters across,
# numbers along the side, row 1 at the bottom when flip). The caller draws each square's content
# (cell_fn); the grid draws the cursor frame, one pixel outside the square so its glyph reads
# (the squares keep one pixel clear inside the box on every side for it).
# Cell numbers: cell = r * cols + c, r = 0 is the board's first row (drawn at the bottom if flip).
from fathom.ui.font import TH, TW, digits, number, tiny

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class BoardGrid:
    def __init__(self, ncols, nrows, cursor=0, flip=False, labels=False, min_px=4, max_px=12,
                 letters=LETTERS):
        self.nc = ncols
        self.nr = nrows
        self.cursor = cursor if 0 <= cursor < ncols * nrows else 0
        self.flip = flip
        self.labels = labels
        self.min_px = min_px
        self.max_px = max_px
        self.letters = letters    # column names, one character each
        self.fc = 0               # first column and first drawn row (display order) in the window
        self.fr = 0
        # set by layout(): cell pitch, label margins, visible columns and rows, board origin
        self.px = min_px
        self.lx = self.ty = 0
        self.vc = self.vr = 0
        self.x0 = self.y0 = 0

    def name(self, cell):
        r, c = divmod(cell, self.nc)
        return "%s%d" % (self.letters[c], r + 1)

    def layout(self, x, y, w, h):
        """Chooses the cell size and window for a w x h box; returns the board's drawn width."""
        lab = self.labels and self.nc <= len(self.letters)
        lx = digits(self.nr) * TW + 1 if lab else 0
        ty = TH if lab else 0
        w -= 2                        # the frame's pixel on either side
        h -= 2
        px = min(self.max_px, (w - lx) // self.nc, (h - ty) // self.nr)
        if lab and px < 5:            # 3x5 labels need 5 px squares: the board comes first
            lx = ty = 0
            px = min(self.max_px, w // self.nc, h // self.nr)
        px = max(px, self.min_px)
        self.px = px
        self.lx = lx
        self.ty = ty
        self.vc = min(self.nc, (w - lx) // px)
        self.vr = min(self.nr, (h - ty) // px)
        self.x0 = x + 1 + lx
        self.y0 = y + 1 + ty
        self._follow()
        return 2 + lx + self.vc * px

    def _row_on_screen(self, r):
        return self.nr - 1 - r if self.flip else r

    # no divmod or tuples on the draw and key paths: each would allocate per cursor move
    def _follow(self):
        r = self.cursor // self.nc
        c = self.cursor % self.nc
        self.fc = _window(self.fc, c, self.vc, self.nc)
        self.fr = _window(self.fr, self._row_on_screen(r), self.vr, self.nr)

    def where(self, cell):
        """(x, y) of a square's top left as last laid out, or None when outside the window."""
        r, c = divmod(cell, self.nc)
        dr = self._row_on_screen(r) - self.fr
        dc = c - self.fc
        if not (0 <= dc < self.vc and 0 <= dr < self.vr):
            return None
        return self.x0 + dc * self.px, self.y0 + dr * self.px

    def key(self, k, ok=None):
        """Arrows move the cursor (UP is up on screen); squares where ok(cell) is False are
        jumped over, and a move that finds no square stays put. True when the key was a move."""
        if k == "UP" or k == "DOWN":
            dr = (1 if k == "UP" else -1) * (1 if self.flip else -1)
            dc = 0
        elif k == "LEFT" or k == "RIGHT":
            dr = 0
            dc = 1 if k == "RIGHT" else -1
        else:
            return False
        r = self.cursor // self.nc
        c = self.cursor % self.nc
        while True:
            r += dr
            c += dc
            if not (0 <= r < self.nr and 0 <= c < self.nc):
                return True
            if ok is None or ok(r * self.nc + c):
                self.cursor = r * self.nc + c
                return True

    def draw(self, d, x, y, w, h, cell_fn, frame=True):
        """Lays out, draws every visible square with cell_fn(d, cell, cx, cy, px), the labels
        and the cursor frame; returns the drawn width (side text can start right of it)."""
        used = self.layout(x, y, w, h)
        px = self.px
        for dr in range(self.vr):
            sr = self.fr + dr
            r = self.nr - 1 - sr if self.flip else sr
            for dc in range(self.vc):
                c = self.fc + dc
                cell_fn(d, r * self.nc + c, self.x0 + dc * px, self.y0 + dr * px, px)
        if self.ty:
            for dc in range(self.vc):
                tiny(d, self.letters[self.fc + dc], self.x0 + dc * px + (px - 3) // 2, y, 1)
            for dr in range(self.vr):
                sr = self.fr + dr
                number(d, (self.nr - sr if self.flip else sr + 1), x,
                       self.y0 + dr * px + (px - 5) // 2, 1, True)
        if frame:
            dr = self._row_on_screen(self.cursor // self.nc) - self.fr
            dc = self.cursor % self.nc - self.fc
            if 0 <= dc < self.vc and 0 <= dr < self.vr:
                d.rect(self.x0 + dc * px - 1, self.y0 + dr * px - 1, px + 2, px + 2, 1)
        return used


def _window(first, at, vis, n):
    """The first index of a vis-wide window over n that shows `at` with a margin of one."""
    if vis >= n:
        return 0
    m = 1 if vis >= 3 else 0
    if at < first + m:
        first = at - m
    elif at > first + vis - 1 - m:
        first = at - vis + 1 + m
    return max(0, min(first, n - vis))


def mark(d, x, y, px, g):
    """A one-character map glyph in a px-wide square: the letter itself when it fits, else a
    pattern by kind ('.' water, '#'/'I' solid, 'x'/'X' gone, '?'/'c' maybe, else mine)."""
    if px >= 9:
        if g == ".":
            d.pixel(x + px // 2, y + px // 2, 1)
        else:
            d.text(g, x + (px - 8) // 2 + 1, y + (px - 8) // 2 + 1, 1)
        return
    m = px // 2
    if px < 5:                 # a 72x40 panel with a big lake: 3-4 px, shapes by size alone
        if g == ".":
            if (x // px + y // px) % 2 == 0:   # a sparse dot grid, so things stand out
                d.pixel(x + m, y + m, 1)
        elif g in "?cxX":
            d.pixel(x, y, 1)
            d.pixel(x + px - 2, y + px - 2, 1)
        else:
            d.fill_rect(x, y, px - 1, px - 1, 1)
        return
    if g == ".":
        d.pixel(x + m, y + m, 1)
    elif g in "#I":            # island, or anything solid
        d.fill_rect(x + 1, y + 1, px - 2, px - 2, 1)
    elif g in "xX":            # gone
        d.line(x + 1, y + 1, x + px - 2, y + px - 2, 1)
        d.line(x + 1, y + px - 2, x + px - 2, y + 1, 1)
    elif g in "?c":            # might be here
        d.hline(x + 1, y + m, px - 2, 1)
        d.vline(x + m, y + 1, px - 2, 1)
    else:                      # a thing of mine: hollow box
        d.rect(x + 1, y + 1, px - 2, px - 2, 1)
