# Pinned Down, rule by rule against docs/rules/pinned_down.md, on CPython and the MicroPython
# unix port. Positions are built directly on a fresh pub; events go through ENGINE.apply.
import pytest

from fathom.codec import encode
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.pinned_down.engine import ENGINE
from fathom.games.pinned_down import cards as C, deckfile, fleet as F
from fathom.games.pinned_down import choices as CH, fights as FT, phases as P, schema as K

pytestmark = pytest.mark.micropython


def send(seats, s, action=None):
    ev = s.author(action)
    for o in seats:
        if o is not s:
            o.receive(s.player, ev)
    return ev


def seats_for(n=1, deck="red", level="normal", seed=b"pd"):
    seats = local.make_seats(ENGINE, ENGINE.options({"deck": deck, "level": level}), n, seed)
    for s in seats:
        send(seats, s)
    return seats


def table(n=1, deck="red"):
    """A pub in the first main phase with the lead at player 0 and big hands."""
    pub = seats_for(n, deck)[0].pub
    pub["lead"] = pub["cur"] = 0
    pub["hs"] = [9] * n
    return pub


def priv(hand, deck=()):
    return {"hand": list(hand), "deck": list(deck), "drawn": 4, "key": b"k" * 16, "sh": 0}


def add_ship(pub, cid, owner=0):
    pub["ships"].append(F.new_ship(owner, cid))
    return len(pub["ships"]) - 1


def set_damage(pub, s, cards, overload=0):
    """Ship s carries these damage cards, none (or all, overload=1) from an overload."""
    pub["ships"][s][K.SHIP_DAMAGE] = list(cards)
    pub["ships"][s][K.SHIP_OVERLOADS] = [overload] * len(cards)


def to_attack(pub, foes, ships=None):
    """Skip to a finished reveal with these attackers; every alive ship fights."""
    pub["foes"] = [[f, False] for f in foes]
    P.run(pub, P.assign_start)


def assign(pub, *attackers):
    for a in attackers:
        ENGINE.apply(pub, pub["lead"], ["def", a])


# ---- set-up and card piles -----------------------------------------------------------------
def test_setup_puts_each_flagship_in_play_and_deals_four():
    seats = seats_for(2, "purple")
    pub = seats[0].pub
    assert [s[K.SHIP_CARD] for s in pub["ships"]] == ["P1", "R1"]
    assert pub["aff"] == ["purple", "red"] and pub["hs"] == [4, 4]
    assert len(seats[0].priv["hand"]) == 4 and len(seats[1].priv["hand"]) == 4
    assert pub["dn"] == [26, 28] and pub["ph"] == "main" and pub["turn"] == 1
    assert len(pub["adeck"]) == 24 and len(pub["ldeck"]) == 14 and len(pub["ddeck"]) == 15


def test_each_player_has_an_own_deck_order():
    a = seats_for(1, "red", seed=b"a")[0].priv["hand"]
    b = seats_for(1, "red", seed=b"b")[0].priv["hand"]
    assert sorted(a) != sorted(b) or a != b


def test_ac_arr_players_take_the_fourth_deck_in_rotation():
    pub = seats_for(4, "blue")[0].pub
    assert pub["aff"] == ["blue", "acarr", "purple", "red"]


# ---- card types and limits -----------------------------------------------------------------
def test_threat_is_added_for_every_card_played():
    pub = table()
    ENGINE.apply(pub, 0, ["play", "R2"])
    assert pub["threat"] == 3 and pub["ships"][-1][K.SHIP_CARD] == "R2"
    ENGINE.apply(pub, 0, ["play", "R8", 0])
    assert pub["threat"] == 5 and pub["ships"][0][K.SHIP_ABOARD] == [[0, "R8", 0]]


def test_three_starships_per_player_and_six_for_ac_arr():
    pub = table()
    add_ship(pub, "R4")
    add_ship(pub, "R4")
    assert CH.card_options(pub, 0, "R2", "main", None) == []
    pub = table(1, "acarr")
    for _ in range(4):
        add_ship(pub, "A2")
    assert CH.card_options(pub, 0, "A3", "main", None) == [["play", "A3"]]
    add_ship(pub, "A2")
    assert CH.card_options(pub, 0, "A3", "main", None) == []


def test_characters_and_equipment_need_free_capacity():
    pub = table()
    s = add_ship(pub, "R4")                                  # capacity 1
    pub["ships"][s][K.SHIP_ABOARD].append([0, "R6", 0])
    assert ["play", "R8", s] not in CH.card_options(pub, 0, "R8", "main", None)
    assert ["play", "R8", 0] in CH.card_options(pub, 0, "R8", "main", None)


def test_effects_with_threat_only_in_the_main_phase():
    pub = table()
    to_attack(pub, ["X2"])
    assign(pub, 0)
    assert pub["ph"] == "fight"
    assert CH.card_options(pub, 0, "R10", "fight", None) == []
    assert CH.card_options(pub, 0, "R9", "fight", None) == [["play", "R9", 0]]
    assert CH.card_options(pub, 0, "R9", "main", None) == []


