# The base screen and the text helpers every screen shares. Layout comes from the display's
# width and height (8x8 font): 128x64 gives 16 columns x 8 rows, 128x32 16 x 4, 72x40 9 x 5.
# The widgets are modules of their own, each imported only by the screens that draw it (heap):
# font, topbar, listview, textpage, cardrow, boardgrid.
from fathom.ui.font import CH  # also still imported from here by play, pairing and app
from fathom.ui.topbar import top_bar


class Screen:
    title = ""

    def __init__(self, app):
        self.app = app

    def draw(self, d):
        """Draw the whole screen into framebuf `d` (the app clears it first)."""
        top_bar(d, self.title, self.app.link_state)

    def lines(self):
        """The semantic text of the screen, for tests and the emulator: title first."""
        return [self.title]

    def key(self, k):
        if k == "BACK":
            self.app.pop()

    def tick(self, now):
        """Called every loop; return True to request a redraw."""
        return False

    def wake_in(self, now):
        """ms until tick() next has something to do (App._rest): None when only a key or a
        frame can change this screen. A screen with its own tick and no wake_in of its own is
        ticked every loop."""
        return None if type(self).tick is Screen.tick else 0


def cols(d):
    return d.width // CH


def rows(d):
    return d.height // CH


def clip(text, n):
    """A string cut to n characters, ending in '~' when cut (font.put draws one without
    building it). Left for flow/play.py's problem line, its one user."""
    return text if len(text) <= n else text[:n - 1] + "~"


def wrap(text, width, size=len):
    """Greedy word wrap to `width` (characters, or what `size` measures: the 3x5 font's
    tiny_adv, whose wide letters take more); a word longer than a line is split with a
    hyphen at the end of each part ("Quinqu-" "ereme" in 7 columns: read as one word, where a
    bare split reads as two)."""
    width = max(1, width)  # a zero-width box must not split words forever
    gap = size(" ")
    dash = size("-")
    out = []
    for para in text.split("\n"):
        # the line is para[ls:le] (its words and the single spaces between them, cut out once
        # when the line ends, not joined a word at a time) and lw its size (size adds up:
        # measuring the whole line again for each word made a side panel's wrap quadratic)
        ls = le = lw = 0
        i = 0                              # the next word's start in para
        for word in para.split(" "):
            wi = i
            i += len(word) + 1
            ww = size(word)
            while ww > width:
                if le > ls:
                    out.append(para[ls:le])
                    ls = le
                k = len(word) - 1          # the longest part that leaves room for a hyphen
                while k > 1 and size(word[:k]) + dash > width:
                    k -= 1
                if k > 1:
                    out.append(word[:k] + "-")
                else:                      # too narrow for a part and a hyphen: a bare split
                    k = max(1, len(word) - 1)
                    while k > 1 and size(word[:k]) > width:
                        k -= 1
                    out.append(word[:k])
                word = word[k:]
                wi += k
                ww = size(word)
            if le == ls:
                ls = wi
                le = wi + len(word)
                lw = ww
            elif lw + gap + ww <= width:
                le = wi + len(word)
                lw += gap + ww
            else:
                out.append(para[ls:le])
                ls = wi
                le = wi + len(word)
                lw = ww
        out.append(para[ls:le])
    return out
