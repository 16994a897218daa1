# The Sugar Dog screen drawn into a real framebuf: point at a square, OK offers only what can be
# done there; keys_for() authors every action a bot game plays (and is short); what happened is
# said in words; HELP opens the help page; the screen lays out at 128x64, 128x32 and 72x40
# without drawing past the panel; a cursor move and a redraw allocate nothing.
import sys

import pytest

from fathom.games.bots import make_bot
from fathom.games.local import make_seats, next_author
from fathom.games.sugardog import engine as S
from fathom.games.sugardog import say
from fathom.games.sugardog import screen as ui
from fathom.runner import Runner

from kit.play import deliver, settle
from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (128, 32), (72, 40))


def act(seats, player, action):
    deliver(seats, seats[player], seats[player].author(action))
    settle(seats)


def sq(text, size):
    return (ord(text[0]) - 65) + (int(text[1:]) - 1) * size


def game(n, starts):
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), n, b"u" * 16)
    for s, q in zip(seats, starts):
        s.setup_choose(q)
    settle(seats)
    return seats


def screen_for(seat, w=128, h=64, panel=None):
    app = App(w, h)
    if panel is not None:
        app.hw.display = panel
    return app, ui.screen(app, Runner(seat, [], None, "sugardog"))


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def press(scr, keys):
    for k in keys:
        scr.key(k)


def menu(scr):
    return [l[1:] for l in scr.lines()[2:]]


def test_setup_starts_in_the_middle_and_one_ok_places_the_submarine():
    seats = make_seats(S.ENGINE, S.ENGINE.options({}), 2, b"u" * 16)
    app, scr = screen_for(seats[0])
    lines = scr.lines()
    assert lines[0] == "Sugar Dog Your start" and lines[1] == "at D4"
    assert "| You are P1 of 2" in lines
    draw(app, scr)
    press(scr, ["LEFT", "DOWN", "DOWN"])
    assert scr.lines()[1] == "at C2"
    scr.key("OK")                  # one thing to do on a square: done at once
    assert seats[0].priv["pos"] == sq("C2", 6)


def test_own_square_and_neighbour_menus_offer_only_what_can_be_done_there():
    seats = game(2, [sq("C2", 6), sq("D2", 6)])   # room to the north for either player
    me = S.ENGINE.turn(seats[0].pub)[0]
    seat = seats[me]
    p = seat.priv["pos"]
    app, scr = screen_for(seat)
    assert scr.lines()[1] == "at %s your sub" % say.name(6, p)
    scr.key("OK")
    assert scr.lines()[1] == "at " + say.name(6, p)
    assert menu(scr) == ["Stay put", "Lay mine", "Sonar ping"]
    scr.key("BACK")
    scr.key("UP")                  # the square to the north: move, cruise or fire there
    scr.key("OK")
    assert menu(scr) == ["Sneak here", "Cruise here", "Torpedo N"]
    press(scr, ["DOWN", "DOWN"])
    d = draw(app, scr)
    up1 = S.step(6, p, S.N)
    up2 = S.step(6, up1, S.N)
    assert set(scr.hot) == {up1, up2}
    for q in (up1, up2):           # the torpedo's two squares are lit
        x, y = scr.board.where(q)
        px = scr.board.px
        assert d.lit(x, y, px - 1, px - 1) > (px - 1) * (px - 1) // 2
    scr.key("OK")
    assert seat.log[seat.n_log - 1][1] == ["f", up1, S.N]
    assert "Torpedo from %s heading north" % say.name(6, p) in scr.lines()[2]


def test_the_other_submarine_never_shows_and_a_mine_and_contacts_do():
    seats = game(2, [sq("C3", 6), sq("E5", 6)])
    first = S.ENGINE.turn(seats[0].pub)[0]
    other = 1 - first
    act(seats, first, ["mine"])
    act(seats, other, ["cruise", S.step(6, seats[other].priv["pos"], S.N)])
    act(seats, other, seats[other].legal()[0])
    act(seats, first, ["run", S.neighbours(6, seats[first].priv["pos"])[0]])
    seat = seats[first]
    grid = S.marks(seat.pub, seat.priv, seat.log, first)
    assert bytes((S.G_CONTACT,)) in grid and bytes((S.G_MINE,)) in grid
    app, scr = screen_for(seat)
    d = draw(app, scr)
    px = scr.board.px
    for q in range(36):
        x, y = scr.board.where(q)
        inner = d.lit(x + 1, y + 1, px - 2, px - 2)
        if grid[q] != S.G_NONE or q in scr.at:
            assert inner > 0, (q, grid[q])
        else:
            assert inner == 0, q
    rows = [l[2:] for l in scr.lines() if l.startswith("# ")]
    assert len(rows) == 6 and "".join(rows).count("s") == 1


