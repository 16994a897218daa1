# The Sugar Dog screen (games/sugardog/screen.py, not changed here) with an 8-player game's 18x18
# map, read only: at 128x64, 128x32 and 72x40 the map is a window that follows the cursor to
# every corner, nothing is drawn past the panel, the square names run A1 to R18, keys_for()
# authors every move of a bot game from the screen, and a cursor move and a redraw allocate
# nothing on MicroPython.
import sys

import pytest

from fathom.games.bots import make_bot
from fathom.games.local import make_seats
from fathom.games.sugardog import engine as S
from fathom.games.sugardog import screen as ui
from fathom.runner import Runner

from kit.play import deliver, settle
from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (128, 32), (72, 40))
N = 8
SIZE = 18


def screen_for(seat, w, h, oversized=True):
    app = App(w, h)
    if oversized:    # not for the allocation test: its attribute lookups make bound methods
        app.hw.display = Oversized(w, h, 16)
    return app, ui.screen(app, Runner(seat, [], None, "sugardog"))


def on_panel(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    assert d.outside() == 0, (d.width, d.height, scr.lines()[:2])
    return d


@pytest.mark.parametrize("wh", SIZES)
def test_the_18x18_map_follows_the_cursor_to_every_corner_on_the_panel(wh):
    w, h = wh
    seats = make_seats(S.ENGINE, S.ENGINE.options(), N, b"screen8")
    app, scr = screen_for(seats[0], w, h)
    assert scr.lines()[1] == "at J10"                     # the middle square
    assert "| You are P1 of 8" in scr.lines()
    on_panel(app, scr)
    b = scr.board
    assert b.vc < SIZE or b.vr < SIZE                     # too big for the panel: a window
    assert b.px >= 5
    for corner, name in ((0, "A1"), (SIZE - 1, "R1"), (SIZE * SIZE - 1, "R18"),
                         (SIZE * (SIZE - 1), "A18"), (SIZE * 9 + 9, "J10")):
        for k in b.keys_to(corner):
            scr.key(k)
        assert b.cursor == corner and scr.lines()[1] == "at " + name
        on_panel(app, scr)
        assert b.where(corner) is not None                # the cursor's square is in view
    scr.key("OK")                                         # one choice there: start at J10
    assert seats[0].priv["pos"] == SIZE * 9 + 9


@pytest.mark.parametrize("wh", SIZES)
def test_an_8_player_bot_game_is_played_from_the_screen_by_keys(wh):
    w, h = wh
    seed = b"screen8-%d" % w
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), N, seed)
    bots = [make_bot("sugardog", "sharp" if p % 2 else "easy", seed, p) for p in range(N)]
    app, scr = screen_for(seats[0], w, h)
    first = bots[0].setup(seats[0])
    for k in scr.keys_for(first):
        scr.key(k)
    assert seats[0].setup_choices == [first]
    for s in seats[1:]:
        s.setup_choose(bots[s.player].setup(s))
    settle(seats)
    mine = 0
    for _i in range(300 if w == 128 and h == 64 else 60):
        if seats[0].result() is not None:
            break
        p = seats[0].to_move()[0]
        a = bots[p].act(seats[p])
        if p == 0:
            keys = scr.keys_for(a)
            before = seats[0].n_actions
            for k in keys:
                scr.key(k)
            assert seats[0].actions[before] == a, (keys, a)
            assert len(keys) <= 8
            on_panel(app, scr)
            assert scr.board.where(seats[0].priv["pos"]) is not None
            deliver(seats, seats[0], seats[0].log[seats[0].n_log - 1][1])
            mine += 1
        else:
            deliver(seats, seats[p], seats[p].author(a))
        settle(seats)
    assert mine >= 3
    rows = [l[2:] for l in scr.lines() if l.startswith("# ")]
    assert len(rows) == SIZE and all(len(r) == SIZE for r in rows)


@pytest.mark.skipif(sys.implementation.name != "micropython", reason="heap_lock")
def test_a_cursor_move_and_redraw_of_the_18x18_map_allocate_nothing():
    import micropython
    seats = make_seats(S.ENGINE, S.ENGINE.options(), N, b"alloc8")
    for s in seats:
        s.setup_choose(S.map_size(N) * (2 * s.player) + 2 * s.player + 1)
    settle(seats)
    me = S.ENGINE.turn(seats[0].pub)[0]
    keys = ("UP",) * 12 + ("RIGHT",) * 12 + ("DOWN", "LEFT")   # made before the heap locks
    for w, h in SIZES:
        app, scr = screen_for(seats[me], w, h, False)
        d = app.hw.display
        d.fill(0)
        scr.draw(d)
        micropython.heap_lock()
        try:
            for k in keys:
                scr.key(k)
                d.fill(0)
                scr.draw(d)
        finally:
            micropython.heap_unlock()


@pytest.mark.parametrize("wh", ((128, 64), (72, 40)))
def test_a_sunk_player_reads_that_first_not_whose_move_it_is(wh):
    # a sunk player's screen said "P2 to move", "sunk" only in its status corner
    from kit.play import play_seats
    n = 4
    seats = make_seats(S.ENGINE, S.ENGINE.options(), n, b"sunk4")
    bots = [make_bot("sugardog", "sharp", b"sunk4", p) for p in range(n)]
    alive = seats[0].pub["alive"]
    play_seats(seats, bots, until=lambda: False in alive and seats[0].result() is None
               and alive.count(True) >= 2)
    if seats[0].result() is not None:
        pytest.skip("the game ended with no one sunk first")
    out = alive.index(False)
    app, scr = screen_for(seats[out], *wh)
    on_panel(app, scr)
    lines = scr.lines()
    assert lines[0].endswith("You are sunk") or lines[0].endswith("Sunk"), lines[:3]
    assert " to move" not in lines[0]
    said = [l for l in lines if l.startswith("| ")]
    assert said and said[0] == "| You are sunk: out of the game. The others play on.", lines