# ---- main phase ----------------------------------------------------------------------------
def test_main_phase_rotates_and_ends_when_everyone_is_ready():
    seats = seats_for(2)
    pub = seats[0].pub
    lead = pub["lead"]
    other = 1 - lead
    assert ENGINE.turn(pub) == (lead, "act")
    send(seats, seats[lead], ["ready"])
    assert ENGINE.turn(pub) == (other, "act")
    send(seats, seats[other], ["show"])
    assert pub["shown"][other][1] == sorted(seats[other].priv["hand"])
    assert ENGINE.turn(pub) == (other, "act")                # the ready player is skipped
    send(seats, seats[other], ["ready"])
    assert pub["ph"] == "jump"


def test_main_phase_action_cap_leaves_only_ready():
    pub = table()
    pub["acts"][0] = 15
    assert ENGINE.legal(pub, priv(["R2", "R9"]), 0) == [["ready"]]


# ---- jump phase ----------------------------------------------------------------------------
def test_jump_adds_upkeep_and_offers_two_locations():
    pub = table()
    pub["ldeck"] = ["L2", "L8", "L6", "L4"]
    ENGINE.apply(pub, 0, ["ready"])
    assert pub["threat"] == 1                                # Ardor: UPKEEP (1)
    assert pub["lopts"] == ["L2", "L8"] and pub["ph"] == "jump"
    ENGINE.apply(pub, 0, ["jump", 1])
    assert pub["locs"] == ["L8"] and pub["dist"] == 3
    assert pub["ldeck"] == ["L6", "L4", "L2"]                # the other one goes to the bottom


def test_navigator_reveals_three_locations():
    pub = table(1, "purple")
    pub["ships"][0][K.SHIP_ABOARD].append([0, "P6", 0])
    pub["ldeck"] = ["L2", "L8", "L6", "L4"]
    ENGINE.apply(pub, 0, ["ready"])
    assert pub["lopts"] == ["L2", "L8", "L6"]


def test_joint_jump_proposal_is_confirmed_rejected_and_then_stands():
    seats = seats_for(2)
    pub = seats[0].pub
    lead = pub["lead"]
    send(seats, seats[lead], ["ready"])
    send(seats, seats[1 - lead], ["ready"])
    for _ in range(2):
        send(seats, seats[lead], ["jump", 0])
        assert pub["ph"] == "jconf" and ENGINE.turn(pub) == (1 - lead, "act")
        send(seats, seats[1 - lead], ["no"])
        assert pub["ph"] == "jump"
    send(seats, seats[lead], ["jump", 1])                    # rejected twice: it stands
    assert pub["ph"] != "jconf" and len(pub["locs"]) == 1


@pytest.mark.parametrize("loc,check", [
    ("L1", "flag"), ("L4", "draw"), ("L5", "repair"), ("L6", "add4"), ("L10", "remove3"),
    ("L7", "strong"), ("L12", "strong"), ("L11", "draw2"), ("L2", "none")])
def test_location_effects(loc, check):
    pub = table()
    s = add_ship(pub, "R4")
    set_damage(pub, 0, ["D5"])
    pub["threat"] = 5
    pub["ddeck"] = ["D2", "D3", "D5", "D5"]
    pub["lopts"] = [loc]
    pub["prop"] = 0
    hs = pub["hs"][0]
    pub["cq"] = []
    pub["adeck"] = []                                        # nothing to reveal: no attackers
    pub["adisc"] = []
    P.run(pub, P.do_jump)
    base = 5 + 2 + 2 + 1                                     # pool + location + 2 ships + level
    if check == "flag":
        assert pub["ships"][0][K.SHIP_DAMAGE] == ["D5", "D2"] and pub["ships"][s][K.SHIP_DAMAGE] == []
    elif check == "draw":
        assert pub["hs"][0] == hs + 1 and pub["threat"] == base
    elif check == "draw2":
        assert pub["hs"][0] == hs + 1 and pub["threat"] == base + 2
    elif check == "repair":
        assert pub["ships"][0][K.SHIP_DAMAGE] == []
    elif check == "add4":
        assert pub["threat"] == base + 4
    elif check == "remove3":
        assert pub["threat"] == base - 3
    elif check == "strong":                                  # Ardor is the strongest ship
        assert pub["ships"][0][K.SHIP_DAMAGE] == ["D5", "D2"]
    else:
        assert pub["threat"] == base and pub["ships"][0][K.SHIP_DAMAGE] == ["D5"]


def test_current_location_text_replaces_the_previous_one():
    pub = table()
    pub["foes"] = [["X2", False]]
    pub["locs"] = ["L9"]
    assert FT.foe_power(pub, 0) == 4                     # Pirate Haven: +1
    pub["locs"] = ["L9", "L2"]
    assert FT.foe_power(pub, 0) == 3


