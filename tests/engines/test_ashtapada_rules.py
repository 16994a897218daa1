# Lake Ashtapada, rule by rule against docs/rules/lake_ashtapada.md (section numbers in names).
import pytest

from fathom.codec import encode
from fathom.games.ashtapada import say as SAY
from fathom.games.base import IllegalAction
from fathom.games.ashtapada.engine import (ENGINE, report, ping_path, name, parse, side, candidates,
                                    certain, reports, known_empty, distance, _reach, DRAW_CALM, WON_MINES,
                                    WON_MISSES, WON_STRUCK)

pytestmark = pytest.mark.micropython

N = 10


def P(text, n=N):
    return parse(text, n)


def Ps(texts, n=N):
    return [parse(t, n) for t in texts.split()]


def game(opts=None, islands=("", ""), mines=("B2 C3 E2", "F7 G8 H9")):
    o = {"islands": 0, "mines": 3}
    o.update(opts or {})
    o = ENGINE.options(o)
    n = o["size"]
    pub = ENGINE.new_game(o, 2, None)
    privs = []
    for p in (0, 1):
        priv = ENGINE.new_private(pub, p, None)
        for s in Ps(islands[p], n):
            ENGINE.setup_apply(pub, priv, p, ["island", s])
        for s in Ps(mines[p], n):
            ENGINE.setup_apply(pub, priv, p, ["mine", s])
        assert ENGINE.setup_legal(pub, priv, p) == []
        ENGINE.apply(pub, p, ["setup", ENGINE.setup_public(pub, priv, p), b"\0" * 32])
        privs.append(priv)
    return pub, privs


def play(pub, privs, player, action):
    """One action and every answer it needs; returns the events in order."""
    ev = ENGINE.act(pub, privs[player], player, action)
    ENGINE.apply(pub, player, ev)
    out = [ev]
    t = ENGINE.turn(pub)
    while t is not None and t[1] == "answer":
        a = ENGINE.answer(pub, privs[t[0]], t[0])
        ENGINE.apply(pub, t[0], a)
        out.append(a)
        t = ENGINE.turn(pub)
    return out


def refused(pub, author, event, match=None):
    before = encode(pub)
    with pytest.raises(IllegalAction, match=match):
        ENGINE.apply(pub, author, event)
    assert encode(pub) == before


# ---- 1. the lake ---------------------------------------------------------------------------
def test_1_1_options_defaults_and_choices():
    o = ENGINE.options()
    assert o == {"size": 10, "mines": 5, "islands": 1, "calm": 60}
    for bad in ({"size": 9}, {"mines": 2}, {"mines": 8}, {"islands": 4}, {"colour": 1}):
        with pytest.raises(IllegalAction):
            ENGINE.options(bad)
    for size in (8, 10, 12):
        pub, _ = game({"size": size}, mines=("B2 C3 E2", "F%d G%d H%d" % (size, size, size)))
        assert pub["size"] == size


def test_1_2_halves():
    assert side(P("A1"), N) == 0 and side(P("J5"), N) == 0
    assert side(P("A6"), N) == 1 and side(P("J10"), N) == 1
    assert side(parse("A4", 8), 8) == 0 and side(parse("A5", 8), 8) == 1


def test_1_3_square_names():
    assert name(0, N) == "A1" and name(99, N) == "J10" and name(P("D4"), N) == "D4"
    assert P("c5") == 4 * N + 2
    assert name(143, 12) == "L12"
    for bad in ("K1", "A11", "A0", "", "5C", "AA"):
        with pytest.raises(IllegalAction):
            P(bad)
    for s in range(N * N):
        assert P(name(s, N)) == s


# ---- 2. set-up ------------------------------------------------------------------------------
def test_2_1_boats_start_in_opposite_corners():
    pub, _ = game()
    assert pub["boats"] == [P("A1"), P("J10")]
    pub, _ = game({"size": 8}, mines=("B2 C3 E2", "F7 G8 H8"))
    assert pub["boats"] == [0, 63]


