# A row of cards to step through: LEFT/RIGHT move the selection, the selected card is drawn
# inverted and its text shows below in a scrolling page (UP/DOWN). Cards carry a short label
# (8x8 letters when enough cards fit, else the 3x5 font) or a glyph the caller draws. When not
# every card fits, the row scrolls with the selection and small arrows mark the hidden ends.
# Where framed 3x5 cards would leave the text a single row (a 40 px panel), the cards lose
# their frames (the selected one stays inverted): the 3 px won give the text its second row.
from fathom.ui.font import CH, TH, TW, put
from fathom.ui.listview import steps
from fathom.ui.textpage import TextPage

_GAP = 2


class CardRow:
    def __init__(self, n=0, cursor=0, chars=3):
        self.n = n
        self.cursor = cursor
        self.chars = chars        # the longest label, in characters: sets the card's size
        self.first = 0            # first card in the window
        self.vis = 0              # cards the window held at the last draw
        self.page = TextPage()

    def set(self, n):
        self.n = n
        self.cursor = min(self.cursor, max(0, n - 1))

    def key(self, k):
        """LEFT/RIGHT step round the row, UP/DOWN scroll the text; True when used."""
        if k in ("LEFT", "RIGHT") and self.n:
            self.cursor = (self.cursor + (1 if k == "RIGHT" else -1)) % self.n
            return True
        return self.page.key(k)

    def keys_to(self, i):
        """The shortest LEFT/RIGHT presses that select card i (the row wraps)."""
        return steps(self.cursor, i, self.n, "LEFT", "RIGHT")

    def size(self, w):
        """(card w, card h, small): 8x8 labels when three cards (or all) fit across w."""
        cw = self.chars * CH + 3
        if min(self.n, 3) * (cw + _GAP) - _GAP <= w:
            return cw, CH + 3, False
        return self.chars * TW + 5, TH + 3, True   # room for a wide 3x5 letter (M, W)

    def draw(self, d, x, y, w, h, label=None, text=None, glyph=None):
        """label(i): a card's short text; text(i): the selected card's long text, shown below;
        glyph(d, i, cx, cy, cw, ch, sel): draws a card's face instead of a label (the frame or
        the inverted fill is drawn first). Returns the y under the row."""
        if not self.n:
            return y
        cw, chh, small = self.size(w)
        gap = 2
        two = 2 * TH - 1          # two 3x5 rows: the gap under the last one is not needed
        bare = (small and text is not None and self.page.small
                and h - chh - gap < two <= h - (TH + 1) - 1)
        if bare:
            chh = TH + 1
            gap = 1
        self.cursor = min(self.cursor, self.n - 1)
        fits = self.n * (cw + _GAP) - _GAP <= w
        x0 = x if fits else x + 4            # room for the arrows at both ends
        vis = max(1, ((w if fits else w - 8) + _GAP) // (cw + _GAP))
        if self.cursor < self.first:
            self.first = self.cursor
        elif self.cursor >= self.first + vis:
            self.first = self.cursor - vis + 1
        self.first = max(0, min(self.first, self.n - vis))
        self.vis = vis
        i = self.first
        while i < self.n and i < self.first + vis:
            cx = x0 + (i - self.first) * (cw + _GAP)
            sel = i == self.cursor
            if sel:
                d.fill_rect(cx, y, cw, chh, 1)
            elif not bare:
                d.rect(cx, y, cw, chh, 1)
            if glyph is not None:
                glyph(d, i, cx, y, cw, chh, sel)
            else:
                put(d, label(i), cx + 2, y + (1 if bare else 2),
                    self.chars + (1 if small else 0), 0 if sel else 1, small)
            i += 1
        m = y + chh // 2
        if self.first > 0:                   # cards hidden to the left
            d.vline(x, m, 1, 1)
            d.vline(x + 1, m - 1, 3, 1)
        if self.first + vis < self.n:        # and to the right
            d.vline(x + w - 1, m, 1, 1)
            d.vline(x + w - 2, m - 1, 3, 1)
        yb = y + chh + gap
        if text is not None and yb + (TH - 1 if self.page.small else CH) <= y + h:
            self.page.set(text(self.cursor))
            self.page.draw(d, x, yb, w, y + h - yb)
        return yb