# ---- attack phase --------------------------------------------------------------------------
def test_attack_adds_two_per_location_one_per_ship_and_reveals_until_too_expensive():
    pub = table(1, "red", )
    pub["lvl"] = "easy"
    add_ship(pub, "R4")
    pub["locs"] = ["L2", "L2"]
    pub["threat"] = 1
    pub["adeck"] = ["X2", "X8", "X3", "X6", "X1"]
    P.run(pub, P.attack_start)
    # 1 + 2*2 + 2 = 7: Raider (2), Ambush (2), Interceptor (3) leaves 0; Dreadnought is ignored
    assert [f[0] for f in pub["foes"]] == ["X2", "X3"]
    assert pub["threat"] == 0 and pub["ab"] == 1
    assert pub["adisc"] == ["X8", "X6"] and pub["adeck"] == ["X1"]


def test_an_empty_attack_deck_takes_the_attack_discard_pile_reshuffled():
    # pinned_down.txt, 5 Card Piles: an empty attack deck is made again from its discard pile
    pub = table()
    pub["lvl"] = "easy"
    pub["threat"] = 20
    pub["adeck"] = []
    pub["adisc"] = ["X3", "X2"]
    P.run(pub, P.attack_start)
    assert sorted(f[0] for f in pub["foes"]) == ["X2", "X3"]
    assert pub["adisc"] == [] and pub["adeck"] == []


def test_the_end_draws_near_adds_its_tokens():
    pub = table()
    pub["lvl"] = "easy"
    pub["tbl"] = [["X7", 3]]
    pub["adeck"] = ["X6"]
    P.run(pub, P.attack_start)
    assert pub["threat"] == 3 + 0 + 1
    pub["wq"] = [0]
    pub["ph"] = "wrap"
    pub["dist"] = 0
    ENGINE.apply(pub, 0, ["keep"])
    assert pub["tbl"] == [["X7", 4]]


def test_the_end_draws_near_is_revealed_onto_the_table_once():
    pub = table()
    pub["threat"] = 0
    pub["adeck"] = ["X7", "X6"]
    P.run(pub, P.reveal)
    assert pub["tbl"] == [["X7", 0]]
    assert not F.unique_ok(pub, "X7")


@pytest.mark.parametrize("event", ["X9", "X10", "X11"])
def test_attack_events(event):
    pub = table(1, "blue")
    pub["ships"][0][K.SHIP_ABOARD] = [[0, "B2", 0], [0, "B3", 0]]
    s = add_ship(pub, "B5")
    pub["ships"][s][K.SHIP_CLOAKED] = True
    pub["ddeck"] = ["D2"]
    pub["threat"] = 2
    pub["adeck"] = [event, "X6"]
    P.run(pub, P.reveal)
    if event == "X9":                                        # Sabotage hits the strongest
        assert pub["ships"][0][K.SHIP_DAMAGE] == ["D2"]
    elif event == "X10":                                     # Cantrell is immune to Weary
        assert pub["ships"][0][K.SHIP_ABOARD] == [[0, "B2", 0]] and pub["disc"][0] == ["B3"]
    else:
        assert not pub["ships"][s][K.SHIP_CLOAKED] and s in pub["fs"]


# ---- cloaking ------------------------------------------------------------------------------
def test_cloaked_ships_do_not_fight_and_a_damaged_sensor_prevents_cloaking():
    pub = table(1, "purple")
    a = add_ship(pub, "P2")
    b = add_ship(pub, "P2")
    set_damage(pub, b, ["D8"])
    pub["adeck"] = ["X2", "X6"]
    pub["threat"] = 0
    P.run(pub, P.attack_start)
    assert pub["cq"] == [a] and ENGINE.turn(pub) == (0, "act")
    ENGINE.apply(pub, 0, ["cloak", 1])
    assert pub["fs"] == [0, b] and [f[0] for f in pub["foes"]] == ["X2"]


def test_nebula_gives_every_ship_cloaking():
    pub = table()
    assert not F.can_cloak(pub, 0)
    pub["locs"] = ["L3"]
    assert F.can_cloak(pub, 0)


# ---- assignment ----------------------------------------------------------------------------
def test_every_ship_defends_and_extra_ships_join_any_fight():
    pub = table()
    add_ship(pub, "R4")
    add_ship(pub, "R2")
    to_attack(pub, ["X2", "X3"])
    assert CH.def_options(pub) == [0, 1]
    assign(pub, 0)
    assert CH.def_options(pub) == [0, 1]
    assign(pub, 0)
    assert CH.def_options(pub) == [1]                   # attacker 1 still needs a defender
    assign(pub, 1)
    assert pub["fights"] == [[[0, 1], [0], False], [[2], [1], False]]


def test_extra_attackers_go_lowest_first_to_the_weakest_enemy_fight():
    pub = table()
    add_ship(pub, "R4")
    to_attack(pub, ["X4", "X1", "X3", "X2"])                  # powers 6, 2, 4, 3
    assert CH.def_options(pub) == [0, 1, 2, 3]
    assign(pub, 0, 1)                                        # Ardor vs Destroyer, R4 vs Probe
    # Raider (3) joins the Probe's fight (2 < 6); then Interceptor (4): 5 < 6 -> Probe's again
    assert pub["fights"] == [[[0], [0], False], [[1], [1, 3, 2], False]]


