# PING rule by rule (docs/rules/ping.md), under CPython and the MicroPython unix port.
import pytest

from fathom.codec import encode
from fathom.games.ping import say as SAY
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.ping.engine import ENGINE, PingEngine
from fathom.games.ping.track import tracker
from fathom.games.ping import board as B
from fathom.games.ping.bot import SharpBot
from fathom.games.audit import audit
from kit.play import play_seats
from kit.ping import (SQ, game, step, play, hand, names, M1_TORP, M1_TORP2, M2_TORP,
                          M1_GUN, M1_PING, M2_PING, M3_PING, M1_LISTEN, M2_LISTEN,
                          M1_ENC, M2_ENC, M3_ENC, M2_DIVE)

pytestmark = pytest.mark.micropython


# ---- the location card ------------------------------------------------------------------------
def test_map_has_26_lettered_squares_with_objectives_at_corners_and_centre():
    assert B.NSQ == 26
    cells = [B.col_row(s) for s in range(26)]
    assert len(set(cells)) == 26
    assert [B.col_row(SQ[x]) for x in "AEMVZ"] == [(0, 0), (6, 0), (3, 2), (0, 4), (6, 4)]
    assert names(B.OBJECTIVES) == "AEMVZ"


def test_lines_join_only_orthogonal_neighbours_and_the_map_is_connected():
    for a, b in B.edges():
        (ca, ra), (cb, rb) = B.col_row(a), B.col_row(b)
        assert abs(ca - cb) + abs(ra - rb) == 1
    assert SQ["G"] not in B.squares(B.NB[SQ["A"]])            # no diagonal
    assert names(B.squares(B.NB[SQ["M"]])) == "HNR"           # reefs west and south of M
    m = 1
    for _ in range(30):
        m |= B.spread(m)
    assert m == B.ALL
    for s in range(26):
        assert len(B.squares(B.NB[s])) >= 2


def test_drawing_fits_128x64_with_room_for_side_information():
    for s in range(26):
        x, y = B.xy(s)
        assert 3 <= x <= B.MAP_W - 3 and 3 <= y <= 61
    assert 128 - B.MAP_W >= 40


def test_torpedo_path_runs_straight_until_the_line_ends():
    assert names(B.path(SQ["K"], B.E)) == "L"                 # reef after L
    assert names(B.path(SQ["P"], B.E)) == "Q"
    assert names(B.path(SQ["R"], B.E)) == "STU"
    assert names(B.path(SQ["E"], B.S)) == "J"
    assert names(B.path(SQ["A"], B.S)) == "FKPV"
    assert B.path(SQ["A"], B.N) == []


# ---- the action cards -------------------------------------------------------------------------
def test_sixteen_cards_each_one_move_and_one_utility():
    assert len(B.CARDS) == 16
    moves = [m for m, _u in B.CARDS]
    utils = [u for _m, u in B.CARDS]
    assert (moves.count(1), moves.count(2), moves.count(3)) == (6, 6, 4)
    assert [utils.count(u) for u in range(6)] == [3, 3, 3, 2, 3, 2]


def test_yellow_exactly_for_loud_actions():
    for c in range(16):
        assert B.yellow(c, B.MOVEMENT) == (B.CARDS[c][0] == 3)
        assert B.yellow(c, B.UTILITY) == (B.CARDS[c][1] in (B.PING, B.TORPEDO, B.DECK_GUN))
        assert not B.yellow(c, B.REPAIR)
    assert B.tags(M2_LISTEN, B.UTILITY) == B.QUIET
    assert B.tags(M2_DIVE, B.UTILITY) == B.DEEP
    assert B.tags(M3_ENC, B.MOVEMENT) == B.LOUD


# ---- set-up -----------------------------------------------------------------------------------
def test_deal_three_each_one_face_down_nine_aside_from_the_joint_seed():
    seats = local.make_seats(ENGINE, {}, 2, b"deal")
    h0, h1 = hand(seats[0]), hand(seats[1])
    inc = seats[0].priv["inc"]
    assert len(h0) == 3 and len(h1) == 3
    assert len(set(h0 + h1 + [inc])) == 7
    assert seats[1].priv["inc"] == -1          # only player 1 will take the face-down card
    again = local.make_seats(ENGINE, {}, 2, b"deal")
    assert hand(again[0]) == h0                # the deal is a function of the joint seed


