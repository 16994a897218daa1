# The Sugar Dog screen drawn into a real framebuf on 128x64 and 72x40 for 2, 3 and 4 players:
# set-up, the highlighted choice on the map, own submarine/mines/torpedoes, noted contacts,
# the log page, and the generic lines() semantics the end-to-end driver reads.
import pytest

from fathom.games.sugardog import engine as S
from fathom.games.local import make_seats
from fathom.runner import Runner
from fathom.games.sugardog import screen as ui

from uikit import App, Panel

pytestmark = pytest.mark.micropython


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


def act(seats, player, action):
    ev = seats[player].author(action)
    for o in seats:
        if o is not seats[player]:
            o.receive(player, ev)
    settle(seats)


def game(n, starts):
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), n, b"u" * 16)
    for s, sq in zip(seats, starts):
        s.setup_choose(S.parse(sq, s.pub["size"]) if hasattr(S, "parse") else sq)
    settle(seats)
    return seats


def sq(text, size):
    return (ord(text[0]) - 65) + (int(text[1:]) - 1) * size


def screen_for(seat, w=128, h=64):
    app = App(w, h)
    r = Runner(seat, [], None, "sugardog")
    return app, ui.screen(app, r)


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def cell_box(scr, d, size, q):
    cell, x0, y0 = ui.layout(d, size)
    return x0 + (q % size) * cell, y0 + (size - 1 - q // size) * cell, cell


def choices(lines):
    return [l for l in lines[1:] if l[:1] in (">", " ")]


def test_setup_lists_start_squares_and_highlights_the_cursor_on_the_map():
    seats = make_seats(S.ENGINE, S.ENGINE.options({}), 2, b"u" * 16)
    app, scr = screen_for(seats[0])
    lines = scr.lines()
    assert lines[0].startswith("Sugar Dog")
    ch = choices(lines)
    assert len(ch) == 36 and ch[0] == ">start A1" and ch[-1] == " start F6"
    d = draw(app, scr)
    x, y, c = cell_box(scr, d, 6, 0)
    assert c == 8  # 6x6 at 8 px squares on 128x64
    # A1 highlighted: a lit square with the submarine to be placed there cut out of it
    assert c * c // 2 < d.lit(x, y, c, c) < c * c
    x2, y2, _ = cell_box(scr, d, 6, sq("B2", 6))
    assert d.lit(x2 + 1, y2 + 1, c - 1, c - 1) == 0
    scr.key("RIGHT")  # a row up while choosing the start
    scr.key("DOWN")
    assert scr.choices()[scr.cursor][1] == "start B2"
    scr.key("OK")
    assert seats[0].priv["pos"] == sq("B2", 6)


def test_play_labels_and_the_highlighted_choice_on_the_map():
    seats = game(2, [sq("C2", 6), sq("E2", 6)])
    me = S.ENGINE.turn(seats[0].pub)[0]
    seat = seats[me]
    app, scr = screen_for(seat)
    labels = [l[1:] for l in choices(scr.lines())]
    p = seat.priv["pos"]
    up1, up2 = S.step(6, p, S.N), S.step(6, S.step(6, p, S.N), S.N)
    assert labels[0] == "silent stay" and ("mine " + S.name(6, p)) in labels
    assert "sonar ping" in labels and "torpedo N" in labels
    assert ("cruise " + S.name(6, up1)) in labels
    d = draw(app, scr)
    x, y, c = cell_box(scr, d, 6, p)
    # own submarine, highlighted (stay): the cell is lit around a dark hull
    assert 0 < d.lit(x, y, c, c) < c * c
    scr.cursor = labels.index("torpedo N")
    d = draw(app, scr)
    for q in (up1, up2):
        x, y, c = cell_box(scr, d, 6, q)
        assert d.lit(x, y, c, c) > c * c // 2  # the torpedo's two squares
    x, y, c = cell_box(scr, d, 6, S.step(6, up2, S.N))
    assert d.lit(x + 1, y + 1, c - 1, c - 1) == 0
    # the other submarine is nowhere on this map: its square was never announced
    x, y, c = cell_box(scr, d, 6, seats[1 - me].priv["pos"])
    assert d.lit(x + 1, y + 1, c - 1, c - 1) == 0


def test_mines_torpedoes_and_contacts_show_and_the_log_page_scrolls():
    seats = game(2, [sq("C3", 6), sq("E5", 6)])
    first = S.ENGINE.turn(seats[0].pub)[0]
    other = 1 - first
    act(seats, first, ["mine"])
    act(seats, other, ["cruise", S.step(6, seats[other].priv["pos"], S.N)])
    act(seats, other, seats[other].legal()[0])  # the second cruise step
    p = seats[first].priv["pos"]
    act(seats, first, ["run", S.neighbours(6, p)[0]])  # off the mine, so it shows
    act(seats, other, ["run", seats[other].priv["pos"]])
    act(seats, first, [a for a in seats[first].legal() if a[0] == "fire"][0])
    seat = seats[first]
    grid = S.marks(seat.pub, seat.priv, seat.log, first)
    assert grid.count("c") >= 1 and "m" in grid
    app, scr = screen_for(seat)
    d = draw(app, scr)
    for q in range(36):
        x, y, c = cell_box(scr, d, 6, q)
        if grid[q] != " ":
            assert d.lit(x + 1, y + 1, c - 1, c - 1) > 0, (q, grid[q])
    lines = scr.lines()
    assert any("torpedo" in l for l in lines if l.startswith("| "))
    scr.key("RIGHT")
    lines = scr.lines()
    assert lines[0] == "Sugar Dog log" and len(lines) == 1 + len(seat.log)
    assert lines[-1].startswith("%d P" % len(seat.log))
    d = draw(app, scr)
    assert d.lit(0, 8, 128, 56) > 0
    scr.key("UP")
    assert scr.top == len(seat.log) - 2
    scr.key("LEFT")
    assert scr.page == ui.MAP and scr.lines()[0].startswith("Sugar Dog")


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("wh", [(128, 64), (72, 40)])
def test_every_phase_draws_on_both_panels(n, wh):
    size = S.map_size(n)
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), n, b"p" * 16)
    app, scr = screen_for(seats[0], wh[0], wh[1])
    d = draw(app, scr)
    assert d.lit(0, 8, wh[0], wh[1] - 8) > 0
    for i, s in enumerate(seats):
        s.setup_choose((i * 7 + 3) % (size * size))
    settle(seats)
    for step in range(12):
        t = S.ENGINE.turn(seats[0].pub)
        if t is None:
            break
        p = t[0]
        legal = seats[p].legal()
        d = draw(app, scr)
        cell, x0, y0 = ui.layout(d, size)
        assert x0 + size * cell <= wh[0] and y0 + size * cell <= wh[1]
        for k in range(len(scr.choices())):
            scr.cursor = k
            draw(app, scr)
        act(seats, p, legal[(step * 5) % len(legal)])
    scr.key("RIGHT")
    d = draw(app, scr)
    assert d.lit(0, 8, wh[0], wh[1] - 8) > 0


def test_tiny_font_draws_every_label_glyph():
    d = Panel(80, 8)
    ui.tiny(d, "ABCDEFGHIJ", 0, 0)
    ui.tiny(d, "0123456789", 40, 0)
    for k in range(20):
        assert d.lit(k * 4, 0, 3, 5) >= 5