def test_distinct_attackers_when_ships_do_not_outnumber_them():
    pub = table()
    add_ship(pub, "R4")
    to_attack(pub, ["X2", "X3"])
    assign(pub, 1)
    assert CH.def_options(pub) == [0]
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 0, ["def", 1])


# ---- fights --------------------------------------------------------------------------------
def fight_pub(ship_cids, foe_cids):
    pub = table()
    pub["ships"][0][K.SHIP_ALIVE] = False                              # a bare table of given ships
    pub["ships"].append(F.new_ship(0, "R1"))
    pub["ships"][1][K.SHIP_ALIVE] = True
    for c in ship_cids:
        add_ship(pub, c)
    pub["foes"] = [[f, False] for f in foe_cids]
    pub["fights"] = [[list(range(2, 2 + len(ship_cids))), list(range(len(foe_cids))), False]]
    pub["ddeck"] = ["D5", "D5", "D5"]
    return pub


def test_fight_won_discards_the_attackers():
    pub = fight_pub(["R4"], ["X1"])                          # 4 > 2
    P.resolve(pub, 0)
    assert pub["last"] == [0, 4, 2, "win"] and "X1" in pub["adisc"]


def test_equal_power_damages_every_ship_in_the_fight():
    pub = fight_pub(["R4", "R4"], ["X6"])                    # 8 vs 10
    P.resolve(pub, 0)
    assert pub["last"][3] == "dmg"
    assert pub["ships"][2][K.SHIP_DAMAGE] == ["D5"] and pub["ships"][3][K.SHIP_DAMAGE] == ["D5"]
    pub = fight_pub(["R4"], ["X3"])                          # 4 vs 4: not greater
    P.resolve(pub, 0)
    assert pub["last"][3] == "dmg"


def test_overpowered_destroys_the_ships_at_double_power():
    pub = fight_pub(["R2"], ["X6"])                          # 5 vs 10 (destiny aside)
    pub["adeck"] = ["X7"]                                    # destiny 0
    P.resolve(pub, 0)
    assert pub["last"][3] == "over" and not pub["ships"][2][K.SHIP_ALIVE]
    assert pub["dest"][0] == ["R2"]


def test_battle_destiny_adds_the_top_attack_cards_threat():
    pub = fight_pub(["R2"], ["X3"])                          # Lancer 5 vs 4 ...
    pub["adeck"] = ["X6"]                                    # ... plus destiny 7
    P.resolve(pub, 0)
    assert pub["last"][1] == 12 and pub["adisc"][0] == "X6"
    pub = fight_pub(["R4"], ["X5"])                          # Hunter draws destiny too
    pub["adeck"] = ["X4"]
    P.resolve(pub, 0)
    assert pub["last"][2] == 10


def test_damage_over_capacity_discards_at_random_and_full_structure_destroys():
    pub = fight_pub(["R4"], ["X4"])
    s = 2
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "R6", 0]]
    pub["ddeck"] = ["D9"]                                    # capacity -2
    P.resolve(pub, 0)
    assert pub["ships"][s][K.SHIP_ABOARD] == [] and pub["disc"][0] == ["R6"]
    set_damage(pub, s, ["D7", "D2"])
    pub["ddeck"] = ["D5"]                                    # 50 + 40 + 10 = 100%
    F.damage(pub, s, False)
    assert not pub["ships"][s][K.SHIP_ALIVE] and pub["dest"][0] == ["R4"]


def test_a_wreck_keeps_its_place_and_encodes_as_before_but_holds_no_lists():
    pub = fight_pub(["R4"], ["X4"])
    s = 2
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "R6", 0]]
    set_damage(pub, s, ["D7", "D2"])
    pub["ddeck"] = ["D5"]                                    # 50 + 40 + 10 = 100%
    F.damage(pub, s, False)
    wreck = pub["ships"][s]
    assert not wreck[K.SHIP_ALIVE] and wreck[K.SHIP_OWNER] == 0 and wreck[K.SHIP_CARD] == "R4"
    # the cards went where the rules send them, and the wreck holds one shared constant
    assert pub["disc"][0] == ["R6"] and sorted(pub["ddisc"])[-3:] == ["D2", "D5", "D7"]
    for slot in (K.SHIP_DAMAGE, K.SHIP_ABOARD, K.SHIP_OVERLOADS):
        assert wreck[slot] == () and type(wreck[slot]) is tuple
    # the hash chain and a save read the wreck as they read one with empty lists
    as_lists = list(wreck)
    for slot in (K.SHIP_DAMAGE, K.SHIP_ABOARD, K.SHIP_OVERLOADS):
        as_lists[slot] = []
    assert encode(wreck) == encode(as_lists)


def test_losing_every_flagship_loses_the_game():
    pub = fight_pub([], [])
    set_damage(pub, 1, ["D10", "D2"])
    pub["ddeck"] = ["D5"]
    F.damage(pub, 1, False)
    assert ENGINE.result(pub) == ([], "every flagship destroyed")