def test_secret_start_on_any_square_and_the_setup_event_shows_nothing():
    seats = local.make_seats(ENGINE, {}, 2, b"s")
    assert seats[0].setup_legal() == list(range(26))
    seats[0].setup_choose(SQ["Q"])
    assert seats[0].setup_legal() == []
    ev = seats[0].author()
    assert ev[0] == "setup" and ev[1] is None
    with pytest.raises(IllegalAction):
        ENGINE.setup_apply(seats[1].pub, seats[1].priv, 1, 26)


# ---- play area, face up / face down ---------------------------------------------------------
def test_first_player_takes_the_face_down_card_and_the_adversary_gets_what_you_played():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "F", "U", inc=M2_DIVE)
    evs = play(s, ["move", M1_ENC, SQ["K"], 0])
    assert evs == [["down", -1, 0]]
    assert hand(s[0]) == sorted([M2_ENC, M3_ENC, M2_DIVE])
    assert s[0].priv["sq"] == SQ["K"]
    assert s[0].to_move() == (1, "act")
    evs = play(s, ["move", M1_TORP, SQ["T"], 0])
    # player 2 takes player 1's face-down card: its owner shows it only now
    assert evs == [["down", -1, 0], ["hand", M1_ENC, B.MOVEMENT]]
    assert hand(s[1]) == sorted([M1_ENC, M2_TORP, M1_GUN])
    assert s[0].to_move() == (0, "act")
    assert s[0].priv["inc"] == -1


