# Periplus, rule by rule against docs/rules/periplus.md (runs under CPython and MicroPython).
import pytest

from fathom.games.periplus import say as SAY
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.seat import Seat
from fathom.prng import Prng
from fathom.games.bots import RandomBot
from fathom.games.periplus.engine import ENGINE
from fathom.games.periplus import cards as C
from fathom.games.periplus.engine import QUIET_TURNS
from fathom.games.periplus.fleet import SQUARE, LEFT, SHEARED
from kit.periplus import BI, TR, QD, QQ, K, SEED, act, legal, pos, snapshot, sq

# the seeded deal: these tests read the deck order from the joint seed, or are not about the
# deal at all (the sealed deal has its own: tests/sealed/); sealed games cost more
SEEDED = {"sealed": 0}

pytestmark = pytest.mark.micropython

# a minimal two-ship battle: player 0's Trireme (id 0) and Quinquereme (id 7),
# player 1's Trireme (id 8) and Quinquereme (id 15)
FOUR = {0: (TR, sq("d4")), 7: (QQ, sq("a1")), 8: (TR, sq("d6")), 15: (QQ, sq("h8"))}


def moves_of(acts, ship):
    return sorted(a[3] for a in acts if a[0] == "move" and a[2] == ship)


# ---- the cards --------------------------------------------------------------------------------
def test_card_list_totals_55_as_in_the_source():
    deck = C.full_deck()
    assert len(deck) == 55 == C.DECK_SIZE
    by_type = {}
    for k in deck:
        by_type[C.ctype(k)] = by_type.get(C.ctype(k), 0) + 1
    assert by_type == {"M": 25, "R": 8, "B": 8, "S": 8, "D": 6}
    want = (("Row", 5, 1), ("Row Row", 5, 2), ("Row Row Row", 5, 3), ("Ramming Speed", 5, 4),
            ("Periplus", 5, 0), ("Prongs", 2, 1), ("Reinforced Ram", 2, 1), ("Ram", 2, 1),
            ("Shear Oars", 2, 1), ("Hoplites", 2, 1), ("Harpax", 1, 1), ("Corvus", 1, 1),
            ("Marines", 2, 1), ("Full Deck", 2, 1), ("Archers", 1, 3), ("Javelins", 1, 2),
            ("Slings", 1, 2), ("Greek Fire", 1, 2), ("Ballistae", 1, 4), ("Catapult", 1, 5),
            ("Trebuchet", 1, 6), ("Tower Archers", 1, 0))
    for name, n, r in want:
        c = C.CARDS[K[name]]
        assert (c[1], c[3]) == (n, r)
    assert [C.CARDS[K[n]][3] for n in ("Parablemata", "Reinforced Hull", "Disengage")] == \
        ["S", "R", "B"]


def test_each_defense_card_negates_exactly_one_attack_type():
    for k in range(C.NKINDS):
        if C.is_attack(k):
            d = C.defense_for(k)
            assert C.ctype(d) == "D" and C.CARDS[d][3] == C.ctype(k)
        else:
            assert not C.is_attack(k)


def test_deck_order_comes_from_the_joint_seed():
    a = Seat(ENGINE, ENGINE.options(SEEDED), 2, SEED, 0, b"s0")
    b = Seat(ENGINE, ENGINE.options(SEEDED), 2, SEED, 1, b"s1")
    c = Seat(ENGINE, ENGINE.options(SEEDED), 2, b"another seed", 0, b"s0")
    assert a.priv["deck"] == b.priv["deck"]
    assert a.priv["key"] == b.priv["key"]
    assert a.priv["deck"] + a.priv["hand"] + b.priv["hand"] != c.priv["deck"] + c.priv["hand"]
    first = a.pub["turn"]
    seats = (a, b)
    # the first player starts with the top 3 cards; the other starts empty-handed
    assert len(seats[first].priv["hand"]) == 3 and seats[1 - first].priv["hand"] == []
    assert a.pub["hand"][first] == 3 and a.pub["deck"] == 52
    everything = sorted(a.priv["deck"] + seats[first].priv["hand"])
    assert everything == C.full_deck()


