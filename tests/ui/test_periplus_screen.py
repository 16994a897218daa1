# The Periplus screen: set-up and discards as a row of cards, the cursor that points at the
# board (your ship, then its goal; the enemy ship you fire at), the short menu of one square,
# what happened in words, the help page, keys_for() (the keys it gives really author the
# action, within the press targets), every size through a whole game, and the defender's
# prompt clock: no answer before the minimum, the default at the timeout.
import pytest

from fathom.games.local import make_seats
from fathom.games.periplus import cards as C
from fathom.games.periplus import screen as P
from fathom.games.periplus.bot import EasyBot, SharpBot
from fathom.games.periplus.engine import ENGINE
from fathom.games.periplus.fleet import HITS, NSHIPS, SHIP_NAMES, SQUARE
from fathom.peers import pipe_pair
from fathom.runner import Runner
from fathom.ui.font import tiny_adv
from fathom.ui.textpage import TURN_MS

from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

SIZES = [(128, 64), (128, 32), (72, 40)]


class Poison:
    """Stands in for the seed-derived deck order: any read of it fails the test."""

    def __len__(self):
        raise AssertionError("the screen read the deck order")

    def __getitem__(self, i):
        raise AssertionError("the screen read the deck order")

    def __iter__(self):
        raise AssertionError("the screen read the deck order")


def new_game(seed=b"ui-periplus", opts=None):
    given = {"sealed": 0}   # the screens, not the deal (sealed games cost more to play out)
    given.update(opts or {})
    seats = make_seats(ENGINE, ENGINE.options(given), 2, seed)
    a, b = pipe_pair()
    rs = [Runner(seats[0], [a]), Runner(seats[1], [b])]
    for r in rs:
        r.services = [r]
    return rs


def pump(rs, now=0):
    for _ in range(3):
        for r in rs:
            r.tick(now)


def bot_step(rs, bots, i):
    s = rs[i].seat
    while s.setup_legal():
        rs[i].setup_choose(bots[i].setup(s))
    if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
        rs[i].play(bots[i].act(s))
        pump(rs)


def play_until(rs, pred, bots=None, limit=600):
    """Bots play both seats until pred(seat0) holds; returns whether it came."""
    bots = bots or [SharpBot(b"s", 0), EasyBot(b"e", 1)]
    for _ in range(limit):
        pump(rs)
        if pred(rs[0].seat):
            return True
        for i in (0, 1):
            bot_step(rs, bots, i)
            if pred(rs[0].seat):
                return True
    return False


def my_phase(ph):
    return lambda s: (s.result() is None and s.pub["phase"] == ph and s.to_move() == (0, "act"))


def make_screen(rs, w, h, player=0):
    app = App(w, h)
    scr = P.screen(app, rs[player])
    app.push(scr)
    return app, scr


def draw(scr):
    d = scr.app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def press(scr, keys):
    for k in keys:
        scr.key(k)


def own_glyph(scr, d, sq):
    """Yours are inverted: the column between the hull letter and the hits bar is lit."""
    g = scr.grid
    at = g.where(sq)
    return d.lit(at[0] + 3, at[1], 1, g.px - 1) == g.px - 1


def corners(scr, d, sq):
    """The corner marks of a picked or highlighted square: their arms in the gap rows above
    and below it (the gap columns at its sides are its neighbours' too)."""
    g = scr.grid
    x, y = g.where(sq)
    s = g.px - 1
    return d.pixel(x, y - 1) + d.pixel(x + s - 1, y - 1) + d.pixel(x, y + s) + \
        d.pixel(x + s - 1, y + s)


def cell_lit(scr, d, sq):
    """Lit pixels inside a square's glyph box, and the box's area."""
    g = scr.grid
    at = g.where(sq)
    assert at is not None
    return d.lit(at[0], at[1], g.px - 1, g.px - 1), (g.px - 1) ** 2


