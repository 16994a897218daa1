# Sugar Dog, rule by rule against docs/rules/sugar_dog.md, on CPython and the MicroPython unix port.
import pytest

from fathom.codec import encode
from fathom.prng import Prng
from fathom.games.sugardog import say as SAY
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.sugardog.engine import ENGINE, map_size, marks, name, step, N, E, S, W
from fathom.games.bots import RandomBot
from fathom.games.audit import audit
from kit.play import do, send, seed_for, started

pytestmark = pytest.mark.micropython


def sq(label, size=6):
    """'C4' -> square int."""
    return (int(label[1:]) - 1) * size + "ABCDEFGHIJ".index(label[0])


def game(starts, calm=20, first=0):
    size = map_size(len(starts))
    return started(ENGINE, ENGINE.options({"calm": calm}), [sq(x, size) for x in starts],
                   seed_for(ENGINE, len(starts), first, b"sd"))


def pub(seats):
    return seats[0].pub


def alive(seats):
    return pub(seats)["alive"]


# ---- map, notation, set-up, turn order ----------------------------------------------------

def test_map_size_grows_two_each_way_per_extra_player():
    assert [map_size(n) for n in range(2, 9)] == [6, 8, 10, 12, 14, 16, 18]
    for n in range(2, 9):
        p = ENGINE.new_game(ENGINE.options(), n, Prng(b"x", b"game"))
        assert p["size"] == map_size(n)
    for n in (1, 9):
        with pytest.raises(IllegalAction, match="2 to 8"):
            ENGINE.new_game(ENGINE.options(), n, Prng(b"x", b"game"))


def test_letters_across_numbers_up():
    assert name(6, 0) == "A1"
    assert name(6, sq("C4")) == "C4"
    assert name(10, 99) == "J10"
    assert step(6, sq("C4"), N) == sq("C5")
    assert step(6, sq("C4"), E) == sq("D4")
    assert step(6, sq("C4"), S) == sq("C3")
    assert step(6, sq("C4"), W) == sq("B4")
    assert step(6, sq("A1"), W) == -1 and step(6, sq("F6"), N) == -1


def test_secret_start_any_square_and_commit_carries_no_position():
    seats = local.make_seats(ENGINE, ENGINE.options(), 2, seed_for(ENGINE, 2, 0, b"sd"))
    assert list(seats[0].setup_legal()) == list(range(36))
    seats[0].setup_choose(sq("C4"))
    assert list(seats[0].setup_legal()) == []
    ev = seats[0].setup_event()
    assert ev[0] == "setup" and ev[1] is None and len(ev[2]) == 32
    with pytest.raises(IllegalAction):
        ENGINE.setup_apply(seats[1].pub, seats[1].priv, 1, 36)


def test_same_start_square_is_allowed():
    seats = game(["C4", "C4"])
    assert alive(seats) == [True, True]


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_player_from_joint_randomness_then_player_order(first):
    seats = game(["A1", "C3", "E5"], first=first)
    order = []
    for _i in range(4):
        order.append(seats[0].to_move()[0])
        do(seats, ["run", seats[order[-1]].priv["pos"]])
    assert order == [first, (first + 1) % 3, (first + 2) % 3, first]


# ---- silent running and mines -------------------------------------------------------------

def test_silent_running_stays_or_moves_one_and_says_nothing():
    seats = game(["A1", "F6"])
    runs = [a for a in seats[0].legal() if a[0] == "run"]
    assert sorted(runs) == sorted([["run", sq("A1")], ["run", sq("A2")], ["run", sq("B1")]])
    evs = do(seats, ["run", sq("B1")])
    assert evs == [[0, ["q"]]]
    assert seats[0].priv["pos"] == sq("B1")
    assert seats[0].to_move() == (1, "act")


