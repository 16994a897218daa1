# What the 72x40 panel showed cut or cramped before, each held here: the home menu's names
# whole (3x5 rows where 8x8 would cut them), a title that does not fit its 8x8 room set whole
# in 3x5, PING's side strip and square menu without a '~', Lake Ashtapada's squares big enough
# to read (a window that follows the cursor), Periplus's board keeping six of its eight rows.
import pytest

from fathom.games.ping import screen as ping_ui
from fathom.games.ashtapada import say
from fathom.ui import font
from fathom.ui.menu import Item, Menu
from fathom.ui.textpage import TURN_MS
from fathom.ui.topbar import top_bar
from kit.ping import M1_ENC, M1_GUN, M1_LISTEN, M1_TORP, M2_DIVE, M3_PING, game, play
from test_ashtapada_screen import game as ash_game
from test_ashtapada_screen import screen_for as ash_screen
from kit.app import locked
from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

_tiny = font.tiny


class Texts:
    """A panel that keeps every text drawn on it: 8x8 through text(), 3x5 through font.tiny
    (which put, write and number draw with), as (x, y, text, small)."""

    def __init__(self, d):
        self.d = d
        self.width = d.width
        self.height = d.height
        self.seen = []

    def text(self, s, x, y, c=1):
        self.seen.append((x, y, s, False))
        self.d.text(s, x, y, c)

    def __getattr__(self, name):
        return getattr(self.d, name)


def drawn(draw, w=72, h=40):
    over = Oversized(w, h, 16)
    d = Texts(over)

    def rec(dd, text, x, y, c=1):
        if isinstance(dd, Texts):
            dd.seen.append((x, y, text, True))
        return _tiny(dd, text, x, y, c)
    font.tiny = rec
    try:
        draw(d)
    finally:
        font.tiny = _tiny
    assert over.outside() == 0, "drawn past the panel"
    return d


def row_text(d, y0, y1, x0=0):
    """The characters drawn with their top in [y0, y1) from x0 on, left to right (one
    character a call when put cuts, a whole string when it fits)."""
    parts = sorted([(x, s) for x, y, s, _small in d.seen if y0 <= y < y1 and x >= x0])
    return "".join([s for _x, s in parts])


def test_the_home_menu_names_every_game_whole_at_72x40():
    titles = ["PING", "Lake Ashtapada", "Sugar Dog", "Periplus", "Pinned Down", "Companion",
              "Settings", "About"]
    app = App(72, 40)
    app.link_state = None
    m = Menu(app, "fathom", [Item(t) for t in titles])
    for i in range(len(titles)):
        m.cursor = i
        d = drawn(m.draw)
        text = "".join([s for _x, _y, s, _sm in d.seen])
        assert "~" not in text, (i, text)
        assert titles[i].upper() in text.upper(), (titles[i], text)


def test_a_fitted_title_reads_whole_in_3x5_where_8x8_would_cut_it():
    d = drawn(lambda d: top_bar(d, "Your move", "linked", "P1", fit=True))
    bar = row_text(d, 0, 8)
    assert bar.startswith("Your move") and "~" not in bar, bar
    d = drawn(lambda d: top_bar(d, "Your move", "linked", "P1"))   # without fit: cut
    assert "~" in row_text(d, 0, 8)


def _ping(w=72, h=40):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    from fathom.runner import Runner
    app = App(w, h)
    return app, ping_ui.screen(app, Runner(seats[0], [], None, "ping"))


def test_ping_side_strip_and_square_menu_are_not_cut_at_72x40():
    app, scr = _ping()
    d = drawn(scr.draw)
    side = row_text(d, 8, 34, scr.grid.layout(0, 0, 72, 34) + 1)
    assert side and "~" not in side, side
    scr.key("OK")                       # the menu on your own square
    assert scr.mode == ping_ui.MENU
    for _ in range(scr.menu.count()):
        d = drawn(scr.draw)
        body = row_text(d, 8, 40)
        assert "~" not in body, body
        scr.key("DOWN")