# ---- set-up and the first words -----------------------------------------------------------
def test_setup_is_a_row_of_ship_types_placed_left_to_right():
    rs = new_game()
    app, scr = make_screen(rs, 128, 64)
    lines = scr.lines()
    assert lines[0] == "Periplus P1 set-up" and lines[1] == "= You are P1"
    assert "cards: [B] T D Q" in lines
    keys = scr.keys_for(3)
    assert keys == ["LEFT", "OK"]                     # round the row's end: the Quinquereme
    press(scr, keys)
    assert rs[0].seat.priv["row"] == [3]
    assert [l for l in scr.lines() if l.startswith("~ ")] == [
        "~ Bireme, 2 hits: goes to b1"]
    d = draw(scr)
    assert corners(scr, d, 1) == 4 and own_glyph(scr, d, 1)   # b1, where the next one goes
    assert corners(scr, d, 0) == 0 and own_glyph(scr, d, 0)   # a1: the Quinquereme


def test_player_two_is_told_and_sees_its_row_at_the_bottom():
    rs = new_game()
    assert play_until(rs, lambda s: s.pub["phase"] == "move")
    app, scr = make_screen(rs, 128, 64, 1)
    assert scr.lines()[1] in ("= You are P2", "= P1 passed") or scr.lines()[1].startswith("= P1")
    d = draw(scr)
    g = scr.grid
    y_back = g.where(7 * 8)[1]             # a8, player 2's back row
    y_far = g.where(0)[1]
    assert y_back > y_far                              # your back row is the bottom row
    # own ships inverted (most of the glyph lit), the enemy's plain (a letter and a bar)
    pub = rs[1].seat.pub
    for sid in range(16):
        sq = pub["ships"][sid][SQUARE]
        if sq >= 0 and scr.grid.where(sq) is not None:
            assert own_glyph(scr, d, sq) == (sid // NSHIPS == 1), sid


# ---- pointing at the board ------------------------------------------------------------------
def test_move_points_at_a_ship_then_its_goal_then_the_card():
    rs = new_game()
    assert play_until(rs, lambda s: my_phase("move")(s) and len(s.legal()) > 1)
    app, scr = make_screen(rs, 128, 64)
    seat = rs[0].seat
    assert scr.stage == P.PICK
    mine = [seat.pub["ships"][sid][SQUARE] for sid in range(NSHIPS)]
    assert scr.cur in mine                             # the cursor starts on one of your ships
    start = scr.cur
    scr.key("OK")
    assert scr.stage == P.AIM and scr.sel == start
    goals = [a[3] for a in seat.legal() if a[0] == "move" and seat.pub["ships"][a[2]][SQUARE] == start]
    assert scr.cur in goals
    d = draw(scr)
    assert corners(scr, d, start) == 4                 # the picked ship stands out
    scr.key("OK")
    assert scr.stage == P.MENU
    menu = [l for l in scr.lines() if l[:1] in (">", " ")]
    assert menu[-1] == " Pass" and menu[0].startswith(">")
    goal = scr.cur
    n = len(seat.log)
    scr.key("OK")
    author, ev = seat.log[n]
    assert author == 0 and ev[0] == "move" and ev[3] == goal
    assert scr.lines()[1] == "= You: %s, %s to %s" % (        # the ship by name
        C.name(ev[1]), SHIP_NAMES[seat.pub["ships"][ev[2]][0]], "abcdefgh"[goal % 8] + str(goal // 8 + 1))


def test_back_steps_back_one_stage_and_then_pauses():
    rs = new_game()
    assert play_until(rs, lambda s: my_phase("move")(s) and len(s.legal()) > 1)
    app, scr = make_screen(rs, 72, 40)
    start = scr.cur
    press(scr, ["OK", "OK"])
    assert scr.stage == P.MENU
    scr.key("BACK")
    assert scr.stage == P.AIM
    scr.key("BACK")
    assert scr.stage == P.PICK and scr.cur == start
    scr.key("BACK")
    assert app.stack[-1].title == "Paused"


def test_arrows_jump_between_squares_that_can_act_only():
    rs = new_game()
    assert play_until(rs, lambda s: my_phase("move")(s) and len(s.legal()) > 1)
    app, scr = make_screen(rs, 128, 64)
    seat = rs[0].seat
    movers = set(seat.pub["ships"][a[2]][SQUARE] for a in seat.legal() if a[0] in ("move", "ahead"))
    for k in ("RIGHT", "RIGHT", "LEFT", "UP", "DOWN", "RIGHT"):
        scr.key(k)
        assert scr.cur in movers


def test_fire_points_at_the_target_and_the_menu_lists_who_can_hit_it():
    rs = new_game(b"ui-fire")
    assert play_until(rs, lambda s: my_phase("fire")(s) and len(s.legal()) > 1)
    app, scr = make_screen(rs, 128, 64)
    seat = rs[0].seat
    saved = seat.priv["deck"], seat.priv["key"]
    seat.priv["deck"] = Poison()                      # nothing here may read the deck order
    seat.priv["key"] = Poison()
    targets = set(seat.pub["ships"][a[3]][SQUARE] for a in seat.legal() if a[0] == "fire")
    assert scr.stage == P.PICK and scr.cur in targets
    assert scr.lines()[0] == "Periplus P1 fire"
    draw(scr)
    scr.key("OK")
    here = [a for a in seat.legal() if a[0] == "fire" and seat.pub["ships"][a[3]][SQUARE] == scr.cur]
    menu = [l for l in scr.lines() if l[:1] in (">", " ")]
    assert len(menu) == len(here) + 1 and menu[-1] == " Pass"
    d = draw(scr)
    a = here[0]
    assert corners(scr, d, seat.pub["ships"][a[2]][SQUARE]) == 4    # the attacker stands out
    keys = scr.keys_for(["pass"])
    assert keys == ["UP", "OK"]                       # Pass: the last line, round the top
    seat.priv["deck"], seat.priv["key"] = saved       # the engine deals the next turn's cards
    n = len(seat.log)
    press(scr, keys)
    assert seat.log[n] == (0, ["pass"])


def test_discard_is_a_row_of_the_hand_with_the_card_in_words():
    rs = new_game(b"ui-disc")
    assert play_until(rs, my_phase("discard"), limit=2000)
    app, scr = make_screen(rs, 72, 40)
    seat = rs[0].seat
    assert scr.stage == P.CARDS
    kinds = [a[1] for a in seat.legal()]
    words = [l for l in scr.lines() if l.startswith("~ ")][0]
    assert words.startswith("~ " + C.name(kinds[0]) + ": ")
    scr.key("RIGHT")
    d = draw(scr)
    assert d.lit(0, 8, 72, 12) > 0
    n = len(seat.log)
    scr.key("OK")
    assert seat.log[n] == (0, ["discard", kinds[1 % len(kinds)]])


# ---- words ----------------------------------------------------------------------------------
def test_what_happened_stays_in_words_until_the_next_event():
    rs = new_game(b"ui-defend")
    bots = [SharpBot(b"s", 0), SharpBot(b"t", 1)]
    apps = [make_screen(rs, 128, 64, p) for p in (0, 1)]
    seen = []
    for _ in range(400):
        pump(rs)
        log = rs[0].seat.log
        if log and log[-1][1][0] == "take" and len(rs[1].seat.log) == len(log):
            t = log[-2][1][3]
            words = [scr.lines()[1] for _app, scr in apps]
            owner = t // NSHIPS
            mine = words[owner]
            theirs = words[1 - owner]
            assert mine.startswith("= Your ") and theirs.startswith("= Foe "), words
            assert (" hit: " in mine and mine.endswith(" left")) or " sunk by " in mine \
                or mine.endswith("oars sheared"), words
            apps[0][1].key("RIGHT")                   # a cursor move does not clear it
            assert apps[owner][1].lines()[1] == mine
            seen.append(mine)
            if len(seen) >= 2:
                break
        for i in (0, 1):
            bot_step(rs, bots, i)
    assert seen


def drawn_words(scr):
    """Every word the screen draws (8x8 and 3x5, upper case) while what happened turns its
    pages by itself (ui/happened.py) once, each held while it is read, as the ux bench reads them
    (hostmodes/uxplayer)."""
    from hostmodes.uxplayer import Drawn
    app = scr.app
    app.d = app.hw.display
    app.redraw = lambda: draw(scr)
    seen = set()
    drawn = Drawn(app)
    drawn.on_frame = seen.update
    try:
        page = scr.news_page
        page.top = 0
        app.redraw()
        now = 0
        scr.happened.turn(page, now)             # the first call sets the clock
        while page.top < page.last_top():
            now += 100
            assert now < 1000 * TURN_MS
            if scr.happened.turn(page, now):
                app.redraw()
    finally:
        drawn.close()
    return seen


@pytest.mark.parametrize("w,h", SIZES)
def test_every_ship_and_card_name_in_what_happened_is_drawn_whole(w, h):
    # whole on the panel, or (7 columns at 72x40) split with a hyphen, read as one word
    rs = new_game()
    assert play_until(rs, my_phase("move"))
    app, scr = make_screen(rs, w, h)
    assert scr.stage == P.PICK
    lines = ["Foe %s a8 hit: 1/%d left" % (n, HITS[t]) for t, n in enumerate(SHIP_NAMES)]
    lines += ["P2 negated %s with %s" % (C.name(k), C.name(k)) for k in range(C.NKINDS)]
    scr.news_page.set("\n".join(lines))      # as GameBase.news() gives it a longer stack
    seen = drawn_words(scr)
    names = set(" ".join(SHIP_NAMES + tuple(C.name(k) for k in range(C.NKINDS))).upper().split())
    assert not names - seen, (w, h, sorted(names - seen))


def test_help_opens_on_a_long_back_and_scrolls():
    rs = new_game()
    app, scr = make_screen(rs, 72, 40)
    scr.key("HELP")
    page = app.stack[-1]
    lines = page.lines()
    assert lines[0] == "Periplus help"
    text = " ".join(lines)
    for words in ("Quinquereme", "OK", "BACK", "Pass", "knight"):
        assert words in text, words
    page.draw(app.hw.display)
    assert page.page.last_top() > 0
    page.key("DOWN")
    assert page.page.top == min(page.page._rows - 1, page.page.last_top())   # a page
    page.key("BACK")
    assert app.stack[-1] is scr


# ---- keys_for -------------------------------------------------------------------------------
def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def keys_game(seed, w=128, h=64, check=None, every=False):
    """Both seats played through their screens: each decision's bot action (or set-up ship)
    authored by pressing keys_for() keys; returns the press counts. every: also ask for every
    other legal action's keys (each must have some)."""
    rs = new_game(seed, {"islands": 2})
    bots = [SharpBot(seed, 0), EasyBot(seed, 1)]
    scrs = [make_screen(rs, w, h, p)[1] for p in (0, 1)]
    counts = []
    for _ in range(3000):
        pump(rs)
        if rs[0].seat.result() is not None:
            break
        for i in (0, 1):
            s = rs[i].seat
            scr = scrs[i]
            if check:
                check(scr)
            if s.setup_legal():
                choice = bots[i].setup(s)
                keys = scr.keys_for(choice)
                row = list(s.priv["row"])
                press(scr, keys)
                assert s.priv["row"] == row + [choice]
                counts.append(len(keys))
            elif s.result() is None and s.my_turn() and s.to_move()[1] == "act":
                act = bots[i].act(s)
                if every:
                    for a in s.legal():
                        assert scr.keys_for(a) is not None, (a, scr.lines())
                defending = s.pub["phase"] == "defend"
                if defending:
                    scr.answer.tick(0)
                keys = scr.keys_for(act)
                assert keys, (act, scr.lines())
                n = len(s.log)
                press(scr, keys)
                if defending:
                    assert scr.answer.queued == act
                    scr.answer.tick(P.ANSWER_MIN_MS)
                assert s.log[n] == (i, act), (s.log[n:], act, keys)
                counts.append(len(keys))
                pump(rs)
    assert rs[0].seat.result() is not None
    return counts


@pytest.mark.slow   # whole games: make test, not the fast loop
def test_keys_for_authors_every_bot_action_within_the_press_targets():
    counts = keys_game(b"keys-1", every=True)
    assert _pct(counts, 0.5) <= 4 and _pct(counts, 0.9) <= 8, sorted(counts)


# ---- every size ---------------------------------------------------------------------------
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
@pytest.mark.parametrize("w,h", SIZES)
def test_every_size_through_a_game_stays_on_the_panel(w, h):
    def check(scr):
        d = Boxes(Oversized(w, h, 16))
        scr.draw(d)
        assert d.outside() == 0, (w, h, scr.lines())
        for i, a in enumerate(d.boxes):
            assert a[0] >= 0 and a[1] >= 0 and a[0] + a[2] <= w and a[1] + a[3] <= h, a
            for b in d.boxes[i + 1:]:
                assert not _overlap(a, b), (a, b, scr.lines())
        if scr.stage in (P.PICK, P.AIM) or (scr.stage == P.MENU and w - scr.layout(d)[4] >= 72):
            g = scr.grid
            right = g.x0 + g.vc * g.px
            assert right <= scr.layout(d)[4]           # the board stops short of the side text
            for a in d.boxes:
                if a[1] >= 8:
                    assert a[0] >= right, (a, right)
            assert g.where(g.cursor) is not None       # the viewport follows the cursor

    keys_game(b"sizes", w, h, check)


# ---- the defender's clock -------------------------------------------------------------------
def reach_defence(seed=b"ui-defend"):
    rs = new_game(seed)
    assert play_until(rs, my_phase("defend"), bots=[SharpBot(b"s", 0), SharpBot(b"t", 1)])
    return rs


@pytest.mark.parametrize("w,h", SIZES)
def test_defence_prompt_offers_the_card_and_shows_the_default(w, h):
    rs = reach_defence()
    seat = rs[0].seat
    k, s, t = seat.pub["pending"]
    d_kind = C.defense_for(k)
    if d_kind not in seat.priv["hand"]:
        seat.priv["hand"] = sorted(seat.priv["hand"] + [d_kind])   # a local view only
    app, scr = make_screen(rs, w, h)
    scr.answer.tick(1000)
    lines = scr.lines()
    assert lines[0].endswith("defend: take hit in 20s")
    prompt = [l for l in lines if l.startswith("! ")][0]
    assert prompt.startswith("! %s from " % C.name(k)) and " at your " in prompt
    assert prompt.endswith("Negate it with %s?" % C.name(d_kind))
    assert lines[-2:] == [">Negate", " Take hit"]
    d = draw(scr)
    assert d.lit(0, 0, w, 7) > 0
    assert d.lit(0, h - 16, w, 8) > 40               # the highlighted answer: OK = negate
    scr.answer.tick(11000)   # (on a small panel, longer while the prompt turns round)
    assert "take hit in %ds" % ((scr.answer.limit_ms() - 9001) // 1000) in scr.lines()[0]
    assert scr.keys_for(["take"]) in (["DOWN", "OK"], ["UP", "OK"])


def test_no_card_answer_waits_the_minimum_and_timeout_takes_the_hit():
    rs = reach_defence()
    seat = rs[0].seat
    d_kind = C.defense_for(seat.pub["pending"][0])
    while d_kind in seat.priv["hand"]:
        seat.priv["hand"].remove(d_kind)          # the no-card case, on this unit's view
    app, scr = make_screen(rs, 128, 64)
    clock = scr.answer
    n = len(seat.log)
    clock.tick(5000)
    prompt = [l for l in scr.lines() if l.startswith("! ")][0]
    assert "No %s in hand" % C.name(d_kind) in prompt
    scr.key("OK")                                  # an instant answer...
    assert scr.keys_for(["take"]) is None          # ...is queued, nothing left to choose
    assert "answering: Take the hit" in scr.lines()[0]
    d = draw(scr)
    assert d.lit(0, 56, 128, 8) > 200              # the answer given, shown inverted
    clock.tick(5000 + P.ANSWER_MIN_MS - 1)
    assert len(seat.log) == n                      # ...and does not leave early
    clock.tick(5000 + P.ANSWER_MIN_MS)
    assert len(seat.log) == n + 1 and seat.log[-1] == (0, ["take"])


def test_silence_sends_the_engine_default_at_the_timeout_only():
    rs = reach_defence()
    seat = rs[0].seat
    d_kind = C.defense_for(seat.pub["pending"][0])
    if d_kind not in seat.priv["hand"]:
        seat.priv["hand"] = sorted(seat.priv["hand"] + [d_kind])
    app, scr = make_screen(rs, 72, 40)
    n = len(seat.log)
    clock = scr.answer
    for t in range(0, P.ANSWER_TIMEOUT_MS, 500):
        clock.tick(t + 7)
        assert len(seat.log) == n
    clock.tick(P.ANSWER_TIMEOUT_MS + 7)
    assert seat.log[-1] == (0, ["take"])          # never a card on its own
    assert not clock.active()


def test_clock_is_idle_when_not_defending():
    rs = new_game()
    assert play_until(rs, my_phase("move"))
    app, scr = make_screen(rs, 128, 64)
    n = len(rs[0].seat.log)
    assert scr.answer.tick(0) is False
    assert scr.answer.tick(P.ANSWER_TIMEOUT_MS * 2) is False
    assert len(rs[0].seat.log) == n
    assert scr.answer in app.services and scr.answer in rs[0].services


def test_hand_line_never_shows_the_other_players_cards():
    rs = new_game(b"ui-fire")
    assert play_until(rs, my_phase("fire"))
    for p in (0, 1):
        app, scr = make_screen(rs, 128, 64, p)
        line = [l for l in scr.lines() if l.startswith("# hand")][0]
        shown = [n for n in line[7:].split(", ") if n]
        assert shown == [C.name(k) for k in rs[p].seat.priv["hand"]]


# ---- heap -----------------------------------------------------------------------------------
@pytest.mark.parametrize("w,h", SIZES)
def test_a_redraw_allocates_nothing(w, h):
    # heap_lock under MicroPython: any allocation raises; CPython checks the steps only
    import sys
    rs = new_game()
    assert play_until(rs, lambda s: my_phase("move")(s) and len(s.legal()) > 1)
    app, scr = make_screen(rs, w, h)
    stages = []
    for keys in ([], ["OK"], ["OK"]):               # the ship, its goal, the menu
        press(scr, keys)
        stages.append(scr.stage)
        d = draw(scr)                                 # lays out and caches this stage's words
        if sys.implementation.name == "micropython":
            import micropython
            micropython.heap_lock()
            try:
                scr.draw(d)
            finally:
                micropython.heap_unlock()
        else:
            scr.draw(d)
    assert stages == [P.PICK, P.AIM, P.MENU]


def test_the_default_answer_waits_until_a_long_turn_has_gone_round_at_72x40():
    # the prompt and the turn it ends turn a page every TURN_MS or more: at 72x40 a long turn
    # took longer than the answer's 20 s, and bench ux's reader had not yet seen the turn's
    # last event ("P2 discarded Disengage") when the hit was taken by default
    rs = reach_defence()
    seat = rs[0].seat
    app, scr = make_screen(rs, 72, 40)
    clock, page = scr.answer, scr.page
    scr.happened.text = "\n".join(["P2: Row Row fleet ahead, T to c5"] +
                                  ["P2: %s follows to d%d" % (b, i) for i, b in
                                   enumerate("BDQTBDQT")] + ["P2 discarded Disengage"])
    n = len(seat.log)
    t, last_page_at, titles = 0, None, []
    while len(seat.log) == n:
        assert t <= P.ANSWER_MOST_MS, "no default answer"
        clock.tick(t)
        scr.tick(t)                                   # turns the page
        if len(seat.log) == n:
            draw(scr)
            titles.append(clock.left_s())
            if last_page_at is None and page.top == page.last_top() > 0:
                last_page_at = t
        t += 100
    assert page.round_ms() > P.ANSWER_TIMEOUT_MS      # longer than the 20 s it had
    assert last_page_at is not None                   # every page was shown...
    assert t - last_page_at >= P.ANSWER_AFTER_READ_MS  # ...and held before the hit was taken
    assert seat.log[-1] == (0, ["take"])
    assert titles == sorted(titles, reverse=True)     # "Hit in Ns" only ever counts down


def test_the_default_answer_leaves_by_the_most_however_long_the_turn():
    rs = reach_defence()
    app, scr = make_screen(rs, 72, 40)
    scr.answer.read(10 * P.ANSWER_MOST_MS)
    assert scr.answer.limit_ms() == P.ANSWER_MOST_MS
    scr.answer.read(0)                                # a turn that fits: the 20 s
    assert scr.answer.limit_ms() == P.ANSWER_TIMEOUT_MS


def test_whose_turn_it_is_reads_whole_in_the_side_panels_bar_at_72x40():
    # beside the board the bar is the side panel's own, and the link icon takes its right
    # end: "P2 plays" was cut to "P2 pla~" there (bench ux's cut lines)
    rs = new_game()
    assert play_until(rs, lambda s: s.result() is None and s.to_move() == (1, "act"))
    app, scr = make_screen(rs, 72, 40)
    app.link_state = "linked"
    draw(scr)
    sw = scr.layout(app.hw.display)[5]
    assert scr.bar == "P2 up" and tiny_adv(scr.bar) <= (sw - 9) // 4 * 4   # put()'s field
    app, scr = make_screen(rs, 128, 64)
    draw(scr)
    assert "P2" in scr.bar and not scr.bar.endswith("~")


def test_a_long_menu_row_wraps_in_the_side_panel_instead_of_being_cut():
    # bench ux found "Reinforced Ram ~": a fire choice not under the cursor was cut
    import fathom.ui.listview as L
    rs = new_game()
    app, scr = make_screen(rs, 128, 64)
    v = scr.view
    v.set(["Pass", "Reinforced Ram b4", "Tower Archers b4"])
    v.cursor = 0
    calls = []
    real = L.put

    def put(d, text, x, y, n, c=1, small=False):
        calls.append((text, n, small))
        real(d, text, x, y, n, c, small)

    L.put = put
    try:
        v.draw(app.hw.display, 59, 20, 69, 44)
    finally:
        L.put = real
    for text, n, small in calls:
        assert (tiny_adv(text) <= n * 4) if small else len(text) <= n, (text, n)


def test_the_discard_at_72x40_shows_every_cards_words_whole_under_the_cards():
    # framed 3x5 cards left their words one row ("ROW ROW: MOVE," and an arrow): bare cards
    # give them two, which hold every card's words
    rs = new_game()
    assert play_until(rs, my_phase("discard"))
    app, scr = make_screen(rs, 72, 40)
    assert scr.stage == P.CARDS
    d = draw(scr)
    page = scr.row.page
    assert page.rows() == 2
    box = 40 - (8 + 2 * 6 + 1) - 7 - 1                   # under the news and the cards
    assert d.lit(0, 40 - box, 72, box) > 20                # both rows drawn
    for k in range(len(C.CARDS)):
        page.set(P.W.card_words(k))
        lines = page.lines(72, box)
        assert len(lines) <= 2, lines
    # the selected card stays inverted; the others are letters with no frame round them
    y = 8 + 2 * 6 + 1
    assert d.lit(0, y, 72, 7) > 40


def test_the_discard_at_72x40_shows_what_happened_in_two_rows_over_the_cards():
    # the other side's turn is read at the discard that starts yours: one row of 18 characters
    # turning every TURN_MS went round a 12-line turn in about 40 s
    rs = new_game()
    assert play_until(rs, my_phase("discard"))
    app, scr = make_screen(rs, 72, 40)
    assert scr.stage == P.CARDS
    scr.news_page.set("\n".join(["P2: T follows to c%d" % i for i in range(1, 9)]))
    d = draw(scr)
    assert scr.news_page.rows() == 2
    assert d.lit(0, 8 + 2 * 6 + 1, d.width, 9) > 20     # the card row under them