def test_2_2_islands_on_own_half_away_from_shore():
    pub = ENGINE.new_game(ENGINE.options({"islands": 2}), 2, None)
    priv = ENGINE.new_private(pub, 0, None)
    legal = ENGINE.setup_legal(pub, priv, 0)
    assert all(c[0] == "island" for c in legal)
    squares = [c[1] for c in legal]
    assert P("B2") in squares and P("I5") in squares
    for s in ("A3", "B1", "J4", "B6", "E10"):  # shore or the other half
        assert P(s) not in squares
    assert len(squares) == 8 * 4
    with pytest.raises(IllegalAction):
        ENGINE.setup_apply(pub, priv, 0, ["island", P("A3")])
    ENGINE.setup_apply(pub, priv, 0, ["island", P("C3")])
    ENGINE.setup_apply(pub, priv, 0, ["island", P("C4")])  # islands may touch
    assert ENGINE.setup_legal(pub, priv, 0)[0][0] == "mine"


def test_2_3_islands_public_at_setup_end_mines_not():
    pub, privs = game({"islands": 1}, islands=("C3", "G7"), mines=("B2 D3 E2", "F7 G8 H9"))
    assert pub["islands"] == [[P("C3")], [P("G7")]]
    assert ENGINE.setup_public(pub, privs[0], 0) == [P("C3")]
    assert encode(privs[0]["mines"]) not in encode(pub)
    for m in privs[0]["mines"]:
        assert m not in pub["islands"][0]


def test_2_3_setup_event_checked():
    pub = ENGINE.new_game(ENGINE.options({"islands": 1}), 2, None)
    refused(pub, 0, ["setup", [], b"\0" * 32])               # one island too few
    refused(pub, 0, ["setup", [P("B2"), P("C2")], b"\0" * 32])
    refused(pub, 0, ["setup", [P("A3")], b"\0" * 32])        # on the shore
    refused(pub, 0, ["setup", [P("C7")], b"\0" * 32])        # the North half
    refused(pub, 0, ["setup", ["C3"], b"\0" * 32])
    refused(pub, 0, ["setup", [P("C3")]])
    ENGINE.apply(pub, 1, ["setup", [P("C7")], b"\0" * 32])   # any order
    refused(pub, 1, ["setup", [P("C7")], b"\0" * 32], "twice")
    assert ENGINE.turn(pub) is None                          # South not ready yet


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7])
def test_2_4_mine_count_option(count):
    pub = ENGINE.new_game(ENGINE.options({"mines": count, "islands": 1}), 2, None)
    priv = ENGINE.new_private(pub, 1, None)
    ENGINE.setup_apply(pub, priv, 1, ["island", P("E7")])
    placed = 0
    while ENGINE.setup_legal(pub, priv, 1):
        legal = ENGINE.setup_legal(pub, priv, 1)
        assert all(c[0] == "mine" and side(c[1], N) == 1 for c in legal)
        assert ["mine", P("E7")] not in legal          # not on the own island
        ENGINE.setup_apply(pub, priv, 1, legal[placed * 3])
        placed += 1
    assert placed == count and len(priv["mines"]) == count
    with pytest.raises(IllegalAction):
        ENGINE.setup_apply(pub, priv, 1, ["mine", P("A10")])


# ---- 3. turns --------------------------------------------------------------------------------
def test_3_1_south_first_then_alternate():
    pub, privs = game()
    assert ENGINE.turn(pub) == (0, "act")
    assert ENGINE.legal(pub, privs[1], 1) == []
    refused(pub, 1, ["sound", P("I9")], "out of turn")
    play(pub, privs, 0, ["sound", P("B2")])
    assert ENGINE.turn(pub) == (1, "act")
    play(pub, privs, 1, ["move", [P("J9")]])
    assert ENGINE.turn(pub) == (0, "act")