# ---- set-up -----------------------------------------------------------------------------------
def test_setup_offers_the_ships_left_and_publishes_the_row():
    s = Seat(ENGINE, ENGINE.options(SEEDED), 2, SEED, 1, b"s")
    assert s.setup_legal() == [0, 1, 2, 3]
    for t in (QQ, QD, QD):
        s.setup_choose(t)
    assert s.setup_legal() == [0, 1]
    with pytest.raises(IllegalAction):
        s.setup_choose(QD)
    for t in (TR, TR, TR, BI, BI):
        s.setup_choose(t)
    assert s.setup_legal() == []
    ev = s.setup_event()
    assert ev[1] == [QQ, QD, QD, TR, TR, TR, BI, BI]


def test_fleets_fill_the_back_rows_with_their_hits_and_no_stacking():
    pub = ENGINE.new_game(ENGINE.options(SEEDED), 2, Prng(SEED, b"game"))
    ENGINE.apply(pub, 0, ["setup", [QQ, QD, QD, TR, TR, TR, BI, BI], b"x" * 32])
    assert pub["phase"] == "setup"
    ENGINE.apply(pub, 1, ["setup", [BI, TR, QD, QQ, QD, TR, BI, TR], b"x" * 32])
    assert pub["phase"] == "move"
    squares = [s[SQUARE] for s in pub["ships"]]
    assert sorted(squares[:8]) == list(range(8))              # rank 1
    assert sorted(squares[8:]) == list(range(56, 64))         # rank 8
    hits = [s[LEFT] for s in pub["ships"]]
    assert hits[:8] == [5, 4, 4, 3, 3, 3, 2, 2]
    assert hits[8:] == [2, 3, 4, 5, 4, 3, 2, 3]


@pytest.mark.parametrize("row", [
    [QQ, QQ, QD, TR, TR, TR, BI, BI],       # two Quinqueremes
    [QQ, QD, QD, TR, TR, TR, BI],           # seven ships
    [QQ, QD, QD, TR, TR, TR, BI, 4],        # no such type
    "QQQQQQQQ",
])
def test_setup_refuses_a_wrong_fleet(row):
    pub = ENGINE.new_game(ENGINE.options(SEEDED), 2, Prng(SEED, b"game"))
    before = snapshot(pub)
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 0, ["setup", row, b"x" * 32])
    assert snapshot(pub) == before


def test_islands_are_mirrored_in_the_middle_rows():
    for n in (2, 4):
        for seed in (b"a", b"b", b"c"):
            pub = ENGINE.new_game(ENGINE.options({"islands": n, "sealed": 0}), 2, Prng(seed, b"game"))
            isl = pub["isl"]
            assert len(isl) == n and len(set(isl)) == n
            for s in isl:
                assert 16 <= s < 48 and 63 - s in isl
    assert ENGINE.new_game(ENGINE.options(SEEDED), 2, Prng(SEED, b"game"))["isl"] == []
    with pytest.raises(IllegalAction):
        ENGINE.options({"islands": 3, "sealed": 0})


# ---- maneuver ---------------------------------------------------------------------------------
def test_move_card_moves_one_ship_exactly_n_squares_in_a_straight_line():
    pub, privs = pos(FOUR, hands=([K["Row Row"]], []))
    acts = legal(pub, privs, 0)
    # d4 two squares: d6 holds an enemy, so not north; everything else on the board
    assert moves_of(acts, 0) == sorted(sq(n) for n in ("b4", "f4", "d2", "b6", "f6", "b2", "f2"))
    act(pub, privs, 0, ["move", K["Row Row"], 0, sq("f6")])
    assert pub["ships"][0][SQUARE] == sq("f6") and pub["phase"] == "fire" and pub["moved"] == [0]
    assert pub["hand"][0] == 0 and privs[0]["hand"] == [] and pub["discard"] == [K["Row Row"]]


