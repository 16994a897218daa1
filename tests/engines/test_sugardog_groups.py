# Sugar Dog for 5 to 8 players, rule by rule against docs/rules/sugar_dog.md ("Groups of five to
# eight"), on CPython and the MicroPython unix port: the map by the source's rule up to 18x18,
# turn order wrapping from the first player, answers and echoes from every other living player
# in turn order, collisions, sunk players skipped, the last afloat, the draws; play-outs of 5 to
# 8 players to the end with every audit passing; bots finishing 8-player games in bounded
# events; and 2-4 player games exactly as before the engine took 8 (pinned events and hashes).
import binascii
import gc
import hashlib
import sys

import pytest

from fathom.codec import encode
from fathom.prng import Prng
from fathom.games.sugardog import say as SAY
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.bots import RandomBot
from fathom.games.sugardog.bot import EasyBot, SharpBot
from fathom.games.sugardog.engine import ENGINE, map_size, name, step, N, E, S, W
from kit.play import do, seed_for, started

pytestmark = pytest.mark.micropython

MP = sys.implementation.name == "micropython"
LETTERS = "ABCDEFGHIJKLMNOPQR"   # 18 columns on the 8-player map


def sq(label, size):
    """'R18' -> square int on a size x size map."""
    return (int(label[1:]) - 1) * size + LETTERS.index(label[0])


def game(starts, calm=20, first=0):
    """A game of len(starts) players on its map, set up on those squares ('C4' or an int)."""
    size = map_size(len(starts))
    return started(ENGINE, ENGINE.options({"calm": calm}),
                   [x if isinstance(x, int) else sq(x, size) for x in starts],
                   seed_for(ENGINE, len(starts), first, b"grp"))


def stay(seats):
    """The player to act runs silent on its own square."""
    p = seats[0].to_move()[0]
    return do(seats, ["run", seats[p].priv["pos"]])


def spread(n):
    """n start squares far apart on the n-player map: the main diagonal, every other square."""
    size = map_size(n)
    return [(2 * i) * size + 2 * i + 1 for i in range(n)]


def after(first, n, alive=None):
    """The players after `first` in turn order (wrapping), the living only."""
    return [(first + k) % n for k in range(1, n) if alive is None or alive[(first + k) % n]]


# ---- the map --------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_the_map_grows_two_each_way_per_player_up_to_18x18(n):
    size = 6 + 2 * (n - 2)
    assert map_size(n) == size
    seats = local.make_seats(ENGINE, ENGINE.options(), n, b"map")
    assert seats[0].pub["size"] == size
    legal = seats[0].setup_legal()
    assert len(legal) == size * size and list(legal) == list(range(size * size))
    assert name(size, size * size - 1) == LETTERS[size - 1] + str(size)
    with pytest.raises(IllegalAction):
        ENGINE.setup_apply(seats[0].pub, seats[0].priv, 0, size * size)
    seats[0].setup_choose(size * size - 1)            # the top right corner is on the map
    assert step(size, size * size - 1, N) == -1 and step(size, size * size - 1, E) == -1


def test_eighteen_columns_are_lettered_a_to_r_and_rows_numbered_to_18():
    assert [name(18, x) for x in range(18)] == [c + "1" for c in LETTERS]
    assert name(18, 17 * 18) == "A18" and name(18, 323) == "R18"
    assert step(18, sq("R9", 18), W) == sq("Q9", 18) and step(18, sq("R9", 18), E) == -1
    assert step(18, sq("A18", 18), S) == sq("A17", 18) and step(18, sq("A1", 18), S) == -1
    seats = game(spread(8))
    assert SAY.describe(seats[0].pub, 7, ["c", 323]) == "P8 contact R18"
    assert SAY.describe(seats[0].pub, 0, ["s", 0, [323, 322]]) == "P1 ping A1 m:R18,Q18"
    assert len(encode(["a", [323], 2])) <= 8      # a far square is still a short event


def test_five_to_eight_players_start_and_nine_do_not():
    for n in (5, 6, 7, 8):
        assert ENGINE.new_game(ENGINE.options(), n, Prng(b"x", b"game"))["n"] == n
    for n in (0, 1, 9, 16):
        with pytest.raises(IllegalAction, match="2 to 8"):
            ENGINE.new_game(ENGINE.options(), n, Prng(b"x", b"game"))


