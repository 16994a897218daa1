# What the game-screen tests draw into: a real framebuf panel (the CPython stand-in where there
# is no framebuf) and the few parts of the app a screen touches.

import framebuf  # (CPython: tests/cpython_shims, put on the path by conftest)


class Panel(framebuf.FrameBuffer):
    def __init__(self, w, h):
        self.buf = bytearray(w * ((h + 7) // 8))
        super().__init__(self.buf, w, h, framebuf.MONO_VLSB)
        self.width = w
        self.height = h

    def show(self):
        pass

    def lit(self, x, y, w, h):
        """Lit pixels in a box."""
        n = 0
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                n += self.pixel(xx, yy)
        return n

    def outline(self, box):
        """(lit, all): the pixels on the border of (x, y, w, h) that are on the panel."""
        x, y, w, h = box
        pts = [(xx, y) for xx in range(x, x + w)] + [(xx, y + h - 1) for xx in range(x, x + w)]
        pts += [(x, yy) for yy in range(y + 1, y + h - 1)]
        pts += [(x + w - 1, yy) for yy in range(y + 1, y + h - 1)]
        pts = [p for p in pts if 0 <= p[0] < self.width and 0 <= p[1] < self.height]
        return len([p for p in pts if self.pixel(p[0], p[1])]), len(pts)


class Oversized:
    """A w x h panel as a screen sees it (width, height) over a buffer `margin` pixels larger
    each way, so whatever is drawn past the panel's right or bottom edge stays visible to
    outside() instead of being clipped away."""

    def __init__(self, w, h, margin):
        self.fb = Panel(w + margin, h + margin)
        self.width = w
        self.height = h
        self.margin = margin

    def __getattr__(self, name):  # drawing and lit() go to the buffer
        return getattr(self.fb, name)

    def outside(self):
        m = self.margin
        return (self.fb.lit(self.width, 0, m, self.height + m)
                + self.fb.lit(0, self.height, self.width, m))


class Hw:
    pass


class App:
    """The app as a screen sees it: the display, the stack, the link icon, settings."""

    def __init__(self, w, h):
        self.hw = Hw()
        self.hw.display = Panel(w, h)
        self.link_state = None
        self.services = []
        self.stack = []
        self.rows = h // 8
        self.settings = {}

    def push(self, s):
        self.stack.append(s)

    def pop(self):
        self.stack.pop()

    def replace(self, s):
        self.stack[-1] = s

    def home(self):
        del self.stack[1:]

    def game_flow(self):
        from fathom.flow import play  # as the real app: the screens around a game
        return play

    def leave_home(self, gid=None):
        """The real app drops its home menu while a game is shown and builds it again on the
        way home (tests/ui/test_home_menu_leaves.py); the screens under test never see it."""
