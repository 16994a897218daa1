# The pure logic of the Sugar Dog, Periplus, PING and Pinned Down companion modes.
import pytest

from fathom.games.sugardog import engine as G
from fathom.games.periplus import cards as PC
from fathom.games.ping import board as PB
from fathom.games.ping import track as PT
from fathom.games.periplus import companion as PP
from fathom.games.pinned_down import companion as PD
from fathom.games.ping import companion as PG
from fathom.games.sugardog import companion as SD
from test_companion_screen import companion

pytestmark = pytest.mark.micropython


def sq6(name):
    return (int(name[1:]) - 1) * 6 + ord(name[0]) - 65


# ---- Sugar Dog --------------------------------------------------------------------------------
def test_sugardog_map_size_follows_players():
    assert SD.fresh(2)["size"] == 6 and SD.fresh(4)["size"] == 10


def test_sugardog_torpedo_flies_two_a_turn_and_is_lost_off_the_map():
    st = SD.fresh()
    SD.apply(st, ["start", sq6("C2")])
    SD.apply(st, ["fire", G.N])
    assert st["torps"] == [[sq6("C4"), G.N]] and st["turn"] == 1
    SD.apply(st, ["run", sq6("C2")])          # the torpedo moves before the command
    assert st["torps"] == [[sq6("C6"), G.N]]
    SD.apply(st, ["run", sq6("C2")])
    assert st["torps"] == []
    assert st["log"][-2] == "T3 torp C6>N:  lost"


def test_sugardog_fire_off_the_edge_after_one_square():
    st = SD.fresh()
    SD.apply(st, ["start", sq6("E1")])
    SD.apply(st, ["fire", G.E])
    assert st["torps"] == [] and st["log"][-1] == "T1 fire E: F1 lost"


def test_sugardog_commands_offered():
    st = SD.fresh()
    assert [c[0] for c in SD.commands(st, 7)] == ["Start here"]
    SD.apply(st, ["start", sq6("A1")])
    here = [c[0] for c in SD.commands(st, sq6("A1"))]
    assert "Place mine" in here and "Fire N" in here and "Fire S" not in here
    assert "Silent to B1" in [c[0] for c in SD.commands(st, sq6("B1"))]
    assert [c[0] for c in SD.commands(st, sq6("B2"))][:2] == ["Cruise via A2", "Cruise via B1"]
    SD.apply(st, ["cruise", sq6("A2"), sq6("B2")])
    assert st["sub"] == sq6("B2") and st["log"][-1] == "T1 cruise A2,B2"
    SD.apply(st, ["mine"])
    SD.apply(st, ["sonar"])
    assert st["log"][-1] == "T3 ping B2 B2" and st["left"] == 2
    assert "Place mine" not in [c[0] for c in SD.commands(st, sq6("B2"))]   # one here already
    # a cruise may stop after its first square: "no further contacts" (sugar_dog.txt, Cruise)
    assert ("Cruise 1, stop", ["cruise", sq6("B3")]) in SD.commands(st, sq6("B3"))
    SD.apply(st, ["cruise", sq6("B3")])
    assert st["sub"] == sq6("B3") and st["log"][-1] == "T4 cruise B3"


def test_sugardog_contacts_toggle_and_log_is_bounded():
    st = SD.fresh()
    SD.apply(st, ["contact", 5])
    assert st["contacts"] == [[5, 0]]
    SD.apply(st, ["contact", 5])
    assert st["contacts"] == []
    SD.apply(st, ["start", 0])
    for _ in range(60):
        SD.apply(st, ["run", 0])
    assert len(st["log"]) == SD.MAX_LOG and st["log"][-1] == "T60 silent"


# ---- Periplus ---------------------------------------------------------------------------------
def test_periplus_fresh_deck_is_the_55_cards():
    st = PP.fresh(b"seed")
    assert sorted(st["deck"]) == PC.full_deck() and len(st["deck"]) == 55
    assert st["deck"] != PC.full_deck()                   # shuffled
    assert PP.fresh(b"seed")["deck"] == st["deck"]        # by the Prng, from the seed


def test_periplus_draw_limit_and_reshuffle():
    st = PP.fresh(b"s")
    assert PP.draw(st) == 3 and PP.excess(st) == 0
    PP.draw(st)
    assert PP.excess(st) == 1
    PP.discard(st, 0, 0)
    assert PP.excess(st) == 0 and len(st["disc"]) == 1
    st["disc"].extend(st["deck"][:-1])
    st["deck"] = st["deck"][-1:]
    PP.draw(st)                                   # 1 from the deck, then the discards
    assert st["shuf"] == 1 and len(st["hands"][0]) == 8
    assert PP.check(st)                           # still every card exactly once


