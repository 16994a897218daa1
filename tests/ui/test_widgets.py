# The widget kit (fathom/ui: font, topbar, listview, textpage, cardrow, boardgrid, keysearch) drawn on a
# real framebuf at the three panel sizes the boards have: nothing drawn past the panel, no glyph
# drawn over another where the kit promises a gap, every row, line and card reachable, and a
# board's cursor always in view.
import pytest

from kit.panel import Oversized, Panel

from fathom.ui.boardgrid import BoardGrid, mark
from fathom.ui.cardrow import CardRow
from fathom.ui.font import CH, TH, TW, number, put, tiny, tiny_adv, tiny_cols
from fathom.ui.keysearch import shortest
from fathom.ui.listview import ListView, steps
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import title_room, top_bar

pytestmark = pytest.mark.micropython

SIZES = [(128, 64), (128, 32), (72, 40)]
M = 24  # the test panels' margin: room to see anything drawn past the edge

LABELS = ["Resume game", "vs other unit", "vs bot: easy",
          "torpedo from K heading E at full speed", "x", "Lake Ashtapada", "sound A10",
          "2PNG go Z+rep", "a-very-long-single-word-label-without-spaces", "Settings"]


def dark(d, x, y, w, h):
    """Unlit pixels in a box (text in the inverted top bar is drawn dark)."""
    out = set()
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            if not d.pixel(xx, yy):
                out.add((xx, yy))
    return out


# ---- font ---------------------------------------------------------------------------------------
def test_tiny_glyphs_are_distinct_and_5_high():
    chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-/+:.?!*#<>(),'%~"
    seen = {}
    for ch in chars:
        d = Oversized(8, 8, M)
        end = tiny(d, ch, 0, 0)          # 3 columns and a gap; I 1, L N O 4, M W 5
        assert end == (TW if ch not in "ILNOMW" else {"I": 2, "M": 6, "W": 6}.get(ch, 5)), ch
        assert d.lit(0, 0, end - 1, 5) > 0 and d.lit(0, 0, 8 + M, 8 + M) == d.lit(0, 0, end, 5)
        key = bytes(d.buf)
        assert key not in seen, (ch, seen.get(key))
        seen[key] = ch
    d = Panel(8, 8)
    tiny(d, "a", 0, 0)
    a = bytes(d.buf)
    d.fill(0)
    tiny(d, "A", 0, 0)
    assert bytes(d.buf) == a  # one case


def test_number_and_put_stay_in_their_field():
    d = Oversized(72, 8, M)
    assert number(d, 1207, 0, 0) == 4 * CH
    assert d.lit(4 * CH, 0, M, 8 + M) == 0
    d.fill(0)
    put(d, "Lake Ashtapada", 0, 0, 9)
    assert d.outside() == 0
    assert d.lit(8 * CH, 0, CH, CH) > 0  # the '~' that says it was cut
    ref = Panel(72, 8)
    ref.text("Lake Ash~", 0, 0, 1)
    for x in range(72):
        for y in range(8):
            assert ref.pixel(x, y) == d.pixel(x, y)


@pytest.mark.parametrize("w,h", SIZES)
def test_a_3x5_line_is_cut_to_its_field_with_a_tilde(w, h):
    text = "P2 torpedoed K, 40% hit: it's gone ~ over"
    n = tiny_cols(w)
    d = Oversized(w, h, M)
    put(d, text, 0, h - 5, n, 1, True)
    assert d.outside() == 0
    k = len(text)                                 # the same as the characters that fit with
    while tiny_adv(text[:k]) + TW > n * TW:       # a '~' after them, drawn whole: the cut
        k -= 1                                    # says so
    ref = Oversized(w, h, M)
    tiny(ref, text[:k] + "~", 0, h - 5)
    assert bytes(ref.fb.buf) == bytes(d.fb.buf)
    d.fill(0)
    put(d, "SHORT", 0, 0, n, 1, True)             # a text that fits is drawn as it is
    assert d.lit(0, 0, w, 5) == _inked("SHORT")


def _inked(text):
    d = Panel(tiny_adv(text), 5)
    tiny(d, text, 0, 0)
    return d.lit(0, 0, tiny_adv(text), 5)