def test_reaching_distance_ten_wins_at_wrap_up():
    seats = seats_for(2)
    pub = seats[0].pub
    pub["dist"] = 10
    pub["ph"] = "wrap"
    pub["wq"] = [0, 1]
    ENGINE.apply(pub, 0, ["keep"])
    assert ENGINE.result(pub) is None
    ENGINE.apply(pub, 1, ["keep"])
    assert ENGINE.result(pub) == ([0, 1], "distance 10 reached")


def test_wrap_up_discards_then_refills_to_four():
    pub = table()
    pub["hs"] = [2]
    pub["ph"] = "wrap"
    pub["wq"] = [0]
    dn = pub["dn"][0]
    ENGINE.apply(pub, 0, ["discard", "R9"])
    assert pub["hs"] == [4] and pub["dn"][0] == dn - 3 and pub["disc"][0] == ["R9"]
    assert pub["ph"] == "main" and pub["turn"] == 2


# ---- keywords ------------------------------------------------------------------------------
def test_overload_attaches_a_damage_card_and_engine_room_hit_prevents_it():
    pub = table()
    s = add_ship(pub, "R3")
    pub["ddeck"] = ["D1", "D5"]                              # a card left after the overload
    assert ["use", s, -1] in CH.uses(pub, 0)
    ENGINE.apply(pub, 0, ["use", s, -1])
    assert pub["ships"][s][K.SHIP_DAMAGE] == ["D1"] and pub["ships"][s][K.SHIP_BOOST] == 3
    assert F.power(pub, s, None, None) == 7 - 1 + 3
    pub["ships"][s][7] = 0
    assert ["use", s, -1] not in CH.uses(pub, 0)      # Engine Room Hit: can't overload


def test_repair_discards_the_chosen_damage_card():
    pub = table(1, "blue")
    set_damage(pub, 0, ["D5", "D7"])
    ENGINE.apply(pub, 0, ["use", 0, -1, 0, 1])               # Sanctuary repairs itself
    assert pub["ships"][0][K.SHIP_DAMAGE] == ["D5"] and pub["ddisc"] == ["D7"]
    assert ["use", 0, -1, 0, 0] not in CH.uses(pub, 0)  # once per turn


def test_playing_a_starship_from_the_draw_deck_adds_both_threats():
    seats = seats_for(1, "red", seed=b"deckplay")
    s = seats[0]
    s.priv["hand"].append("R11")
    s.pub["hs"][0] += 1
    s.priv["deck"] = ["R9", "R3", "R9"]
    assert ["play", "R11", "R3"] in s.legal() and ["play", "R11", "R2"] not in s.legal()
    s.author(["play", "R11", "R3"])
    assert s.pub["ships"][-1][K.SHIP_CARD] == "R3" and s.pub["threat"] == 1 + 4
    assert sorted(s.priv["deck"]) == ["R9", "R9"] and "R11" not in s.priv["hand"]


def test_uniqueness_counts_play_and_destroyed_piles():
    pub = table()
    assert CH.card_options(pub, 0, "R1", "main", None) == []     # Ardor in play
    pub["ships"][0][K.SHIP_ABOARD].append([0, "R5", 0])
    assert CH.card_options(pub, 0, "R5", "main", None) == []
    pub = table()
    pub["dest"][0].append("R1")
    pub["ships"][0][K.SHIP_ALIVE] = False
    assert CH.card_options(pub, 0, "R1", "main", None) == []


def test_spare_parts_repair_a_ship_of_the_same_type():
    pub = table()
    set_damage(pub, 0, ["D5"])
    assert CH.spares(pub, "R3") == [["spare", "R3", 0, 0]]     # both Battleships
    assert CH.spares(pub, "R2") == []
    ENGINE.apply(pub, 0, ["spare", "R3", 0, 0])
    assert pub["ships"][0][K.SHIP_DAMAGE] == [] and pub["disc"][0] == ["R3"] and pub["threat"] == 0


# ---- every designed card -------------------------------------------------------------------
def test_ship_powers_with_captains_equipment_and_locations():
    pub = table()
    pub["locs"] = ["L2", "L2"]
    assert F.power(pub, 0, None, None) == 11                             # Ardor: +x locations
    pub["ships"][0][K.SHIP_ABOARD] = [[0, "R5", 0], [0, "R6", 0], [0, "R8", 0]]
    assert F.power(pub, 0, None, None) == 11 + 2 + 1 + 2
    set_damage(pub, 0, ["D4"])                             # Bridge Hit: no bonuses
    assert F.power(pub, 0, None, None) == 9


def test_intertia_stabilizer_only_against_equal_or_higher_printed_power():
    pub = table()
    s = add_ship(pub, "R4")
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "P7", 0]]
    assert F.power(pub, s, ["X2"], None) == 4
    assert F.power(pub, s, ["X3"], None) == 5
    assert F.power(pub, s, None, None) == 4