def _bottom_rows(scr):
    """The PING event line's rows as drawn in turn, each held at least TURN_MS (longer for
    many words), up to and with its first row again, where it then rests."""
    now = 1000
    assert not scr.tick(now)
    rows = [row_text(drawn(scr.draw), 35, 40)]
    last = now
    while len(rows) <= scr.said.count():
        now += 50
        assert now - last < 10 * TURN_MS, rows
        if scr.tick(now):
            assert now - last >= TURN_MS, rows      # not before its time
            last = now
            rows.append(row_text(drawn(scr.draw), 35, 40))
    for _ in range(100):                                   # read once: it rests on the newest
        now += 100
        assert not scr.tick(now)
    return rows


def test_ping_event_line_reads_whole_at_72x40_a_row_at_a_time():
    # The bottom line holds 18 characters in 3x5: a longer event was cut with '~' for good.
    # What happened since the player's last move shows in rows of whole words, each held
    # while it is read, once round, then the newest rests.
    from fathom.runner import Runner
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    scr = ping_ui.screen(App(72, 40), Runner(seats[0], [], None, "ping"))
    for i in range(2):
        if i:                                   # a torpedo, and its answer: the longest kind
            play(seats, [a for a in seats[0].legal() if a[0] == "torpedo"][0])
        scr.draw(scr.app.hw.display)
        said = " ".join(scr.happened.lines)
        assert len(said) > 18, said
        rows = _bottom_rows(scr)
        assert rows[-1] == rows[0] and " ".join(rows[:-1]) == said, (rows, said)
        for r in rows:
            assert "~" not in r and len(r) <= 18, r
    # the torpedo's answer, newest, over the torpedo itself
    assert scr.happened.lines[0].endswith(": miss") and len(scr.happened.lines) == 2
    # the other side has not moved yet: everything since the game began, its own start last
    big = ping_ui.screen(App(128, 64), Runner(seats[1], [], None, "ping"))
    big.draw(big.app.hw.display)
    assert big.happened.lines[-1] == "You are P2" and big.said.count() >= 3


def test_ping_event_line_turning_allocates_nothing():
    from fathom.runner import Runner
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    play(seats, [a for a in seats[0].legal() if a[0] == "torpedo"][0])
    app = App(72, 40)
    scr = ping_ui.screen(app, Runner(seats[0], [], None, "ping"))
    d = app.hw.display
    scr.draw(d)
    box = [1000, 0]
    scr.tick(box[0])

    def turns():   # the turning part of tick(): once through, back to the newest
        for _ in range(60):
            box[0] += TURN_MS // 4
            if scr.happened.turn(scr.said, box[0]):
                box[1] += 1
                d.fill(0)
                scr.draw(d)
    locked(turns)
    assert scr.said.count() > 1 and box[1] == scr.said.count() and scr.said.top == 0


def test_ping_squares_keep_a_clear_pixel_between_a_line_and_the_next_letter():
    app, scr = _ping()
    scr.draw(app.hw.display)
    assert scr.grid.px >= 6