def test_silent_running_through_a_contact_shares_the_square_without_collision():
    seats = game(["C4", "D4"])
    do(seats, ["mine"])                       # P1 mines C4
    assert do(seats, ["run", sq("C4")]) == [[1, ["q"]]]   # P2 slips onto P1's sub and mine
    assert SAY.describe(pub(seats), 1, ["q"]) == "P2 runs silent"
    assert alive(seats) == [True, True]
    do(seats, ["run", sq("C5")])              # P1 leaves quietly, its mine stays
    assert do(seats, ["run", sq("C3")]) == [[1, ["q"]]]   # and P2 slips out through it
    assert alive(seats) == [True, True]
    assert seats[0].priv["mines"] == [sq("C4")]
    do(seats, ["run", sq("C5")])
    evs = do(seats, ["cruise", sq("C4")])     # entering loudly is another matter
    assert evs == [[1, ["c", sq("C4")]], [0, ["a", [sq("C4")], 1]]]
    assert alive(seats) == [True, False]


def test_place_mine_three_per_submarine_quietly():
    seats = game(["C2", "F6"])
    for label in ("C2", "C3", "C4"):
        assert seats[0].priv["pos"] == sq(label)
        assert ["mine"] in seats[0].legal()
        assert do(seats, ["mine"]) == [[0, ["q"]]]
        do(seats, ["run", sq("F6")])
        assert ["mine"] not in seats[0].legal()   # one mine per square is enough
        do(seats, ["run", step(6, seats[0].priv["pos"], N)])
        do(seats, ["run", sq("F6")])
    assert seats[0].priv["mines"] == [sq("C2"), sq("C3"), sq("C4")]
    assert seats[0].priv["left"] == 0
    assert seats[0].priv["pos"] == sq("C5")
    assert ["mine"] not in seats[0].legal()   # none left


def test_quiet_events_are_identical_whatever_was_done():
    a = game(["C4", "F1"])
    b = game(["C4", "F1"])
    ev_a = do(a, ["mine"]) + do(a, ["run", sq("F1")]) + do(a, ["run", sq("C5")])
    ev_b = do(b, ["run", sq("D4")]) + do(b, ["run", sq("F1")]) + do(b, ["run", sq("D4")])
    assert ev_a == ev_b
    assert a[0].short_hash() == b[0].short_hash()


# ---- cruise and the contact protocol ------------------------------------------------------

def test_cruise_announces_each_square_and_waits_for_answers():
    seats = game(["C4", "F1"])
    evs = do(seats, ["cruise", sq("C5")])
    assert evs == [[0, ["c", sq("C5")]], [1, ["a", [sq("C5")], 0]]]
    # the second step: next to the first, never back to the start
    legal = seats[0].legal()
    assert ["cruise", sq("C4")] not in legal
    assert sorted(legal) == sorted([["cruise", sq("B5")], ["cruise", sq("D5")],
                                    ["cruise", sq("C6")], ["stop"]])
    evs = do(seats, ["cruise", sq("D5")])
    assert evs == [[0, ["c", sq("D5")]], [1, ["a", [sq("D5")], 0]]]
    assert seats[0].priv["pos"] == sq("D5")
    assert seats[0].to_move() == (1, "act")


def test_second_cruise_step_must_be_next_to_the_first():
    seats = game(["C4", "F1"])
    do(seats, ["cruise", sq("C5")])
    before = encode(pub(seats))
    with pytest.raises(IllegalAction, match="next to"):
        ENGINE.apply(pub(seats), 0, ["c", sq("E5")])
    assert encode(pub(seats)) == before
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub(seats), 0, ["q"])     # its stop is "no further contacts", not a quiet turn


def test_a_cruise_may_stop_after_its_first_square_announcing_no_further_contacts():
    # the source, ACTION: Cruise: with no contact in the first square, move into the second
    # "or announce there are no further contacts"
    seats = game(["C4", "F1"])
    assert ["stop"] not in seats[0].legal()   # only once a first square is entered
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub(seats), 0, ["n"])
    do(seats, ["cruise", sq("C5")])
    assert ["stop"] in seats[0].legal()
    evs = do(seats, ["stop"])
    assert evs == [[0, ["n"]]]               # no square: the first was announced already
    assert seats[0].priv["pos"] == sq("C5")
    assert seats[0].to_move() == (1, "act")
    assert pub(seats)["alive"] == [True, True]
    assert SAY.happened(6, 1, 0, ["n"]) == "P1 stopped: no further contacts"
    assert SAY.describe(pub(seats), 0, ["n"]) == "P1 no further contacts"
    with pytest.raises(IllegalAction):       # and once the turn moved on, no stop is pending
        ENGINE.apply(pub(seats), 0, ["n"])