def test_tactical_officer_and_cloaking_device_grant_keywords():
    pub = table()
    s = add_ship(pub, "R4")
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "R7", 0]]
    assert "BD" in F.abilities(pub, s)
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "P8", 0]]
    assert F.can_cloak(pub, s)


def test_ac_arr_ships_share_texts_but_not_flagship_or_upkeep():
    pub = table(1, "acarr")
    d = add_ship(pub, "A2")
    add_ship(pub, "A3")
    add_ship(pub, "A5")
    codes = F.abilities(pub, d)
    assert "BD" in codes and "SW" in codes and "OV3" in codes and "F" not in codes
    assert "U1" not in codes
    assert F.power(pub, d, ["X2"], [0, d]) == 2 + 1          # Hive Queen's swarm bonus
    assert ["use", d, -1] in CH.uses(pub, 0)


@pytest.mark.parametrize("cid,threat", [("P9", 1 - 4), ("R10", 2), ("A9", 1)])
def test_simple_effects(cid, threat):
    pub = table(1, "purple")
    pub["threat"] = 10
    ev = ["play", cid] if cid == "P9" else ["play", cid, 0]
    ENGINE.apply(pub, 0, ev)
    assert pub["threat"] == 10 + threat and pub["disc"][0] == [cid]
    if cid != "P9":
        assert pub["ships"][0][K.SHIP_BOOST] == int(C.get(cid)[C.KEYWORDS][0][2:])


def test_false_echoes_removes_one_per_cloaking_ship():
    pub = table(1, "purple")
    add_ship(pub, "P2")
    add_ship(pub, "P3")
    pub["threat"] = 5
    ENGINE.apply(pub, 0, ["play", "P11"])
    assert pub["threat"] == 3


def test_long_range_scan_and_intel_officer_peek_and_bottom():
    pub = table(1, "purple")
    pub["ldeck"] = ["L8", "L2"]
    ENGINE.apply(pub, 0, ["play", "P10", 1])
    assert pub["ldeck"] == ["L2", "L8"]
    pub["ships"][0][K.SHIP_ABOARD] = [[0, "P5", 0]]
    pub["adeck"] = ["X6", "X1"]
    ENGINE.apply(pub, 0, ["use", 0, 0, 1])
    assert pub["adeck"] == ["X1", "X6"] and ["use", 0, 0, 0] not in CH.uses(pub, 0)


@pytest.mark.parametrize("via", ["effect", "char"])
def test_retrieving_from_the_discard_pile(via):
    seats = seats_for(1, "blue", seed=b"ret")
    s = seats[0]
    s.pub["disc"][0] = ["B6"]
    if via == "effect":
        s.priv["hand"].append("B11")
        s.pub["hs"][0] += 1
        s.author(["play", "B11", "B6"])
    else:
        s.pub["ships"][0][K.SHIP_ABOARD] = [[0, "B4", 0]]
        s.author(["use", 0, 0, "B6"])
    assert "B6" in s.priv["hand"] and s.pub["disc"][0] == (["B11"] if via == "effect" else [])
    assert s.pub["hs"][0] == len(s.priv["hand"])


def test_repair_crew_damage_control_kit_and_emergency_repairs():
    pub = table(1, "blue")
    set_damage(pub, 0, ["D5", "D2", "D3"])
    pub["ships"][0][K.SHIP_ABOARD] = [[0, "B3", 0], [0, "B9", 0]]
    ENGINE.apply(pub, 0, ["use", 0, 0, 0])
    ENGINE.apply(pub, 0, ["use", 0, 1, 0])
    assert pub["ships"][0][K.SHIP_DAMAGE] == ["D3"] and pub["ships"][0][K.SHIP_ABOARD] == [[0, "B3", 1]]
    ENGINE.apply(pub, 0, ["play", "B10", 0, 0])
    assert pub["ships"][0][K.SHIP_DAMAGE] == [] and pub["disc"][0] == ["B9", "B10"]


def test_reinforced_hull_and_bulwark_reduce_structure_loss():
    pub = table(1, "blue")
    s = add_ship(pub, "B6")
    set_damage(pub, s, ["D2", "D5"])
    assert F.structure_lost(pub, s, None) == 30 + 0
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "B8", 0]]
    assert F.structure_lost(pub, s, None) == 20