# ---- top bar ------------------------------------------------------------------------------------
@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("field", [("P2", 0, 0), (None, 7, 24), (None, 123, 456)])
@pytest.mark.parametrize("link", [None, "linked"])
def test_top_bar_keeps_field_and_icon_clear_of_a_long_title(w, h, field, link):
    right, pos, total = field
    full = Oversized(w, h, M)
    room = top_bar(full, "Lake Ashtapada at the north shore", link, right, pos, total)
    assert full.outside() == 0
    title = Oversized(w, h, M)  # the title alone, cut to the room the bar gave it
    title.fill_rect(0, 0, w, CH, 1)
    put(title, "Lake Ashtapada at the north shore", 0, 0, room, 0)
    rest = Oversized(w, h, M)
    top_bar(rest, "", link, right, pos, total)
    t = dark(title, 0, 0, room * CH, CH)
    r = dark(rest, room * CH, 0, w - room * CH, CH)
    assert t and r
    # the title ends where its room ends, the field and icon start after a gap: no pixel of
    # one touches a column of the other
    assert max([p[0] for p in t]) + 1 < min([p[0] for p in r])
    assert dark(full, 0, 0, w, CH) == t | r
    assert room >= (3 if w == 72 else 8)  # the title keeps a readable share


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("link", [None, "retrying"])
def test_title_room_is_known_before_drawing_and_a_bar_can_cover_part_of_the_panel(w, h, link):
    for right, pos, total in (("P2", 0, 0), (None, 7, 24), (None, 0, 0)):
        d = Oversized(w, h, M)
        room = top_bar(d, "Move: ship?", link, right, pos, total)
        assert room == title_room(w, link, right, pos, total)
    x = w // 3                                    # a side panel's bar: nothing left of x
    d = Oversized(w, h, M)
    room = top_bar(d, "Fleet: follow?", link, "P1", 0, 0, x, w - x)
    assert room == title_room(w - x, link, "P1")
    assert d.outside() == 0 and d.lit(0, 0, x, h) == 0
    assert d.lit(x, 0, w - x, CH) > 0 and d.lit(x, CH, w - x, h - CH) == 0
    ref = Oversized(w - x, h, M)                  # the same bar as a whole panel that wide
    top_bar(ref, "Fleet: follow?", link, "P1")
    for yy in range(CH):
        for xx in range(w - x):
            assert ref.pixel(xx, yy) == d.pixel(x + xx, yy)


