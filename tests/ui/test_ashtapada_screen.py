# The Lake Ashtapada screen drawn into a real framebuf: set-up on the lake, the cursor that
# points at the board, the short menu of one square, the menu of kinds on the boat, what happened
# in words, the help page, and keys_for(): the keys it gives really author the action.
import pytest

from fathom.games.ashtapada import engine as A
from fathom.games.ashtapada import say
from fathom.games.ashtapada import screen as ui
from fathom.games.local import make_seats
from fathom.runner import Runner

from kit.play import send, settle
from kit.panel import App

pytestmark = pytest.mark.micropython

OPTS = {"size": 10, "mines": 3, "islands": 1, "calm": 40}


class Relay:
    """A runner's two calls a screen makes, delivered straight to the other seat."""

    def __init__(self, seats, player):
        self.seats = seats
        self.player = player

    def setup_choose(self, choice):
        self.seats[self.player].setup_choose(choice)
        settle(self.seats)

    def play(self, action):
        send(self.seats, self.seats[self.player], action)
        settle(self.seats)


def play(seats, player, action):
    Relay(seats, player).play(action)


def game(setups=(([A.parse("D3", 10)], [0, 1, 2]), ([A.parse("E8", 10)], [97, 96, 95]))):
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    for s, (isl, mines) in zip(seats, setups):
        for sq in isl:
            s.setup_choose(["island", sq])
        for sq in mines:
            s.setup_choose(["mine", sq])
    settle(seats)
    return seats


def screen_for(seats, player, w=128, h=64):
    app = App(w, h)
    r = Runner(seats[player], [], None, "ashtapada")
    relay = Relay(seats, player)
    r.play = relay.play                # the screen's moves reach the other seat at once
    r.setup_choose = relay.setup_choose
    return app, ui.screen(app, r)


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def here(scr):
    return A.name(scr.here(), 10)


def test_setup_starts_in_the_middle_of_the_shore_and_lays_with_ok():
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats, 0)
    lines = scr.lines()
    assert lines[0] == "Lake Ashtapada set up"
    assert lines[1].startswith("| You are P1 (South)")
    # B2-I5 is free: from its middle every square is at most 6 presses away (10 from B5)
    assert lines[-1] == ">island E3"
    far = max(len(scr.grid.keys_to(c[1], scr._ok_fn())) for c in seats[0].setup_legal())
    assert far <= 6
    draw(app, scr)
    scr.key("RIGHT")
    assert here(scr) == "F3"
    scr.key("OK")
    assert seats[0].priv["islands"] == [A.parse("F3", 10)]
    assert scr.lines()[-1].startswith(">mine ")
    assert here(scr) == "G3"               # beside the square just laid, along the row


