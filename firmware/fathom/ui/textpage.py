# Text that may be longer than its box: word-wrapped to the box's width (once per width and
# text, then redraws and scrolling allocate nothing), UP/DOWN turn a page keeping its last line
# on top (the reader keeps their place), LEFT/RIGHT a whole page. Help pages, a card's text, a
# long log line; with small=True the same in the 3x5 font, for the
# side panels beside a board. Where there is more above or below, a 3-pixel arrow in the box's
# right edge says so; text that must scroll is wrapped 4 px narrower to leave it room.
from fathom.compat import const
from fathom.hal import clock
from fathom.ui.font import CH, TH, TW, tiny_adv, write
from fathom.ui.screen import wrap

TURN_MS = 1600               # a page turned by itself (turn()) shows at least this long,
_WORD_MS = const(300)        # and this long for each word on it past the first four


def _hold(words):
    """How long turn() holds a page of `words`."""
    return TURN_MS + (words - 4) * _WORD_MS if words > 4 else TURN_MS


class TextPage:
    def __init__(self, text="", small=False):
        self.text = text
        self.small = small        # the 3x5 font (may change between draws: it rewraps)
        self.top = 0              # first line shown
        self._lines = None
        self._bw = -1             # the box the lines were wrapped for (plain values: a tuple
        self._bh = -1             # compared on every draw would allocate)
        self._bs = False
        self._rows = 1            # the box's height in rows at the last draw (for key())
        self.turn_at = None       # turn(): the next page's time; False once read round

    def set(self, text):
        """New text; the scroll position goes back to the top only when the text changed."""
        if text != self.text:
            self.text = text
            self.top = 0
            self._bw = -1
            self.turn_at = None

    def turn(self, now):
        """Turn to the next rows by itself where the text is longer than its box (as drawn
        last), each page held while its words are read, and back to the top after the last,
        where it rests until the text changes; True when it turned."""
        at = self.turn_at
        if at is False or self.last_top() == 0:
            return False
        if at is not None:
            if clock.ticks_diff(now, at) < 0:
                return False
            if self.top >= self.last_top():
                self.top = 0
                self.turn_at = False   # read once: the first page stays in view
                return True
            self.top = self.next_top()
        self.turn_at = clock.ticks_add(now, _hold(self.words_at(self.top)))
        return at is not None

    def round_ms(self):
        """How long turn() takes to go round the text once from its first page, as wrapped at
        the last draw (0 when it fits): a clock that ends a turn can wait for the words."""
        if self.last_top() == 0:
            return 0
        top, ms = 0, 0
        while True:
            ms += _hold(self.words_at(top))
            if top >= self.last_top():
                return ms
            top = self.next_top(top)

    def _cols(self, w):
        return (w + 1) // TW if self.small else w // CH

    def _wrap(self, w):
        if self.small:            # by pixels: the 3x5 font's wide letters take more
            return wrap(self.text, self._cols(w) * TW, tiny_adv)
        return wrap(self.text, self._cols(w))

    def lines(self, w, h):
        """The text wrapped for a w x h box (kept until the text, the box or the font
        changes)."""
        if w != self._bw or h != self._bh or self.small != self._bs:
            self._bw = w
            self._bh = h
            self._bs = self.small
            # a 3x5 line needs only its 5 lit rows at the box's foot, not the gap under them
            self._rows = max(1, (h + 1) // TH if self.small else h // CH)
            lines = self._wrap(w)
            if len(lines) > self._rows and self._cols(w - 4) < self._cols(w):
                lines = self._wrap(w - 4)
            self._lines = lines
        return self._lines

    def count(self):
        """Lines at the last draw's width."""
        return len(self._lines or ())

    def rows(self):
        """The box's height in rows at the last draw."""
        return self._rows

    def last_top(self):
        """The top line that shows the end of the text (0 when it all fits)."""
        return max(0, len(self._lines or ()) - self._rows)

    def next_top(self, top=None):
        """The top line of the page after `top` (default: the one shown) as it turns by itself:
        a page on, less one line when the page's last line ends in a word split with a hyphen
        (the word stays whole in view)."""
        if top is None:
            top = self.top
        lines = self._lines or ()
        step = self._rows
        end = top + step - 1
        if step > 1 and end < len(lines) and lines[end].endswith("-"):
            step -= 1
        return min(self.last_top(), top + step)

    def words_at(self, top):
        """Words on the page from line `top` down (allocates nothing)."""
        lines = self._lines or ()
        n = 0
        for i in range(top, min(len(lines), top + self._rows)):
            if lines[i]:
                n += lines[i].count(" ") + 1
        return n

    def key(self, k):
        """UP/DOWN turn a page less one line, LEFT/RIGHT a whole page (a help page is a hundred
        lines and more: a line a press took a player through it in over a hundred presses);
        True when the page moved (False at either end, or another key)."""
        page = max(1, self._rows - 1)
        if k == "UP":
            step = -page
        elif k == "DOWN":
            step = page
        elif k == "LEFT":
            step = -self._rows
        elif k == "RIGHT":
            step = self._rows
        else:
            return False
        top = min(max(0, self.top + step), self.last_top())
        if top == self.top:
            return False
        self.top = top
        return True

    def draw(self, d, x, y, w, h, c=1):
        """Draws the lines that fit from `top`; returns the y under the last one drawn."""
        lines = self.lines(w, h)
        self.top = min(self.top, self.last_top())
        small = self.small
        lh = TH if small else CH
        i = self.top
        yy = y
        while i < len(lines) and yy + lh - (1 if small else 0) <= y + h:
            write(d, lines[i], x, yy, c, small)
            i += 1
            yy += lh
        xa = x + w - 4
        if self.top > 0:                          # more above: an up arrow
            d.pixel(xa + 1, y, c)
            d.hline(xa, y + 1, 3, c)
        if i < len(lines):                        # more below: a down arrow
            yb = yy - 1 if small else yy          # (a 3x5 line's gap row may be off the box)
            d.hline(xa, yb - 2, 3, c)
            d.pixel(xa + 1, yb - 1, c)
        return yy