def test_cruise_into_a_submarine_destroys_both_two_player_draw():
    seats = game(["C4", "C6"])
    do(seats, ["cruise", sq("C5")])
    evs = do(seats, ["cruise", sq("C6")])
    assert evs == [[0, ["c", sq("C6")]], [1, ["a", [sq("C6")], 2]]]
    assert alive(seats) == [False, False]
    assert seats[0].result() == ([], "all sunk")
    assert seats[0].to_move() is None


def test_cruise_collision_three_players_leaves_the_third_the_winner():
    seats = game(["C4", "C5", "H8"])
    evs = do(seats, ["cruise", sq("C5", 8)])
    c5 = sq("C5", 8)
    assert evs == [[0, ["c", c5]], [1, ["a", [c5], 2]], [2, ["a", [c5], 0]]]
    assert seats[0].result() == ([2], "last afloat")


def test_cruise_into_a_mine_sinks_the_cruiser_at_the_first_square():
    seats = game(["F1", "C4"], first=1)
    do(seats, ["mine"])                       # P2's mine in C4
    do(seats, ["run", sq("F1")])
    do(seats, ["run", sq("C3")])              # P2 slips away south
    evs = do(seats, ["cruise", sq("E1")])
    do(seats, ["cruise", sq("E2")])
    do(seats, ["run", sq("C3")])
    evs = do(seats, ["cruise", sq("D2")])
    assert evs[-1] == [1, ["a", [sq("D2")], 0]]
    do(seats, ["cruise", sq("D3")])
    do(seats, ["run", sq("B3")])
    evs = do(seats, ["cruise", sq("C3")])
    assert evs[-1] == [1, ["a", [sq("C3")], 0]]
    evs = do(seats, ["cruise", sq("C4")])
    assert evs == [[0, ["c", sq("C4")]], [1, ["a", [sq("C4")], 1]]]
    assert alive(seats) == [False, True]
    assert seats[1].priv["mines"] == []       # the mine went off
    assert seats[0].result() == ([1], "last afloat")


def test_first_step_impact_means_no_second_step():
    seats = game(["C4", "C5", "H8", "J10"])
    c5 = sq("C5", 10)
    do(seats, ["run", sq("C4", 10)])
    do(seats, ["mine"])                       # P2 mines C5 and stays on it
    do(seats, ["run", sq("H8", 10)])
    do(seats, ["run", sq("J10", 10)])
    evs = do(seats, ["cruise", c5])
    assert [e[1] for e in evs] == [["c", c5], ["a", [c5], 2], ["a", [c5], 0], ["a", [c5], 0]]
    assert alive(seats) == [False, False, True, True]
    assert seats[0].to_move() == (2, "act")   # P1's turn ended with its submarine
    assert seats[1].priv["mines"] == []


def test_everything_in_the_square_goes_silent_sharer_included():
    seats = game(["B4", "C4", "C3"])
    do(seats, ["run", sq("B4", 8)])
    do(seats, ["mine"])                       # P2 mines C4
    do(seats, ["run", sq("C4", 8)])           # P3 slips in silently: sub + mine share C4
    assert alive(seats) == [True, True, True]
    evs = do(seats, ["cruise", sq("C4", 8)])  # P1 cruises into the crowded square
    assert [e[1][2] for e in evs[1:]] == [2, 2]
    assert alive(seats) == [False, False, False]
    assert seats[0].result() == ([], "all sunk")


def test_cruise_into_resting_foe_torpedo_destroys_both():
    seats = game(["E1", "C3"])
    do(seats, ["fire", W])                    # P1's torpedo from E1: D1, C1 (rests in C1)
    assert pub(seats)["torps"] == [[0, 0, sq("C1"), W]]
    do(seats, ["cruise", sq("C2")])
    evs = do(seats, ["cruise", sq("C1")])     # P1 has nothing there, the torpedo is public
    assert evs == [[1, ["c", sq("C1")]], [0, ["a", [sq("C1")], 0]]]
    assert SAY.describe(pub(seats), 1, evs[0][1]) == "P2 contact C1"
    assert alive(seats) == [True, False]
    assert pub(seats)["torps"] == []


