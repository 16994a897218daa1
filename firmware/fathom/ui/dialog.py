# Message and confirmation screens: a top bar over a text page (UP/DOWN scroll it, the bar
# counts the lines when it does not fit), OK to accept, BACK to refuse. And a game's help page,
# a data file beside the game read only when it is opened.
from fathom.ui.font import CH
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar


class Message(Screen):
    def __init__(self, app, title, text, on_ok=None, on_back=None, ok_label="OK", small=False):
        Screen.__init__(self, app)
        self.title = title
        self.text = text
        self.on_ok = on_ok
        self.on_back = on_back
        self.ok_label = ok_label
        self.page = TextPage(text, small)

    def draw(self, d):
        draw_page(d, self.title, self.app.link_state, self.page)

    def lines(self):
        return [self.title] + self.text.split("\n")

    def key(self, k):
        if self.page.key(k):
            return
        if k == "OK":
            if self.on_ok:
                self.on_ok(self.app)
            else:
                self.app.pop()
        elif k == "BACK":
            if self.on_back:
                self.on_back(self.app)
            else:
                self.app.pop()


def draw_page(d, title, link, page):
    """A whole-panel page under a top bar that shows 'first line/last first line' once it
    scrolls (the page is laid out before the bar, so the count is this frame's)."""
    h = d.height - CH
    page.lines(d.width, h)
    last = page.last_top()
    page.top = min(page.top, last)
    if last:
        top_bar(d, title, link, None, page.top + 1, last + 1, fit=True)
    else:
        top_bar(d, title, link, fit=True)
    page.draw(d, 0, CH, d.width, h)


def read_text(name):
    """A data file's text (fathom.res finds it, deployed or frozen), read line by line so a
    long help page costs no heap until it is opened."""
    from fathom import res
    out = []
    with res.open_data(name) as fh:
        for line in fh:
            out.append(line.rstrip("\n"))
    return "\n".join(out)


def show_help(app, title, name):
    """The help page from data file `name`, over the game (BACK or OK closes it). Below the
    128x64 panel it is set in the 3x5 font: in 8x8 a page of 9 columns by 4 lines would take
    a player through some 250 pages at 72x40."""
    d = app.hw.display
    app.push(Message(app, title, read_text(name).strip(),
                     small=d.width < 128 or d.height < 64))