@pytest.mark.parametrize("size", [8, 10, 12])
def test_3_2_always_a_legal_action(size):
    n = size
    opts = {"size": size, "islands": 3}
    isl = ("B2 B3 C2", "%s %s %s" % (name(n * n - n - 2, n), name(n * n - 2 * n - 2, n),
                                     name(n * n - n - 3, n)))
    pub, privs = game(opts, islands=isl, mines=("D1 E1 F1", name(n * n - 5, n) + " " +
                                                name(n * n - 6, n) + " " + name(n * n - 7, n)))
    for b0 in range(n * n):
        for b1 in (1, n, n + 1, n * n - 1):
            if b1 == b0 or b0 in pub["islands"][0] + pub["islands"][1]:
                continue
            pub["boats"] = [b0, b1]
            acts = ENGINE.legal(pub, privs[0], 0)
            assert [a for a in acts if a[0] == "sound"], name(b0, n)


def test_3_3_quiet_waters_draw():
    pub, privs = game({"calm": 40})
    for i in range(40):
        assert ENGINE.result(pub) is None
        p = ENGINE.turn(pub)[0]
        play(pub, privs, p, ["sound", ENGINE.charge_squares(pub, p)[0]])
    assert ENGINE.result(pub) == ([], DRAW_CALM)
    assert ENGINE.turn(pub) is None
    assert ENGINE.legal(pub, privs[0], 0) == []


def test_3_3_a_destroyed_mine_restarts_the_count():
    pub, privs = game({"calm": 40})
    pub["quiet"] = 38
    pub["boats"][0] = P("F6")
    play(pub, privs, 0, ["depth", P("F7")])
    assert pub["quiet"] == 0 and ENGINE.result(pub) is None


# ---- 4.1 manoeuvre ---------------------------------------------------------------------------
def moves(pub, privs, p):
    return [a[1] for a in ENGINE.legal(pub, privs[p], p) if a[0] == "move"]


def test_4_1_up_to_three_orthogonal_steps_with_turns():
    pub, privs = game()
    pub["boats"][0] = P("E5")
    got = moves(pub, privs, 0)
    assert Ps("E6") in got and Ps("E6 E7 E8") in got and Ps("E6 F6 F5") in got
    assert Ps("E6 F6 F7") in got
    assert all(1 <= len(m) <= 3 for m in got)
    assert len(got) == 4 + 12 + 36
    for bad in (Ps("F6"), Ps("E6 E7 E8 E9"), Ps("E7"), Ps("E6 E5"), Ps("E6 F6 E6"), []):
        refused(pub, 0, ["move", bad])
    refused(pub, 0, ["move", P("E6")])


def test_4_1_not_through_enemy_boat_or_islands():
    pub, privs = game({"islands": 1}, islands=("E4", "E7"))
    pub["boats"] = [P("E5"), P("E6")]
    got = moves(pub, privs, 0)
    assert not [m for m in got if P("E6") in m or P("E4") in m]
    refused(pub, 0, ["move", Ps("E6 E7")])
    refused(pub, 0, ["move", Ps("E4")])
    assert Ps("F5 F6 F7") in got


def test_4_1_own_half_move_needs_no_answer():
    pub, privs = game()
    evs = play(pub, privs, 0, ["move", Ps("A2 B2 C2")])   # over South's own mine at B2
    assert evs == [["move", Ps("A2 B2 C2")]]
    assert pub["boats"][0] == P("C2") and ENGINE.result(pub) is None


def test_4_1_safe_passage_clears_squares():
    pub, privs = game()
    pub["boats"][0] = P("E5")
    evs = play(pub, privs, 0, ["move", Ps("E6 E7 F7")[:2]])
    assert evs[1] == ["mine", -1]
    assert pub["boats"][0] == P("E7")
    assert pub["clear"][0] == Ps("E6 E7")
    assert known_empty(pub, 0, P("E6"))