def test_own_mines_and_torpedoes_never_hurt_their_owner():
    seats = game(["C3", "F6"])
    do(seats, ["mine"])                       # P1 mines C3
    do(seats, ["run", sq("F6")])
    do(seats, ["run", sq("C4")])
    do(seats, ["run", sq("F6")])
    evs = do(seats, ["cruise", sq("C3")])     # P1 cruises over its own mine: no impact
    assert evs == [[0, ["c", sq("C3")]], [1, ["a", [sq("C3")], 0]]]
    do(seats, ["cruise", sq("C2")])
    do(seats, ["run", sq("F6")])
    evs = do(seats, ["fire", N])              # its torpedo passes its own mine in C3
    assert evs == [[0, ["f", sq("C3"), N]], [1, ["a", [sq("C3"), sq("C4")], 0]]]
    assert pub(seats)["torps"] == [[0, 0, sq("C4"), N]]
    assert alive(seats) == [True, True]
    assert seats[0].priv["mines"] == [sq("C3")]


# ---- active sonar -------------------------------------------------------------------------

def test_sonar_announces_everyone_nearest_first_in_turn_order():
    seats = game(["C3", "H8", "A1"], first=1)
    do(seats, ["mine"])                       # P2 mine H8
    do(seats, ["mine"])                       # P3 mine A1
    do(seats, ["run", sq("C4", 8)])
    do(seats, ["run", sq("G8", 8)])
    do(seats, ["run", sq("B1", 8)])
    do(seats, ["mine"])                       # P1 mine C4
    do(seats, ["mine"])                       # P2 mine G8
    do(seats, ["run", sq("B1", 8)])
    do(seats, ["run", sq("C4", 8)])
    evs = do(seats, ["sonar"])                # P2 pings from G8
    assert evs == [[1, ["s", sq("G8", 8), [sq("G8", 8), sq("H8", 8)]]],
                   [2, ["e", sq("B1", 8), [sq("A1", 8)]]],
                   [0, ["e", sq("C4", 8), [sq("C4", 8)]]]]
    assert SAY.describe(pub(seats), 1, evs[0][1]) == "P2 ping G8 m:G8,H8"
    assert seats[0].to_move() == (2, "act")


def test_sonar_mines_must_be_nearest_first():
    seats = game(["C3", "F6"])
    before = encode(pub(seats))
    with pytest.raises(IllegalAction, match="nearest first"):
        ENGINE.apply(pub(seats), 0, ["s", sq("C3"), [sq("C6"), sq("C4")]])
    assert encode(pub(seats)) == before


# ---- torpedoes ----------------------------------------------------------------------------

def test_fire_moves_two_squares_announced_and_then_two_each_owner_turn():
    seats = game(["A1", "F6"])
    assert ["fire", S] not in seats[0].legal() and ["fire", W] not in seats[0].legal()
    evs = do(seats, ["fire", N])
    assert evs == [[0, ["f", sq("A2"), N]], [1, ["a", [sq("A2"), sq("A3")], 0]]]
    assert SAY.describe(pub(seats), 0, evs[0][1]) == "P1 torpedo A2>N"
    assert SAY.describe(pub(seats), 1, evs[1][1]) == "P2 clear A2,A3"
    assert pub(seats)["torps"] == [[0, 0, sq("A3"), N]]
    evs = do(seats, ["run", sq("F6")])        # P2's quiet turn; then P1's torpedo moves
    assert evs == [[1, ["q"]], [1, ["a", [sq("A4"), sq("A5")], 0]]]
    assert pub(seats)["torps"] == [[0, 0, sq("A5"), N]]
    assert seats[0].to_move() == (0, "act")