# ---- turn order -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_turn_order_wraps_round_from_the_first_player(n):
    first = n - 2                                 # so the order wraps past the last player
    seats = game(spread(n), first=first)
    order = []
    for _i in range(2 * n + 1):
        order.append(seats[0].to_move()[0])
        stay(seats)
    assert order == [(first + k) % n for k in range(2 * n + 1)]


# ---- answers from every other living player --------------------------------------------------

def test_a_cruise_step_is_answered_by_the_seven_others_in_turn_order():
    seats = game(spread(8), first=5)
    p = seats[5].priv["pos"]
    q = step(18, p, N)
    evs = do(seats, ["cruise", q])
    assert evs[0] == [5, ["c", q]]
    assert [e[0] for e in evs[1:]] == after(5, 8) == [6, 7, 0, 1, 2, 3, 4]
    assert all(e[1] == ["a", [q], 0] for e in evs[1:])
    assert seats[0].to_move() == (5, "act")           # the second step
    q2 = step(18, q, N)
    evs = do(seats, ["cruise", q2])
    assert [e[0] for e in evs[1:]] == [6, 7, 0, 1, 2, 3, 4]
    assert seats[0].to_move() == (6, "act")


def test_a_ping_gets_seven_echoes_in_turn_order_each_nearest_first():
    seats = game(spread(8), first=2)
    for _p in range(8):
        do(seats, ["mine"])                           # everyone mines its square, in turn
    do(seats, ["run", step(18, seats[2].priv["pos"], N)])   # P3 moves off its mine
    for _p in range(7):
        stay(seats)
    src = seats[2].priv["pos"]
    mine = step(18, src, S)
    evs = do(seats, ["sonar"])
    assert evs[0] == [2, ["s", src, [mine]]]
    assert [e[0] for e in evs[1:]] == [3, 4, 5, 6, 7, 0, 1]
    for p, ev in evs[1:]:
        assert ev == ["e", seats[p].priv["pos"], [seats[p].priv["pos"]]]
    assert seats[0].to_move() == (3, "act")


def test_torpedo_squares_go_one_at_a_time_to_all_seven_answerers():
    seats = game(spread(8), first=0)
    p = seats[0].priv["pos"]                          # B1
    evs = do(seats, ["fire", E])
    c1, d1 = step(18, p, E), step(18, step(18, p, E), E)
    assert evs[0] == [0, ["f", c1, E]]
    assert [e for e in evs[1:8]] == [[k, ["a", [c1], 0]] for k in range(1, 8)]
    assert [e for e in evs[8:]] == [[k, ["a", [d1], 0]] for k in range(1, 8)]
    assert seats[0].pub["torps"] == [[0, 0, d1, E]]


# ---- collisions, sunk players, the end -------------------------------------------------------

def test_a_torpedo_into_a_shared_square_sinks_everyone_there_and_the_rest_play_on():
    size = 18
    starts = spread(8)
    starts[3] = starts[5] = sq("C6", size)            # P4 and P6 start together, unannounced
    starts[0] = sq("C3", size)
    seats = game(starts, first=0)
    do(seats, ["fire", N])                            # C4, C5 clear
    for _p in range(6):
        stay(seats)
    evs = stay(seats)                                 # P8; then P1's turn starts with its
    assert evs[0] == [7, ["q"]]                       # torpedo's move: C6 hits
    impact = [e for e in evs if e[1][0] == "a" and e[1][2]]
    assert impact == [[3, ["a", [sq("C6", size)], 2]], [5, ["a", [sq("C6", size)], 2]]]
    # one square at a time: the C6 answers come from all seven, in turn order after P1
    assert [e[0] for e in evs[-7:]] == [1, 2, 3, 4, 5, 6, 7]
    assert seats[0].pub["alive"] == [True, True, True, False, True, False, True, True]
    assert seats[0].pub["torps"] == []
    assert seats[0].result() is None


def test_a_sunk_player_is_skipped_in_turns_and_never_answers_again():
    size = 12
    starts = spread(5)
    starts[0], starts[1] = sq("A1", size), sq("A2", size)
    seats = game(starts, first=4)
    stay(seats)                                       # P5
    evs = do(seats, ["fire", N])                      # P1 sinks P2 in A2 at once
    assert evs[1] == [1, ["a", [sq("A2", size)], 2]]
    assert [e[0] for e in evs[1:]] == [1, 2, 3, 4]    # the square's answers were all in
    assert seats[0].pub["alive"] == [True, False, True, True, True]
    order = []
    for _i in range(8):
        order.append(seats[0].to_move()[0])
        stay(seats)
    assert order == [2, 3, 4, 0, 2, 3, 4, 0]
    p = seats[0].to_move()[0]
    q = [a for a in seats[p].legal() if a[0] == "cruise"][0][1]
    evs = do(seats, ["cruise", q])
    assert [e[0] for e in evs[1:]] == after(p, 5, seats[0].pub["alive"])
    assert 1 not in [e[0] for e in evs]