def test_overload_damage_is_not_lessened_by_structure_reductions():
    # rule 9.3: "Damage taken from overloading cannot be prevented."
    pub = table(1, "red")
    s = add_ship(pub, "R3")                                  # Vanguard: overload for power +3
    pub["ships"][s][K.SHIP_ABOARD] = [[0, "B8", 0]]                     # Reinforced Hull: 10% less
    pub["ddeck"] = ["D2", "D2", "D5"]                        # Hull Breach 40%, Minor 10%
    ENGINE.apply(pub, 0, ["use", s, -1])
    assert pub["ships"][s][K.SHIP_DAMAGE] == ["D2"]
    assert F.structure_lost(pub, s, None) == 40                    # not 30
    F.damage(pub, s, False)                                         # fight damage is still lessened
    assert pub["ships"][s][K.SHIP_DAMAGE] == ["D2", "D2"] and F.structure_lost(pub, s, None) == 40 + 30
    F.repair(pub, s, 0)                                      # the overload card goes first
    assert F.structure_lost(pub, s, None) == 30
    # a forced overload (Minefield) on a shielded ship takes its full loss too
    pub = table(1, "blue")
    pub["ships"][0][K.SHIP_ABOARD] = [[0, "B8", 0]]                     # on the only ship, the strongest
    pub["ddeck"] = ["D2", "D2"]
    pub["lopts"], pub["prop"], pub["cq"], pub["adeck"] = ["L7"], 0, [], []
    P.run(pub, P.do_jump)
    assert pub["ships"][0][K.SHIP_DAMAGE] == ["D2"] and F.structure_lost(pub, 0, None) == 40
    # Event Horizon damages (does not overload) the strongest ship: the reduction holds
    pub["ddeck"] = ["D2"]
    pub["lopts"], pub["prop"], pub["cq"], pub["adeck"] = ["L12"], 0, [], []
    P.run(pub, P.do_jump)
    assert pub["ships"][0][K.SHIP_DAMAGE] == ["D2", "D2"] and F.structure_lost(pub, 0, None) == 40 + 30


def test_damage_with_the_damage_deck_and_its_discard_pile_empty_destroys_the_ship():
    pub = table()
    s = add_ship(pub, "R4")
    set_damage(pub, s, ["D5"])
    pub["ddeck"], pub["ddisc"] = [], []
    F.damage(pub, s, False)
    assert not pub["ships"][s][K.SHIP_ALIVE] and pub["dest"][0] == ["R4"]
    assert pub["ddisc"] == ["D5"]                            # its card is free again
    assert pub["ships"][0][K.SHIP_ALIVE] and pub["end"] is None
    F.damage(pub, 0, False)                                         # that card is drawn next
    assert pub["ships"][0][K.SHIP_DAMAGE] == ["D5"] and pub["ships"][0][K.SHIP_ALIVE]
    # a fight lost with nothing to draw destroys every ship in it
    pub = fight_pub(["R4", "R4"], ["X6"])                    # 8 vs 10: damaged
    pub["ddeck"], pub["ddisc"] = [], []
    P.resolve(pub, 0)
    assert pub["last"][3] == "dmg"
    assert not pub["ships"][2][K.SHIP_ALIVE] and not pub["ships"][3][K.SHIP_ALIVE] and pub["ships"][1][K.SHIP_ALIVE]


def test_no_voluntary_overload_without_a_damage_card_to_attach():
    pub = table()
    s = add_ship(pub, "R3")
    pub["ddeck"], pub["ddisc"] = [], []
    assert ["use", s, -1] not in CH.uses(pub, 0)
    before = encode(pub)
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 0, ["use", s, -1])
    assert encode(pub) == before
    pub["ddisc"] = ["D5"]                                    # reshuffled when drawn
    assert ["use", s, -1] in CH.uses(pub, 0)
    # a forced overload (Minefield) still happens: the ship is destroyed
    pub["ddisc"] = []
    t = F.strongest(pub)
    pub["lopts"], pub["prop"], pub["cq"], pub["adeck"] = ["L7"], 0, [], []
    P.run(pub, P.do_jump)
    assert not pub["ships"][t][K.SHIP_ALIVE]


def test_cantrell_draws_at_the_beginning_of_the_owners_turn():
    pub = table(1, "blue")
    pub["ships"][0][K.SHIP_ABOARD] = [[0, "B2", 0]]
    hs = pub["hs"][0]
    P.start_turn(pub)
    assert pub["hs"][0] == hs + 1


def test_silent_whisper_removes_two_at_the_attack_phase():
    pub = table(1, "purple")
    pub["lvl"] = "easy"
    pub["threat"] = 5
    pub["adeck"] = ["X6"]
    P.run(pub, P.attack_start)
    assert pub["threat"] == 5 + 1 - 2


@pytest.mark.parametrize("cid", ["R9", "A6"])
def test_fight_effects_boost_the_ships_of_one_fight(cid):
    pub = table(1, "red" if cid == "R9" else "acarr")
    to_attack(pub, ["X2"])
    assign(pub, 0)
    ENGINE.apply(pub, 0, ["play", cid, 0])
    assert pub["ships"][0][K.SHIP_BOOST] == (2 if cid == "R9" else 1)


def test_spawn_plays_a_drone_from_the_draw_deck():
    seats = seats_for(1, "acarr", seed=b"spawn")
    s = seats[0]
    s.priv["hand"].append("A7")
    s.pub["hs"][0] += 1
    s.priv["deck"] = ["A2", "A8"]
    s.author(["play", "A7"])
    assert s.pub["ships"][-1][K.SHIP_CARD] == "A2" and s.priv["deck"] == ["A8"]
    assert s.pub["threat"] == 1 + 1


