# Text that may be longer than its box: word-wrapped to the box's width (once per width and
# text, then redraws and scrolling allocate nothing), UP/DOWN scroll a line at a time. Help
# pages, a card's text, a long log line. Where there is more above or below, a 3-pixel arrow in
# the box's right edge says so; text that must scroll is wrapped 4 px narrower to leave it room.
from fathom.ui.font import CH
from fathom.ui.screen import wrap


class TextPage:
    def __init__(self, text=""):
        self.text = text
        self.top = 0              # first line shown
        self._lines = None
        self._bw = -1             # the box the lines were wrapped for (two ints: a tuple
        self._bh = -1             # compared on every draw would allocate)
        self._rows = 1            # the box's height in rows at the last draw (for key())

    def set(self, text):
        """New text; the scroll position goes back to the top only when the text changed."""
        if text != self.text:
            self.text = text
            self.top = 0
            self._bw = -1

    def lines(self, w, h):
        """The text wrapped for a w x h box (kept until the text or the box changes)."""
        if w != self._bw or h != self._bh:
            self._bw = w
            self._bh = h
            self._rows = max(1, h // CH)
            lines = wrap(self.text, w // CH)
            if len(lines) > self._rows and w % CH < 4:
                lines = wrap(self.text, (w - 4) // CH)
            self._lines = lines
        return self._lines

    def count(self):
        """Lines at the last draw's width."""
        return len(self._lines or ())

    def last_top(self):
        """The top line that shows the end of the text (0 when it all fits)."""
        return max(0, len(self._lines or ()) - self._rows)

    def key(self, k):
        """UP/DOWN scroll; True when the page moved (False at either end, or another key)."""
        if k == "UP" and self.top > 0:
            self.top -= 1
        elif k == "DOWN" and self.top < self.last_top():
            self.top += 1
        else:
            return False
        return True

    def draw(self, d, x, y, w, h, c=1):
        lines = self.lines(w, h)
        self.top = min(self.top, self.last_top())
        i = self.top
        yy = y
        while i < len(lines) and yy + CH <= y + h:
            d.text(lines[i], x, yy, c)
            i += 1
            yy += CH
        xa = x + w - 4
        if self.top > 0:                          # more above: an up arrow
            d.pixel(xa + 1, y, c)
            d.hline(xa, y + 1, 3, c)
        if i < len(lines):                        # more below: a down arrow
            d.hline(xa, yy - 2, 3, c)
            d.pixel(xa + 1, yy - 1, c)