def test_what_happened_is_said_in_words():
    size = 6
    c2, c3 = sq("C2", 6), sq("C3", 6)
    assert say.happened(size, 0, 1, ["f", c3, S.N]) == "Torpedo from C2 heading north"
    assert say.happened(size, 0, 1, ["c", c3]) == "P2 cruised into C3"
    assert say.happened(size, 1, 1, ["q"]) == "You ran silent"
    assert say.happened(size, 0, 1, ["s", c2, [c3]]) == "P2 pinged at C2: mines C3"
    assert say.happened(size, 0, 1, ["e", c2, []]) == "P2 echoed from C2: no mines"
    assert say.happened(size, 0, 1, ["a", [c2, c3], 0]) == "P2 has nothing at C2 C3"
    assert say.happened(size, 0, 1, ["a", [c2], 1]) == "P2's mine at C2 blew up"
    assert say.happened(size, 0, 1, ["a", [c2, c3], 2]) == "Hit! P2 sunk at C3"
    assert say.happened(size, 1, 1, ["a", [c2], 2]) == "Your submarine at C2 is hit: sunk"
    assert say.happened(size, 0, 1, ["a", 5]) == "P2 sent something odd"


def test_help_opens_a_scrolling_page_from_the_data_file():
    seats = make_seats(S.ENGINE, S.ENGINE.options({}), 2, b"u" * 16)
    app, scr = screen_for(seats[0], 72, 40)
    app.push(scr)
    scr.key("HELP")
    page = app.stack[-1]
    assert page is not scr and page.lines()[0] == "Sugar Dog help"
    text = " ".join(page.lines())
    for word in ("SUGAR DOG", "Torpedo", "Cruise", "Long BACK"):
        assert word in text
    d = app.hw.display
    d.fill(0)
    page.draw(d)
    top = page.page.top
    page.key("DOWN")
    assert page.page.top == top + page.page._rows - 1   # a page, one line kept
    page.key("BACK")
    assert app.stack[-1] is scr


def bot_game(n, seed, sizes, check=None):
    """A whole game played by bots; before each of seat 0's moves, `check(scr, action)`
    runs on a screen per panel size (which then authors the move through its keys)."""
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), n, b"k%d" % seed)
    bots = [make_bot("sugardog", "sharp", b"b%d" % seed, i) for i in range(n)]
    scrs = []
    for w, h in sizes:
        panel = Oversized(w, h, 16)
        app, scr = screen_for(seats[0], w, h, panel)
        scrs.append((app, scr))
    counts = []
    for s, b in zip(seats, bots):
        if s is not seats[0]:
            s.setup_choose(b.setup(s))
    first = bots[0].setup(seats[0])
    scr0 = scrs[0][1]
    keys = scr0.keys_for(first)
    counts.append(len(keys))
    press(scr0, keys)
    assert seats[0].setup_choices == [first]
    settle(seats)
    for _ in range(400):
        if seats[0].result() is not None:
            break
        t = seats[0].to_move()
        p = t[0]
        a = bots[p].act(seats[p])
        if p == 0:
            for app, scr in scrs:
                check(app, scr, a)
            keys = scr0.keys_for(a)
            counts.append(len(keys))
            before = seats[0].n_actions
            press(scr0, keys)
            assert seats[0].n_actions == before + 1
            assert seats[0].actions[before] == a, (keys, a)
            deliver(seats, seats[0], seats[0].log[seats[0].n_log - 1][1])
            settle(seats)
        else:
            act(seats, p, a)
    return counts


