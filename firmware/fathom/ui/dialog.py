# Message and confirmation screens: wrapped text, OK to accept, BACK to refuse.
from fathom.ui.screen import CH, Screen, cols, header, rows, wrap


class Message(Screen):
    def __init__(self, app, title, text, on_ok=None, on_back=None, ok_label="OK"):
        Screen.__init__(self, app)
        self.title = title
        self.text = text
        self.on_ok = on_ok
        self.on_back = on_back
        self.ok_label = ok_label
        self.top = 0

    def _lines(self, d):
        return wrap(self.text, cols(d))

    def draw(self, d):
        header(d, self.title, self.app.link_state)
        body = self._lines(d)
        n = rows(d) - 1
        for i, line in enumerate(body[self.top:self.top + n]):
            d.text(line, 0, (i + 1) * CH, 1)

    def lines(self):
        return [self.title] + self.text.split("\n")

    def key(self, k):
        if k == "DOWN":
            self.top += 1
        elif k == "UP":
            self.top = max(0, self.top - 1)
        elif k == "OK":
            if self.on_ok:
                self.on_ok(self.app)
            else:
                self.app.pop()
        elif k == "BACK":
            if self.on_back:
                self.on_back(self.app)
            else:
                self.app.pop()