def test_yellow_action_is_played_face_up_and_loud_reveals_location():
    s = game([M3_ENC, M1_ENC, M2_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U", inc=M2_DIVE)
    evs = play(s, ["move", M3_ENC, SQ["P"], 0])
    assert evs == [["up", M3_ENC, B.MOVEMENT, SQ["P"], 0, 0]]
    assert tracker(s[1].pub, 1) == [SQ["P"]]
    # the same card used for its quiet half goes face down
    assert ENGINE.act(s[1].pub, {"hand": [[M3_ENC, 0]], "sq": 1, "done": 0, "last": None,
                                 "inc": -1}, 1, ["encrypt", M3_ENC]) == ["down", -1, 0]


def test_move_takes_exactly_the_number_of_steps_along_lines():
    s = game([M2_ENC, M1_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    legal = s[0].legal()
    dests = sorted(set(a[2] for a in legal if a[0] == "move" and a[1] == M2_ENC))
    assert names(dests) == "ACK"           # back to A is allowed (revisits); B, F, G are not
    with pytest.raises(IllegalAction):
        s[0].author(["move", M2_ENC, SQ["B"], 0])
    dests = sorted(set(a[2] for a in legal if a[0] == "move" and a[1] == M3_ENC))
    assert names(dests) == "BFGLP"


# ---- PING and LISTEN --------------------------------------------------------------------------
def test_ping_reveals_own_location_turns_card_up_and_reveals_adversary():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M2_PING, M1_TORP, M1_GUN], "F", "U", inc=M2_DIVE)
    play(s, ["move", M1_ENC, SQ["K"], 0])
    evs = play(s, ["ping", M2_PING])
    assert evs == [["up", M2_PING, B.UTILITY, SQ["U"], 0, 0],
                   ["seen", M1_ENC, B.MOVEMENT, SQ["K"]]]
    assert tracker(s[1].pub, 1) == [SQ["K"]]
    assert tracker(s[0].pub, 0) == [SQ["U"]]
    assert s[0].to_move() == (0, "act")      # card already face up: no hand-over question
    assert M1_ENC in hand(s[1])


def test_ping_on_a_deep_card_shows_the_card_but_not_the_location():
    s = game([M2_DIVE, M2_ENC, M3_ENC], [M2_PING, M1_TORP, M1_GUN], "F", "U")
    play(s, ["dive", M2_DIVE])
    evs = play(s, ["ping", M2_PING])
    assert evs[1] == ["seen", M2_DIVE, B.UTILITY, -1]
    assert len(tracker(s[1].pub, 1)) == 26


@pytest.mark.parametrize("prev, mode, shows", [
    ("listen", B.UTILITY, False),    # QUIET
    ("dive", B.UTILITY, False),      # DEEP
    ("move", B.MOVEMENT, True),
])
def test_listen_shows_location_unless_quiet_or_deep(prev, mode, shows):
    s = game([M1_LISTEN, M2_DIVE, M1_ENC], [M2_LISTEN, M1_TORP, M1_GUN], "F", "U")
    # player 1 plays first; player 2 then listens to that card
    a = {"listen": ["listen", M1_LISTEN], "dive": ["dive", M2_DIVE],
         "move": ["move", M1_ENC, SQ["K"], 0]}[prev]
    play(s, a)
    evs = play(s, ["listen", M2_LISTEN])
    assert evs[0] == ["listen"]
    assert evs[1][0] == "seen" and evs[1][2] == mode
    assert (evs[1][3] >= 0) == shows
    if shows:
        assert evs[1][3] == SQ["K"]


def test_listen_on_turn_one_finds_no_previous_card():
    s = game([M1_LISTEN, M2_DIVE, M1_ENC], [M2_LISTEN, M1_TORP, M1_GUN], "F", "U")
    assert play(s, ["listen", M1_LISTEN]) == [["listen"]]
    assert s[0].to_move() == (1, "act")


# ---- TORPEDO and DECK GUN ---------------------------------------------------------------------
def _shoot(h1, at1, at0, action, first=None):
    s = game([M1_ENC, M2_ENC, M3_ENC], h1, at0, at1)
    play(s, first or ["encrypt", M1_ENC])
    return s, play(s, action)


def test_torpedo_through_the_adversary_square_hits():
    s, evs = _shoot([M1_TORP, M2_TORP, M1_GUN], "R", "T", ["torpedo", M1_TORP, B.E])
    assert evs == [["up", M1_TORP, B.UTILITY, SQ["R"], B.E, 0], ["hit"]]
    assert s[0].to_move() == (0, "act")            # the victim shuffles next


def test_torpedo_miss_rules_out_its_path():
    s, evs = _shoot([M1_TORP, M2_TORP, M1_GUN], "R", "Q", ["torpedo", M1_TORP, B.E])
    assert evs[1] == ["miss"]
    left = tracker(s[1].pub, 1)
    for x in "STU":
        assert SQ[x] not in left


def test_torpedo_cannot_target_own_square_or_leave_the_lines():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "F", "A")
    play(s, ["encrypt", M1_ENC])
    dirs = sorted(a[2] for a in s[1].legal() if a[0] == "torpedo" and a[1] == M1_TORP)
    assert dirs == [B.E, B.S]                      # A has no line north or west
    # same square: the torpedo leaves the square, so it cannot hit there
    s, evs = _shoot([M1_TORP, M2_TORP, M1_GUN], "R", "R", ["torpedo", M1_TORP, B.E])
    assert evs[1] == ["miss"]


@pytest.mark.parametrize("at0, hit", [("R", True), ("S", True), ("M", True), ("N", False)])
def test_deck_gun_hits_same_or_adjacent_square(at0, hit):
    s, evs = _shoot([M1_GUN, M2_TORP, M1_TORP], "R", at0, ["gun", M1_GUN])
    assert evs[0] == ["up", M1_GUN, B.UTILITY, SQ["R"], 0, 0]
    assert (evs[1][0] == "hit") == hit


@pytest.mark.parametrize("attack", [["torpedo", M1_TORP, B.E], ["gun", M1_GUN]])
def test_dive_nullifies_torpedo_and_deck_gun_without_revealing(attack):
    s = game([M2_DIVE, M2_ENC, M3_ENC], [M1_TORP, M1_GUN, M2_TORP], "S", "R")
    play(s, ["dive", M2_DIVE])
    evs = play(s, attack)
    assert evs[1] == ["dive", M2_DIVE]
    assert s[0].to_move() == (0, "act")
    assert len(tracker(s[1].pub, 1)) > 1           # the diver stays hidden
    assert all(not d for _c, d in s[0].priv["hand"])


def test_dive_lasts_only_the_adversary_next_turn():
    s = game([M2_DIVE, M1_ENC, M3_ENC], [M1_PING, M1_GUN, M2_TORP], "S", "R")
    play(s, ["dive", M2_DIVE])
    play(s, ["move", M1_PING, SQ["S"], 0])         # player 2 moves R -> S
    play(s, ["encrypt", M1_ENC])                   # player 1 stays on S, no longer diving
    evs = play(s, ["gun", M1_GUN])
    assert evs[1] == ["hit"]


# ---- damage, repair, sinking ------------------------------------------------------------------
def _hit(s, pick, shuffle=0):
    evs = play(s, ["torpedo", M1_TORP, B.E])
    assert evs[1][0] == "hit"
    assert step(s, ["shuffle", shuffle]) == ["shuffle"]
    return play(s, ["disable"] + list(pick))


def test_hit_reveals_the_square_only_after_the_two_cards_are_disabled():
    # ping.txt, DAMAGE AND REPAIR: "your adversary will select two action cards in your hand to
    # disable ... Then, reveal your location."
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "T", "R", inc=M2_DIVE)
    play(s, ["encrypt", M1_ENC])
    hidden = len(tracker(s[1].pub, 1))
    assert hidden > 3
    evs = play(s, ["torpedo", M1_TORP, B.E])
    assert evs[1] == ["hit"]                       # the hit names no square
    assert len(tracker(s[1].pub, 1)) == hidden
    step(s, ["shuffle", 0])
    assert len(tracker(s[1].pub, 1)) == hidden
    evs = play(s, ["disable", 0, 1])               # the attacker picks still blind
    assert evs[0] == ["disable", 0, 1]
    assert evs[1] == ["damage", 0, SQ["T"]]        # then the victim reveals
    assert tracker(s[1].pub, 1) == [SQ["T"]]