# ---- list view ----------------------------------------------------------------------------------
def _check_list(w, h, v, y0=CH):
    d = Oversized(w, h, M)
    v.draw(d, 0, y0, w, h - y0)
    assert d.outside() == 0
    lh = TH if v.small else CH
    nrows = (h - y0) // lh
    sel = v.lines_of(v.cursor, w // (TW if v.small else CH) - 1)
    k = min(len(sel), nrows) if sel else 1
    assert v.top <= v.cursor and v.cursor - v.top + k <= nrows  # the whole highlight shows
    yc = y0 + (v.cursor - v.top) * lh
    assert d.lit(0, yc, w, k * lh) > w * k * lh // 2  # drawn inverted
    return d, k


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize("small", [False, True])
def test_list_view_reaches_every_row_and_wraps_the_highlight(w, h, fixed, small):
    notes = [""] * len(LABELS)
    notes[1] = "on"
    v = ListView(LABELS, 0, notes, fixed, True, small)
    seen = set()
    for _ in range(2 * len(LABELS)):
        d, k = _check_list(w, h, v)
        seen.add(v.cursor)
        room = w // (TW if small else CH) - 1
        sel = v.lines_of(v.cursor, room)
        if sel is not None:   # the highlighted label is readable whole: no '~', every word
            assert " ".join(sel).split() == (LABELS[v.cursor] + " " + notes[v.cursor]).split() \
                or "".join(line[:-1] if line.endswith("-") else line for line in sel).replace(
                    " ", "") == LABELS[v.cursor].replace(" ", "")   # a long word hyphenated
            assert all(len(line) <= room for line in sel)
        v.key("DOWN")
    assert seen == set(range(len(LABELS)))
    v.key("UP")
    assert v.cursor == len(LABELS) - 1


@pytest.mark.parametrize("w,h", SIZES)
def test_list_view_draws_a_lazy_sequence_and_a_shrinking_list(w, h):
    class Rows:
        def __len__(self):
            return 200

        def __getitem__(self, i):
            return "%d event number %d with words" % (i, i)

    v = ListView(Rows(), 199)
    _check_list(w, h, v)
    v.key("DOWN")
    assert v.cursor == 0
    _check_list(w, h, v)
    v.cursor = 150
    _check_list(w, h, v)
    v.set(["one", "two"])
    assert v.cursor == 1
    _check_list(w, h, v)
    assert v.top == 0  # no empty rows above a short list


def test_keys_to_a_row_go_the_short_way_round():
    assert steps(1, 3, 10) == ["DOWN", "DOWN"] and steps(1, 8, 10) == ["UP"] * 3
    assert steps(0, 0, 0) == [] and steps(2, 0, 4, "LEFT", "RIGHT") == ["RIGHT", "RIGHT"]
    for small in (False, True):
        v = ListView(LABELS, 7, None, False, False, small)
        for i in range(len(LABELS)):
            keys = v.keys_to(i)
            w = ListView(LABELS, 7)
            for k in keys:
                w.key(k)
            assert w.cursor == i and len(keys) <= len(LABELS) // 2
    row = CardRow(5, 4)
    keys = row.keys_to(0)
    assert keys == ["RIGHT"]
    for k in keys:
        row.key(k)
    assert row.cursor == 0


# ---- text page ----------------------------------------------------------------------------------
HELP = ("Goal: find the enemy boat and sink it before it sinks yours. Keys: arrows move the "
        "cursor on the lake; OK opens what can be done on that square; a long OK shows this "
        "page. " * 3)


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("small", [False, True])
def test_text_page_scrolls_to_every_line(w, h, small):
    p = TextPage(HELP, small)
    shown = set()
    lh, cw = (TH, TW) if small else (CH, CH)
    nrows = (h - CH + 1) // lh if small else (h - CH) // CH
    for _ in range(400):
        d = Oversized(w, h, M)
        yy = p.draw(d, 0, CH, w, h - CH)
        assert d.outside() == 0
        lines = p.lines(w, h - CH)
        assert all(len(line) * cw - (1 if small else 0) <= w - 4 for line in lines)  # arrows
        assert yy == CH + min(nrows, len(lines) - p.top) * lh   # where the text ends
        for i in range(p.top, min(len(lines), p.top + nrows)):
            shown.add(i)
        more = p.top + nrows < len(lines)
        ya = CH + nrows * lh - (3 if small else 2)
        assert (d.lit(w - 4, ya, 4, 2) > 0) == more
        assert (d.lit(w - 4, CH, 4, 2) > 0) == (p.top > 0)
        if not p.key("DOWN"):
            break
    assert shown == set(range(len(p.lines(w, h - CH))))
    assert " ".join(p.lines(w, h - CH)).split() == HELP.split()
    end = p.top
    assert p.key("LEFT") and p.top == max(0, end - nrows)   # a whole page back
    assert p.key("RIGHT") and p.top == end and not p.key("RIGHT")
    assert p.key("UP") and not p.key("OK")


# ---- card row -----------------------------------------------------------------------------------
@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("n", [2, 7])
def test_card_row_steps_through_every_card(w, h, n):
    row = CardRow(n, 0, 4)
    names = ["C%d" % i for i in range(n)]
    texts = ["Card %d: " % i + "text that is long enough to need scrolling. " * 3
             for i in range(n)]
    seen = set()
    for _ in range(n):
        d = Oversized(w, h, M)
        yb = row.draw(d, 0, CH, w, h - CH, lambda i: names[i], lambda i: texts[i])
        assert d.outside() == 0
        assert row.first <= row.cursor < row.first + row.vis
        seen.add(row.cursor)
        assert yb < h
        assert row.page.text == texts[row.cursor]
        row.key("RIGHT")
    assert seen == set(range(n))
    row.key("LEFT")
    assert row.cursor == n - 1
    assert row.key("DOWN") == (h - CH - row.size(w)[1] - 2 >= CH)  # the text scrolls


def test_card_row_glyph_callback_draws_inside_the_card():
    calls = []

    def glyph(d, i, x, y, cw, ch, sel):
        calls.append((i, sel))
        d.fill_rect(x + 2, y + 2, cw - 4, ch - 4, 0 if sel else 1)

    d = Oversized(72, 40, M)
    CardRow(3, 1, 2).draw(d, 0, 8, 72, 32, glyph=glyph)
    assert sorted(calls) == [(0, False), (1, True), (2, False)]
    assert d.outside() == 0


# ---- board grid ---------------------------------------------------------------------------------
@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("ncols,nrows,labels", [(18, 18, False), (18, 18, True), (10, 10, True),
                                                (5, 8, False)])
def test_board_viewport_keeps_the_cursor_in_view(w, h, ncols, nrows, labels):
    g = BoardGrid(ncols, nrows, 0, True, labels)
    drawn = []

    def cell(d, c, x, y, px):
        drawn.append(c)
        mark(d, x, y, px, "." if c % 3 else "X")

    walk = (["RIGHT"] * ncols + ["UP"] * nrows + ["LEFT"] * ncols + ["DOWN"] * (nrows // 2)
            + ["RIGHT"] * (ncols // 2))
    for k in [None] + walk:
        if k:
            assert g.key(k)
        del drawn[:]
        d = Oversized(w, h, M)
        used = g.draw(d, 0, CH, w, h - CH, cell)
        assert d.outside() == 0 and used <= w
        p = g.where(g.cursor)
        assert p is not None and g.cursor in drawn
        assert 0 <= p[0] and p[0] + g.px <= w and CH <= p[1] and p[1] + g.px <= h
        assert g.px >= 4
    r, c = divmod(g.cursor, ncols)
    assert (r, c) == (nrows - 1 - nrows // 2, ncols // 2)


def test_board_cursor_on_18x18_at_72x40_scrolls_with_margin():
    g = BoardGrid(18, 18, 0, True)
    d = Panel(72, 40)
    g.draw(d, 0, CH, 72, 32, lambda *a: None)
    assert g.vr < 18  # the whole board cannot show: a window
    for _ in range(17):
        g.key("UP")
        g.draw(d, 0, CH, 72, 32, lambda *a: None)
        r = g.cursor // 18
        shown = g.nr - 1 - g.fr - (g.vr - 1)  # the lowest board row in the window
        if 0 < r < 17:  # one row of margin past the cursor while the board goes on
            assert shown < r < shown + g.vr - 1


def test_board_labels_sit_outside_the_squares():
    g = BoardGrid(8, 8, 0, True, True)
    d = Panel(128, 64)
    g.draw(d, 0, CH, 80, 56, lambda *a: None, False)
    assert g.lx and g.ty and g.px >= 5
    lit = d.lit(0, CH, 128, 56)
    assert lit > 0 and d.lit(g.x0, g.y0, 8 * g.px, 8 * g.px) == 0
    assert d.lit(g.x0, CH, 8 * g.px, g.ty - 1) > 0 and d.lit(0, g.y0, g.lx - 1, 8 * g.px) > 0
    assert g.name(0) == "A1" and g.name(63) == "H8"


def test_board_skips_squares_that_are_not_there():
    g = BoardGrid(5, 1, 0)
    g.key("RIGHT", lambda c: c != 1)
    assert g.cursor == 2
    g.key("RIGHT", lambda c: c < 3)
    assert g.cursor == 2  # nothing beyond: stays


@pytest.mark.parametrize("w,h", SIZES)
def test_a_mirrored_board_is_the_board_turned_round(w, h):
    """The second player's view (flip off, mirror on): square 0 at the top right, RIGHT moves
    right on screen, and the column letters stay over their own columns."""
    plain = BoardGrid(8, 8, 0, True, True)
    turned = BoardGrid(8, 8, 0, False, True, mirror=True)
    for g in (plain, turned):
        g.draw(Oversized(w, h, M), 0, CH, w, h - CH, _nothing)
    assert turned.screen_col(0) == 7 and turned.screen_row(0) == 0
    assert plain.screen_col(0) == 0 and plain.screen_row(0) == 7
    for cell in range(64):
        assert turned.at_screen(turned.screen_col(cell), turned.screen_row(cell)) == cell
        assert turned.screen_col(cell) == 7 - plain.screen_col(cell)
        assert turned.screen_row(cell) == 7 - plain.screen_row(cell)
    turned.cursor = 9
    for k, dx, dy in (("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0), ("UP", 0, -1)):
        x0, y0 = turned.screen_col(turned.cursor), turned.screen_row(turned.cursor)
        turned.key(k)
        assert (turned.screen_col(turned.cursor) - x0, turned.screen_row(turned.cursor) - y0) \
            == (dx, dy), k
    d = Oversized(w, h, M)
    turned.draw(d, 0, CH, w, h - CH, _nothing, False)
    if turned.ty:                                 # 'A' is drawn over square 0's column
        a = Panel(3, 5)
        tiny(a, "A", 0, 0)
        x = turned.where(0)[0] + (turned.px - 3) // 2
        for yy in range(5):
            for xx in range(3):
                assert d.pixel(x + xx, CH + yy) == a.pixel(xx, yy)


@pytest.mark.parametrize("w,h", SIZES)
def test_near_moves_reach_knight_and_diagonal_goals(w, h):
    goals = (8 * 2 + 1, 8 * 2 + 5, 8 * 4 + 4, 8 * 1 + 2)   # a knight's and a diagonal's squares
    for mirror in (False, True):
        g = BoardGrid(8, 8, 8 * 0 + 3, not mirror, True, mirror=mirror)
        g.draw(Oversized(w, h, M), 0, CH, w, h - CH, _nothing)

        def ok(c):
            return c in goals

        assert g.move(g.cursor, "UP", ok) == g.cursor      # straight up: none on the line
        for goal in goals:
            keys = g.keys_to(goal, ok, True)
            assert keys is not None and len(keys) <= 4, (goal, keys)
            c = g.cursor
            for k in keys:
                c = g.move(c, k, ok, True)
            assert c == goal
        g.cursor = goals[2]
        assert g.move(g.cursor, "OK", ok, True) == -1 and not g.key("OK", ok, True)


@pytest.mark.parametrize("w,h", SIZES)
def test_keys_to_follows_the_grids_own_jumps(w, h):
    g = BoardGrid(7, 5, 12, True)
    holes = (1, 8, 17, 23, 27)

    def ok(c):
        return c not in holes

    for goal in range(35):
        keys = g.keys_to(goal, ok)
        if goal in holes:
            assert keys is None
            continue
        h2 = BoardGrid(7, 5, 12, True)
        for k in keys:
            assert h2.key(k, ok)
        assert h2.cursor == goal
    assert g.keys_to(12) == [] and g.cursor == 12   # the cursor itself never moves


def test_shortest_stops_at_a_goal_it_could_not_keep():
    # states are ints; the goal is a list (unhashable): found without being stored
    def step(st, k):
        if st == 3 and k == "OK":
            return ["act", 3]
        if k == "OK":
            return None
        return st + (1 if k == "RIGHT" else -1)

    assert shortest(0, ("LEFT", "RIGHT", "OK"), step,
                    lambda st: isinstance(st, list)) == ["RIGHT"] * 3 + ["OK"]
    assert shortest(0, ("OK",), step, lambda st: isinstance(st, list)) is None


@pytest.mark.parametrize("w,h", SIZES)
def test_marked_squares_get_corners_in_the_gap_their_glyphs_untouched(w, h):
    g = BoardGrid(8, 8, 0, True, True, 6, 7)
    g.marks = (9, 42)

    def full(d, c, x, y, px):
        d.fill_rect(x, y, px - 1, px - 1, 1)

    d = Oversized(w, h, M)
    g.draw(d, 0, CH, w, h - CH, full, False)
    assert d.outside() == 0
    bare = Oversized(w, h, M)
    g.marks = ()
    g.draw(bare, 0, CH, w, h - CH, full, False)
    for cell in (9, 42):
        at = g.where(cell)
        if at is None:
            continue
        x, y = at
        s = g.px - 1
        assert d.pixel(x, y - 1) and d.pixel(x + s - 1, y - 1) and d.pixel(x, y + s) \
            and d.pixel(x + s - 1, y + s)
        assert not bare.pixel(x, y - 1)
        assert d.lit(x, y, s, s) == s * s          # the square's glyph as it was drawn


# ---- no allocation on a cursor move ------------------------------------------------------------
def _locked(fn):
    import sys
    if sys.implementation.name != "micropython":
        fn()  # CPython: the same steps, for behaviour only
        return
    import micropython
    micropython.heap_lock()
    try:
        fn()
    finally:
        micropython.heap_unlock()


def _nothing(d, cell, x, y, px):
    pass


class _Kit:
    """Everything a locked step touches, in one object: a closure over more than a few
    variables allocates its argument array on every call (MicroPython's closure_call)."""

    def __init__(self, w, h):
        self.d = Panel(w, h)
        self.w = w
        self.h = h
        self.v = ListView(LABELS, 0, None, True, True)
        self.p = TextPage(HELP)
        self.g = BoardGrid(18, 18, 0, True, True)
        self.sv = ListView(LABELS, 0, None, True, False, True)    # the 3x5 side-panel kinds
        self.sp = TextPage(HELP, True)
        self.g2 = BoardGrid(8, 8, 0, False, True, 6, 7, mirror=True)   # turned round,
        self.g2.marks = (9, 42)                                          # marked corners
        self.steps = 0

    def key(self, k):
        self.v.key(k)
        self.p.key(k)
        self.g.key(k)
        self.sv.key(k)
        self.sp.key(k)
        self.g2.key(k, None, True)

    def draw(self):
        d = self.d   # one name at a time: a 4-way unpacking builds a tuple
        v = self.v
        w = self.w
        h = self.h
        d.fill(0)
        top_bar(d, "Lake Ashtapada", "linked", None, v.cursor + 1, v.count())
        v.draw(d, 0, CH, w, h - CH)
        self.p.draw(d, 0, CH, w, h - CH)
        self.g.draw(d, 0, CH, w, h - CH, _nothing)
        x = w // 2
        top_bar(d, "Fire: target?", "lost", "P2", 0, 0, x, w - x)
        put(d, "a 3x5 line too long for its field", 0, h - 5, tiny_cols(x), 1, True)
        self.sv.draw(d, x, CH, w - x, h - CH)
        self.sp.draw(d, x, CH, w - x, h - CH)
        self.g2.draw(d, 0, CH, x, h - CH, _nothing)


@pytest.mark.parametrize("w,h", SIZES)
def test_cursor_moves_and_redraws_allocate_nothing(w, h):
    kit = _Kit(w, h)
    kit.draw()  # the first draw lays out (wraps text, once per width)
    for k in ("DOWN", "UP", "RIGHT", "LEFT"):  # and each key's path runs once unlocked
        kit.key(k)

    def moves():
        for k in ("DOWN", "DOWN", "DOWN", "UP", "RIGHT", "RIGHT", "LEFT", "UP"):
            kit.key(k)
            kit.draw()
            kit.steps += 1

    _locked(moves)
    assert kit.steps == 8


def test_a_word_longer_than_the_line_is_split_with_a_hyphen():
    from fathom.ui.screen import wrap
    assert wrap("Foe Quinquereme a8 hit", 7) == ["Foe", "Quinqu-", "ereme", "a8 hit"]
    assert wrap("Parablemata", 4) == ["Par-", "abl-", "ema-", "ta"]
    assert wrap("Row Row", 7) == ["Row Row"]
    assert wrap("abc", 1) == ["a", "b", "c"]     # no room for a hyphen: split bare


def test_a_wrap_measures_each_word_once():
    # a side panel wraps what happened on every move: measuring the whole line again for each
    # word it took (as wrap did) made the wrap quadratic in the line's length
    from fathom.ui.screen import wrap
    text = " ".join(["torpedo", "from", "K", "heading", "E", "at", "full", "speed"] * 6)
    measured = [0]

    def size(s):
        measured[0] += len(s)
        return tiny_adv(s)

    lines = wrap(text, 120, size)
    assert measured[0] <= len(text) + 2      # each word once, and the space and the hyphen
    assert lines == wrap(text, 120, tiny_adv)
    assert all(tiny_adv(x) <= 120 for x in lines)
    assert " ".join(lines) == text
    # where a line ends is where the greedy wrap ends it: the next word would not fit
    for x, nxt in zip(lines, lines[1:]):
        assert tiny_adv(x + " " + nxt.split(" ")[0]) > 120


def _greedy(text, width, size):
    """The greedy wrap as wrap() did it before it was made linear: each word joined to its
    line, the line measured whole for each word (the reference the fast one must equal)."""
    width = max(1, width)
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while size(word) > width:
                if line:
                    out.append(line)
                    line = ""
                k = len(word) - 1
                while k > 1 and size(word[:k]) + size("-") > width:
                    k -= 1
                if k > 1:
                    out.append(word[:k] + "-")
                else:
                    k = max(1, len(word) - 1)
                    while k > 1 and size(word[:k]) > width:
                        k -= 1
                    out.append(word[:k])
                word = word[k:]
            if not line:
                line = word
            elif size(line) + size(" ") + size(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


def test_the_linear_wrap_is_the_greedy_wrap():
    # texts of words, double and leading spaces, paragraphs, words longer than a line, wide
    # and narrow letters, at widths down to one character
    from fathom.ui.screen import wrap
    words = ["a", "MW", "Quinquereme", "I", "", "hit", "Parablemata", "P2:", "at", "full",
             "speed", "torpedo", "x\ny", "WWWWWWWWW", "il"]
    seed = 12345
    n = 0
    for _ in range(300):
        parts = []
        for _ in range(12):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            parts.append(words[seed % len(words)])
        text = " ".join(parts)
        for width in (1, 3, 7, 16, 40):
            assert wrap(text, width) == _greedy(text, width, len), (text, width)
            px = width * TW
            assert wrap(text, px, tiny_adv) == _greedy(text, px, tiny_adv), (text, px)
            n += 1
    assert n == 1500

