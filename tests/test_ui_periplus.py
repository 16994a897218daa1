# The Periplus screen drawn on the 128x64 and 72x40 panels in every phase, its semantic lines,
# and the defender's prompt clock: no answer before the minimum, the default at the timeout.
import pytest


from fathom.games.periplus.bot import EasyBot, SharpBot
from fathom.games.local import make_seats
from fathom.games.periplus.engine import ENGINE
from fathom.games.periplus import cards as C
from fathom.games.periplus.fleet import SQ
from fathom.peers import pipe_pair
from fathom.runner import Runner
from fathom.games.periplus import screen as P

from uikit import App as FakeApp

pytestmark = pytest.mark.micropython

SIZES = [(128, 64), (72, 40)]


class Poison:
    """Stands in for the seed-derived deck order: any read of it fails the test."""

    def __len__(self):
        raise AssertionError("the screen read the deck order")

    def __getitem__(self, i):
        raise AssertionError("the screen read the deck order")

    def __iter__(self):
        raise AssertionError("the screen read the deck order")


def new_game(seed=b"ui-periplus"):
    seats = make_seats(ENGINE, ENGINE.options({}), 2, seed)
    a, b = pipe_pair()
    rs = [Runner(seats[0], [a]), Runner(seats[1], [b])]
    for r in rs:
        r.services = [r]
    return rs


def pump(rs, now=0):
    for _ in range(3):
        for r in rs:
            r.tick(now)


def play_until(rs, pred, bots=None, limit=600, skip_me=True):
    """Bots play both seats (player 0's decisions too, unless pred already holds) until
    pred(seat0) is true; returns whether it came."""
    bots = bots or [SharpBot(b"s", 0), EasyBot(b"e", 1)]
    for _ in range(limit):
        pump(rs)
        if pred(rs[0].seat):
            return True
        for i in (0, 1):
            s = rs[i].seat
            while s.setup_legal():
                rs[i].setup_choose(bots[i].setup(s))
            if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
                rs[i].play(bots[i].act(s))
                pump(rs)
                if pred(rs[0].seat):
                    return True
    return False


def my_phase(ph):
    return lambda s: (s.result() is None and s.pub["phase"] == ph and s.to_move() == (0, "act"))


def draw(scr):
    d = scr.app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def make_screen(rs, w, h, player=0):
    app = FakeApp(w, h)
    scr = P.screen(app, rs[player])
    app.push(scr)
    return app, scr