class _LiarAfterHit(PingEngine):
    """Reveals a wrong square the shot also reaches, once, after taking damage."""

    def __init__(self):
        self.lied = False

    def answer(self, pub, priv, player):
        ev = PingEngine.answer(self, pub, priv, player)
        if ev[0] == "damage" and not self.lied:
            for sq in range(B.NSQ):
                if sq != ev[2] and self._hits(pub["shot"], sq):
                    self.lied = True
                    return [ev[0], ev[1], sq]
        return ev


def test_a_victim_revealing_a_wrong_square_after_damage_is_named_by_the_audit():
    caught = 0
    for i in range(40):
        seed = b"dmglie%d" % i
        seats = local.make_seats(ENGINE, {}, 2, seed)
        bots = [SharpBot(seed, 0), SharpBot(seed, 1)]
        for p in (0, 1):
            seats[p].engine = _LiarAfterHit()
        lie = []

        def note(seats, author, _ev, _before):
            if seats[author].engine.lied and not lie:
                lie.append((author, len(seats[0].log) - 1))

        try:
            play_seats(seats, bots, on_event=note, until=lambda: lie, limit=400)
        except local.Desync:
            continue   # no end within 400 events: another seed
        if not lie:
            continue
        liar, at = lie[0]
        honest = seats[1 - liar]
        honest.engine = ENGINE                     # the auditor replays with honest rules
        verdict = audit(honest, liar, seats[liar].reveal())
        assert verdict is not None and verdict[0] == at, (verdict, at)
        assert audit(seats[liar], 1 - liar, honest.reveal()) is None
        caught += 1
        if caught == 2:
            break
    assert caught == 2


def test_damage_disables_the_two_picked_positions_after_the_victim_shuffle():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "T", "R", inc=M2_DIVE)
    play(s, ["encrypt", M1_ENC])                   # hand now M2_ENC, M3_ENC, M2_DIVE
    order = [c for c, _d in s[0].priv["hand"]]
    # the victim's own shuffle choice decides which cards sit where
    evs = _hit(s, (0, 2), shuffle=1)               # PERMS[1] = (0, 2, 1)
    # not sunk: the turn ends and player 2 takes player 1's face-down ENCRYPT card
    assert evs == [["disable", 0, 2], ["damage", 0, SQ["T"]], ["hand", M1_ENC, B.UTILITY]]
    shuffled = [order[0], order[2], order[1]]
    assert [c for c, _d in s[0].priv["hand"]] == shuffled
    assert [d for _c, d in s[0].priv["hand"]] == [1, 0, 1]
    assert ENGINE.result(s[0].pub) is None


