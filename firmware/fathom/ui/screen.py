# The base screen and the drawing helpers every screen shares. Layout comes from the display's
# width and height (8x8 font): 128x64 gives 16 columns x 8 rows, 72x40 gives 9 x 5.
CH = 8  # font cell, pixels


class Screen:
    title = ""

    def __init__(self, app):
        self.app = app

    def draw(self, d):
        """Draw the whole screen into framebuf `d` (the app clears it first)."""
        header(d, self.title, self.app.link_state)

    def lines(self):
        """The semantic text of the screen, for tests and the emulator: title first."""
        return [self.title]

    def key(self, k):
        if k == "BACK":
            self.app.pop()

    def tick(self, now):
        """Called every loop; return True to request a redraw."""
        return False


def cols(d):
    return d.width // CH


def rows(d):
    return d.height // CH


def clip(text, n):
    return text if len(text) <= n else text[:n - 1] + "~"


# Link icon: three states drawn as tiny glyphs so they read at 8 px.
def link_icon(d, x, state):
    if state == "linked":
        d.fill_rect(x, 5, 2, 3, 1)
        d.fill_rect(x + 3, 3, 2, 5, 1)
        d.fill_rect(x + 6, 1, 2, 7, 1)
    elif state == "retrying":
        d.fill_rect(x, 5, 2, 3, 1)
        d.rect(x + 3, 3, 2, 5, 1)
        d.pixel(x + 6, 7, 1)
    elif state == "lost":
        d.line(x, 1, x + 6, 7, 1)
        d.line(x, 7, x + 6, 1, 1)


def header(d, title, link_state=None):
    """Inverted title bar on row 0, with the link icon at the right when a link exists."""
    d.fill_rect(0, 0, d.width, CH, 1)
    room = cols(d) - (1 if link_state else 0)
    d.text(clip(title, room), 0, 0, 0)
    if link_state:
        d.fill_rect(d.width - 9, 0, 9, CH, 0)
        link_icon(d, d.width - 8, link_state)


def wrap(text, width):
    """Greedy word wrap to `width` characters; long words are split."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > width:
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out
