# The hash chain's promise (games/seat.py chain_next), attacked. The chain hashes the public
# state an event applies to, not the one it leaves, and an answer chains without it, so that
# no state is hashed on the way from a press to the partner's panel. What that must not cost:
# a public state that differs on one unit is still found, at the next event that chains on it
# (the next event when it is a move, one later when an answer comes first), and a difference
# in the state the game's last event leaves is found by the end's own fold. Every head
# follows the formula docs/PROTOCOL.md gives.
import pytest

from fathom.games.local import Desync, make_seats
from fathom.games.seat import chain_next, state_hash
from kit.play import play_seats
from toy.engine import ENGINE, FIRST, Toy

pytestmark = pytest.mark.micropython

SEED = b"chain"


class Bot:
    """Guesses 1, 2, 3, ... (the toy's actions), picks 4 at set-up: a long game, every kind of
    event."""

    def __init__(self):
        self.n = 0

    def setup(self, seat):
        return 4

    def act(self, seat):
        self.n += 1
        return ["guess", 1 + self.n % seat.pub["top"]]


def first_difference(seats, tamper):
    """Play until the seats' short hashes differ; tamper(seats, n) after event n may change
    seat 1. Returns the index of the event after which they first differ (None: never)."""
    def on_event(ss, author, event, before):
        tamper(ss, ss[0].n_log - 1)
    try:
        play_seats(seats, [Bot(), Bot()], on_event)
    except Desync as e:
        return int(str(e).split()[-1])
    return None


def flip_after(kind_next):
    """A tamper that flips an unused public field on seat 1 after the first event (past the
    set-ups) that the next event of kind `kind_next` follows; returns it and where it struck."""
    struck = []

    def tamper(ss, n):
        t = ss[0].to_move()
        if not struck and n > 2 and t is not None and t[1] == kind_next:
            ss[1].pub[FIRST] ^= 1  # as a bug on one unit would: play goes on the same
            struck.append(n)
    return tamper, struck


def test_a_state_that_differs_before_a_move_is_found_at_that_move():
    tamper, struck = flip_after("act")
    seats = make_seats(ENGINE, ENGINE.options(), 2, SEED)
    assert first_difference(seats, tamper) == struck[0] + 1


def test_a_state_that_differs_before_an_answer_is_found_at_the_move_after_it():
    tamper, struck = flip_after("answer")
    seats = make_seats(ENGINE, ENGINE.options(), 2, SEED)
    assert first_difference(seats, tamper) == struck[0] + 2


class LastStateDiffers(Toy):
    """A unit whose engine leaves one more public change behind the event that ends the game:
    the state the last event leaves differs, and no earlier one."""

    def apply(self, pub, author, event):
        Toy.apply(self, pub, author, event)
        if self.result(pub) is not None:
            pub[FIRST] ^= 1


def test_a_last_state_that_differs_is_found_by_the_end_fold():
    seats = make_seats(ENGINE, ENGINE.options(), 2, SEED)
    seats[1] = make_seats(LastStateDiffers(), ENGINE.options(), 2, SEED)[1]
    heads = []
    last = first_difference(seats, lambda ss, n: heads.append(ss[0].chain == ss[1].chain))
    # the heads agreed up to the last event, which no later event could have shown
    assert seats[0].result() is not None and last == seats[0].n_log - 1
    assert heads == [True] * last


def test_the_chain_is_the_documented_formula_and_every_journalled_hash_matches():
    """Each head from the one before it, the event, and the hash of the state it applies to
    unless it is an answer (plus the last state's, at the end), as docs/PROTOCOL.md gives it:
    what another implementation must compute to play against this one."""
    s = make_seats(ENGINE, ENGINE.options(), 2, SEED)[0]
    other = make_seats(ENGINE, ENGINE.options(), 2, SEED)[1]
    play_seats([s, other], [Bot(), Bot()])
    again = make_seats(ENGINE, ENGINE.options(), 2, SEED)[0]
    for c in s.setup_choices:
        again.setup_choose(c)
    head = again.chain
    answers = 0
    for i, rec in enumerate(s.records()):
        author, event = rec[1], rec[2]
        t = again.to_move()
        answer = t is not None and t[1] == "answer"
        answers += answer
        before = None if answer else state_hash(again.pub)
        if author == again.player:
            again.author(rec[5] if len(rec) > 5 else None)
        else:
            again.receive(author, event, rec[4])
        after = state_hash(again.pub) if again.result() is not None else None
        head = chain_next(head, before, event, after)
        assert head == again.chain and head[:8] == rec[3], i
    assert again.chain == s.chain and answers >= 3  # answers, moves and set-ups all met