@pytest.mark.parametrize("n", [5, 8])
def test_the_last_submarine_afloat_wins(n):
    size = map_size(n)
    starts = [sq("C2", size)] * n                     # everyone else starts on C2
    starts[0] = sq("C1", size)
    seats = game(starts, first=0)
    evs = do(seats, ["fire", N])
    assert [e[1] for e in evs[1:]] == [["a", [sq("C2", size)], 2]] * (n - 1)
    assert seats[0].result() == ([0], "last afloat")
    assert all(s.result() == ([0], "last afloat") for s in seats)
    assert seats[0].to_move() is None


@pytest.mark.parametrize("n", [6, 8])
def test_the_last_submarines_sunk_together_is_a_draw(n):
    size = map_size(n)
    starts = [sq("D5", size)] * n
    starts[0] = sq("D3", size)
    seats = game(starts, first=0)
    do(seats, ["cruise", sq("D4", size)])
    evs = do(seats, ["cruise", sq("D5", size)])       # into the crowd
    assert [e[1][2] for e in evs[1:]] == [2] * (n - 1)
    assert seats[0].result() == ([], "all sunk")


def test_the_calm_draw_counts_rounds_of_the_submarines_afloat():
    seats = game(spread(8), calm=10, first=3)
    for _i in range(79):                              # 10 rounds of 8 turns, less one
        stay(seats)
        assert seats[0].result() is None
    stay(seats)
    assert seats[0].result() == ([], "calm")


def test_a_loss_restarts_the_calm_count_for_the_fewer_afloat():
    size = 12
    starts = spread(5)
    starts[0], starts[1] = sq("A1", size), sq("A2", size)
    seats = game(starts, calm=10, first=0)
    for _i in range(30):                              # 6 calm rounds of five
        stay(seats)
    do(seats, ["fire", N])                            # P1 sinks P2: the count starts again
    assert seats[0].pub["calm"] == 1
    for _i in range(38):                              # 10 rounds of the four afloat, less one
        stay(seats)
        assert seats[0].result() is None
    stay(seats)
    assert seats[0].result() == ([], "calm")


# ---- whole games ------------------------------------------------------------------------------

def _audited(r, n):
    assert len(r["audits"]) == n * (n - 1)
    assert [a for a in r["audits"] if a[2] is not None] == []
    assert all(s.result() == r["result"] for s in r["seats"])


def test_auditing_each_reveal_once_gives_what_every_seat_auditing_it_gives():
    # what audit_once (the long games below) stands on: the same log in every seat
    seed = b"once"
    full, once = (local.play(ENGINE, ENGINE.options(), 4, seed,
                             [SharpBot(seed, p) for p in range(4)], audit_once=o)
                  for o in (False, True))
    assert full["events"] == once["events"] > 20
    assert once["audits"] == full["audits"]
    assert len(once["audits"]) == 12 and {a[1] for a in once["audits"]} == {0, 1, 2, 3}


def _gc(author, event):
    # Under MicroPython, every seat's in-memory journal of a long game, collected only when the
    # 8 MB heap is full, is left scattered over all of it: a 16 KB list growth then fails with
    # 7 MB free (largest free block ~4 KB). Collecting often keeps the survivors packed.
    if MP:
        gc.collect()


@pytest.mark.slow   # whole 5-8 player games: `make test`, not the fast loop
# Random bots are loud: their 5-8 player games run to ~3,200 events (the bound for play-outs).
# Under MicroPython one shorter game per count (calm 10).
@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_random_playouts_of_5_to_8_players_end_with_every_audit_passing(n):
    games = 1 if MP else 3
    calm = 10 if MP else 20
    for i in range(games):
        seed = b"grand%d-%d" % (n, i)
        r = local.play(ENGINE, ENGINE.options({"calm": calm}), n, seed,
                       [RandomBot(seed, p) for p in range(n)], max_events=5000, on_event=_gc,
                       audit_once=n > 5)  # five: every seat replays every other's reveal
        _audited(r, n)
        winners, reason = r["result"]
        assert reason in ("last afloat", "all sunk", "calm")
        assert (len(winners) == 1) == (reason == "last afloat")


