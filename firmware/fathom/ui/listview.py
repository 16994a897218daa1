# A list with a cursor, drawn into any box: rows of 8x8 text, the window follows the cursor,
# and the highlighted row is never cut: a label too long for its row wraps onto the rows below
# it (inverted, so it reads as one item). Other rows end in '~' when cut. The position goes in
# the top bar (top_bar(..., pos=v.cursor + 1, total=v.count())), where it cannot be pushed off;
# or, with bar=True, a scroll bar at the box's right edge that moves only when the window does
# (a menu: a counter would change the top bar's pixels, and so the bus traffic, on every move).
# Redraws allocate nothing for rows that fit; with fixed=True (a menu: labels never change) the
# long ones are wrapped once per width, so a cursor move allocates nothing at all. With
# small=True the rows are in the 3x5 font (a menu in a narrow panel beside a board); with
# fit=True the list picks it by itself whenever a row would be cut in 8x8 (the home menu at
# 72x40: "Lake Ashtapada" whole, not "Lake As~"; a game's option row at 128x64).
# With whole=True every long row is wrapped onto the rows below it, not only the highlighted
# one: no row ends in '~' (a fixed list, a menu or a game's choices, wraps once per width; any
# other, a game log read from the journal, wraps only the rows its window shows).
from fathom.ui.font import CH, TH, TW, put, tiny_adv, tiny_len, tiny_width, write
from fathom.ui.screen import wrap


def steps(frm, to, n, back="UP", fwd="DOWN"):
    """The fewest presses that move a cursor wrapping round n entries from frm to to: every
    list, menu and card row of the kit wraps, so keys_for of any screen counts this way."""
    f = (to - frm) % n if n else 0
    return [fwd] * f if f <= n - f else [back] * (n - f)


class ViewCursor:
    """The cursor of a screen that shows a list view (self.view): screens, companion modes and
    tests set and read it as the screen's own."""

    @property
    def cursor(self):
        return self.view.cursor

    @cursor.setter
    def cursor(self, i):
        self.view.cursor = i