def test_damage_on_a_hand_with_a_card_already_disabled_can_sink():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M1_TORP2, M1_GUN], "T", "R", inc=M2_DIVE)
    play(s, ["encrypt", M1_ENC])
    s[0].priv["hand"][0][1] = 1                    # one card already disabled
    evs = _hit(s, (1, 2))
    assert evs[-1] == ["damage", 1, SQ["T"]]
    assert ENGINE.result(s[0].pub) == ([1], "sunk")
    assert s[0].to_move() is None


def test_damage_picking_the_already_disabled_card_leaves_one_working():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M1_TORP2, M1_GUN], "T", "R", inc=M2_DIVE)
    play(s, ["encrypt", M1_ENC])
    s[0].priv["hand"][0][1] = 1
    evs = _hit(s, (0, 1))
    assert evs[1] == ["damage", 0, SQ["T"]]
    assert sum(d for _c, d in s[0].priv["hand"]) == 2
    legal = s[0].legal()
    # disabled cards can only be played to repair; the working one still acts
    working = [c for c, d in s[0].priv["hand"] if not d][0]
    for a in legal:
        if a[0] != "report":
            assert (a[0] == "repair") == (a[1] != working)


def test_repair_plays_the_disabled_card_face_down_and_it_arrives_working():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M1_TORP2, M1_GUN], "T", "R", inc=M2_DIVE)
    play(s, ["encrypt", M1_ENC])
    _hit(s, (0, 1))
    broken = [c for c, d in s[0].priv["hand"] if d][0]
    evs = play(s, ["repair", broken])
    assert evs == [["down", -1, 0]]
    assert broken not in hand(s[0])
    evs = play(s, ["move", M1_TORP2, SQ["M"], 0])
    assert evs[-1] == ["hand", broken, B.REPAIR]
    assert [broken, 0] in s[1].priv["hand"]


# ---- strategic objectives ---------------------------------------------------------------------
def test_unencrypted_report_reveals_and_is_free():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    assert ["report"] in s[0].legal()
    assert play(s, ["report"]) == [["report", SQ["A"], 0]]
    assert s[0].to_move() == (0, "act")            # still player 1's turn
    assert ["report"] not in s[0].legal()          # once per game
    assert tracker(s[1].pub, 1) == [SQ["A"]]
    assert s[0].pub["rep"][0] == 1


def test_report_after_moving_onto_an_objective():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "B", "U")
    evs = play(s, ["move", M1_ENC, SQ["A"], 1])
    assert evs == [["down", SQ["A"], 0]]
    assert s[0].priv["done"] == 1


