# What happened since a player's own last action stays on that player's screen, newest first
# (ui/happened.py): nothing another player did, and no answer to one's own move, is replaced
# before it could be read; both sides of an exchange read its outcome; the sealed deal is one
# line; the stack is bounded whatever the game's length.
import pytest

from fathom import games
from fathom.games import local
from fathom.games.bots import make_bot
from fathom.games.periplus import say as PW
from fathom.games.ping import board as B
from fathom.games.ping import screen as ping_ui
from fathom.runner import Runner
from fathom.ui import happened
from fathom.ui.dialog import read_text
from fathom.ui.happened import DEAL, MAX, Happened
from fathom.ui.textpage import TURN_MS

from kit.ping import M1_ENC, M1_GUN, M1_TORP, M2_DIVE, M2_TORP, M3_PING, game, play
from kit.play import play_seats
from test_sealed_screens import linked
from kit.panel import App

pytestmark = pytest.mark.micropython


def ping_screen(seat):
    return ping_ui.screen(App(128, 64), Runner(seat, [], None, "ping"))


def stack(scr):
    scr.news()
    return list(scr.happened.lines)


def test_a_ping_is_read_on_both_sides_and_stays_until_the_next_own_move():
    # P1 off the objectives: a PING from one would keep its turn open for a report
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "G", "S")
    s1, s2 = ping_screen(seats[0]), ping_screen(seats[1])
    play(seats, ["ping", M3_PING])          # P1 pings from G
    assert stack(s2) == ["P1 PING from G", "You are P2"]
    assert stack(s1) == ["You PING from G"]
    play(seats, ["torpedo", M2_TORP, B.N])  # P2 fires north from S and misses
    # P1 has not moved since: the answer, over the shot, over its own ping
    assert stack(s1) == ["Torpedo from S heading N: miss", "P2 fires: Torpedo from S heading N",
                         "You PING from G"]
    # P2 moved: only what came after its own move, the answer to it included
    assert stack(s2) == ["Torpedo from S heading N: miss", "You fire: Torpedo from S heading N"]


def test_the_attacker_reads_the_damage_it_did_in_periplus():
    eng = games.engine("periplus")
    seats = local.make_seats(eng, eng.options(), 2, b"attack")
    bots = [make_bot("periplus", "sharp", b"attack", p) for p in (0, 1)]
    hs = [Happened(s, _periplus_words(s), "") for s in seats]
    told = []

    def on_event(seats, au, ev, _before):
        for h in hs:
            h.update()
        prev = seats[0].log[-2][1] if len(seats[0].log) > 1 else None
        if ev[0] == "take" and prev is not None and prev[0] == "fire":
            attacker = hs[1 - au]
            assert attacker.lines[0].startswith("Foe "), attacker.lines
            assert " hit: " in attacker.lines[0] or "sunk" in attacker.lines[0] or \
                "oars" in attacker.lines[0], attacker.lines
            told.append(attacker.lines[0])
    play_seats(seats, bots, on_event, until=lambda: len(told) >= 3)
    assert told


def _periplus_words(seat):
    def words(prev, author, ev):
        return PW.news(seat.pub, [prev, (author, ev)] if prev else [(author, ev)], seat.player)
    return words


def test_the_sealed_deal_is_one_line_and_the_stack_is_bounded():
    rs = linked("ping", b"one line")
    s = rs[1].seat
    h = Happened(s, lambda prev, a, e: "P%d %s" % (a + 1, e[0]), "start")
    now = 0
    while not [1 for _a, t in s.log if t[0] in DEAL] or \
            s.engine.deal_progress(s.pub) is not None:
        for r in rs:
            r.tick(now)
        h.update()
        now += 10
        assert now < 600000, "the deal never ended"
    assert len([t for _a, t in s.log if t[0] in DEAL]) > 2 * MAX
    deal = [x for x in h.lines if x == "Deck shuffled in secret"]
    assert len(deal) == 1 and len(h.lines) <= MAX, h.lines


class _Seat:
    """A seat as the stack reads it: its player, the event count and the journal's records."""
    player = 0

    def __init__(self):
        self.recs = []
        self.log = self

    @property
    def n_log(self):
        return len(self.recs)

    def __getitem__(self, i):
        return (self.recs[i][1], self.recs[i][2])

    def records(self, a, b):
        return iter(self.recs[a:b])


