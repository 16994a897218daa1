# A board of cols x rows squares with a cursor, drawn into any box. The cell size is chosen for
# the box (from max_px down to min_px); when even min_px does not fit, only a window of the
# board shows and it follows the cursor, keeping one square of margin where the board goes on,
# so the player sees what lies beyond. Optional edge labels in the 3x5 font (letters across,
# numbers along the side, row 1 at the bottom when flip). The caller draws each square's content
# (cell_fn); the grid draws the cursor frame, one pixel outside the square so its glyph reads
# (the squares keep one pixel clear inside the box on every side for it), and corner marks on
# the squares in `marks` (what a highlighted choice touches, when it is not the cursor). A side
# of the window with squares hidden beyond it is a dotted line.
# Cell numbers: cell = r * cols + c, r = 0 is the board's first row (drawn at the bottom if flip),
# whatever the view: the second player's view of a shared board is flip=False, mirror=True (the
# board turned round: its own side at the bottom), and the caller never maps squares itself.
import framebuf

from fathom.ui.font import TH, TW, digits, number, tiny

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")


class BoardGrid:
    def __init__(self, ncols, nrows, cursor=0, flip=False, labels=False, min_px=4, max_px=12,
                 letters=LETTERS, mirror=False):
        self.nc = ncols
        self.nr = nrows
        self.cursor = cursor if 0 <= cursor < ncols * nrows else 0
        self.flip = flip
        self.mirror = mirror      # columns drawn right to left (with flip=False: turned round)
        self.labels = labels
        self.min_px = min_px
        self.max_px = max_px
        self.letters = letters    # column names, one character each, in board order
        self.marks = ()           # cells drawn with corner marks (any sequence: `in`, for)
        self.fc = 0               # first column and first drawn row (display order) in the window
        self.fr = 0
        # set by layout(): cell pitch, label margins, visible columns and rows, board origin
        self.px = min_px
        self.lx = self.ty = 0
        self.vc = self.vr = 0
        self.x0 = self.y0 = 0
        self._dots = None         # one row of draw()'s dots, for the pitch and columns in
        self._dots_at = -1        # _dots_at (made again only when the layout changes)

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

    # ---- display order: no divmod or tuples on the draw and key paths (each would allocate
    # per cursor move) ----------------------------------------------------------------------
    def screen_col(self, cell):
        """The cell's column counted from the left as drawn."""
        c = cell % self.nc
        return self.nc - 1 - c if self.mirror else c

    def screen_row(self, cell):
        """The cell's row counted from the top as drawn."""
        r = cell // self.nc
        return self.nr - 1 - r if self.flip else r

    def at_screen(self, sc, sr):
        """The cell drawn at column sc, row sr (display order)."""
        r = self.nr - 1 - sr if self.flip else sr
        return r * self.nc + (self.nc - 1 - sc if self.mirror else sc)

    def _follow(self):
        self.fc = _window(self.fc, self.screen_col(self.cursor), self.vc, self.nc)
        self.fr = _window(self.fr, self.screen_row(self.cursor), self.vr, self.nr)

    def where(self, cell):
        """(x, y) of a square's top left as last laid out, or None when outside the window."""
        dr = self.screen_row(cell) - self.fr
        dc = self.screen_col(cell) - self.fc
        if not (0 <= dc < self.vc and 0 <= dr < self.vr):
            return None
        return self.x0 + dc * self.px, self.y0 + dr * self.px

    # ---- moving --------------------------------------------------------------------------
    def move(self, cell, k, ok=None, near=False):
        """Where arrow k takes a cursor on `cell` (UP is up on screen), or -1 for another key.
        Squares where ok(cell) is False are jumped over along the line; with near, the move
        goes to the nearest allowed square lying that way on screen, straight lines first (a
        knight's or a diagonal goal is one press away). A move that finds none stays put."""
        if k == "UP" or k == "DOWN":
            dx = 0
            dy = -1 if k == "UP" else 1
        elif k == "LEFT" or k == "RIGHT":
            dx = 1 if k == "RIGHT" else -1
            dy = 0
        else:
            return -1
        x = self.screen_col(cell)
        y = self.screen_row(cell)
        if near:
            return self._nearest(cell, x, y, dx, dy, ok)
        while True:
            x += dx
            y += dy
            if not (0 <= x < self.nc and 0 <= y < self.nr):
                return cell
            c = self.at_screen(x, y)
            if ok is None or ok(c):
                return c

    def _nearest(self, cell, x0, y0, dx, dy, ok):
        best = cell
        bv = -1
        for c in range(self.nc * self.nr):
            ex = self.screen_col(c) - x0
            ey = self.screen_row(c) - y0
            along = ex * dx + ey * dy
            if along <= 0 or (ok is not None and not ok(c)):
                continue
            across = ex * dy + ey * dx
            v = along + 3 * (across if across >= 0 else -across)
            if bv < 0 or v < bv:
                bv = v
                best = c
        return best

    def key(self, k, ok=None, near=False):
        """Arrows move the cursor (see move()); True when the key was an arrow."""
        c = self.move(self.cursor, k, ok, near)
        if c < 0:
            return False
        self.cursor = c
        return True

    def keys_to(self, goal, ok=None, near=False, start=-1):
        """The fewest arrow presses that bring the cursor (or a cursor on `start`) to cell
        `goal`, moving as key(k, ok, near) moves; None when no presses do."""
        from fathom.ui.keysearch import shortest

        def step(c, k):
            return self.move(c, k, ok, near)

        return shortest(self.cursor if start < 0 else start, ARROWS, step,
                        lambda c: c == goal)

    # ---- drawing -------------------------------------------------------------------------
    def draw(self, d, x, y, w, h, cell_fn, frame=True, dots=False, only=None):
        """Lays out, draws every visible square with cell_fn(d, cell, cx, cy, px), the labels,
        the corner marks and the cursor frame; returns the drawn width (side text can start
        right of it). With dots, a dot where four squares meet: a board whose squares are
        mostly empty (a lake of open water) still shows its squares to count along. `only`:
        a byte per cell, 0 where cell_fn would draw nothing (it is not called there)."""
        used = self.layout(x, y, w, h)
        px = self.px
        if dots and self.vc > 1:
            row = self._dot_row()
            for dr in range(1, self.vr):
                d.blit(row, self.x0 + px - 1, self.y0 + dr * px - 1, 0)
        self._cells(d, cell_fn, only)
        if self.ty:
            for dc in range(self.vc):
                sc = self.fc + dc
                tiny(d, self.letters[self.nc - 1 - sc if self.mirror else sc],
                     self.x0 + dc * px + (px - 3) // 2, y, 1)
            for dr in range(self.vr):
                sr = self.fr + dr
                number(d, (self.nr - sr if self.flip else sr + 1), x,
                       self.y0 + dr * px + (px - 5) // 2, 1, True)
        for cell in self.marks:
            self._corners(d, cell)
        self._open_edges(d)
        if frame:
            dr = self.screen_row(self.cursor) - self.fr
            dc = self.screen_col(self.cursor) - self.fc
            if 0 <= dc < self.vc and 0 <= dr < self.vr:
                d.rect(self.x0 + dc * px - 1, self.y0 + dr * px - 1, px + 2, px + 2, 1)
        return used

    def _dot_row(self):
        """A row of the dots between squares (px apart, one per inner column line) as a
        1-pixel-high frame: a row is one blit, where a pixel() a dot was a fifth of a lake's
        grid."""
        at = self.px * 256 + self.vc
        if at != self._dots_at:
            w = (self.vc - 2) * self.px + 1
            buf = bytearray((w + 7) // 8)
            for x in range(0, w, self.px):
                buf[x >> 3] |= 0x80 >> (x & 7)
            self._dots = framebuf.FrameBuffer(buf, w, 1, framebuf.MONO_HLSB)
            self._dots_at = at
        return self._dots

    def _cells(self, d, cell_fn, only=None):
        """cell_fn for every visible square (where `only` is not 0), row by row: the cell
        number stepped along a row (at_screen() and the products once a square were a third
        of a lake's redraw; a call per empty square, half the rest)."""
        px = self.px
        step = -1 if self.mirror else 1
        y = self.y0
        for sr in range(self.fr, self.fr + self.vr):
            cell = self.at_screen(self.fc, sr)
            x = self.x0
            for _ in range(self.vc):
                if only is None or only[cell]:
                    cell_fn(d, cell, x, y, px)
                cell += step
                x += px
            y += px

    def _open_edges(self, d):
        """Where the window hides squares, its edge on that side is a dotted line (over a
        frame the caller drew first, every other pixel cleared): the board goes on there."""
        px = self.px
        x0, y0 = self.x0, self.y0
        x1, y1 = x0 + self.vc * px, y0 + self.vr * px   # just past the last square
        if self.fr > 0:
            _dots(d, x0 - 1, y0 - 1, x1 - x0 + 2, 1)
        if self.fr + self.vr < self.nr:
            _dots(d, x0 - 1, y1, x1 - x0 + 2, 1)
        if self.fc > 0:
            _dots(d, x0 - 1, y0 - 1, 1, y1 - y0 + 2)
        if self.fc + self.vc < self.nc:
            _dots(d, x1, y0 - 1, 1, y1 - y0 + 2)

    def _corners(self, d, cell):
        """An L in each corner of the ring round a square (a frame's corners alone): marked,
        and its glyph left as it is."""
        if cell < 0:
            return
        dr = self.screen_row(cell) - self.fr
        dc = self.screen_col(cell) - self.fc
        if not (0 <= dc < self.vc and 0 <= dr < self.vr):
            return
        n = self.px
        x = self.x0 + dc * n - 1
        y = self.y0 + dr * n - 1
        d.hline(x, y, 2, 1)
        d.vline(x, y, 2, 1)
        d.hline(x + n - 1, y, 2, 1)
        d.vline(x + n, y, 2, 1)
        d.hline(x, y + n, 2, 1)
        d.vline(x, y + n - 1, 2, 1)
        d.hline(x + n - 1, y + n, 2, 1)
        d.vline(x + n, y + n - 1, 2, 1)


def _dots(d, x, y, w, h):
    """A dotted line along a w x 1 or 1 x h strip: lit and dark pixels in turn."""
    for i in range(w if h == 1 else h):
        d.pixel(x + i if h == 1 else x, y if h == 1 else y + i, 1 - (i & 1))


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