def test_every_card_has_text_or_is_a_vanilla_ship_and_fits_the_screen():
    for c in C.CARDS:
        assert len(c[C.NAME]) <= 24
        if c[C.TYPE] not in (C.SHIP, C.FOE):
            assert C.text(c[C.CARD_ID])


# ---- deck files ----------------------------------------------------------------------------
def test_the_shipped_decks_are_legal():
    for aff in C.AFFS:
        a, flag, deck = deckfile.load(aff)
        assert a == aff and len(deck) >= 30 and C.kw(flag, "F")


@pytest.mark.parametrize("text,rule", [
    ("affiliation red\nflagship R1\n4 R2\n", "deck size rule"),
    ("affiliation red\nflagship R1\n" + "4 R2\n" * 2 + "4 R3\n" * 6, "copy rule"),
    ("affiliation green\nflagship R1\n", "affiliation rule"),
    ("affiliation red\n4 R2\n", "set-up rule"),
    ("affiliation red\nflagship R2\n", "set-up rule"),
    ("affiliation blue\nflagship R1\n", "affiliation rule"),
    ("affiliation acarr\nflagship A1\n4 B3\n", "Ac'arr"),
    ("affiliation red\nflagship R1\n4 Q9\n", "unknown card"),
    ("affiliation red\nflagship R1\n4 X2\n", "player card"),
    ("affiliation red\nflagship R1\nfour R2\n", "unknown key"),
    ("flagship R1\n", "affiliation rule"),
    ("affiliation red\nflagship R1\n4 R1\n" + "4 R2\n", "copy rule")])
def test_illegal_decks_name_the_rule(text, rule):
    with pytest.raises(deckfile.DeckError, match=rule):
        deckfile.validate(text)


# ---- play-outs, fairness, bad input --------------------------------------------------------
@pytest.mark.parametrize("event", [
    [], ["play"], ["play", "R9"], ["play", 3], ["ready", 1], ["jump", 0], ["fight", 0],
    ["use", 0, -1], ["move", 0, 0, 1], ["spare", "R3", 0, 0], ["show", ["R1"]],
    ["discard", "R9"], ["def", 0], "x", ["x"], ["play", "R8", 7], ["play", "X2"]])
def test_bad_events_raise_and_leave_pub_unchanged(event):
    pub = table()
    before = encode(pub)
    with pytest.raises(IllegalAction):
        ENGINE.apply(pub, 0, event)
    assert encode(pub) == before


def test_out_of_turn_events_are_refused():
    seats = seats_for(2)
    pub = seats[0].pub
    other = 1 - pub["lead"]
    before = encode(pub)
    with pytest.raises(IllegalAction, match="out of turn"):
        ENGINE.apply(pub, other, ["ready"])
    assert encode(pub) == before


def test_concede_ends_the_game_for_the_whole_fleet():
    pub = table()
    ENGINE.concede(pub, 0)
    assert ENGINE.result(pub) == ([], "conceded") and ENGINE.turn(pub) is None


# ---- the schema names the state as the engine builds it -------------------------------------
def _named(prefix=""):
    return {getattr(K, n): n for n in dir(K) if n.isupper() and n.startswith(prefix)}


def test_every_key_of_the_public_and_private_state_has_a_name():
    seats = seats_for(2)
    pub, mine = seats[0].pub, seats[0].priv
    keys = set(v for v in _named() if isinstance(v, str))
    assert [k for k in pub if k not in keys] == []
    assert [k for k in mine if k not in keys] == []
    assert pub[K.PHASE] == K.PHASE_MAIN and pub[K.PLAYER_COUNT] == 2


def test_every_slot_of_a_ship_has_a_name_in_order():
    ship = F.new_ship(0, "R1")
    slots = sorted(v for v in _named("SHIP_") if type(v) is int)
    assert slots == list(range(len(ship)))
    assert ship[K.SHIP_OWNER] == 0 and ship[K.SHIP_CARD] == "R1" and ship[K.SHIP_ALIVE] is True


def test_every_phase_has_its_handlers_and_every_tag_a_name():
    phases = set(v for v in _named("PHASE_") if isinstance(v, str))
    tags = set(v for v in _named("EV_") if isinstance(v, str))
    assert set(ENGINE.HANDLERS) == phases - {K.PHASE_SETUP, K.PHASE_OVER}
    handled = set()
    for table_ in ENGINE.HANDLERS.values():
        handled.update(table_)
    assert handled == tags


def test_every_card_is_found_by_its_id_and_nothing_else_is():
    # cards.IDS stands in for a dict of the ids: a wrong match would read another card's rules
    for i, card in enumerate(C.CARDS):
        assert C.ix(card[C.CARD_ID]) == i and C.get(card[C.CARD_ID]) is card
        assert F.is_acarr(card[C.CARD_ID]) == (card[C.AFF] == "A")
    for bad in ("P12", "P0", "X", "P", "1 P", "P1 ", "10", "R1R", "", "D11", 1, None, b"P1"):
        assert not C.known(bad), bad
        with pytest.raises(KeyError):
            C.get(bad)
