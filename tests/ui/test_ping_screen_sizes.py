# The PING screen at every panel size (128x64, 128x32, 72x40) through whole games played by
# its keys: on every frame nothing is drawn past the panel (an Oversized buffer keeps what
# would be clipped) and no two glyphs overlap (every 8x8 and 3x5 text the screen and the top
# bar draw is recorded as a box; a pixel claimed twice fails). And a cursor move on the board
# or in a menu, with its redraw, allocates nothing (heap_lock under MicroPython).
import pytest

from fathom.games.bots import RandomBot
from fathom.games.local import make_seats
from fathom.games.ping import screen as ui
from fathom.games.ping.bot import SharpBot
from fathom.games.ping.engine import ENGINE
from fathom.runner import Runner
from fathom.ui import boardgrid, font, topbar
from kit.app import locked
from kit.ping import M1_ENC, M1_GUN, M1_LISTEN, M1_TORP, M2_DIVE, M3_PING, game
from kit.play import catch_up, settle
from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (128, 32), (72, 40))


class Recorder:
    """A panel that keeps a box for every text drawn on it (8x8 by text(), 3x5 by the patched
    tiny()), for the overlap check; drawing goes on to the Oversized buffer."""

    def __init__(self, d):
        self.d = d
        self.width = d.width
        self.height = d.height
        self.boxes = []

    def text(self, s, x, y, c=1):
        self.boxes.append((x, y, 8 * len(s), 8, s))
        self.d.text(s, x, y, c)

    def __getattr__(self, name):
        return getattr(self.d, name)


_tiny = ui.tiny
# every module that calls tiny() holds its own name for it: each is patched (font's covers
# put, write and number, which the other widgets draw 3x5 text through)
_TINY_USERS = (ui, topbar, font, boardgrid)


def _rec_tiny(d, text, x, y, c=1):
    if isinstance(d, Recorder) and text.strip():
        d.boxes.append((x, y, 4 * len(text) - 1, 5, text))
    return _tiny(d, text, x, y, c)


def recorded(fn):
    """Runs fn with tiny() recording its boxes (no fixtures: the MicroPython runner has none)."""
    for m in _TINY_USERS:
        m.tiny = _rec_tiny
    try:
        fn()
    finally:
        for m in _TINY_USERS:
            m.tiny = _tiny


def check_frame(scr, w, h, what):
    over = Oversized(w, h, 16)
    d = Recorder(over)
    d.fill(0)
    scr.draw(d)
    assert over.outside() == 0, ("drawn past the panel", w, h, what, scr.lines())
    taken = bytearray(w * h)
    for x, y, bw, bh, s in d.boxes:
        assert x >= 0 and y >= 0 and x + bw <= w and y + bh <= h, (
            "text leaves the panel", s, x, y, w, h, what)
        for yy in range(y, y + bh):
            row = yy * w
            for xx in range(x, x + bw):
                assert not taken[row + xx], ("glyphs overlap", s, xx, yy, w, h, what,
                                             [b for b in d.boxes])
                taken[row + xx] = 1
    return d


@pytest.mark.parametrize("w, h", SIZES)
def test_every_frame_of_a_game_stays_on_the_panel_without_overlaps(w, h):
    recorded(lambda: play_checked(w, h))


def play_checked(w, h):
    seats = make_seats(ENGINE, {}, 2, b"sz%d" % w)
    bots = (SharpBot(b"sz", 0), RandomBot(b"sz", 1))
    scr = [ui.screen(App(w, h), Runner(s, [], None, "ping")) for s in seats]
    for sc in scr:
        sc.app.push(sc)   # a question (ui/confirm.py) goes over it and takes the keys
    scr[0].key("HELP")
    for i in range(40):                    # the help page, scrolled to its end
        check_frame(scr[0], w, h, "help %d" % i)
        scr[0].key("DOWN")
    scr[0].key("BACK")
    frames = 0
    while seats[0].result() is None:
        for p in (0, 1):
            s, sc = seats[p], scr[p]
            if s.setup_legal():
                keys = sc.keys_for(bots[p].setup(s))
            elif s.legal():
                keys = sc.keys_for(bots[p].act(s))
            else:
                continue
            for k in keys:                 # every step: the board, the menu, the card row
                top = sc.app.stack[-1]
                check_frame(top, w, h, k)
                top.key(k)
                frames += 1
            catch_up(seats)
            settle(seats, in_order=True)
        for sc in scr:
            check_frame(sc, w, h, "event")
        assert frames < 3000
    for sc in scr:
        check_frame(sc, w, h, "result")


@pytest.mark.parametrize("w, h", SIZES)
def test_the_board_is_read_by_its_letters_at_every_size(w, h):
    """Every square's letter shows (the viewport follows the cursor where the board does not
    fit): walking the cursor over the board brings each into view with its letter drawn."""
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app = App(w, h)
    scr = ui.screen(app, Runner(seats[0], [], None, "ping"))
    seen = set()
    for sq in range(26):
        scr.grid.cursor = ui.B.cell(sq)
        d = Recorder(app.hw.display)
        d.fill(0)
        scr.draw(d)
        for _x, _y, _w, _h, s in d.boxes:
            if len(s) == 1 and "A" <= s <= "Z" and _y >= 8:
                seen.add(s)
        assert scr.grid.where(scr.grid.cursor) is not None
    if w >= 128 and h >= 64:
        assert scr.grid.px >= 9             # 8x8 letters where the panel allows
        assert len(seen) == 26
    else:
        assert scr.grid.px >= 6             # 3x5 letters: drawn by tiny, not recorded here


@pytest.mark.parametrize("w, h", SIZES)
def test_a_cursor_move_and_its_redraw_allocate_nothing(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app = App(w, h)
    scr = ui.screen(app, Runner(seats[0], [], None, "ping"))
    d = app.hw.display
    for k in ("RIGHT", "LEFT", "UP", "DOWN"):   # warm: every cache built once
        scr.key(k)
        scr.draw(d)
    start = scr.grid.cursor

    def board():
        for k in ("RIGHT", "RIGHT", "UP", "LEFT", "DOWN", "DOWN", "LEFT"):
            scr.key(k)
            scr.draw(d)
    locked(board)
    assert scr.grid.cursor != start
    scr.grid.cursor = ui.B.cell(seats[0].priv["sq"])
    scr.key("OK")
    assert scr.mode == ui.MENU
    for k in ("DOWN", "UP"):
        scr.key(k)
        scr.draw(d)

    def menu():
        for k in ("DOWN", "DOWN", "UP", "DOWN"):
            scr.key(k)
            scr.draw(d)
    locked(menu)
    assert scr.menu.cursor == 2