def test_keys_for_authors_every_move_of_a_bot_game_in_few_presses():
    counts = []
    for seed in (1, 2):
        counts += bot_game(2, seed, [(128, 64)], lambda app, scr, a: None)
    counts += bot_game(3, 3, [(128, 64)], lambda app, scr, a: None)
    counts.sort()
    med = counts[len(counts) // 2]
    p90 = counts[len(counts) * 9 // 10]
    print("sugardog keys per action: n=%d median %d p90 %d max %d" % (
        len(counts), med, p90, counts[-1]))
    assert med <= 4 and p90 <= 8


def boxes_apart(a, b):
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or \
        b[1] + b[3] <= a[1]


def test_every_size_through_a_game_stays_on_the_panel():
    def check(app, scr, action):
        d = app.hw.display
        w, h = d.width, d.height
        for opened in (False, True):
            if opened:
                target = say.anchor(scr.size, scr.runner.seat.priv["pos"], action)
                if len(scr.at[target]) < 2:
                    continue
                scr.board.cursor = target
                scr.key("OK")
            draw(app, scr)
            assert d.outside() == 0, (w, h, scr.lines())
            assert d.lit(0, 8, w, h - 8) > 0
            b = scr.board
            if scr.menu is None or w >= 128:
                board = (0, 8, b.x0 + b.vc * b.px + 1, 8 + 2 + b.ty + b.vr * b.px)
                assert board[2] <= w and board[3] <= h
                assert b.px >= 5
                # the side panel starts right of the board: nothing drawn over the map
                side = (board[2] + 1, 8, w - board[2] - 1, h - 8)
                assert boxes_apart(board, side)
            if opened:
                scr.key("BACK")
    for n in (2, 3, 4):
        bot_game(n, 10 + n, SIZES, check)


@pytest.mark.skipif(sys.implementation.name != "micropython", reason="heap_lock")
def test_a_cursor_move_and_redraw_allocate_nothing():
    import micropython
    seats = game(2, [sq("C2", 6), sq("E5", 6)])
    me = S.ENGINE.turn(seats[0].pub)[0]
    for w, h in SIZES:
        app, scr = screen_for(seats[me], w, h)
        d = draw(app, scr)
        d.fill(0)
        micropython.heap_lock()
        try:
            for k in ("UP", "RIGHT", "DOWN", "LEFT", "UP", "UP", "UP", "UP"):
                scr.key(k)
                d.fill(0)
                scr.draw(d)
        finally:
            micropython.heap_unlock()


def test_a_game_played_from_the_screen_text_alone():
    # what the end-to-end tests do on emulated units (tests/kit/sugardog_keys.py), in-process
    from fathom.prng import Prng
    from kit.sugardog_keys import policy

    class Rng(Prng):
        def randrange(self, n):
            return self.below(n)
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), 2, b"drive")
    scrs = [screen_for(s)[1] for s in seats]
    pols = [policy(Rng(b"drive", b"%d" % i)) for i in range(2)]
    sent = [0, 0]
    for _ in range(2000):
        if seats[0].result() is not None:
            break
        for i, (s, scr) in enumerate(zip(seats, scrs)):
            keys = pols[i](scr.lines())
            if keys:
                press(scr, keys)
            while sent[i] < s.n_log:   # deliver what this seat authored since
                a, e = s.log[sent[i]]
                if a == i:
                    deliver(seats, s, e)
                sent[i] += 1
            settle(seats)
            for j, o in enumerate(seats):   # what settle authored is delivered already
                sent[j] = o.n_log
    assert seats[0].result() is not None and seats[0].n_actions + seats[1].n_actions > 2


def _refresh_alloc(scr):
    """Bytes the screen's per-event refresh allocates (MicroPython, collector held off)."""
    import gc
    gc.collect()
    before = gc.mem_alloc()
    gc.disable()
    try:
        scr._refresh()
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def test_the_map_is_folded_per_event_into_one_bytearray():
    # Eight players: the 18x18 map. The screen's map is one bytearray of 324 bytes for the whole
    # game (a list of one-char strs was 1.3 KB a unit, made anew per event), it folds only the
    # new events (walking the whole log per event made 34 KB of garbage at event 70 and 113 KB
    # at 230), and it always equals the map worked out from the whole log.
    n = 8
    seats = make_seats(S.ENGINE, S.ENGINE.options({"calm": 10}), n, b"fold" * 4)
    bots = [make_bot("sugardog", "random", b"fold", p) for p in range(n)]
    app, scr = screen_for(seats[0])
    grid = scr.grid
    size = seats[0].pub["size"]
    assert size == 18 and isinstance(grid, bytearray) and len(grid) == size * size
    used = []
    for i in range(240):
        if seats[0].result() is not None:
            break
        s = next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        t = s.to_move()
        deliver(seats, s, s.author(bots[s.player].act(s) if t[1] == "act" else None))
        if sys.implementation.name == "micropython" and (i < 40 or i >= 200):
            used.append(_refresh_alloc(scr))
        scr._refresh()
        if i % 40 == 39:
            s0 = seats[0]
            assert scr.grid is grid
            assert grid == S.marks(s0.pub, s0.priv, s0.log, 0)
    assert seats[0].n_log >= 200, "the game ended early: pick another seed"
    assert bytes((S.G_SUB,)) in grid
    if used:
        early, late = max(used[:40]), max(used[40:])
        print("sugardog refresh per event on 18x18: early %d B, late %d B" % (early, late))
        assert late <= early + 1024 and late < 4096, (early, late)