def test_4_1_first_mine_on_path_destroys_the_boat():
    pub, privs = game(mines=("B2 C3 E2", "E7 F7 G8"))
    pub["boats"][0] = P("D6")
    evs = play(pub, privs, 0, ["move", Ps("D7 E7 F7")])
    assert evs[1] == ["mine", P("E7")]                      # E7 comes before F7
    assert pub["boats"][0] == P("E7")
    assert ENGINE.result(pub) == ([1], WON_STRUCK)
    assert pub["clear"][0] == [P("D7")]
    assert ENGINE.turn(pub) is None


def test_4_1_mine_answer_checked():
    pub, privs = game()
    pub["boats"][0] = P("D5")
    ENGINE.apply(pub, 0, ["move", Ps("D6 D7")])
    refused(pub, 0, ["mine", -1], "out of turn")
    refused(pub, 1, ["mine", P("D8")])         # off the path
    refused(pub, 1, ["ping", P("D6"), []])
    refused(pub, 1, ["mine", True])
    refused(pub, 1, ["mine"])
    pub2, _ = game()
    pub2["boats"][0] = P("D5")
    ENGINE.apply(pub2, 0, ["move", Ps("E5 E6")])
    refused(pub2, 1, ["mine", P("E5")])       # South's own half: no North mine there
    ENGINE.apply(pub2, 1, ["mine", P("E6")])
    assert ENGINE.result(pub2) == ([1], WON_STRUCK)


# ---- 4.2 sounding charge ---------------------------------------------------------------------
def charges(pub, privs, p, kind="sound"):
    return sorted([a[1] for a in ENGINE.legal(pub, privs[p], p) if a[0] == kind])


def test_4_2_charge_squares_adjacent_incl_diagonal():
    pub, privs = game({"islands": 1}, islands=("D4", "G7"))
    pub["boats"] = [P("E5"), P("F6")]
    want = sorted(Ps("D5 D6 E4 E6 F4 F5"))      # not D4 (island), not F6 (boat), not E5
    assert charges(pub, privs, 0) == want
    assert charges(pub, privs, 0, "depth") == want
    for bad in ("D4", "F6", "E5", "E7", "G5"):
        refused(pub, 0, ["sound", P(bad)])
        refused(pub, 0, ["depth", P(bad)])
    pub["boats"] = [P("A1"), P("J10")]
    assert charges(pub, privs, 0) == sorted(Ps("A2 B1 B2"))


def test_4_2_sounding_gets_the_report():
    pub, privs = game(mines=("B2 C3 E2", "F7 H8 B9"))
    pub["boats"][0] = P("E5")
    evs = play(pub, privs, 0, ["sound", P("E6")])
    assert evs == [["sound", P("E6")], ["ping", P("E6"), [1, 3, 5]]]
    assert reports(pub) == [(0, P("E6"), [1, 3, 5], 0)]
    assert ENGINE.turn(pub) == (1, "act")


def test_4_2_ping_answer_checked():
    pub, privs = game()
    pub["boats"][0] = P("E5")
    ENGINE.apply(pub, 0, ["sound", P("E4")])
    refused(pub, 1, ["ping", P("E4"), [4, 2]])           # not rising
    refused(pub, 1, ["ping", P("E4"), [2, 2]])
    refused(pub, 1, ["ping", P("E4"), [2, 3, 4, 5]])     # more than 3 live mines
    refused(pub, 1, ["ping", P("E4"), [0]])              # E4 is South's: no North mine there
    refused(pub, 1, ["ping", P("E4"), [1]])              # nor next to it
    refused(pub, 1, ["ping", P("E4"), [40]])
    refused(pub, 1, ["ping", P("E5"), [2]])              # another square
    refused(pub, 1, ["ping", P("E4"), [True]])
    refused(pub, 1, ["ping", P("E4"), 2])
    refused(pub, 1, ["hit", P("E4"), False])
    ENGINE.apply(pub, 1, ["ping", P("E4"), []])          # an empty report is possible
    assert reports(pub)[0][2] == []


