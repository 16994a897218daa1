# A scrolling list of items; disabled items are shown but cannot be chosen.
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
        for i in range(self.top, min(len(self.items), self.top + n)):
            it = self.items[i]
            y = (i - self.top + 1) * CH
            text = it.label if it.enabled else it.label + "-"
            if it.note:
                room = w - 1 - len(it.note) - 1
                text = clip(text, room)
                text = text + " " * (w - 1 - len(text) - len(it.note)) + it.note
            else:
                text = clip(text, w - 1)
            if i == self.cursor:
                d.fill_rect(0, y, d.width, CH, 1)
                d.text(">" + text, 0, y, 0)
            else:
                d.text(" " + text, 0, y, 1)
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