def test_report_after_a_utility_card_while_still_on_the_objective():
    # ping.txt: the unencrypted report "can be done at any point during your turn": after a
    # PING (LOUD: the square is public anyway) the turn waits on the objective where it began
    s = game([M1_PING, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    assert play(s, ["ping", M1_PING]) == [["up", M1_PING, B.UTILITY, SQ["A"], 0, 0]]
    assert s[0].to_move() == (0, "act")
    assert s[0].legal() == [["report"], ["end"]]
    assert s[1].legal() == []
    assert play(s, ["report"]) == [["report", SQ["A"], 0]]
    assert s[0].priv["done"] == 1 and s[0].pub["rep"][0] == 1
    assert s[0].to_move() == (1, "act")            # the report ended the turn
    assert len(hand(s[0])) == 3                    # and the card on the right was taken
    assert SAY.describe(s[0].pub, 0, ["end"]) == "P1 ends turn"


def test_a_turn_kept_open_for_a_report_may_end_without_one():
    s = game([M1_TORP, M2_ENC, M3_ENC], [M1_GUN, M2_TORP, M1_ENC], "E", "V")
    evs = play(s, ["torpedo", M1_TORP, B.S])        # E, south: J, then the line ends
    assert evs[1] == ["miss"] and s[0].legal() == [["report"], ["end"]]
    assert play(s, ["end"]) == [["end"]]
    assert s[0].pub["rep"][0] == 0 and s[0].to_move() == (1, "act")
    assert SAY.line(s[1].log, 1) == "P1 ended the turn, no report"


def test_the_turn_waits_only_where_the_square_is_public_and_unreported():
    # a LISTEN keeps the square secret: waiting there would cost every LISTEN a press
    s = game([M1_LISTEN, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    play(s, ["listen", M1_LISTEN])
    assert s[0].to_move() == (1, "act")
    # a PING off every objective: no wait either
    s = game([M1_PING, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "B", "U")
    play(s, ["ping", M1_PING])
    assert s[0].to_move() == (1, "act")
    # nor on an objective reported before the card
    s = game([M1_PING, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    play(s, ["report"])
    play(s, ["ping", M1_PING])
    assert s[0].to_move() == (1, "act")
    # an `end` or a late report out of its place is refused
    before = encode(s[1].pub)
    for ev in (["end"], ["end", 0]):
        with pytest.raises(IllegalAction):
            s[1].receive(1, ev)
    assert encode(s[1].pub) == before


def test_encrypt_completes_without_revealing_and_only_once():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "M", "U")
    assert play(s, ["encrypt", M1_ENC]) == [["down", -1, 0]]
    assert s[0].priv["done"] == 4                  # bit of M
    assert s[0].pub["rep"][0] == 0
    assert len(tracker(s[1].pub, 1)) > 1
    play(s, ["move", M1_TORP, SQ["Z"], 0])
    assert ["report"] not in s[0].legal()          # already completed by ENCRYPT


def test_each_objective_once_public_check():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    play(s, ["report"])
    before = encode(s[1].pub)
    with pytest.raises(IllegalAction):
        s[1].receive(0, ["report", SQ["A"], 0])
    assert encode(s[1].pub) == before


@pytest.mark.parametrize("how", ["report", "encrypt", "move"])
def test_five_objectives_win(how):
    at = "B" if how == "move" else "Z"
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], at, "M")
    s[0].priv["done"] = 15                          # A E M V done secretly
    a = {"report": ["report"], "encrypt": ["encrypt", M1_ENC],
         "move": ["move", M1_ENC, SQ["A"], 1]}[how]
    if how == "move":
        s[0].priv["done"] = 30                      # E M V Z done, A left
    evs = play(s, a)
    assert evs[0][-1] == 1
    assert ENGINE.result(s[0].pub) == ([0], "objectives")


def test_five_public_reports_must_claim_the_win():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "Z", "M")
    s[0].pub["rep"][0] = 15
    s[1].pub["rep"][0] = 15
    with pytest.raises(IllegalAction):
        s[1].receive(0, ["report", SQ["Z"], 0])


# ---- tracker ----------------------------------------------------------------------------------
def test_tracker_grows_with_unknown_moves_and_shrinks_when_the_card_is_shown():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U", inc=M2_DIVE)
    play(s, ["report"])
    play(s, ["move", M1_ENC, SQ["B"], 0])
    assert names(tracker(s[1].pub, 1)) == "ABCFK"  # 0, 1 or 2 steps from A
    play(s, ["move", M1_TORP, SQ["T"], 0])         # ... until the card is handed over
    assert names(tracker(s[1].pub, 1)) == "BF"


# ---- bad input --------------------------------------------------------------------------------
BAD = [
    [], ["nope"], "up", ["up"], ["up", 99, 2, 0, 0, 0], ["up", M1_ENC, 2, 0, 0, 0],
    ["up", M3_ENC, 1, 30, 0, 0], ["up", M3_ENC, 1, 1, 1, 0], ["up", M1_TORP, 2, 0, 0, 0],
    ["up", M1_TORP, 2, 5, 0, 1], ["up", M3_PING, 2, 5, True, 0], ["down", 3, 0],
    ["down", -1, 2], ["down", "x", 0], ["report", SQ["B"], 0], ["report", SQ["A"], None],
    ["listen", 1], ["seen", 1, 1, 1], ["hit"], ["hit", 3], ["miss"], ["shuffle"],
    ["disable", 0, 1], ["damage", 1, 3], ["hand", 1, 1], ["dive", M2_DIVE], ["setup", None, b"x" * 32],
    ["up", M1_PING, 2.0, 0, 0, 0], ["up", [1], 2, 0, 0, 0], ["report", {"a": 1}, 0],
]


def test_bad_events_raise_and_leave_pub_unchanged():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    pub = s[1].pub
    before = encode(pub)
    for ev in BAD:
        with pytest.raises(IllegalAction):
            ENGINE.apply(pub, 0, ev)
        assert encode(pub) == before, ev
    with pytest.raises(IllegalAction, match="out of turn"):
        ENGINE.apply(pub, 1, ["down", -1, 0])
    assert encode(pub) == before


def test_bad_answers_raise_and_leave_pub_unchanged():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "T", "R")
    play(s, ["encrypt", M1_ENC])
    step(s, ["torpedo", M1_TORP, B.E])
    pub = s[1].pub
    before = encode(pub)
    for ev in (["hit", SQ["T"]], ["hit", SQ["R"]], ["dive", M1_TORP], ["dive", M1_ENC],
               ["seen", M1_ENC, 1, 0], ["miss", 1], ["hit", None]):
        with pytest.raises(IllegalAction):
            ENGINE.apply(pub, 0, ev)
        assert encode(pub) == before, ev
    assert step(s, None) == ["hit"]
    step(s, ["shuffle", 0])
    with pytest.raises(IllegalAction):
        ENGINE.apply(s[0].pub, 1, ["disable", 1, 1])
    step(s, ["disable", 0, 1])
    before = encode(s[0].pub)
    # the square revealed must be one the shot reaches (R is the launch square, A far away)
    for ev in (["damage", 0, SQ["A"]], ["damage", 0, SQ["R"]], ["damage", 0], ["damage", 2, 19],
               ["damage", 0, -1], ["damage", 0, 26]):
        with pytest.raises(IllegalAction):
            ENGINE.apply(s[0].pub, 0, ev)
        assert encode(s[0].pub) == before, ev
    assert step(s, None) == ["damage", 0, SQ["T"]]
    assert s[1].to_move() == (0, "answer")          # player 1 shows the card player 2 takes
    before = encode(s[0].pub)
    # a yellow half is never face down; M1_TORP is known to be in player 2's hand; no mode 3
    for ev in (["hand", M3_ENC, B.MOVEMENT], ["hand", M1_TORP, B.UTILITY], ["hand", M1_ENC, 3],
               ["hand", M2_PING, B.UTILITY], ["hand", M1_ENC]):
        with pytest.raises(IllegalAction):
            ENGINE.apply(s[0].pub, 0, ev)
        assert encode(s[0].pub) == before


def test_concede_names_the_other_player():
    s = game([M1_ENC, M2_ENC, M3_ENC], [M1_TORP, M2_TORP, M1_GUN], "A", "U")
    ev = s[1].concede()
    s[0].receive(1, ev)
    assert ENGINE.result(s[0].pub) == ([0], "conceded")
    assert ENGINE.turn(s[0].pub) is None


def test_describe_lines_are_short():
    evs = [["report", 0, 0], ["up", M1_TORP, 2, 17, 1, 0], ["up", M3_ENC, 1, 4, 1, 1],
           ["down", -1, 0], ["down", 0, 1], ["listen"], ["seen", M2_DIVE, 2, -1],
           ["hand", M1_ENC, 0], ["dive", M2_DIVE], ["hit"], ["miss"], ["shuffle"],
           ["disable", 0, 2], ["damage", 1, 3], ["damage", 0, 25], ["setup", None, b""],
           ["zzz", 1]]
    for ev in evs:
        line = SAY.describe(None, 1, ev)
        assert line.startswith("P2 ") and len(line) <= 21, line
    assert SAY.describe(None, 0, evs[1]) == "P1 TORPEDO R E"


def test_ping_is_for_two_players():
    # ping.txt, OVERVIEW: a game for two players
    for n in (1, 3):
        with pytest.raises(IllegalAction):
            local.make_seats(ENGINE, ENGINE.options(), n, b"two")
    assert len(local.make_seats(ENGINE, ENGINE.options(), 2, b"two")) == 2