def square_xy(scr, sq, d):
    """Top-left pixel of a square as the screen lays out the board for its player."""
    top = 8 if d.height >= 64 else 0
    sz = min((d.height - top) // 8, 7)
    r, c = divmod(sq, 8)
    if scr.runner.seat.player == 0:
        return c * sz, top + (7 - r) * sz, sz
    return (7 - c) * sz, top + r * sz, sz


@pytest.mark.parametrize("w,h", SIZES)
def test_setup_shows_the_row_being_placed(w, h):
    rs = new_game()
    app, scr = make_screen(rs, w, h)
    rs[0].setup_choose(3)                 # the Quinquereme on a1
    lines = scr.lines()
    assert lines[0] == "Periplus P1 set-up"
    assert lines[-3:] == [">Place Bireme at b1", " Place Trireme at b1", " Place Quadrireme at b1"]
    d = draw(scr)
    x, y, sz = square_xy(scr, 0, d)
    assert d.lit(x, y, sz - 1, sz - 1) > 0          # the placed Quinquereme
    x, y, sz = square_xy(scr, 1, d)
    assert d.lit(x, y, sz - 1, sz - 1) > (sz - 1) * (sz - 1) // 2   # b1 highlighted: inverted


@pytest.mark.parametrize("w,h", SIZES)
def test_move_choice_is_drawn_on_the_board(w, h):
    rs = new_game()
    assert play_until(rs, my_phase("move"))
    app, scr = make_screen(rs, w, h)
    lines = scr.lines()
    choices = [l for l in lines[1:] if l[:1] in (">", " ")]
    assert choices[0] == ">Pass (no move)" and len(choices) == len(rs[0].seat.legal())
    assert any(l.startswith("# you ") for l in lines) and any(l.startswith("# foe ") for l in lines)
    d = draw(scr)                                   # cursor on Pass: nothing highlighted
    scr.key("DOWN")
    a = scr.current()
    assert a[0] in ("move", "ahead")
    src, dst = scr.squares(a)
    assert src == rs[0].seat.pub["ships"][a[2]][SQ] and dst >= 0
    plain = []
    for sq in (src, dst):
        x, y, sz = square_xy(scr, sq, d)
        plain.append(d.lit(x, y, sz - 1, sz - 1))
    d = draw(scr)
    assert plain[0] > 1 and plain[1] <= 1          # a ship leaves, an empty square is its goal
    x, y, sz = square_xy(scr, src, d)              # the ship's square drawn inverted
    assert d.lit(x, y, sz - 1, sz - 1) == (sz - 1) * (sz - 1) - plain[0]
    x, y, sz = square_xy(scr, dst, d)              # the goal a solid block
    assert d.lit(x, y, sz - 1, sz - 1) == (sz - 1) * (sz - 1)
    # the empty square next to a quiet one is not inverted
    x, y, sz = square_xy(scr, 27 if 27 not in (src, dst) else 28, d)
    assert d.lit(x, y, sz - 1, sz - 1) <= 1
    if w >= 128:
        assert d.lit(0, 0, w, 8) > 300             # the title bar
        assert scr.lines()[0] == "Periplus P1 move"


def test_own_fleet_filled_enemy_in_outline_and_yours_at_the_bottom():
    for player in (0, 1):
        rs = new_game()
        assert play_until(rs, lambda s: s.pub["phase"] == "move")
        app, scr = make_screen(rs, 128, 64, player)
        scr.cursor = 0                              # Pass: nothing highlighted
        d = draw(scr)
        me = rs[player].seat.player
        pub = rs[player].seat.pub
        for sid in range(16):
            sq = pub["ships"][sid][SQ]
            if sq < 0:
                continue
            x, y, sz = square_xy(scr, sq, d)
            # hull rows y..y+3, centred: its middle pixel is lit for yours, dark for theirs
            assert d.pixel(x + 2, y + 1) == (1 if sid // 8 == me else 0), (player, sid)
        back = 0 if me == 0 else 7
        x, y, sz = square_xy(scr, back * 8, d)
        assert y == 8 + 7 * 7                      # your back row is the bottom row


@pytest.mark.parametrize("w,h", SIZES)
def test_fire_hand_and_discard_pages(w, h):
    rs = new_game(b"ui-fire")
    assert play_until(rs, lambda s: my_phase("fire")(s) and len(s.legal()) > 1)
    app, scr = make_screen(rs, w, h)
    seat = rs[0].seat
    deck, key = seat.priv["deck"], seat.priv["key"]
    seat.priv["deck"] = Poison()
    seat.priv["key"] = Poison()
    try:
        scr.key("DOWN")
        a = scr.current()
        assert a[0] == "fire"
        assert scr.lines()[-len(scr.actions()) + 1].startswith(">" + C.name(a[1]) + ": ")
        d = draw(scr)
        assert d.lit(0, 0, w, h) > 0
        scr.key("RIGHT")
        assert scr.page == P.HAND
        d = draw(scr)
        assert any(l.startswith("# hand ") for l in scr.lines())
        hand_line = [l for l in scr.lines() if l.startswith("# hand ")][0]
        assert C.name(seat.priv["hand"][0]) in hand_line
        assert d.lit(0, 8, w, 8) > 0                # the first card's row
        scr.key("RIGHT")
        assert scr.page == P.DISCARD
        draw(scr)
        scr.key("RIGHT")
        assert scr.page == P.PLAY
        scr.key("LEFT")
        assert scr.page == P.DISCARD
        scr.key("UP")                               # UP/DOWN still choose on any page
        assert scr.cursor == 0
    finally:
        seat.priv["deck"], seat.priv["key"] = deck, key


def test_hand_page_never_shows_the_other_players_cards():
    rs = new_game(b"ui-fire")
    assert play_until(rs, my_phase("fire"))
    for p in (0, 1):
        app, scr = make_screen(rs, 128, 64, p)
        scr.page = P.HAND
        line = [l for l in scr.lines() if l.startswith("# hand")][0]
        shown = [n for n in line[7:].split(", ") if n]
        assert shown == [C.name(k) for k in rs[p].seat.priv["hand"]]


def reach_defence(seed=b"ui-defend"):
    rs = new_game(seed)
    ok = play_until(rs, my_phase("defend"), bots=[SharpBot(b"s", 0), SharpBot(b"t", 1)])
    assert ok
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
    assert prompt.startswith("! Attack on your ") and (" by %s: " % C.name(k)) in prompt
    assert prompt.endswith("negate with %s? OK=yes / take hit" % C.name(d_kind))
    assert lines[-2:] == [">Negate with " + C.name(d_kind), " Take the hit"]
    d = draw(scr)
    assert d.lit(0, 0, w, 7) > 0
    assert d.lit(0, h - 16, w, 8) > 40               # the highlighted answer: OK = negate
    scr.answer.tick(11000)
    assert "take hit in 10s" in scr.lines()[0]


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
    assert "no %s in hand" % C.name(d_kind) in prompt
    scr.key("OK")                                  # an instant answer...
    assert scr.actions() == []                     # ...is queued, the list is gone
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


@pytest.mark.parametrize("w,h", SIZES)
def test_a_whole_game_draws_in_every_phase(w, h):
    rs = new_game(b"ui-whole")
    apps = [make_screen(rs, w, h, p) for p in (0, 1)]
    bots = [SharpBot(b"a", 0), EasyBot(b"b", 1)]
    seen = []
    for _ in range(3000):
        pump(rs)
        for _app, scr in apps:
            ph = scr.runner.seat.pub["phase"]
            if ph not in seen:
                seen.append(ph)
            for page in (P.PLAY, P.HAND, P.DISCARD):
                scr.page = page
                draw(scr)
                assert scr.lines()[0].startswith("Periplus P")
            scr.page = P.PLAY
        if rs[0].seat.result() is not None:
            break
        for i in (0, 1):
            s = rs[i].seat
            while s.setup_legal():
                rs[i].setup_choose(bots[i].setup(s))
            if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
                rs[i].play(bots[i].act(s))
    assert rs[0].seat.result() is not None
    for ph in ("setup", "move", "fire", "defend"):
        assert ph in seen, seen
