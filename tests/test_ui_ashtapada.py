# The Lake Ashtapada screen drawn into a real framebuf on 128x64 and 72x40: set-up, play, the
# highlighted choice on the lake, the deduction overlay, own mines, the pages, and the generic
# lines() semantics the end-to-end driver reads.
import pytest

from fathom.games.ashtapada import engine as A
from fathom.games.local import make_seats
from fathom.runner import Runner
from fathom.games.ashtapada import screen as ui

from uikit import App

pytestmark = pytest.mark.micropython

OPTS = {"size": 10, "mines": 3, "islands": 1, "calm": 40}


def settle(seats):
    """Author whatever needs no decision (set-up commits, answers) and deliver it."""
    moved = True
    while moved:
        moved = False
        for s in seats:
            t = s.to_move()
            if t is None or t[0] != s.player or s.result() is not None:
                continue
            if (t[1] == "setup" and not s.setup_legal()) or t[1] == "answer":
                ev = s.author()
                for o in seats:
                    if o is not s:
                        o.receive(s.player, ev)
                moved = True


def play(seats, player, action):
    ev = seats[player].author(action)
    seats[1 - player].receive(player, ev)
    settle(seats)


def game(setups=(([A.parse("D3", 10)], [0, 1, 2]), ([A.parse("E8", 10)], [97, 96, 95]))):
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    for s, (isl, mines) in zip(seats, setups):
        for sq in isl:
            s.setup_choose(["island", sq])
        for sq in mines:
            s.setup_choose(["mine", sq])
    settle(seats)
    return seats


def screen_for(seat, w=128, h=64):
    app = App(w, h)
    r = Runner(seat, [], None, "ashtapada")
    return app, ui.screen(app, r)


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def square_xy(scr, sq, d):
    pitch, _side = scr._geometry(d, 10)
    i, j = scr._cell(sq)
    return 1 + j * pitch, 1 + i * pitch, pitch - 1


def test_setup_lists_islands_in_reading_order_and_lays_them_with_ok():
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats[0])
    lines = scr.lines()
    assert lines[0].startswith("Lake Ashtapada")
    ch = [l for l in lines[1:] if l[:1] in (">", " ")]
    assert ch[0].startswith(">island ") and all(l[1:].startswith("island") for l in ch)
    # South sees its shore at the bottom: the first choice is on the northernmost legal row
    assert ch[0] == ">island B5" and ch[-1] == " island I2"
    d = draw(app, scr)
    x, y, k = square_xy(scr, A.parse("B5", 10), d)
    assert d.lit(x, y, k, k) > 0  # the highlighted square is drawn on the lake
    scr.key("RIGHT")  # the next square along the row
    scr.key("OK")
    assert seats[0].priv["islands"] == [A.parse("C5", 10)]
    assert [l for l in scr.lines() if l.startswith(">")][0].startswith(">mine ")
    d = draw(app, scr)
    x, y, k = square_xy(scr, A.parse("C5", 10), d)
    assert d.lit(x, y, k, k) == k * k  # the island just laid is solid


def _at(scr):
    return scr.choices()[scr.cursor][1].split()[1]