# ---- 4.3 depth charge ------------------------------------------------------------------------
def test_4_3_hit_destroys_and_reveals_without_report():
    pub, privs = game()
    pub["boats"][0] = P("F6")
    evs = play(pub, privs, 0, ["depth", P("F7")])
    assert evs == [["depth", P("F7")], ["hit", P("F7"), True]]
    assert pub["dead"][1] == [P("F7")] and pub["sonar"] == []
    pub["turn"] = 0
    evs = play(pub, privs, 0, ["sound", P("E6")])
    assert evs[1] == ["ping", P("E6"), [2]]    # F7 at 1 gone; G8 behind it pings; H9 behind G8
    pub["turn"] = 0
    assert play(pub, privs, 0, ["depth", P("F7")]) == [["depth", P("F7")]]  # public miss now
    assert pub["miss"][0] == [P("F7")]


def test_4_3_second_miss_loses():
    pub, privs = game()
    pub["boats"][0] = P("E6")
    evs = play(pub, privs, 0, ["depth", P("E7")])
    assert evs[1] == ["hit", P("E7"), False]
    assert pub["miss"][0] == [P("E7")] and ENGINE.result(pub) is None
    play(pub, privs, 1, ["move", [P("J9")]])
    play(pub, privs, 0, ["depth", P("D7")])
    assert ENGINE.result(pub) == ([1], WON_MISSES)


def test_4_3_charge_on_known_empty_square_is_a_miss_without_asking():
    pub, privs = game()
    pub["boats"][0] = P("C2")
    evs = play(pub, privs, 0, ["depth", P("B2")])       # South's own mine square
    assert evs == [["depth", P("B2")]]
    assert pub["miss"][0] == [P("B2")] and pub["dead"] == [[], []]
    assert ENGINE.turn(pub) == (1, "act")


def test_4_3_hit_answer_checked():
    pub, privs = game()
    pub["boats"][0] = P("E6")
    ENGINE.apply(pub, 0, ["depth", P("E7")])
    refused(pub, 1, ["hit", P("E7"), 1])
    refused(pub, 1, ["hit", P("E6"), True])
    refused(pub, 1, ["hit", P("E7")])
    refused(pub, 1, ["ping", P("E7"), []])


def test_4_4_destroying_every_mine_wins():
    pub, privs = game()
    for s, at in (("F7", "F6"), ("G8", "G7"), ("H9", "H8")):
        pub["turn"] = 0
        pub["boats"][0] = P(at)
        play(pub, privs, 0, ["depth", P(s)])
    assert pub["dead"][1] == Ps("F7 G8 H9")
    assert ENGINE.result(pub) == ([0], WON_MINES)
    assert ENGINE.turn(pub) is None


def test_4_4_concede():
    pub, privs = game()
    ENGINE.concede(pub, 0)
    assert ENGINE.result(pub) == ([1], "conceded")
    assert ENGINE.turn(pub) is None


# ---- 5. the ping report ----------------------------------------------------------------------
@pytest.mark.parametrize("mine,dist,path", [
    ("D7", 3, "D5 D6"), ("G7", 3, "E5 F6"), ("A4", 3, "C4 B4"), ("E5", 1, ""), ("D3", 1, ""),
    ("A1", 3, "C3 B2"), ("J4", 6, "E4 F4 G4 H4 I4"), ("D4", 0, ""),
    ("E7", 4, "D5 D6 D7"), ("F5", 3, "E4 F4"), ("G6", 5, "E4 F4 G4 G5"),
    ("B1", 5, "D3 D2 D1 C1"), ("A8", 7, "D5 D6 D7 D8 C8 B8"), ("C6", 3, "D5 D6"),
    ("B5", 3, "C4 B4"), ("J9", 11, "E4 F4 G4 H4 I4 J4 J5 J6 J7 J8"),
    ("J10", 6, "E5 F6 G7 H8 I9")])