@pytest.mark.parametrize("name, n", [("Row", 1), ("Row Row", 2), ("Row Row Row", 3),
                                     ("Ramming Speed", 4)])
def test_every_numbered_move_card(name, n):
    pub, privs = pos({0: (TR, sq("e1")), 15: (QQ, sq("h8"))}, hands=([K[name]], []))
    assert sq("e1") + 8 * n in moves_of(legal(pub, privs, 0), 0)
    assert all(abs(d // 8 - 0) in (0, n) for d in moves_of(legal(pub, privs, 0), 0))
    assert ["ahead", K[name], 0] in legal(pub, privs, 0)


def test_straight_moves_never_jump_ships_or_islands():
    ships = {0: (TR, sq("a1")), 1: (BI, sq("a2")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, hands=([K["Row Row Row"]], []), isl=(sq("b2"),))
    # north is blocked by our own Bireme, the diagonal by the island, east is open
    assert moves_of(legal(pub, privs, 0), 0) == [sq("d1")]


def test_knight_cards_jump_and_land_on_free_squares_only():
    ships = {0: (TR, sq("d4")), 1: (BI, sq("d5")), 2: (BI, sq("c4")), 3: (BI, sq("e4")),
             4: (BI, sq("d3")), 8: (BI, sq("e6")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, hands=([K["Periplus"]], []), isl=(sq("b5"),))
    want = sorted(sq(n) for n in ("c6", "f5", "f3", "e2", "c2", "b3"))   # e6 taken, b5 island
    assert moves_of(legal(pub, privs, 0), 0) == want
    assert not [a for a in legal(pub, privs, 0) if a[0] == "ahead"]
    with pytest.raises(IllegalAction, match="knight"):
        ENGINE.apply(pub, 0, ["ahead", K["Periplus"], 0])


def test_group_move_sends_several_ships_forward_with_one_card():
    ships = {0: (TR, sq("a1")), 1: (BI, sq("a2")), 2: (QD, sq("c1")), 3: (TR, sq("e1")),
             7: (QQ, sq("h1")), 9: (BI, sq("e2")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, hands=([K["Row Row"]], []))
    act(pub, privs, 0, ["ahead", K["Row Row"], 1])            # the front ship first...
    assert pub["phase"] == "ahead" and pub["fleet"] == 2
    acts = legal(pub, privs, 0)
    # ...clears the way for the one behind it; the enemy on e2 blocks the ship on e1
    assert ["also", 0] in acts and ["also", 2] in acts and ["also", 3] not in acts
    assert ["also", 1] not in acts and ["also", 7] in acts
    act(pub, privs, 0, ["also", 0])
    act(pub, privs, 0, ["also", 2])
    act(pub, privs, 0, ["halt"])
    assert [pub["ships"][i][SQUARE] for i in (0, 1, 2, 3, 7)] == \
        [sq("a3"), sq("a4"), sq("c3"), sq("e1"), sq("h1")]
    assert pub["phase"] == "fire" and sorted(pub["moved"]) == [0, 1, 2]
    assert pub["hand"][0] == 0 and pub["discard"] == [K["Row Row"]]


def test_group_move_ends_by_itself_when_nobody_else_can_follow():
    ships = {8: (TR, sq("c8")), 9: (BI, sq("c7")), 0: (QQ, sq("c5")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, turn=1, hands=([], [K["Row"]]))
    act(pub, privs, 1, ["ahead", K["Row"], 9])                 # forward is down for player 1
    assert pub["ships"][9][SQUARE] == sq("c6")
    assert legal(pub, privs, 1) == [["halt"], ["also", 8], ["also", 15]]
    act(pub, privs, 1, ["also", 8])
    act(pub, privs, 1, ["also", 15])
    assert pub["phase"] == "fire"          # c6 is now blocked by the Quinquereme: nobody left


def test_a_ship_moves_only_in_its_own_turn_and_only_once_per_fleet_move():
    pub, privs = pos(FOUR, hands=([K["Row"]], [K["Row"]]))
    with pytest.raises(IllegalAction, match="turn"):
        ENGINE.apply(pub, 1, ["move", K["Row"], 8, sq("d5")])
    with pytest.raises(IllegalAction, match="cannot move"):
        ENGINE.apply(pub, 0, ["move", K["Row"], 8, sq("d5")])
    act(pub, privs, 0, ["ahead", K["Row"], 0])
    assert pub["phase"] == "ahead"
    before = snapshot(pub)
    with pytest.raises(IllegalAction, match="moved"):
        ENGINE.apply(pub, 0, ["also", 0])
    assert snapshot(pub) == before


def test_a_player_may_pass_either_phase():
    pub, privs = pos(FOUR, hands=([K["Row"], K["Javelins"]], []))
    assert legal(pub, privs, 0)[0] == ["pass"]
    act(pub, privs, 0, ["pass"])
    assert pub["phase"] == "fire" and legal(pub, privs, 0)[0] == ["pass"]
    act(pub, privs, 0, ["pass"])
    assert pub["turn"] == 1 and pub["hand"] == [2, 3] and pub["quiet"] == 1


# ---- orders: drawing, the hand limit, the reshuffle -------------------------------------------
def test_the_next_player_draws_three_at_the_start_of_the_turn():
    deck = [K["Row"], K["Ram"], K["Corvus"], K["Archers"], K["Disengage"]]
    pub, privs = pos(FOUR, hands=([K["Row"]], [K["Trebuchet"]]), deck=deck)
    act(pub, privs, 0, ["pass"])
    act(pub, privs, 0, ["pass"])
    assert pub["turn"] == 1 and pub["hand"] == [1, 4] and pub["deck"] == 2
    assert privs[1]["hand"] == sorted([K["Trebuchet"], K["Row"], K["Ram"], K["Corvus"]])
    assert privs[0]["hand"] == [K["Row"]]                 # the other unit learns nothing
    assert privs[0]["deck"] == privs[1]["deck"] == [K["Archers"], K["Disengage"]]


def test_hand_limit_five_discards_excess_by_choice():
    hand1 = [K["Row"], K["Row"], K["Ram"], K["Corvus"]]
    deck = [K["Archers"], K["Ram"], K["Parablemata"], K["Trebuchet"]]
    pub, privs = pos(FOUR, hands=([], hand1), deck=deck)
    act(pub, privs, 0, ["pass"])
    act(pub, privs, 0, ["pass"])
    assert pub["hand"][1] == 7 and pub["phase"] == "discard" and pub["turn"] == 1
    acts = legal(pub, privs, 1)
    assert sorted(a[1] for a in acts) == sorted(set(hand1 + deck[:3]))
    assert all(a[0] == "discard" for a in acts)
    act(pub, privs, 1, ["discard", K["Row"]])
    assert pub["phase"] == "discard"
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 1, ["pass"])                    # no play before the hand is down to 5
    act(pub, privs, 1, ["discard", K["Ram"]])
    assert pub["phase"] == "move" and pub["hand"][1] == 5
    assert privs[1]["hand"] == sorted([K["Row"], K["Corvus"], K["Archers"], K["Ram"],
                                       K["Parablemata"]])
    assert pub["discard"] == [K["Row"], K["Ram"]]


def test_reshuffle_when_the_deck_runs_out():
    discard = [K["Trebuchet"], K["Row"], K["Hoplites"], K["Catapult"]]
    pub, privs = pos(FOUR, hands=([K["Javelins"]], []), deck=[K["Prongs"]], discard=discard)
    act(pub, privs, 0, ["pass"])
    act(pub, privs, 0, ["pass"])                           # the Javelins stay in hand
    # 1 card left, then the discard pile is shuffled (by the seed, labelled with the count)
    order = Prng(b"k" * 16, b"reshuffle1").shuffle(sorted(discard))
    assert pub["shuf"] == 1 and pub["discard"] == [] and pub["deck"] == 2
    assert pub["pile"] == sorted(discard)
    assert privs[1]["hand"] == sorted([K["Prongs"]] + order[:2])
    assert privs[0]["deck"] == privs[1]["deck"] == order[2:]
    # the next draw with cards in the deck clears the pile note again
    act(pub, privs, 1, ["pass"])
    act(pub, privs, 1, ["pass"])
    assert pub["pile"] is None and privs[0]["hand"] == sorted([K["Javelins"]] + order[2:])


def test_reshuffle_order_differs_between_reshuffles():
    pile = sorted(C.full_deck()[:40])
    one = Prng(b"k" * 16, b"reshuffle1").shuffle(list(pile))
    two = Prng(b"k" * 16, b"reshuffle2").shuffle(list(pile))
    assert one != two and sorted(one) == sorted(two) == pile


# ---- fire ----------------------------------------------------------------------------------
def fire_targets(acts, k, ship):
    return sorted(a[3] for a in acts if a[0] == "fire" and a[1] == k and a[2] == ship)


@pytest.mark.parametrize("name, reach", [
    ("Javelins", 2), ("Slings", 2), ("Greek Fire", 2), ("Archers", 3), ("Ballistae", 4),
    ("Catapult", 5), ("Trebuchet", 6)])
def test_shooting_reaches_its_range_along_lines_only(name, reach):
    ships = {0: (TR, sq("a1")),
             8: (BI, sq("a%d" % (1 + reach))),                        # in file, at range
             9: (BI, sq("a%d" % (2 + reach))),                        # one square too far
             10: (BI, sq("b%d" % (1 + reach))),                       # off every line
             11: (BI, sq("abcdefgh"[reach] + str(1 + reach))),       # diagonal, at range
             15: (QQ, sq("h8"))}                                      # diagonal, range 7
    pub, privs = pos(ships, phase="fire", hands=([K[name]], []))
    assert fire_targets(legal(pub, privs, 0), K[name], 0) == [8, 11]
    act(pub, privs, 0, ["fire", K[name], 0, 11])
    act(pub, privs, 1, ["take"])
    assert pub["ships"][11][LEFT] == 1


def test_ships_do_not_block_fire_but_islands_do():
    ships = {0: (TR, sq("a1")), 1: (BI, sq("a2")), 8: (BI, sq("a3")), 9: (BI, sq("c3")),
             15: (QQ, sq("h8"))}
    pub, privs = pos(ships, phase="fire", hands=([K["Archers"]], []), isl=(sq("b2"),))
    assert fire_targets(legal(pub, privs, 0), K["Archers"], 0) == [8]


def test_tower_archers_shoot_knight_shaped_only():
    ships = {0: (TR, sq("d4")), 8: (BI, sq("e6")), 9: (BI, sq("d5")), 10: (BI, sq("f3")),
             15: (QQ, sq("h8"))}
    pub, privs = pos(ships, phase="fire", hands=([K["Tower Archers"]], []),
                     isl=(sq("d6"), sq("e5")))                     # knights jump islands
    assert fire_targets(legal(pub, privs, 0), K["Tower Archers"], 0) == [8, 10]


@pytest.mark.parametrize("name", ["Hoplites", "Harpax", "Corvus", "Marines", "Full Deck"])
def test_boarding_reaches_adjacent_ships_without_moving(name):
    ships = {0: (TR, sq("d4")), 8: (BI, sq("e5")), 9: (BI, sq("d6")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, phase="fire", hands=([K[name]], []))
    assert fire_targets(legal(pub, privs, 0), K[name], 0) == [8]
    act(pub, privs, 0, ["fire", K[name], 0, 8])
    act(pub, privs, 1, ["take"])
    assert pub["ships"][8][LEFT] == 1


@pytest.mark.parametrize("name", ["Prongs", "Reinforced Ram", "Ram", "Shear Oars"])
def test_ramming_needs_the_ship_to_have_moved_this_turn(name):
    ships = {0: (TR, sq("d4")), 1: (TR, sq("a1")), 8: (QD, sq("d6")), 9: (QD, sq("a3")),
             15: (QQ, sq("h8"))}
    pub, privs = pos(ships, hands=([K["Row"], K[name]], []))
    assert fire_targets(legal(pub, privs, 0), K[name], 1) == []
    act(pub, privs, 0, ["move", K["Row"], 0, sq("d5")])
    acts = legal(pub, privs, 0)
    assert fire_targets(acts, K[name], 0) == [8]
    assert fire_targets(acts, K[name], 1) == []              # adjacent, but it did not move
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 0, ["fire", K[name], 1, 9])
    act(pub, privs, 0, ["fire", K[name], 0, 8])
    act(pub, privs, 1, ["take"])
    left = {"Prongs": 3, "Reinforced Ram": 3, "Ram": 2, "Shear Oars": 4}[name]
    assert pub["ships"][8][LEFT] == left
    assert pub["ships"][8][SHEARED] == (1 if name == "Shear Oars" else 0)


def test_ships_of_a_fleet_move_may_ram():
    ships = {0: (TR, sq("d3")), 1: (TR, sq("a1")), 8: (QD, sq("d6")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, hands=([K["Row Row"], K["Prongs"]], []))
    act(pub, privs, 0, ["ahead", K["Row Row"], 0])
    act(pub, privs, 0, ["also", 1])
    assert pub["phase"] == "fire"                    # no third ship: the fleet move ended
    assert fire_targets(legal(pub, privs, 0), K["Prongs"], 0) == [8]


def test_shear_oars_stops_the_target_moving_and_ramming_for_good():
    ships = {0: (TR, sq("d4")), 8: (QD, sq("d6")), 9: (BI, sq("a8")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, hands=([K["Row"], K["Shear Oars"]], [K["Row"], K["Ram"]]),
                     deck=[K["Row"]] * 9)
    act(pub, privs, 0, ["move", K["Row"], 0, sq("d5")])
    act(pub, privs, 0, ["fire", K["Shear Oars"], 0, 8])
    act(pub, privs, 1, ["take"])
    assert pub["ships"][8][SHEARED] == 1 and pub["ships"][8][LEFT] == 4
    assert pub["quiet"] == 0                                    # crippling counts as harm
    acts = legal(pub, privs, 1)
    assert [a for a in acts if a[0] in ("move", "ahead") and a[2] == 8] == []
    assert [a for a in acts if a[0] == "move" and a[2] == 9]     # the others still move
    with pytest.raises(IllegalAction, match="cannot move"):
        ENGINE.apply(pub, 1, ["move", K["Row"], 8, sq("c7")])
    # even after another ship moves, the sheared one cannot ram; it may still board or shoot
    act(pub, privs, 1, ["move", K["Row"], 9, sq("a7")])
    assert fire_targets(legal(pub, privs, 1), K["Ram"], 8) == []


@pytest.mark.parametrize("attack, defense", [("Archers", "Parablemata"),
                                             ("Prongs", "Reinforced Hull"),
                                             ("Hoplites", "Disengage")])
def test_each_defense_negates_its_own_type_only(attack, defense):
    ships = {0: (TR, sq("d5")), 8: (QD, sq("d6")), 15: (QQ, sq("h8"))}
    others = [K[d] for d in ("Parablemata", "Reinforced Hull", "Disengage")]
    pub, privs = pos(ships, phase="fire", hands=([K[attack]], others), moved=[0])
    act(pub, privs, 0, ["fire", K[attack], 0, 8])
    assert pub["phase"] == "defend" and ENGINE.turn(pub) == (1, "act")
    assert pub["pending"] == [K[attack], 0, 8]
    assert legal(pub, privs, 1) == [["take"], ["defend", K[defense]]]
    assert legal(pub, privs, 0) == []
    for wrong in others:
        if wrong != K[defense]:
            before = snapshot(pub)
            with pytest.raises(IllegalAction, match="negate"):
                ENGINE.apply(pub, 1, ["defend", wrong])
            assert snapshot(pub) == before
    act(pub, privs, 1, ["defend", K[defense]])
    assert pub["ships"][8][LEFT] == 4 and pub["pending"] is None
    assert pub["discard"] == [K[attack], K[defense]] and K[defense] not in privs[1]["hand"]
    assert pub["turn"] == 1 and pub["quiet"] == 1                # negated: no harm this turn


def test_without_the_right_defense_the_only_answer_is_take_which_is_the_default():
    ships = {0: (TR, sq("d5")), 8: (QD, sq("d6")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, phase="fire", hands=([K["Javelins"]], [K["Disengage"]]))
    act(pub, privs, 0, ["fire", K["Javelins"], 0, 8])
    assert legal(pub, privs, 1) == [["take"]]
    assert ENGINE.default_action(pub, privs[1], 1) == ["take"]
    assert ENGINE.default_action(pub, privs[0], 0) is None
    # one Defense card at most: the attack is resolved by the first answer
    act(pub, privs, 1, ["take"])
    assert pub["ships"][8][LEFT] == 3 and pub["phase"] != "defend"


def test_defense_and_move_cards_are_not_attacks():
    ships = {0: (TR, sq("d5")), 8: (QD, sq("d6")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, phase="fire", hands=([K["Parablemata"], K["Row"]], []))
    assert legal(pub, privs, 0) == [["pass"]]
    for k in (K["Parablemata"], K["Row"]):
        with pytest.raises(IllegalAction, match="attack"):
            ENGINE.apply(pub, 0, ["fire", k, 0, 8])


def test_destroyed_ships_leave_the_board():
    ships = {0: (TR, sq("d5")), 8: (BI, sq("d6")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, phase="fire", hands=([K["Ram"]], []), moved=[0])
    act(pub, privs, 0, ["fire", K["Ram"], 0, 8])
    act(pub, privs, 1, ["take"])
    assert pub["ships"][8][SQUARE] == -1 and pub["ships"][8][LEFT] == 0
    assert ENGINE.result(pub) is None
    # the square is free again and the wreck can be targeted no more
    pub["phase"] = "move"
    pub["turn"] = 0
    pub["hand"][0] = 1
    privs[0]["hand"] = [K["Row"]]
    assert sq("d6") in moves_of(legal(pub, privs, 0), 0)


def test_sinking_the_quinquereme_wins():
    ships = {0: (TR, sq("d5")), 7: (QQ, sq("a1")), 15: (QQ, sq("d6"))}
    pub, privs = pos(ships, phase="fire", hands=([K["Marines"]], []))
    pub["ships"][15][LEFT] = 1
    act(pub, privs, 0, ["fire", K["Marines"], 0, 15])
    act(pub, privs, 1, ["take"])
    assert ENGINE.result(pub) == ([0], "Quinquereme sunk")
    assert ENGINE.turn(pub) is None and legal(pub, privs, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 1, ["pass"])


def test_ram_special_damage_sinks_a_two_hit_quinquereme():
    ships = {8: (TR, sq("d5")), 7: (QQ, sq("d3")), 15: (QQ, sq("h8"))}
    pub, privs = pos(ships, turn=1, hands=([], [K["Row"], K["Ram"]]))
    pub["ships"][7][LEFT] = 2
    act(pub, privs, 1, ["move", K["Row"], 8, sq("d4")])
    act(pub, privs, 1, ["fire", K["Ram"], 8, 7])
    act(pub, privs, 0, ["take"])
    assert ENGINE.result(pub) == ([1], "Quinquereme sunk")


def test_a_long_quiet_ends_in_a_draw():
    pub, privs = pos(FOUR, hands=([], []), deck=[K["Row"]] * 50)
    pub["quiet"] = QUIET_TURNS - 2
    act(pub, privs, 0, ["pass"])
    act(pub, privs, 0, ["pass"])
    assert ENGINE.result(pub) is None and pub["quiet"] == QUIET_TURNS - 1
    act(pub, privs, 1, ["pass"])
    act(pub, privs, 1, ["pass"])
    assert ENGINE.result(pub) == ([], "no harm in %d turns" % QUIET_TURNS)
    assert ENGINE.turn(pub) is None


def test_concede_gives_the_other_player_the_game():
    pub, privs = pos(FOUR)
    ENGINE.concede(pub, 1)
    assert ENGINE.result(pub) == ([0], "conceded") and ENGINE.turn(pub) is None


# ---- bad input -------------------------------------------------------------------------------
BAD = [
    "move", [], [3], ["nope"], ["move"], ["move", "a", 0, sq("d5")], ["move", 0, 0],
    ["move", 0, 0, sq("d5"), 1], ["move", 0, 99, sq("d5")], ["move", 0, 0, 64],
    ["move", 0, 0, -1], ["move", True, 0, sq("d5")], ["move", 0, 0, sq("d7")],
    ["move", K["Javelins"], 0, sq("d5")], ["move", 0, 8, sq("d7")], ["move", 0, 0, sq("d6")],
    ["move", 0, None, sq("d5")], ["move", 30, 0, sq("d5")], ["ahead", 0, 15],
    ["ahead", K["Periplus"], 0], ["ahead", 0, [0]], ["also", 0], ["halt"], ["take"],
    ["defend", K["Disengage"]], ["fire", K["Javelins"], 0, 8], ["discard", 0], ["pass", 1],
    ["draw"], ["setup", [0, 1, 1, 1, 2, 2, 0, 3], b"x" * 32], ["setup"], [{"a": 1}],
]


def test_bad_events_raise_and_change_nothing():
    pub, privs = pos(FOUR, hands=([K["Row"]], [K["Row"]]))
    before = snapshot(pub)
    for ev in BAD:
        with pytest.raises(IllegalAction):
            ENGINE.apply(pub, 0, ev)
        assert snapshot(pub) == before, ev
    for author in (1, 2, -1, "0", None):
        with pytest.raises(IllegalAction):
            ENGINE.apply(pub, author, ["pass"])
        assert snapshot(pub) == before


def test_a_card_count_of_zero_refuses_plays():
    pub, privs = pos(FOUR, hands=([], []))
    before = snapshot(pub)
    with pytest.raises(IllegalAction, match="no card"):
        ENGINE.apply(pub, 0, ["move", K["Row"], 0, sq("d5")])
    assert snapshot(pub) == before


def test_act_refuses_cards_not_in_hand():
    pub, privs = pos(FOUR, hands=([K["Row"]], []))
    with pytest.raises(IllegalAction):
        ENGINE.act(pub, privs[0], 0, ["move", K["Row Row"], 0, sq("d6")])
    with pytest.raises(IllegalAction):
        ENGINE.answer(pub, privs[0], 0)


# ---- whole games ----------------------------------------------------------------------------
@pytest.mark.parametrize("seed, islands", [(b"mp1", 0), (b"mp2", 2), (b"mp3", 4)])
def test_random_playouts_finish_and_pass_every_audit(seed, islands):
    opts = ENGINE.options({"islands": islands, "sealed": 0})
    out = local.play(ENGINE, opts, 2, seed, [RandomBot(seed, 0), RandomBot(seed, 1)])
    assert out["result"] is not None
    assert [a[2] for a in out["audits"]] == [None, None]
    hands = [len(s.priv["hand"]) for s in out["seats"]]
    assert out["seats"][0].pub["hand"] == hands


def test_log_lines_name_ships_and_never_crash():
    # ships by name, not the board's letters ("P1 Row T>d5"): the log wraps a long row whole
    pub, privs = pos(FOUR, hands=([K["Row"]], []))
    assert SAY.describe(pub, 0, ["move", K["Row"], 0, sq("d5")]) == "P1 Row: Trireme to d5"
    assert SAY.describe(pub, 1, ["fire", K["Ram"], 8, 0]) == "P2 Ram: Trireme at Trireme"
    assert SAY.describe(pub, 1, ["defend", K["Disengage"]]) == "P2 plays Disengage"
    assert SAY.describe(pub, 0, ["pass"]) == "P1 passes"
    for ev in (["take"], ["pass"], ["also", 7], ["halt"], ["move", 99], ["fire"]):
        line = SAY.describe(pub, 0, ev)
        assert line.startswith("P1 ") and len(line) <= 40
