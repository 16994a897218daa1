# A scrolling list of items; disabled items are shown but cannot be chosen.
# Each row's text is laid out once per panel width, so moving the cursor (the most common
# redraw) allocates nothing: items are fixed once in a menu (a changed setting builds a new one).
from fathom.ui.screen import CH, Screen, clip, cols, header, rows


class Item:
    def __init__(self, label, action=None, enabled=True, note=""):
        self.label = label
        self.action = action      # callable(app) run on OK
        self.enabled = enabled
        self.note = note          # short right-hand text, e.g. a setting's value


class Menu(Screen):
    def __init__(self, app, title, items, cursor=0):
        Screen.__init__(self, app)
        self.title = title
        self.items = items
        self.cursor = cursor
        self.top = 0
        self._texts = None        # each item's row text for the width in _w
        self._w = None

    def _visible_rows(self, d=None):
        return (rows(d) if d else self.app.rows) - 1

    def draw(self, d):
        header(d, self.title, self.app.link_state)
        n = self._visible_rows(d)
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + n:
            self.top = self.cursor - n + 1
        w = cols(d)
        if self._w != w:
            # not a comprehension here: one closing over `w` would make it a cell, and every
            # draw would allocate that cell on entry
            self._texts = _row_texts(self.items, w)
            self._w = w
        texts = self._texts
        for i in range(self.top, min(len(self.items), self.top + n)):
            y = (i - self.top + 1) * CH
            if i == self.cursor:
                d.fill_rect(0, y, d.width, CH, 1)
                d.text(">", 0, y, 0)
                d.text(texts[i], CH, y, 0)
            else:
                d.text(texts[i], CH, y, 1)
        if len(self.items) > n:  # scroll bar: where the window sits in the list
            h = d.height - CH
            bar = max(2, h * n // len(self.items))
            y = CH + (h - bar) * self.top // max(1, len(self.items) - n)
            d.vline(d.width - 1, y, bar, 1)

    def lines(self):
        out = [self.title]
        for i, it in enumerate(self.items):
            mark = ">" if i == self.cursor else " "
            text = it.label + ("" if it.enabled else " (unavailable)")
            if it.note:
                text += ": " + it.note
            out.append(mark + text)
        return out

    def key(self, k):
        if k == "UP":
            self.cursor = (self.cursor - 1) % len(self.items)
        elif k == "DOWN":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif k in ("OK", "RIGHT"):
            it = self.items[self.cursor]
            if it.enabled and it.action:
                it.action(self.app)
        elif k in ("BACK", "LEFT"):
            self.app.pop()


def _row_texts(items, w):
    return [_row_text(it, w) for it in items]


def _row_text(it, w):
    """An item's row after the one-column cursor mark: label, and its note flush right."""
    text = it.label if it.enabled else it.label + "-"
    if it.note:
        text = clip(text, w - 1 - len(it.note) - 1)
        return text + " " * (w - 1 - len(text) - len(it.note)) + it.note
    return clip(text, w - 1)