@pytest.mark.parametrize("w,h", [(128, 64), (72, 40)])
def test_ok_where_nothing_can_be_done_says_why(w, h):
    # it used to do nothing, with no word why
    seats = game(2, [sq("C3", 6), sq("E5", 6)])
    me = seats[0] if seats[0].my_turn() else seats[1]
    app, scr = screen_for(me, w, h)
    scr.lines()
    far = [q for q in range(scr.size * scr.size) if q not in scr.at]
    scr.board.cursor = far[0]
    n = len(me.log)
    scr.key("OK")
    assert len(me.log) == n and scr.menu is None
    why = [ln for ln in scr.lines() if ln.startswith("# why ")]
    assert why == ["# why Nothing to do here: a dot marks where you can act."]
    draw(app, scr)
    p = scr.why_page                                 # in the panel, wrapped whole
    assert " ".join(p._lines).split() == why[0][6:].split()
    scr.key("RIGHT" if far[0] % scr.size < scr.size - 1 else "LEFT")
    assert not [ln for ln in scr.lines() if ln.startswith("# why ")]


@pytest.mark.parametrize("w,h", [(128, 64), (72, 40)])
def test_a_cruise_stops_after_one_square_through_the_keys_and_both_players_read_it(w, h):
    # the source lets a cruise end after its first square ("no further contacts"); the common
    # second square still takes one OK, the stop asks once on the submarine's own square
    seats = game(2, [sq("C2", 6), sq("E5", 6)])
    me = S.ENGINE.turn(seats[0].pub)[0]
    seat, other = seats[me], seats[1 - me]
    app, scr = screen_for(seat, w, h)
    _o_app, o_scr = screen_for(other, w, h)
    first = S.step(6, seat.priv["pos"], S.W)
    press(scr, scr.keys_for(["cruise", first]))
    deliver(seats, seat, seat.log[seat.n_log - 1][1])   # the screen's runner has no peers
    settle(seats)
    assert seat.priv["pos"] == first and seat.pub["ph"] == "c2"
    assert scr.board.cursor == first                   # the cursor waits on the submarine
    second = S.step(6, first, S.W)
    assert scr.keys_for(["cruise", second]) == ["LEFT", "OK"]   # one OK, as before
    assert scr.keys_for(["stop"]) == ["OK", "OK"]
    scr.key("OK")                                      # a stray OK ends nothing: it asks
    assert seat.pub["ph"] == "c2" and menu(scr) == ["Stop here"]
    draw(app, scr)
    scr.key("OK")
    assert seat.log[seat.n_log - 1][1] == ["n"]
    deliver(seats, seat, ["n"])
    assert seat.priv["pos"] == first and seat.pub["ph"] != "c2"
    assert "| You stopped: no further contacts" in scr.lines()
    draw(app, scr)
    assert "| P%d stopped: no further contacts" % (me + 1) in o_scr.lines()
    draw(_o_app, o_scr)


@pytest.mark.parametrize("w, h", ((128, 64), (72, 40)))
def test_what_the_square_under_the_cursor_holds_is_never_cut(w, h):
    # bench ux read "your mi~" at 72x40: the word was fitted by its count of letters, and the
    # 3x5 M is wider than a column
    from fathom.ui.font import tiny_adv
    seats = game(2, [0, 24])
    app, scr = screen_for(seats[0], w, h)
    drawn = []
    put0 = ui.put

    def put(d, text, x, y, ncols, c=1, small=False):
        drawn.append((text, ncols, small))
        return put0(d, text, x, y, ncols, c, small)

    ui.put = put
    try:
        for glyph, word in zip(list(say._HERE), say.HERE_WORDS):
            scr.grid[scr.board.cursor] = glyph
            del drawn[:]
            draw(app, scr)
            parts = [(t, n, sm) for t, n, sm in drawn if t in word.split() or t == word]
            assert " ".join(t for t, _n, _s in parts) == word, (word, drawn)
            for t, n, sm in parts:
                assert (tiny_adv(t) <= n * 4) if sm else len(t) <= n, (t, n, w, h)
    finally:
        ui.put = put0