def test_periplus_draw_stops_when_every_card_is_in_hand():
    st = PP.fresh(b"s")
    st["hands"][1] = st["deck"][:54]
    st["deck"] = st["deck"][54:]
    assert PP.draw(st) == 1


def test_periplus_ship_hits():
    st = PP.fresh(b"s")
    assert [PP.ship_label(i) for i in (0, 1, 2, 7, 8)] == ["P1 B1", "P1 B2", "P1 T1",
                                                          "P1 Q1", "P2 B1"]
    PP.hit(st, 7, 1)
    PP.hit(st, 7, 1)
    assert PP.hits_left(st, 7) == 3
    for _ in range(9):
        PP.hit(st, 0, 1)
    assert PP.hits_left(st, 0) == 0 and st["dmg"][0] == 2
    PP.hit(st, 0, -1)
    assert PP.hits_left(st, 0) == 1


# ---- PING -------------------------------------------------------------------------------------
def test_ping_tracker_matches_engine_track():
    st = PG.fresh()
    assert len(PG.possible(st)) == PB.NSQ
    PG.fact(st, PT.F_AT, 12)
    assert PG.possible(st) == [12]
    PG.fact(st, PT.F_PLAY, -1)
    assert PG.unknown_play(st)
    wide = PG.possible(st)
    PG.fact(st, PT.F_NEAR, 12)               # a deck gun from M missed
    assert 12 not in PG.possible(st)
    PG.face_down_was(st, 2)
    assert not PG.unknown_play(st)
    assert PG.possible(st) == [s for s in PB.squares(PB.reach(12, 2))
                               if s != 12 and not PB.NB[12] >> s & 1]
    assert len(PG.possible(st)) < len(wide)


def test_ping_torpedo_miss_clears_the_line():
    st = PG.fresh()
    PG.fact(st, PT.F_LINE, 12, PB.E)
    for s in PB.path(12, PB.E):
        assert s not in PG.possible(st)


def test_ping_sunk_and_objectives():
    st = PG.fresh()
    st["hand"] = [[0, 1], [5, 1], [9, 0]]
    assert not PG.sunk(st)
    st["hand"][2][1] = 1
    assert PG.sunk(st)
    assert PG.obj_names(0b10101) == "AMZ"


# ---- Pinned Down -------------------------------------------------------------------------------
@pytest.mark.parametrize("fleet,enemy,want", [
    (5, 4, PD.WIN), (4, 4, PD.DAMAGED), (5, 9, PD.DAMAGED), (5, 10, PD.OVERPOWERED),
    (0, 1, PD.OVERPOWERED), (3, 0, PD.WIN),
])
def test_pinned_fight(fleet, enemy, want):
    assert PD.fight(fleet, enemy) == want


def test_pinned_phase_additions():
    st = PD.fresh()
    st.update({"pool": 2, "ships": 3, "locs": 2, "upkeep": 2})
    PD.next_phase(st)
    assert PD.PHASES[st["ph"]] == "Jump" and st["pool"] == 4
    PD.next_phase(st)
    assert st["pool"] == 4 + 2 * 2 + 3
    for _ in range(4):
        PD.next_phase(st)
    assert st["ph"] == 0 and st["turn"] == 2 and st["pool"] == 11   # threat stays


def test_pinned_reveal_stops_at_first_card_over_the_pool():
    st = PD.fresh()
    st["pool"] = 5
    st["deck"] = ["X6", "X1", "X2"]       # popped from the end: Raider 2, Scout 1, Dreadnought 7
    assert PD.reveal_top(st) and PD.reveal_top(st)
    assert st["pool"] == 2 and st["foes"] == ["X2", "X1"]
    assert not PD.reveal_top(st)
    assert st["stop"] and st["log"] == "STOP 7>2 Dreadnought" and st["adisc"] == ["X6"]
    assert not PD.reveal_top(st) and st["pool"] == 2       # stopped for this attack phase
    assert PD.foes_power(st) == 3 + 2
    st["stop"] = 0
    assert PD.reveal_cost(st, 2, "#2:5") and PD.foes_power(st) == 10 and st["pool"] == 0


def test_pinned_empty_deck_takes_discards():
    st = PD.fresh()
    st["deck"] = []
    st["adisc"] = ["X1"]
    st["pool"] = 3
    assert PD.reveal_top(st) and st["foes"] == ["X1"]


# ---- through the keys on the fake app: the saved state survives a new app ---------------------
def test_sugardog_state_survives_reload():
    app = companion("sd_reload", "Sugar Dog")
    root = app.hw.storage.root
    app.choose("Map")
    app.press("OK")
    app.choose("Start here")
    app2 = companion("sd_reload2", "Sugar Dog", root=root)
    assert app2.find("T0 sub A1") is not None