def test_torpedo_leaving_the_map_is_lost():
    seats = game(["A4", "F1"])
    do(seats, ["fire", N])                    # A5, A6
    evs = do(seats, ["run", sq("F1")])
    assert evs == [[1, ["q"]]]                # straight off the map: nothing to answer
    assert pub(seats)["torps"] == []
    seats = game(["A3", "F1"])
    do(seats, ["fire", N])                    # A4, A5
    evs = do(seats, ["run", sq("F1")])
    assert evs[-1] == [1, ["a", [sq("A6")], 0]]   # one square left, then the void
    assert pub(seats)["torps"] == []


def test_torpedo_destroys_the_submarine_in_the_first_square_and_stops():
    seats = game(["C2", "C3"])
    evs = do(seats, ["fire", N])
    assert evs == [[0, ["f", sq("C3"), N]], [1, ["a", [sq("C3")], 2]]]
    assert SAY.describe(pub(seats), 1, evs[1][1]) == "P2 impact C3 sub"
    assert pub(seats)["torps"] == []
    assert seats[0].result() == ([0], "last afloat")


def test_torpedo_destroys_a_mine_in_the_second_square():
    seats = game(["C1", "C3"], first=1)
    do(seats, ["mine"])                       # P2 mine C3
    do(seats, ["run", sq("C1")])
    do(seats, ["run", sq("D3")])
    evs = do(seats, ["fire", N])
    assert evs == [[0, ["f", sq("C2"), N]], [1, ["a", [sq("C2"), sq("C3")], 1]]]
    assert pub(seats)["torps"] == []
    assert alive(seats) == [True, True]
    assert seats[1].priv["mines"] == []


def test_torpedo_into_a_silently_shared_square_sinks_all_in_it():
    seats = game(["D4", "C4", "A4"])
    do(seats, ["mine"])                       # P1 mine D4
    do(seats, ["run", sq("D4", 8)])           # P2 silently joins P1 on D4
    evs = do(seats, ["fire", E])              # P3's torpedo: B4, C4, stops short
    assert evs[1:] == [[0, ["a", [sq("B4", 8)], 0]], [1, ["a", [sq("B4", 8)], 0]],
                       [0, ["a", [sq("C4", 8)], 0]], [1, ["a", [sq("C4", 8)], 0]]]
    do(seats, ["run", sq("D4", 8)])
    evs = do(seats, ["run", sq("D4", 8)])     # then at P3's turn start it enters D4
    assert evs[1:] == [[0, ["a", [sq("D4", 8)], 2]], [1, ["a", [sq("D4", 8)], 2]]]
    assert seats[0].result() == ([2], "last afloat")
    assert seats[0].priv["mines"] == []


def test_torpedoes_meeting_destroy_each_other():
    seats = game(["A3", "F3"])
    do(seats, ["fire", E])                    # P1: B3, C3
    evs = do(seats, ["fire", W])              # P2: E3, D3 -- then P1's moves into D3
    assert evs[:2] == [[1, ["f", sq("E3"), W]], [0, ["a", [sq("E3"), sq("D3")], 0]]]
    # P1's torpedo C3 -> D3 holds P2's torpedo: the squares stop there and it is an impact
    assert evs[2] == [1, ["a", [sq("D3")], 0]]
    assert pub(seats)["torps"] == []
    assert alive(seats) == [True, True]


def test_three_players_torpedo_squares_are_asked_one_at_a_time():
    seats = game(["C1", "C3", "H8"])
    evs = do(seats, ["fire", N])              # C2, then C3 holds P2
    assert evs == [[0, ["f", sq("C2", 8), N]],
                   [1, ["a", [sq("C2", 8)], 0]], [2, ["a", [sq("C2", 8)], 0]],
                   [1, ["a", [sq("C3", 8)], 2]], [2, ["a", [sq("C3", 8)], 0]]]
    assert alive(seats) == [True, False, True]
    assert seats[0].to_move() == (2, "act")   # the sunk player is skipped