@pytest.mark.parametrize("player", [0, 1])
def test_setup_arrows_move_the_cursor_on_the_lake_as_drawn(player):
    # RIGHT/LEFT along the row drawn on the panel, UP/DOWN along the column, for South (own
    # shore at the bottom) and North (the lake turned round) alike; at the edge it stays.
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats[player])

    def where():
        d = draw(app, scr)
        x, y, k = square_xy(scr, scr.choices()[scr.cursor][0][1], d)
        assert d.lit(x, y, k, k) > 0   # the cursor is drawn on that square
        return x, y

    x0, y0 = where()
    start = _at(scr)
    for k, dx, dy in (("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0), ("UP", 0, -1)):
        x, y = where()
        scr.key(k)
        nx, ny = where()
        assert (nx - x, ny - y) == (dx * 6, dy * 6), k   # one square (6 px pitch) that way
    assert (where(), _at(scr)) == ((x0, y0), start)
    scr.key("UP")                                        # the top legal row: nowhere to go
    scr.key("LEFT")                                      # the first legal column
    assert where() == (x0, y0)


def test_setup_cursor_stays_where_it_was_after_laying():
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats[0])
    for k in ("DOWN", "DOWN", "RIGHT", "RIGHT", "RIGHT"):
        scr.key(k)
    assert _at(scr) == "E3"
    scr.key("OK")                                  # the island; mines next, beside it
    assert seats[0].priv["islands"] == [A.parse("E3", 10)]
    assert _at(scr) == "F3"
    scr.key("OK")
    assert _at(scr) == "G3"
    scr.key("LEFT")                                # over the island and the mine just laid
    assert _at(scr) == "D3"
    scr.key("OK")
    assert seats[0].priv["mines"] == [A.parse("F3", 10), A.parse("D3", 10)]
    assert _at(scr) == "C3"                        # E3 is taken: the free square beside it
    scr.key("UP")
    assert _at(scr) == "C4"
    scr.key("OK")                                  # the last mine: set-up done
    assert not seats[0].setup_legal() and scr.cursor == 0


def test_play_draws_boats_own_mines_overlay_and_the_highlighted_charge():
    seats = game()
    app, scr = screen_for(seats[0])
    lines = scr.lines()
    assert "your move" in lines[0]
    ch = [l[1:] for l in lines[1:] if l[:1] in (">", " ")]
    assert ch[0] == "sound B1" and ch[-1].startswith("move ")
    kinds = [c.split()[0] for c in ch]
    assert kinds == sorted(kinds, key=lambda t: ("sound", "depth", "move").index(t))
    d = draw(app, scr)
    # own mine at C1 (not under the boat): drawn; an empty own square: dark
    x, y, k = square_xy(scr, 2, d)
    assert d.lit(x, y, k, k) >= 5
    x, y, k = square_xy(scr, A.parse("F2", 10), d)
    assert d.lit(x, y, k, k) == 0
    # the enemy half carries the deduction dots; the enemy boat at J10 is drawn
    x, y, k = square_xy(scr, A.parse("C8", 10), d)
    assert d.lit(x, y, k, k) == 1
    x, y, k = square_xy(scr, 99, d)
    assert d.lit(x, y, k, k) >= 4
    # the highlighted sounding charge at B1 is inverted on the lake
    x, y, k = square_xy(scr, A.parse("B1", 10), d)
    assert d.lit(x, y, k, k) > k * k // 2
    # the panel shows the turn and the choice label
    assert d.lit(64, 0, 64, 8) > 100  # "Your go" inverted
    assert d.lit(64, 48, 64, 16) > 200  # the label, inverted


def test_a_sounding_report_prunes_the_overlay_and_shows_in_the_panel_and_sonar_page():
    seats = game()
    app, scr = screen_for(seats[0])
    before = sum(A.candidates(seats[0].pub, 0))
    play(seats, 0, ["sound", A.parse("B2", 10)])
    assert seats[0].log[-1][1][0] == "ping"
    d = draw(app, scr)
    assert scr.lines()[0].endswith("waiting for P2")
    assert [l for l in scr.lines()[1:] if l[:1] in (">", " ")] == []
    dots = 0
    for sq in range(50, 100):
        x, y, k = square_xy(scr, sq, d)
        if scr._map[sq] & 0xF0 == 0 and d.lit(x, y, k, k) == 1:
            dots += 1
    after = sum(A.candidates(seats[0].pub, 0))
    assert after < before and dots == after
    assert scr._last.startswith("B2:")
    scr.key("RIGHT")
    scr.key("RIGHT")
    assert scr.page == ui.SONAR
    assert scr._sonar_lines(6)[0].startswith("B2: ")
    d = draw(app, scr)
    assert d.lit(0, 0, 128, 8) > 100  # the page header


def test_move_path_is_drawn_and_north_sees_its_own_shore_at_the_bottom():
    seats = game()
    play(seats, 0, ["sound", A.parse("B2", 10)])
    app, scr = screen_for(seats[1])
    ch = scr.choices()
    i = [c[1] for c in ch].index("move I10-H10-G10")
    scr.cursor = i
    d = draw(app, scr)
    for name in ("I10", "H10", "G10"):
        x, y, k = square_xy(scr, A.parse(name, 10), d)
        assert y > 40  # North's home row is drawn at the bottom of the lake
        assert d.lit(x, y, k, k) > k * k // 2
    assert [l for l in scr.lines() if l.startswith(">")] == [">move I10-H10-G10"]
    scr.key("OK")
    assert seats[1].pub["boats"][1] == A.parse("G10", 10)
    assert scr.cursor == 0


def test_log_page_keeps_up_down_ok_playing():
    seats = game()
    app, scr = screen_for(seats[0])
    scr.key("RIGHT")
    assert scr.page == ui.LOG
    d = draw(app, scr)
    assert d.lit(0, 56, 128, 8) > 100  # the highlighted choice, at the bottom
    scr.key("DOWN")
    assert scr.cursor == 1
    scr.key("LEFT")
    assert scr.page == ui.MAP


@pytest.mark.parametrize("size", [8, 10, 12])
def test_every_phase_fits_72x40_and_128x64(size):
    opts = dict(OPTS)
    opts["size"] = size
    seats = make_seats(A.ENGINE, A.ENGINE.options(opts), 2, b"t" * 16)
    for w, h in ((128, 64), (72, 40)):
        app, scr = screen_for(seats[0], w, h)
        app.link_state = "linked"
        for page in range(3):
            scr.page = page
            d = draw(app, scr)
            assert d.lit(0, 0, w, h) > 20
        scr.page = ui.MAP
    for s in seats:
        while s.setup_legal():
            s.setup_choose(s.setup_legal()[-1])
    settle(seats)
    for w, h in ((128, 64), (72, 40)):
        for s in seats:
            app, scr = screen_for(s, w, h)
            d = draw(app, scr)
            pitch, side = scr._geometry(d, size)
            assert side <= h and side + 2 + 4 * 8 <= w  # the lake and a 4-column panel fit
            assert d.pixel(0, 0) == 1 and d.pixel(side - 1, side - 1) == 1
    assert ui.short_label(["move", [1, 2, 3]], size) == ">D1"
    assert ui.short_label(["depth", size], size) == "*A2"