def test_a_long_wait_keeps_at_most_max_lines_and_an_own_move_clears_them():
    s = _Seat()
    h = Happened(s, lambda prev, a, e: "P%d did %d" % (a + 1, e[1]), "start")
    for i in range(50):
        s.recs.append(["e", 1, ["x", i], b"", None])
        h.update()
    assert h.lines[0] == "P2 did 49" and len(h.lines) == MAX
    s.recs.append(["e", 0, ["x", 50], b"", None, ["act"]])   # this player's own action
    h.update()
    assert h.lines == ["P1 did 50"]


def test_a_turn_longer_than_the_stack_folds_its_oldest_lines_and_loses_none():
    # a Periplus turn can bring a dozen lines (a fleet ahead with every ship following, two
    # discards, the deal, the shot): the oldest ones must still be there to read
    s = _Seat()
    h = Happened(s, lambda prev, a, e: "P2 did %d" % e[1], "start")
    n = MAX + 4
    for i in range(n):
        s.recs.append(["e", 1, ["x", i], b"", None])
        h.update()
    assert len(h.lines) == MAX and h.lines[0] == "P2 did %d" % (n - 1)
    for i in range(n):
        assert ("P2 did %d" % i) in h.text.replace(happened.JOIN, "\n").split("\n"), h.lines
    assert h.lines[-1].startswith("P2 did 0 / "), h.lines   # oldest first (the start: context)


def test_every_short_form_on_the_screens_is_on_the_help_page():
    help_p = read_text("games/periplus/help.txt")
    top = help_p[:help_p.index("A TURN")]               # the first page: before the rules
    for k in range(len(PW.CODE)):
        assert "%s %s" % (PW.CODE[k], PW.C.name(k)) in top, PW.CODE[k]
    help_ping = read_text("games/ping/help.txt")
    for word in ("LSTN", "TORP", "ENCR", "TAKE", "OBJ"):
        assert word in help_ping, word
    assert TURN_MS >= 1000    # a row stays long enough to be read


def _turned(h, page, w, h_px, until):
    """(ms, top) each time the box turns, drawn on a w x h_px box, until `until` ms."""
    from kit.panel import Panel
    d = Panel(w, h_px)
    out = []
    now = 0
    while now < until:
        page.draw(d, 0, 0, w, h_px)
        if h.turn(page, now):
            out.append((now, page.top))
        now += 50
    return out


def test_the_box_turns_through_what_is_new_once_then_rests_on_the_newest():
    # PING's bottom line turned every 1.6 s through the new event and old lines without end,
    # and Sugar Dog's panel through the whole history
    from fathom.ui.textpage import TextPage
    s = _Seat()
    h = Happened(s, lambda prev, a, e: "P2 fired a torpedo heading north %d" % e[1], "You are P1")
    for i in range(3):
        s.recs.append(["e", 1, ["x", i], b"", None])
    h.update()
    assert "You are P1" not in h.text      # context, not news: the first event replaced it
    page = TextPage(h.text, True)
    turns = _turned(h, page, 72, 5, 60000)  # one 3x5 row: a page a row
    rows = page.count()
    assert rows > 3
    assert [t for _ms, t in turns[:-1]] == list(range(1, rows)) and turns[-1][1] == 0
    starts = [0] + [ms for ms, _t in turns]
    assert min(b - a for a, b in zip(starts, starts[1:])) >= TURN_MS  # held to read
    assert turns[-1][0] < 40000             # and then it rests on the newest: no more turns
    s.recs.append(["e", 1, ["x", 9], b"", None])   # something new: turned through once again
    h.update()
    page.set(h.text)
    assert _turned(h, page, 72, 5, 60000)[-1][1] == 0


def test_a_player_out_of_the_game_reads_that_first():
    s = _Seat()
    h = Happened(s, lambda prev, a, e: "P2 moved %d" % e[1], "start")
    s.recs.append(["e", 1, ["x", 1], b"", None])
    h.update()
    assert h.pin("You are sunk: out of the game") and not h.pin("You are sunk: out of the game")
    assert h.text.split("\n")[0] == "You are sunk: out of the game"
    s.recs.append(["e", 1, ["x", 2], b"", None])
    h.update()
    assert h.text.split("\n")[:2] == ["You are sunk: out of the game", "P2 moved 2"]