class ListView:
    def __init__(self, labels=(), cursor=0, notes=None, fixed=False, bar=False, small=False,
                 fit=False, whole=False):
        self.labels = labels      # any sequence of str (len() and [i]); a log can be lazy
        self.notes = notes        # None, or a short right-hand text per row ("" for none)
        self.cursor = cursor
        self.top = 0              # first row in the window
        self.fixed = fixed
        self.bar = bar
        self.small = small        # 3x5 rows (TH px a row, TW px a character)
        self.fit = fit            # choose small per box width (see _fit)
        self.whole = whole        # every long row wrapped, not only the highlighted one
        self._fit_w = -1          # fixed: the width the choice was made for
        self._wrapped = None      # fixed: per row, its wrapped lines or None (fits one row)
        self._room = -1

    def set(self, labels, notes=None):
        """New rows (a new turn's choices); the cursor stays, clamped."""
        self.labels = labels
        self.notes = notes
        self._room = -1
        self._fit_w = -1
        self.cursor = min(self.cursor, max(0, len(labels) - 1))

    def count(self):
        return len(self.labels)

    def _lh(self):
        return TH if self.small else CH

    def _cw(self):
        return TW if self.small else CH

    def _len(self, text):
        """A row's length in the list's columns (a 3x5 wide letter counts for more)."""
        return tiny_len(text) if self.small else len(text)

    def fits(self, h):
        """True when every row shows at once in h pixels (then no counter is needed)."""
        return len(self.labels) <= h // self._lh()

    def key(self, k):
        """UP/DOWN move the cursor round the ends; True when the key was for the list."""
        n = len(self.labels)
        if k == "UP" and n:
            self.cursor = (self.cursor - 1) % n
        elif k == "DOWN" and n:
            self.cursor = (self.cursor + 1) % n
        else:
            return False
        return True

    def keys_to(self, i):
        """The shortest UP/DOWN presses that bring the cursor to row i (the list wraps)."""
        return steps(self.cursor, i, len(self.labels))

    def _note(self, i):
        return self.notes[i] if self.notes else ""

    def lines_of(self, i, room):
        """Row i's lines when it is highlighted in `room` columns; None when one row holds it."""
        label = self.labels[i]
        note = self._note(i)
        if self._len(label) + (self._len(note) + 1 if note else 0) <= room:
            return None
        out = wrap(label, room * TW, tiny_adv) if self.small else wrap(label, room)
        if note and self._len(out[-1]) + 1 + self._len(note) > room:
            out.append("")       # the note gets a row of its own, flush right
        return out

    def _sel(self, i, room):
        if not self.fixed:
            return self.lines_of(i, room)
        if self._room != room:   # a loop, not a comprehension: see menu.py on cells
            self._room = room
            w = []
            for j in range(len(self.labels)):
                w.append(self.lines_of(j, room))
            self._wrapped = w
        return self._wrapped[i]

    def _fit(self, w):
        """3x5 rows when some row would be cut in 8x8 (once per width for a fixed list; a
        loop over lengths, allocating nothing, for one that changes)."""
        if self.fixed and w == self._fit_w:
            return
        self._fit_w = w
        small = False
        room = w // CH - 1
        for i in range(len(self.labels)):
            note = self._note(i)
            if len(self.labels[i]) + (len(note) + 1 if note else 0) > room:
                small = True
                break
        if small != self.small:
            self.small = small
            self._room = -1

    def draw(self, d, x, y, w, h):
        if self.fit:
            self._fit(w)
        n = len(self.labels)
        lh = self._lh()
        nrows = h // lh
        if not n or not nrows:
            return
        room = w // self._cw() - 1         # one column for the cursor mark
        c = self.cursor = min(self.cursor, n - 1)
        sel = self._sel(c, room)
        if self.whole:
            self._draw_whole(d, x, y, w, h, room, nrows, sel)
            return
        k = min(len(sel), nrows) if sel else 1
        if c < self.top:
            self.top = c
        elif c - self.top + k > nrows:
            self.top = c - nrows + k
        self.top = max(0, min(self.top, n - nrows + k - 1))  # no empty rows below a short list
        i = self.top
        yy = y
        while i < n and yy + lh <= y + h:
            if i == c:
                yy = self._draw_sel(d, x, yy, w, room, sel, min(k, (y + h - yy) // lh))
            else:
                self._row(d, x, yy, w, room, i, 1)
                yy += lh
            i += 1
        if self.bar and (self.top or i < n):  # where the window sits in the list
            bh = max(2, h * nrows // n)
            span = max(1, n - nrows)
            d.vline(x + w - 1, y + (h - bh) * min(self.top, span) // span, bh, 1)

    def _rows(self, i, room):
        """Row i's wrapped lines, None when one row holds it."""
        return self._wrapped[i] if self.fixed else self.lines_of(i, room)

    def _h(self, i, room):
        r = self._rows(i, room)
        return len(r) if r else 1

    def _draw_whole(self, d, x, y, w, h, room, nrows, sel):
        """Every row as many lines as it needs (a fixed list's wrapped once per width): the
        window keeps the highlighted row whole, and a row cut by the window's foot ends where
        the box does, never in '~'."""
        n = len(self.labels)
        c = self.cursor
        if c < self.top:
            self.top = c
        used = 0
        i = self.top
        while i <= c:
            used += self._h(i, room)
            i += 1
        while used > nrows and self.top < c:
            used -= self._h(self.top, room)
            self.top += 1
        while i < n and used <= nrows:   # (enough to know the box is full: a long log
            used += self._h(i, room)      # is not wrapped whole every redraw)
            i += 1
        while self.top > 0 and used + self._h(self.top - 1, room) <= nrows:  # no empty rows below
            self.top -= 1
            used += self._h(self.top, room)
        lh = self._lh()
        cw = self._cw()
        i = self.top
        yy = y
        while i < n and yy + lh <= y + h:
            rows = sel if i == c else self._rows(i, room)
            left = (y + h - yy) // lh
            if i == c:
                yy = self._draw_sel(d, x, yy, w, room, rows,
                                    min(len(rows), left) if rows else 1)
            elif rows is None:
                self._row(d, x, yy, w, room, i, 1)
                yy += lh
            else:
                j = 0
                while j < len(rows) and j < left:
                    put(d, rows[j], x + cw, yy, room, 1, self.small)
                    j += 1
                    yy += lh
                note = self._note(i)
                # the note on its row; a row the box's foot cuts keeps its value (an option's
                # "on") on its last line shown, where there is room for it
                if note and j and (j == len(rows) or
                                   self._len(rows[j - 1]) + 1 + self._len(note) <= room):
                    write(d, note, self._note_x(x, w, note), yy - lh, 1, self.small)
            i += 1
        if self.bar and (self.top or i < n):
            bh = max(2, h * nrows // n)
            span = max(1, n - nrows)
            d.vline(x + w - 1, y + (h - bh) * min(self.top, span) // span, bh, 1)

    def _note_x(self, x, w, note):
        if self.bar:              # clear of the scroll bar in the box's last column, and a gap
            w -= 2
        if self.small:
            return x + w - 1 - tiny_width(note)
        return x + w - (w % CH) - len(note) * CH

    def _row(self, d, x, y, w, room, i, c):
        note = self._note(i)
        cw = self._cw()
        small = self.small
        if note:
            put(d, self.labels[i], x + cw, y, room - self._len(note) - 1, c, small)
            write(d, note, self._note_x(x, w, note), y, c, small)
        else:
            put(d, self.labels[i], x + cw, y, room, c, small)

    def _draw_sel(self, d, x, y, w, room, sel, k):
        lh = self._lh()
        cw = self._cw()
        d.fill_rect(x, y, w, k * lh, 1)
        write(d, ">", x, y, 0, self.small)
        if sel is None:
            self._row(d, x, y, w, room, self.cursor, 0)
            return y + lh
        j = 0
        while j < k:
            put(d, sel[j], x + cw, y + j * lh, room, 0, self.small)
            j += 1
        note = self._note(self.cursor)
        if note:
            write(d, note, self._note_x(x, w, note), y + (k - 1) * lh, 0, self.small)
        return y + k * lh
