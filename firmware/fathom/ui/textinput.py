# Enter a short name with the arrows: UP/DOWN change the letter, LEFT/RIGHT move, OK saves.
from fathom.ui.font import CH
from fathom.ui.screen import Screen, cols
from fathom.ui.topbar import top_bar

ALPHABET = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"


class TextInput(Screen):
    def __init__(self, app, title, value, maxlen, on_done):
        Screen.__init__(self, app)
        self.title = title
        self.chars = list(value[:maxlen].upper())
        if not self.chars:
            self.chars = ["A"]
        self.pos = 0
        self.maxlen = min(maxlen, 12)
        self.on_done = on_done

    def value(self):
        return "".join(self.chars).strip()

    def draw(self, d):
        top_bar(d, self.title, None)
        w = cols(d)
        text = "".join(self.chars)
        start = max(0, self.pos - w + 1)
        y = 2 * CH if d.height >= 5 * CH else CH  # 128x32: the name right under the bar
        d.text(text[start:start + w], 0, y, 1)
        d.hline((self.pos - start) * CH, y + CH, CH - 1, 1)
        d.text("OK=save", 0, d.height - CH, 1)

    def lines(self):
        return [self.title, "".join(self.chars), " " * self.pos + "^"]

    def key(self, k):
        c = self.chars[self.pos]
        i = ALPHABET.find(c)
        if k == "UP":
            self.chars[self.pos] = ALPHABET[(i + 1) % len(ALPHABET)]
        elif k == "DOWN":
            self.chars[self.pos] = ALPHABET[(i - 1) % len(ALPHABET)]
        elif k == "RIGHT":
            if self.pos + 1 >= len(self.chars) and len(self.chars) < self.maxlen:
                self.chars.append(" ")
            self.pos = min(self.pos + 1, len(self.chars) - 1)
        elif k == "LEFT":
            self.pos = max(0, self.pos - 1)
        elif k == "OK":
            v = self.value()
            if v:
                self.on_done(self.app, v)
        elif k == "BACK":
            self.app.pop()