def test_a_sunk_players_torpedoes_and_mines_go_with_it():
    seats = game(["A3", "C2", "H8"], first=1)
    s8 = lambda label: sq(label, 8)
    do(seats, ["mine"])                       # P2 mine C2
    do(seats, ["run", s8("H8")])
    do(seats, ["run", s8("A3")])
    do(seats, ["run", s8("C3")])
    do(seats, ["run", s8("H8")])
    do(seats, ["run", s8("A3")])
    do(seats, ["fire", N])                    # P2 torpedo C4, C5
    do(seats, ["run", s8("H8")])
    evs = do(seats, ["fire", E])              # P1: B3, then C3 sinks P2
    assert evs[-2:] == [[1, ["a", [s8("C3")], 2]], [2, ["a", [s8("C3")], 0]]]
    assert alive(seats) == [True, False, True]
    assert pub(seats)["torps"] == []          # P2's torpedo went with it
    do(seats, ["run", s8("H8")])
    do(seats, ["cruise", s8("B3")])
    evs = do(seats, ["cruise", s8("B2")])
    assert evs == [[0, ["c", s8("B2")]], [2, ["a", [s8("B2")], 0]]]   # P2 answers no more
    do(seats, ["run", s8("H8")])
    evs = do(seats, ["cruise", s8("C2")])     # onto P2's old mine: nothing left there
    assert evs == [[0, ["c", s8("C2")]], [2, ["a", [s8("C2")], 0]]]
    assert alive(seats) == [True, False, True]


def test_the_map_shows_own_things_and_noted_contacts():
    seats = game(["A1", "F6"])
    do(seats, ["mine"])
    do(seats, ["sonar"])                      # P2 pings from F6
    do(seats, ["run", sq("B1")])
    do(seats, ["fire", S])                    # P2's torpedo F5, F4
    do(seats, ["fire", N])                    # P1's torpedo B2, B3
    grid = marks(pub(seats), seats[0].priv, seats[0].log, 0)
    expect = {sq("A1"): "m", sq("B1"): "s", sq("B3"): "t", sq("F2"): "c"}
    # P2's torpedo moved on at its turn start: F3, F2; P2 was last announced on F6
    expect[sq("F6")] = "c"
    assert {q: chr(c) for q, c in enumerate(grid) if c != ord(" ")} == expect
    other = bytes(marks(pub(seats), seats[1].priv, seats[1].log, 1)).decode()
    assert other[sq("A1")] == "c"             # P1's mine, announced in its echo
    assert other[sq("B1")] == "c"             # P1's launch square, not its old echo square
    assert other[sq("F2")] == "t" and other[sq("B3")] == "c" and other[sq("F6")] == "s"
    assert other.count("c") == 3


# ---- end of the game ----------------------------------------------------------------------

def test_calm_rounds_end_in_a_draw():
    seats = game(["A1", "F6"], calm=10)
    for _i in range(19):
        p = seats[0].to_move()[0]
        do(seats, ["run", seats[p].priv["pos"]])
        assert seats[0].result() is None
    do(seats, ["run", seats[1].priv["pos"]])
    assert seats[0].result() == ([], "calm")
    assert seats[0].to_move() is None


def test_concession_names_the_others_afloat():
    seats = game(["A1", "C3", "H8"])
    ev = seats[1].concede()
    for o in seats:
        if o is not seats[1]:
            o.receive(1, ev)
    assert seats[0].result() == ([0, 2], "conceded")


# ---- bad input ----------------------------------------------------------------------------

BAD = [
    [], "q", [3], ["zz"], ["q", 1], ["c"], ["c", 36], ["c", -1], ["c", True], ["c", "C4"],
    ["f", 0, 5], ["f", sq("A1"), N], ["f", sq("C4")], ["s", sq("C3"), [1, 2, 3, 4]],
    ["s", sq("C3"), [99]], ["s", sq("C3"), None], ["s", sq("C3"), [sq("C3"), sq("C3")]],
    ["a", [1], 0], ["e", 1, []], ["setup", None, b"x"], ["setup", 1, b"x" * 32], None,
]


@pytest.mark.parametrize("event", BAD)
def test_malformed_events_are_refused_and_change_nothing(event):
    seats = game(["C3", "F6"])
    before = encode(pub(seats))
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub(seats), 0, event)
    assert encode(pub(seats)) == before