# The bots' 8-player games: the longest of 20 seeds was 698 events at the default calm (easy),
# 1,622 at the longest calm option (50). The bound leaves room for other seeds, not for a loop.
BOT_EVENTS = 1500


@pytest.mark.slow   # whole 5-8 player games: `make test`, not the fast loop
@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_easy_and_sharp_bots_finish_5_to_8_player_games_in_bounded_events(n):
    sets = ((SharpBot, SharpBot), (EasyBot, EasyBot), (SharpBot, EasyBot))
    if MP:  # one pairing per count, each in turn: CPython plays them all, MicroPython runs them
        sets = sets[n % 3:n % 3 + 1]
    for i in range(1 if MP else 3):
        for a, b in sets:
            seed = b"gbot%d-%d" % (n, i)
            bots = [(a if p % 2 else b)(seed, p) for p in range(n)]
            r = local.play(ENGINE, ENGINE.options(), n, seed, bots, max_events=BOT_EVENTS,
                           on_event=_gc, audit_once=True)
            _audited(r, n)
            assert r["events"] <= BOT_EVENTS


@pytest.mark.slow   # whole 5-8 player games: `make test`, not the fast loop
def test_sharp_bots_still_sink_submarines_in_8_player_games():
    # Not a strength figure: evidence the trackers work on the 18x18 map with seven enemies.
    lost = 0
    for i in range(1 if MP else 4):
        seed = b"gsink%d" % i
        r = local.play(ENGINE, ENGINE.options(), 8, seed, [SharpBot(seed, p) for p in range(8)],
                       on_event=_gc, audit_once=True)
        _audited(r, 8)
        lost += r["seats"][0].pub["alive"].count(False)
    assert lost >= 1


# ---- 2 to 4 players exactly as before ---------------------------------------------------------

# Bot games of 2-4 players played by the engine before it took 5-8 players (git HEAD of
# games/sugardog/engine.py at the change): events, result, the short hash after the last event
# and a digest of the whole log. A change to the rules for 2-4 players, or to an event's
# encoding, shows here. The short hashes were taken again when the chain came to hash the
# state each event applies to, answers left out (protocol v3), after the old chain's pins were
# recomputed from these very games and all matched: the states are the same, only the chain's
# formula moved. Pins (2, 1), (2, 2), (4, 0) and (4, 1) were taken again when a cruise could
# stop after its first square (the source's "no further contacts"): the bots there chose the stop
# or, choosing among one more legal action, another second step; the other five games are
# unchanged.
PINNED = [
    (2, 0, 48, [], "calm", "dd42169e5332158a", "e360f03b1bb48853"),
    (2, 1, 59, [1], "last afloat", "fbbbd3c50b39e95f", "7938351d318d0490"),
    (2, 2, 12, [1], "last afloat", "725f881e4318ab7a", "e35af69a36935fc0"),
    (3, 0, 77, [], "calm", "d1562544d32e2f56", "d5e6e502a5758ab8"),
    (3, 1, 54, [2], "last afloat", "21c5cd2639ea17dc", "e81e067c9b3f1a6b"),
    (3, 2, 26, [1], "last afloat", "83a1dccf84e570f8", "5a275790b6b37a6a"),
    (4, 0, 115, [], "calm", "5e7ed6dcd4e934b4", "852744bf18df5f8a"),
    (4, 1, 155, [2], "last afloat", "568bfe0cfd4821af", "cc8da7d9beb5512d"),
    (4, 2, 67, [], "calm", "60d85b05b22d28c8", "1a78e3f52dd14dbb"),
]

class PinnedSharp(SharpBot):
    """The sharp bot the pins were played with: it fired at 34% cover (now 24%, to beat easy more
    often); these games pin the engine, not the bot's tuning."""
    SHOOT = 34


@pytest.mark.parametrize("pin", PINNED)
def test_two_to_four_player_games_give_the_same_events_and_hashes_as_before(pin):
    n, i, events, winners, reason, short, digest = pin
    kinds = [PinnedSharp, EasyBot, RandomBot]
    seed = b"pin%d-%d" % (n, i)
    r = local.play(ENGINE, ENGINE.options(), n, seed,
                   [kinds[(p + i) % 3](seed, p) for p in range(n)])
    s = r["seats"][0]
    h = hashlib.sha256()
    for a, e in s.log:
        h.update(encode([a, e]))
    got = (r["events"], r["result"][0], r["result"][1],
           binascii.hexlify(s.short_hash()).decode(), binascii.hexlify(h.digest()).decode()[:16])
    assert got == (events, winners, reason, short, digest)