def test_5_2_and_5_3_distance_and_path(mine, dist, path):
    d, p = ping_path(N, P("D4"), P(mine))
    assert d == dist
    assert [name(s, N) for s in p] == path.split()


def test_5_2_rule_one_is_king_distance_on_lines_only():
    for a in range(64):
        for b in range(64):
            ra, ca = divmod(a, 8)
            rb, cb = divmod(b, 8)
            dr, dc = abs(ra - rb), abs(ca - cb)
            d, path = ping_path(8, a, b)
            assert distance(8, a, b) == d
            if dr == 0 or dc == 0 or dr == dc:
                assert d == max(dr, dc) and len(path) == max(d - 1, 0)
            else:
                assert d == dr + dc and len(path) == d - 1
            assert a not in path and b not in path
            block = bytearray(64)
            assert _reach(8, a, b, block) == d
            for s in path:
                block[s] = 1
                assert _reach(8, a, b, block) == -1
                block[s] = 0
            block[a] = block[b] = 1
            assert _reach(8, a, b, block) == d       # the ends never block


def test_5_1_shortest_first_equal_once():
    assert report(N, [], Ps("D7 G4 B6"), P("D4")) == [2, 3]
    assert report(N, [], Ps("G6 E5 A4"), P("D4")) == [1, 3, 5]
    assert report(N, [], [], P("D4")) == []


def test_5_doc_example_straight_lines():
    assert report(N, [], Ps("D7 G7 A4 E5"), P("D4")) == [1, 3]
    assert report(N, [], Ps("D7 G7 A4"), P("D4")) == [3]


def test_5_doc_example_off_the_lines():
    assert report(N, [], Ps("E7 F5 G6"), P("D4")) == [3, 4, 5]


def test_5_4_doc_example_blocking():
    assert report(N, Ps("D5"), Ps("D7 E7 F4 F5 G6"), P("D4")) == [2]
    assert report(N, [], Ps("E5 F6"), P("D4")) == [1]


@pytest.mark.parametrize("islands,mines,want", [
    ("D5", "D7", []),            # island on a straight line
    ("E5", "F6", []),            # island on a diagonal
    ("D7", "E7", []),            # island on the corner square of rule 2
    ("E8", "F8", []),            # island on the short leg
    ("E7", "E8", [5]),           # E8's path D5 D6 D7 D8 misses the island at E7
    ("", "D6 D8", [2]),          # a mine hides the one behind it on a line
    ("", "D7 E7", [3]),          # a mine on the corner hides the rule-2 mine
    ("", "D5 E7", [1]),          # a mine on the long leg
    ("", "E7 F8", [4, 6]),       # F8's path D5 D6 D7 D8 E8 passes beside E7
    ("G7", "J10", []),           # far along a diagonal
    ("", "D4 D6", [0, 2]),       # the mine on the charge square: 0, and it hides nothing
    ("D9", "D10", []),
    ("C4", "A4 B3", []),         # B3 goes across first (2 columns, 1 row): C4 B4, blocked
])
def test_5_4_blocking_cases(islands, mines, want):
    assert report(N, Ps(islands), Ps(mines), P("D4")) == want


def test_5_4_boats_and_enemy_mines_never_block():
    pub, privs = game(mines=("B2 C3 E2", "D8 E9 H9"))
    pub["boats"] = [P("D6"), P("D7")]
    evs = play(pub, privs, 0, ["sound", P("D5")])
    assert evs[1] == ["ping", P("D5"), [3, 4]]    # D8 pings past both boats; E9 is behind D8