def test_out_of_turn_and_bad_answers_are_refused():
    seats = game(["C3", "F6"])
    p = pub(seats)
    before = encode(p)
    for author, event in ([1, ["q"]], [0, ["a", [sq("C3")], 0]], [7, ["q"]], ["x", ["q"]]):
        with pytest.raises(IllegalAction):
            ENGINE.apply(p, author, event)
    assert encode(p) == before
    send(seats, seats[0], ["fire", N])        # now P2 owes an answer for C4, C5
    p = seats[0].pub
    before = encode(p)
    for author, event in ([0, ["a", [sq("C4"), sq("C5")], 0]], [1, ["q"]],
                          [1, ["a", [sq("C4")], 0]], [1, ["a", [sq("C5")], 1]],
                          [1, ["a", [sq("C4"), sq("C5")], 3]], [1, ["a", [], 1]],
                          [1, ["e", sq("F6"), []]], [1, ["a", [sq("C4"), sq("C5")]]]):
        with pytest.raises(IllegalAction):
            ENGINE.apply(p, author, event)
    assert encode(p) == before


def test_illegal_actions_are_refused():
    seats = game(["A1", "F6"])
    for action in (["run", sq("C3")], ["fire", S], ["cruise", sq("A1")], ["mine", 3], ["ping"]):
        with pytest.raises(IllegalAction):
            seats[0].author(action)


# ---- whole games, secrecy, fair play ------------------------------------------------------

def test_no_event_carries_a_secret_before_it_is_announced():
    for n in (2, 3):
        seed = b"secret%d" % n
        seen = []
        r = local.play(ENGINE, ENGINE.options(), n, seed, [RandomBot(seed, p) for p in range(n)],
                       on_event=lambda a, e: seen.append([a, e]))
        log = r["seats"][0].log
        assert [[a, e] for a, e in log] == seen
        # replay the public log alone, checking every event against what was public before it
        seats = local.make_seats(ENGINE, ENGINE.options(), n, seed)
        p = seats[0].pub
        for author, ev in seen:
            if ev[0] in ("q", "n"):
                assert ev == [ev[0]]                   # a quiet turn, a cruise's stop
            elif ev[0] == "a":
                assert ev[1] == p["sq"][:len(ev[1])]   # only squares already announced
            elif ev[0] == "setup":
                assert ev[1] is None
            else:
                assert ev[0] in ("c", "f", "s", "e")  # the announcements themselves
            ENGINE.apply(p, author, ev)


def test_a_lying_answer_is_named_by_the_honest_audit():
    class Liar(type(ENGINE)):
        lies = [1]

        def answer(self, pub, priv, player):
            ev = type(ENGINE).answer(self, pub, priv, player)
            if ev[0] == "a" and ev[2] and self.lies:
                self.lies.pop()
                return ["a", list(pub["sq"]), 0]
            return ev

    seats = game(["C2", "C4"])
    seats[1].engine = Liar()
    do(seats, ["run", sq("C2")])
    do(seats, ["run", sq("C4")])
    evs = do(seats, ["fire", N])              # C3, C4 hits P2, who says "clear"
    assert evs[1] == [1, ["a", [sq("C3"), sq("C4")], 0]]
    index = len(seats[0].log) - 1
    outcome = audit(seats[0], 1, seats[1].reveal())
    assert outcome is not None and outcome[0] == index
    assert audit(seats[1], 0, seats[0].reveal()) is None


def test_events_fit_a_frame_and_a_two_player_turn_is_two_each_way():
    for i in range(3):
        seed = b"frames%d" % i
        r = local.play(ENGINE, ENGINE.options(), 2, seed, [RandomBot(seed, p) for p in range(2)])
        p = ENGINE.new_game(ENGINE.options(), 2, Prng(seed, b"game"))
        turns = {}
        for author, ev in r["seats"][0].log:
            assert len(encode(ev)) <= 64
            if ev[0] == "setup":
                ENGINE.apply(p, author, ev)
                continue
            key = p["turn"]
            if key not in turns:                # the mover's torpedoes owe one answer each
                turns[key] = [0, 0, len([t for t in p["torps"] if t[1] == p["cur"]])]
            turns[key][0 if author == p["cur"] else 1] += 1
            ENGINE.apply(p, author, ev)
        assert len(turns) > 5
        for mover, other, torps in turns.values():
            assert mover <= 2 and other <= 2 + torps
