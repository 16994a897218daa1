# base.Engine.apply, the one way every game applies an event: the shape, author, set-up and turn
# checks made once, dispatch through the game's HANDLERS (by tag, or by phase then tag, with
# ANY_PHASE), a wrong-typed slot refused by name, the TRANSIENT key put back on a refusal, and a
# dispatch that allocates nothing of its own. Runs on both runtimes.
import sys

import pytest

from fathom.codec import encode
from fathom.compat import const
from fathom.games.base import READY, Engine, IllegalAction, check_int, check_size, event_tag

pytestmark = pytest.mark.micropython

MP = sys.implementation.name == "micropython"

# a two-phase counting game: in "add" a player adds 1..3 to the count, in "ok" the other
# player confirms; "note" is accepted in either phase
COUNT = const("count")
PH = const("ph")
TURN = const("turn")
LAST = const("last")      # the transient entry: what the latest event added, else None
EV_ADD = const("add")
ADD_BY = const(1)
EV_OK = const("ok")
EV_NOTE = const("note")


class Counter(Engine):
    PLAYERS = (2, 2)
    TRANSIENT = LAST

    def new_game(self, opts, n, rng):
        return {READY: [False, False], COUNT: 0, PH: EV_ADD, TURN: 0, LAST: None}

    def turn(self, pub):
        if pub[COUNT] >= 10:
            return None
        return (pub[TURN], "act") if pub[PH] == EV_ADD else (1 - pub[TURN], "answer")

    def phase(self, pub):
        return pub[PH]

    def _h_add(self, pub, author, ev):
        check_size(ev, 2)
        by = check_int(ev[ADD_BY], 1, 4, "step")
        pub[COUNT] += by
        pub[LAST] = by
        pub[PH] = EV_OK

    def _h_ok(self, pub, author, ev):
        check_size(ev, 1)
        pub[PH] = EV_ADD
        pub[TURN] = 1 - pub[TURN]

    def _h_note(self, pub, author, ev):
        # trips over a slot it did not check: a str where it adds an int
        pub[COUNT] = pub[COUNT] + 0 * ev[1]


Counter.HANDLERS = {EV_ADD: {EV_ADD: Counter._h_add}, EV_OK: {EV_OK: Counter._h_ok}}
Counter.ANY_PHASE = {EV_NOTE: Counter._h_note}
ENGINE = Counter()


def started():
    pub = ENGINE.new_game({}, 2, None)
    ENGINE.apply(pub, 0, ["setup", None, b"c0"])
    ENGINE.apply(pub, 1, ["setup", None, b"c1"])
    return pub


def refused(pub, author, event, match):
    before = encode(pub)
    with pytest.raises(IllegalAction, match=match):
        ENGINE.apply(pub, author, event)
    assert encode(pub) == before


@pytest.mark.parametrize("event", [None, [], "add", (EV_ADD, 1), [1, 2], [b"add", 1]])
def test_an_event_of_the_wrong_shape_is_refused_by_the_one_guard(event):
    with pytest.raises(IllegalAction, match="malformed event"):
        event_tag(event)
    refused(started(), 0, event, "malformed event")


@pytest.mark.parametrize("author", [-1, 2, True, "0", None])
def test_an_author_not_a_seat_is_refused(author):
    refused(started(), author, [EV_ADD, 1], "bad author")


def test_play_waits_for_every_set_up_and_a_set_up_comes_once():
    pub = ENGINE.new_game({}, 2, None)
    ENGINE.apply(pub, 0, ["setup", None, b"c0"])
    refused(pub, 0, [EV_ADD, 1], "every set-up")
    refused(pub, 0, ["setup", None, b"c0"], "twice")
    refused(pub, 1, ["setup", [1], b"c1"], "malformed setup event")


def test_the_handler_is_the_one_the_phase_and_tag_name():
    pub = started()
    refused(pub, 1, [EV_ADD, 1], "out of turn")
    refused(pub, 0, [EV_OK], "ok not allowed now")   # a tag of the other phase
    refused(pub, 0, ["nope"], "nope not allowed now")
    ENGINE.apply(pub, 0, [EV_ADD, 3])
    assert (pub[COUNT], pub[PH], pub[LAST]) == (3, EV_OK, 3)
    refused(pub, 1, [EV_ADD, 1], "add not allowed now")
    ENGINE.apply(pub, 1, [EV_OK])
    assert (pub[PH], pub[TURN], pub[LAST]) == (EV_ADD, 1, None)   # transient: cleared