def test_5_1_destroyed_mines_are_not_reported_and_do_not_block():
    pub, privs = game(mines=("B2 C3 E2", "D7 D8 H9"))
    pub["boats"][0] = P("D6")
    assert play(pub, privs, 0, ["sound", P("D5")])[1][2] == [2, 4]
    pub["turn"] = 0
    play(pub, privs, 0, ["depth", P("D7")])
    pub["turn"] = 0
    assert play(pub, privs, 0, ["sound", P("D5")])[1][2] == [3, 4]


def test_5_report_refuses_bad_input():
    with pytest.raises(IllegalAction):
        report(N, Ps("D4"), Ps("D7"), P("D4"))
    with pytest.raises(IllegalAction):
        report(N, [], [100], P("D4"))
    with pytest.raises(IllegalAction):
        report(N, [], [True], P("D4"))


# ---- 6. deduction ----------------------------------------------------------------------------
def test_6_2_known_empty():
    pub, privs = game()
    assert known_empty(pub, 0, P("C3")) and not known_empty(pub, 0, P("F7"))
    assert known_empty(pub, 1, P("F7")) and not known_empty(pub, 1, P("C3"))


def test_6_3_candidates_narrow_with_reports_and_stay_sound():
    pub, privs = game(mines=("B2 C3 E2", "F7 H8 B9"))
    cand = candidates(pub, 0)
    assert sum(cand) == 50 and cand[P("F7")] and not cand[P("F5")]
    pub["boats"][0] = P("E4")
    assert play(pub, privs, 0, ["sound", P("E5")])[1][2] == [3, 7]
    cand = candidates(pub, 0)
    for m in privs[1]["mines"]:
        assert cand[m]
    for s in Ps("D6 E6 F6 B6 H6"):                     # at 1 or 4 with paths on South's half
        assert not cand[s]
    assert cand[P("C6")] and cand[P("G6")]             # at 3: possible
    assert sum(cand) < 45
    assert all(cand[s] for s in certain(pub, 0, cand))


def test_6_3_certain_when_one_square_explains_a_ping():
    pub, privs = game(mines=("B2 C3 E2", "A6 G8 H9"))
    pub["boats"][0] = P("B4")
    play(pub, privs, 0, ["sound", P("A5")])
    assert reports(pub)[-1][2] == [1, 9, 11]           # A6 or B6
    assert P("A6") not in certain(pub, 0)
    pub["turn"] = 0
    play(pub, privs, 0, ["sound", P("C5")])
    assert reports(pub)[-1][2] == [3, 7, 9]            # not B6: nothing at 1 from C5
    assert not candidates(pub, 0)[P("B6")]
    assert P("A6") in certain(pub, 0)
    assert set(certain(pub, 0)) <= set(privs[1]["mines"])


def test_6_3_blocked_squares_stay_candidates():
    pub, privs = game({"islands": 1}, islands=("C3", "D7"), mines=("B2 C4 E2", "D8 G8 H9"))
    pub["boats"][0] = P("C6")
    play(pub, privs, 0, ["sound", P("D6")])            # D8 hidden behind the island at D7
    cand = candidates(pub, 0)
    assert cand[P("D8")]


def test_6_3_mine_destroyed_later_still_blocked_earlier_reports():
    pub, privs = game(mines=("B2 C3 E2", "D7 D8 H9"))
    pub["boats"][0] = P("D5")
    assert play(pub, privs, 0, ["sound", P("D6")])[1][2] == [1, 7]
    pub["turn"] = 0
    pub["boats"][0] = P("C7")
    play(pub, privs, 0, ["depth", P("D7")])
    cand = candidates(pub, 0)
    assert cand[P("D8")]                               # hidden by D7 at the time