def test_the_72x40_ping_map_shows_all_its_rows_with_marks_clear_of_the_letters():
    # The map scrolled (4 of its 5 rows), and the line under a square where the adversary may
    # be ran into the letter below it (M, N, O hard to read). Now the bar is over the side
    # strip only, the status heads the strip, and a mark is a bar at the square's right.
    app, scr = _ping()
    d = app.hw.display
    g = scr.grid
    for cell in range(g.nc * g.nr):
        g.cursor = cell
        d.fill(0)
        scr.draw(d)
        assert g.vr == g.nr and g.vc == g.nc and g.fr == 0 and g.fc == 0, cell
    g.cursor = 0
    t = drawn(scr.draw)
    assert row_text(t, 9, 21, g.layout(0, 0, 72, 34) + 1) == "Yourmove"   # the status, whole

    def board(foe):
        scr.foe = foe
        d.fill(0)
        scr.draw(d)
        return {(x, y) for x in range(g.x0, g.x0 + g.nc * g.px)
                for y in range(g.y0, g.y0 + g.nr * g.px) if d.pixel(x, y)}
    letters = board(0)
    marks = board((1 << 26) - 1) - letters
    assert marks
    wide = set()        # L N O (4 columns) and M W (5) leave no clear column in a 6-px square
    for cell in range(g.nc * g.nr):
        sq = ping_ui.B.at(cell)
        if sq >= 0 and font.tiny_width(ping_ui._LETTERS[sq]) > 3:
            x, y = g.where(cell)
            wide |= {(x + i, y + j) for i in range(-1, g.px + 1) for j in range(g.px)}
    cx, cy = g.where(g.cursor)          # the cursor's frame is neither
    wide |= {(cx + i, cy + j) for i in range(-2, g.px + 2) for j in range(-2, g.px + 2)}
    for x, y in marks - wide:
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            assert (nx, ny) not in letters, (x, y)


@pytest.mark.parametrize("w, h", ((72, 40), (128, 32), (128, 64)))
def test_lake_ashtapada_squares_are_big_enough_to_read(w, h):
    seats = ash_game()
    app, scr = ash_screen(seats, 0, w, h)
    scr.draw(app.hw.display)
    g = scr.grid
    assert g.px >= (6 if w < 128 else 4), g.px
    # the window follows the cursor to every corner of the lake
    for goal in (0, 9, 90, 99):
        g.cursor = goal
        scr.draw(app.hw.display)
        assert g.where(goal) is not None


def test_lake_ashtapada_boat_menu_reads_whole_at_72x40():
    seats = ash_game()
    app, scr = ash_screen(seats, 0, 72, 40)
    scr.key("OK")
    d = drawn(scr.draw)
    body = row_text(d, 8, 40)
    for word in ("Move...", "Sound...", "Depth..."):
        assert word.upper() in body.upper(), body
    assert "~" not in body


def test_periplus_keeps_six_of_its_eight_rows_at_72x40():
    from test_periplus_screen import make_screen, my_phase, new_game, play_until
    rs = new_game()
    assert play_until(rs, my_phase("move"))
    app, scr = make_screen(rs, 72, 40)
    d = drawn(scr.draw)
    g = scr.grid
    assert g.px >= 6 and g.vr >= 6, (g.px, g.vr)
    bar = row_text(d, 0, 8)
    assert "~" not in bar, bar


@pytest.mark.parametrize("w, h", ((72, 40), (128, 32), (128, 64)))
def test_a_cursor_move_allocates_nothing_in_lake_and_a_fitted_menu(w, h):
    seats = ash_game()
    app, scr = ash_screen(seats, 0, w, h)
    d = app.hw.display
    scr.key("OK")
    scr.key("DOWN")
    scr.key("OK")                       # Sound...: the cursor on the sounding squares
    m = Menu(app, "fathom", [Item(t) for t in ("PING", "Lake Ashtapada", "Sugar Dog")])
    for k in ("RIGHT", "LEFT", "UP", "DOWN"):   # warm every cache once
        scr.key(k)
        scr.draw(d)
        m.key("DOWN")
        m.draw(d)
    seen = set()
    cell_fn = scr._square               # bound once, as the screen does

    def moves():   # the lake's key path and board; its title (GameBase.status) is built per
        for k in ("RIGHT", "UP", "LEFT", "DOWN", "DOWN"):   # frame, outside this module
            scr.key(k)
            scr.grid.draw(d, 0, 8, 40, h - 8, cell_fn)
            m.key("DOWN")
            m.draw(d)
    locked(moves)
    for k in ("RIGHT", "UP", "LEFT", "DOWN", "DOWN"):   # the same moves really moved
        seen.add(scr.grid.cursor)
        scr.key(k)
    assert len(seen) > 1 and scr.only == say.SOUND