@pytest.mark.parametrize("player", [0, 1])
def test_setup_arrows_move_on_the_lake_as_drawn(player):
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats, player)
    g = scr.grid

    def where():
        draw(app, scr)
        return g.where(g.cursor)

    x0, y0 = where()
    for k, dx, dy in (("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0), ("UP", 0, -1)):
        x, y = where()
        scr.key(k)
        nx, ny = where()
        assert (nx - x, ny - y) == (dx * g.px, dy * g.px), k
    assert where() == (x0, y0)
    for _ in range(20):
        scr.key("UP")
    x, y = where()
    scr.key("UP")                     # the lake's top edge: nowhere to go
    assert where() == (x, y)


def test_play_cursor_starts_on_the_boat_and_ok_there_is_a_short_menu_of_kinds():
    seats = game()
    app, scr = screen_for(seats, 0)
    boat = seats[0].pub["boats"][0]
    assert scr.here() == boat
    assert scr.lines()[-1] == ">A1: your boat, a menu of kinds"
    scr.key("OK")
    items = [l[1:] for l in scr.lines() if l[:1] in (">", " ")]
    assert items == ["Move...", "Sound...", "Depth..."]   # not the ~60 actions of the lake
    scr.key("DOWN")
    scr.key("OK")                     # Sound...: the cursor on the nearest sounding square
    assert scr.menu is None and scr.only == say.SOUND
    assert say.SOUND & scr._kinds[scr.here()]
    for k in ("UP", "RIGHT", "RIGHT", "DOWN", "UP"):   # and it keeps to such squares
        scr.key(k)
        assert say.SOUND & scr._kinds[scr.here()]
    scr.key("OK")                     # the square's menu holds only soundings: played at once
    assert seats[0].log[-2][1][0] == "sound" and seats[0].log[-1][1][0] == "ping"
    assert scr.only == 0


def test_back_leaves_a_chosen_kind_before_it_pauses():
    seats = game()
    app, scr = screen_for(seats, 0)
    scr.key("OK")
    scr.key("OK")                     # Move...
    assert scr.only == say.MOVE and scr.here() != seats[0].pub["boats"][0]
    scr.key("BACK")
    assert scr.only == 0 and app.stack == []     # no pause screen pushed


def test_a_square_menu_lists_only_what_can_be_done_there():
    seats = game()
    app, scr = screen_for(seats, 0)
    scr.key("UP")                     # A2: next to the boat: sound, depth, move
    assert here(scr) == "A2"
    assert scr.lines()[-1] == ">A2: sound, depth, move"
    scr.key("OK")
    assert [l for l in scr.lines() if l[:1] in (">", " ")] == [">Sound", " Move", " Via B1-B2",
                                                             " Depth"]
    # "Via B1-B2" would be cut beside the lake: the list takes the whole panel, and its bar
    # names the square the lake no longer shows
    from fathom.ui.font import CH
    from fathom.ui.topbar import top_bar
    from kit.panel import Panel
    d = draw(app, scr)
    bar = Panel(d.width, d.height)
    top_bar(bar, "At A2", app.link_state, ui._PLAYER[0], fit=True)
    assert bytes(d.buf[:d.width * (CH // 8)]) == bytes(bar.buf[:d.width * (CH // 8)])
    scr.key("OK")
    assert seats[0].log[-1][1][0] == "ping"
    assert scr.lines()[1].startswith("| Your sounding at A2: ")
    assert scr.menu is None


def test_the_cursor_steps_a_square_a_press_and_ok_where_nothing_can_be_done_says_why():
    # squares with nothing to do used to be jumped over (G3 straight to E3): a player
    # counting squares lost the cursor
    seats = game()
    app, scr = screen_for(seats, 0)
    g = scr.grid
    seen = [scr.here()]
    for _ in range(9):
        scr.key("UP")
        seen.append(scr.here())
    rows = [g.screen_row(c) for c in seen]
    assert rows == list(range(rows[0], rows[0] - 10, -1)), [A.name(c, 10) for c in seen]
    assert not scr._kinds[scr.here()]           # far from the boat: out of reach
    n = len(seats[0].log)
    scr.key("OK")
    assert len(seats[0].log) == n and scr.menu is None
    assert "# why Out of reach of your boat." in scr.lines()
    d = draw(app, scr)
    assert d.lit(0, 0, 128, 64)
    scr.key("DOWN")                             # the cursor moved: the reason goes
    assert not [ln for ln in scr.lines() if ln.startswith("# why")]


def test_setup_ok_off_your_half_says_why_and_lays_nothing():
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats, 0)
    while scr._legal[0][0] == "island":
        scr.key("OK")
    for _ in range(20):
        scr.key("UP")                           # the far shore: the other player's half
    laid = list(seats[0].priv["mines"])
    scr.key("OK")
    assert seats[0].priv["mines"] == laid
    assert "# why Mines go on your own half." in scr.lines()
    for w, h in ((128, 64), (72, 40)):         # whole in the panel, not cut
        app2, scr2 = screen_for(seats, 0, w, h)
        scr2.grid.cursor = scr.grid.cursor
        scr2.key("OK")
        draw(app2, scr2)
        p = scr2._why_page                      # wrapped whole into the panel: no line cut
        assert " ".join(p._lines).split() == "Mines go on your own half.".split()
        assert p.last_top() == 0, (w, h, p._lines)


def test_an_empty_lake_shows_its_squares():
    # a 10x10 lake of open water was drawn as one black square during set-up
    seats = make_seats(A.ENGINE, A.ENGINE.options(OPTS), 2, b"s" * 16)
    app, scr = screen_for(seats, 0)
    d = draw(app, scr)
    g = scr.grid
    n = 0
    for r in range(1, g.vr):
        for c in range(1, g.vc):
            n += d.pixel(g.x0 + c * g.px - 1, g.y0 + r * g.px - 1)
    assert g.vr == g.vc == 10 and n == 81   # a dot where four squares meet


def test_what_happened_stays_in_words_until_the_next_event():
    seats = game()
    app0, s0 = screen_for(seats, 0)
    app1, s1 = screen_for(seats, 1)
    assert s1.lines()[1] == "| You are P2 (North). Both lakes set: South begins."
    play(seats, 0, ["depth", A.parse("B2", 10)])
    assert s0.lines()[1].startswith("| Your depth charge at B2: miss (1/2)")
    assert s1.lines()[1].startswith("| Foe depth charge at B2: miss")
    s1.key("DOWN")                    # a cursor move does not clear it
    assert s1.lines()[1].startswith("| Foe depth charge at B2: miss")
    play(seats, 1, ["sound", A.parse("I10", 10)])
    assert s1.lines()[1].startswith("| Your sounding at I10: ")
    assert s0.lines()[1].startswith("| Foe sounded I10: ")


def test_help_opens_on_a_long_back_scrolls_and_closes():
    seats = game()
    app, scr = screen_for(seats, 0, 72, 40)
    scr.key("HELP")
    lines = scr.lines()
    assert lines[0] == "Help" and any("GOAL" in l for l in lines)
    assert any("depth charge" in l for l in lines)
    draw(app, scr)
    top = scr.help.top
    scr.key("DOWN")
    assert scr.help.top == top + scr.help._rows - 1   # a page, one line kept
    draw(app, scr)
    scr.key("BACK")
    assert scr.help is None and scr.lines()[0].startswith("Lake Ashtapada")


def test_north_sees_its_shore_at_the_bottom():
    seats = game()
    play(seats, 0, ["sound", A.parse("B2", 10)])
    app, scr = screen_for(seats, 1)
    d = draw(app, scr)
    g = scr.grid
    x, y = g.where(g.cursor)
    assert here(scr) == "J10" and y > d.height // 2
    assert x == g.x0                  # the lake turned round: J at the left
    scr.key("LEFT")
    assert here(scr) == "J10"
    scr.key("RIGHT")
    assert here(scr) == "I10"


def _keys_game(seed, level="sharp", size=10, w=128, h=64, record=None):
    """A whole game where every decision a bot makes is authored on both screens by pressing
    the keys keys_for() gives; returns the key counts per action (set-up included)."""
    from fathom.games.bots import make_bot
    opts = dict(OPTS)
    opts["size"] = size
    seats = make_seats(A.ENGINE, A.ENGINE.options(opts), 2, bytes([seed]) * 16)
    screens = [screen_for(seats, p, w, h) for p in (0, 1)]
    bots = [make_bot("ashtapada", level, seed * 7 + p, p) for p in (0, 1)]
    counts = []
    for _ in range(400):
        if seats[0].result() is not None:
            break
        acted = False
        for p in (0, 1):
            s = seats[p]
            app, scr = screens[p]
            if s.setup_legal():
                want = bots[p].setup(s)
            elif s.legal():
                want = bots[p].act(s)
            else:
                continue
            n0 = len(s.log)
            keys = scr.keys_for(want)
            for k in keys:
                top = app.stack[-1] if app.stack else scr   # a question over the lake
                top.key(k)
                draw(app, top)
                if record is not None:
                    record(app, scr)
            if want[0] in ("island", "mine"):
                assert s.priv["mines" if want[0] == "mine" else "islands"][-1] == want[1], keys
            else:
                assert list(s.log[n0]) == [p, want if want[0] != "move" else ["move", want[1]]], (
                    want, keys, s.log[n0:])
            counts.append((want[0], len(keys)))
            acted = True
        assert acted
    assert seats[0].result() is not None
    return counts


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


@pytest.mark.slow   # whole games: make test, not the fast loop
def test_keys_for_authors_every_bot_action_within_the_press_targets():
    # pooled over four games: one short game alone is too few actions for a 90th percentile
    counts = []
    for seed, level in ((1, "sharp"), (2, "easy"), (3, "sharp"), (4, "easy")):
        counts += [n for kind, n in _keys_game(seed, level) if kind not in ("island", "mine")]
    assert _pct(counts, 0.5) <= 4 and _pct(counts, 0.9) <= 8, sorted(counts)


class Boxes:
    """A panel that records every 8x8 text box drawn on it, to find overlaps."""

    def __init__(self, d):
        self.d = d
        self.boxes = []

    def __getattr__(self, name):
        return getattr(self.d, name)

    def text(self, s, x, y, c=1):
        self.boxes.append((x, y, len(s) * 8, 8, s))
        self.d.text(s, x, y, c)


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("w,h", [(128, 64), (128, 32), (72, 40)])
def test_every_size_through_a_game_stays_on_the_panel(w, h):
    from kit.panel import Oversized

    def check(app, scr):
        d = Boxes(Oversized(w, h, 16))
        scr.draw(d)
        assert d.outside() == 0, (w, h, scr.lines())
        for i, a in enumerate(d.boxes):
            assert a[0] >= 0 and a[1] >= 0 and a[0] + a[2] <= w and a[1] + a[3] <= h, a
            for b in d.boxes[i + 1:]:
                assert not _overlap(a, b), (a, b)
        g = scr.grid
        if scr.menu is None and scr.help is None:   # the lake and the panel never meet
            assert g.x0 + g.vc * g.px + 1 <= w and g.y0 + g.vr * g.px + 1 <= h
            assert g.where(g.cursor) is not None    # the viewport follows the cursor

    _keys_game(5, "easy", 12, w, h, record=check)


@pytest.mark.parametrize("kind, tag", [(say.SOUND, "sound"), (say.MOVE, "depth")])
def test_keys_for_from_a_chosen_kind_author_the_action(kind, tag):
    """With a kind chosen on the boat (the cursor keeping to its squares), keys_for still
    authors any action: on that kind's squares, or after BACK out of another kind."""
    seats = game()
    app, scr = screen_for(seats, 0)
    scr.key("OK")                     # the boat's menu, then the kind
    for k in scr.menu.keys_to(scr.acts.index("sound" if kind == say.SOUND else "move")):
        scr.key(k)
    scr.key("OK")
    assert scr.only == kind
    want = [a for a in seats[0].legal() if a[0] == tag][-1]
    n0 = len(seats[0].log)
    for k in scr.keys_for(want):
        top = app.stack[-1] if app.stack else scr   # the depth charge may be a known miss
        top.key(k)
        draw(app, top)
    assert list(seats[0].log[n0]) == [0, want]


def press(app, scr, keys):
    """Keys to the top screen: the lake's, or a question it asked."""
    for k in keys:
        (app.stack[-1] if app.stack else scr).key(k)


@pytest.mark.parametrize("w, h", ((128, 64), (72, 40)))
def test_a_depth_charge_on_a_known_miss_says_what_it_costs_first(w, h):
    # a charge on your own half (no enemy mine can be there) used to spend one of the two
    # misses allowed without a word
    seats = game()
    app, scr = screen_for(seats, 0, w, h)
    a2 = A.parse("A2", 10)
    press(app, scr, ["UP", "OK"])                 # A2, your own half: its menu
    assert scr.menu.labels[scr.menu.cursor] == "Sound"
    press(app, scr, ["UP", "OK"])                 # round to Depth: it asks
    ask = app.stack[-1]
    assert ask.lines()[0] == "Known miss", ask.lines()
    assert "No mine can be at A2" in ask.lines()[1] and "one of your 2" in ask.lines()[1]
    assert ask.lines()[2:] == [">Hold fire", " Charge A2"]
    draw(app, ask)
    n = len(seats[0].log)
    press(app, scr, ["OK"])                       # the OK again: nothing dropped
    assert not app.stack and len(seats[0].log) == n and seats[0].pub["miss"][0] == []
    keys = scr.keys_for(["depth", a2])
    assert keys[-2:] == ["DOWN", "OK"]
    press(app, scr, keys)
    assert seats[0].log[n][1] == ["depth", a2] and seats[0].pub["miss"][0] == [a2]
    # where a mine may be, a charge is a choice, not a known miss: no question
    seats = game()
    app, scr = screen_for(seats, 0, w, h)
    mine = A.parse("H10", 10)
    assert scr._map[mine] & say.CAND
    assert not scr._wasted(["depth", mine])


@pytest.mark.parametrize("w, h", ((128, 64), (72, 40)))
def test_after_a_sounding_the_next_turn_starts_where_the_next_action_does(w, h):
    # after a sounding at A2 the cursor stayed on A2: the next OK opened its menu and the
    # move under the cursor took the boat there
    seats = game()
    app, scr = screen_for(seats, 0, w, h)
    press(app, scr, ["UP", "OK", "OK"])           # sound at A2
    assert seats[0].log[-2][1][0] == "sound"
    other = seats[1]
    play(seats, 1, [a for a in other.legal() if a[0] == "sound"][0])
    assert seats[0].legal()
    scr.lines()
    boat = seats[0].pub["boats"][0]
    sure = [c for c in range(100) if scr._map[c] & say.CERT and scr._kinds[c] & say.DEPTH]
    assert scr.here() == (sure[0] if sure else boat) != A.parse("A2", 10)
    draw(app, scr)


def test_the_lake_drawn_from_the_last_events_candidates_is_the_whole_deduction():
    # the screen starts each event's deduction from the last one's candidates (say.lake's
    # since): at every key of whole games, on both screens, its map is what the deduction
    # from nothing gives
    checked = [0]

    def check(app, scr):
        s = scr.runner.seat
        scr._refresh()
        assert scr._map == say.lake(s.pub, s.priv, scr.me)[0], s.n_log
        checked[0] += 1

    for seed, level in ((6, "sharp"), (7, "easy")):
        _keys_game(seed, level, record=check)
    assert checked[0] > 100