# ---- 10. log lines ---------------------------------------------------------------------------
def test_10_describe():
    pub, privs = game()
    d = SAY.describe
    assert d(pub, 1, ["ping", P("D4"), [2, 3]]) == "S sound D4: 2,3"
    assert d(pub, 0, ["sound", P("D4")]) == "S sound D4"
    assert d(pub, 0, ["move", Ps("D4 D5")]) == "S move to D5"
    assert d(pub, 1, ["hit", P("E5"), True]) == "S depth E5: hit"
    assert d(pub, 0, ["hit", P("E5"), False]) == "N depth E5: miss"
    assert d(pub, 1, ["mine", -1]) == "S safe passage"
    assert d(pub, 1, ["mine", P("E6")]) == "S hit mine E6"
    assert d(pub, 0, ["setup", [], b""]) == "S ready"
    assert d(pub, 1, ["concede"]) == "N concedes"
    pub12, _ = game({"size": 12, "mines": 7}, mines=("B2 C3 E2 F2 G2 H2 A3",
                                                     "F7 G8 H9 A10 B10 C10 D10"))
    long = d(pub12, 1, ["ping", P("J10", 12), [1, 2, 3, 4, 5, 16, 17]])
    assert len(long) <= 21 and long.startswith("S J10:1,2,3")
    for ev in (["ping", 5, [1, 2]], ["move", []], ["what"], [], ["hit"]):
        assert len(d(pub, 0, ev)) <= 21


def test_10_labels_for_the_choice_list():
    pub, privs = game()
    assert SAY.label(pub, ["move", Ps("A2 B2 B3")]) == "move A2-B2-B3"
    assert SAY.label(pub, ["sound", P("B2")]) == "sound B2"
    assert SAY.label(pub, ["depth", P("B2")]) == "depth B2"
    for a in ENGINE.legal(pub, privs[0], 0):
        assert len(SAY.label(pub, a)) <= 21
    assert SAY.setup_label(pub, ["island", P("C3")]) == "island C3"
    assert SAY.setup_label(pub, ["mine", P("J5")]) == "mine J5"


# ---- bad input -------------------------------------------------------------------------------
BAD = [None, [], "move", [1], ["move"], ["move", None], ["move", [P("A2"), "x"]],
       ["move", [P("A2")], 1], ["move", [-1]], ["move", [10 ** 9]], ["move", [True]],
       ["sound"], ["sound", "B2"], ["sound", P("B2"), 1], ["sound", 2.0], ["depth", [P("B2")]],
       ["fly", 3], ["ping", P("B3"), []], ["hit", P("B3"), True], ["mine", -1], [b"move", 1],
       ["concede"], [["move"]], {"move": 1}, ["move", {"a": 1}], ["depth", None]]


@pytest.mark.parametrize("event", BAD)
def test_bad_events_refused_and_change_nothing(event):
    pub, privs = game()
    refused(pub, 0, event)
    refused(pub, 1, event)
    refused(pub, 2, ["sound", P("B2")])
    ENGINE.apply(pub, 0, ["sound", P("B2")])
    refused(pub, 1, event)
    refused(pub, 0, event)


def test_bad_actions_refused_by_act():
    pub, privs = game()
    before = encode(pub)
    for a in BAD:
        with pytest.raises(IllegalAction):
            ENGINE.act(pub, privs[0], 0, a)
    assert encode(pub) == before
    with pytest.raises(IllegalAction):
        ENGINE.answer(pub, privs[1], 1)


def test_events_after_the_end_refused():
    pub, privs = game()
    pub["boats"][0] = P("E6")
    play(pub, privs, 0, ["depth", P("E7")])
    pub["turn"] = 0
    play(pub, privs, 0, ["depth", P("D7")])
    assert ENGINE.result(pub) is not None
    refused(pub, 1, ["sound", P("I9")])
    refused(pub, 0, ["sound", P("D6")])


def test_2_0_two_players_only():
    # lake_ashtapada.txt: "Number of Players 2"
    from fathom.games import local
    for n in (1, 3):
        with pytest.raises(IllegalAction):
            local.make_seats(ENGINE, ENGINE.options(), n, b"two")
    assert len(local.make_seats(ENGINE, ENGINE.options(), 2, b"two")) == 2