def test_a_handler_refusing_changes_nothing_and_puts_the_transient_entry_back():
    pub = started()
    ENGINE.apply(pub, 0, [EV_ADD, 2])
    assert pub[LAST] == 2
    refused(pub, 1, [EV_OK, 1], "malformed ok event")       # check_size
    pub2 = started()
    refused(pub2, 0, [EV_ADD, 4], "bad step")                   # check_int, range(1, 4)
    refused(pub2, 0, [EV_ADD, True], "bad step")
    assert pub[LAST] == 2


def test_a_slot_the_handler_trips_over_is_refused_as_malformed_by_its_tag():
    pub = started()
    ENGINE.apply(pub, 0, [EV_ADD, 2])
    refused(pub, 1, [EV_NOTE, "x"], "malformed note event")    # any phase: ANY_PHASE
    refused(pub, 1, [EV_NOTE], "malformed note event")
    ENGINE.apply(pub, 1, [EV_NOTE, 5])
    assert pub[LAST] is None


def test_the_game_over_takes_no_event():
    pub = started()
    pub[COUNT] = 10
    refused(pub, 0, [EV_ADD, 1], "game is over")


def test_the_dispatch_allocates_nothing_beyond_the_turn_it_asks_for():
    if not MP:
        pytest.skip("heap counting is MicroPython's")
    import gc
    pub = started()
    ev = [EV_OK]
    ENGINE.apply(pub, 0, [EV_ADD, 1])

    def cost(fn):
        gc.collect()
        gc.disable()
        try:
            before = gc.mem_alloc()
            fn()
            return gc.mem_alloc() - before
        finally:
            gc.enable()

    turn = cost(lambda: ENGINE.turn(pub))
    assert pub[PH] == EV_OK
    spent = cost(lambda: ENGINE.apply(pub, 1, ev))
    assert spent <= turn + 16, (spent, turn)   # one block's slack: the lambda's own frame


# A game whose set-up is a phase (not pub[READY]) and whose handlers return the step that
# follows: an "add" that reaches 5 runs a bonus step, which runs the step that ends the turn.
class Stepped(Counter):
    def new_game(self, opts, n, rng):
        return {READY: [False, False], COUNT: 0, PH: "setup", TURN: 0, LAST: None}

    def set_up(self, pub):
        return pub[PH] != "setup"

    def apply_setup(self, pub, author, event):
        pub[READY][author] = True
        if False not in pub[READY]:
            pub[PH] = EV_ADD
            pub[READY] = [False, False]   # the key means something else in play
        return None

    def _h_add(self, pub, author, ev):
        Counter._h_add(self, pub, author, ev)
        return _bonus if pub[COUNT] >= 5 else None


def _bonus(pub):
    pub[COUNT] += 100
    return _pass_turn


def _pass_turn(pub):
    pub[PH] = EV_ADD
    pub[TURN] = 1 - pub[TURN]
    return None


Stepped.HANDLERS = {EV_ADD: {EV_ADD: Stepped._h_add}, EV_OK: {EV_OK: Counter._h_ok}}


def test_the_steps_a_handler_returns_run_in_turn_and_set_up_asks_the_game():
    eng = Stepped()
    pub = eng.new_game({}, 2, None)
    eng.apply(pub, 0, ["setup", None, b"c0"])
    with pytest.raises(IllegalAction, match="every set-up"):
        eng.apply(pub, 0, [EV_ADD, 1])
    eng.apply(pub, 1, ["setup", None, b"c1"])
    assert pub[READY] == [False, False]     # play goes on: set_up() reads the phase, not READY
    eng.apply(pub, 0, [EV_ADD, 3])
    assert (pub[COUNT], pub[PH]) == (3, EV_OK)   # no step returned
    eng.apply(pub, 1, [EV_OK])
    eng.apply(pub, 1, [EV_ADD, 3])
    assert (pub[COUNT], pub[PH], pub[TURN]) == (106, EV_ADD, 0)   # both steps ran
