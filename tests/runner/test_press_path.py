# What a move costs on its way from a press to the partner's panel (docs/ARCHITECTURE.md, "A
# press to the partner's panel"), held move by move for every two-player game, both units in
# the app's order (tick, redraw, late()): neither hashes a public state between the key and
# the partner's screen (the mover's play and tick, the partner's tick, its answer included),
# each does it after its redraw; and a sealed deal's step, up to a second on an ESP32, is
# never authored in the tick that plays or takes in a move, on either unit.
import pytest

from fathom import games
from fathom.games import seat as seatmod
from test_receipts_after_redraw import pair

pytestmark = [pytest.mark.micropython, pytest.mark.slow]  # whole games, move by move

MOVES = 40   # timed moves per game (all of a short one)


def counting_hashes():
    """Make seat.state_hash count its calls; returns (count list, undo)."""
    real = seatmod.state_hash
    n = [0]

    def counted(pub):
        n[0] += 1
        return real(pub)
    seatmod.state_hash = counted

    def undo():
        seatmod.state_hash = real
    return n, undo


@pytest.mark.parametrize("gid", ["ashtapada", "ping", "sugardog", "periplus", "pinned_down"])
def test_no_state_is_hashed_between_a_key_and_the_partners_panel(gid):
    a, b = pair(b"press", games.engine(gid))
    hashed, undo = counting_hashes()
    moves = answered = after = 0
    try:
        now = 0
        while moves < MOVES and not (a.runner.finished() and b.runner.finished()):
            now += 10
            assert now < 600000, "stalled at %d events" % a.runner.seat.n_log
            for u, other in ((a, b), (b, a)):
                s, o = u.runner.seat, other.runner.seat
                while s.setup_legal():
                    u.runner.setup_choose(u.bot.setup(s))
                t = s.to_move()
                if t is not None and t[0] == s.player and t[1] == "act" and \
                        u.runner.my_turn() and s.result() is None:
                    n_mover, n_other = s.n_log, o.n_log
                    hashed[0] = 0
                    u.runner.play(u.bot.act(s))
                    now += 10
                    u.runner.tick(now)
                    other.runner.tick(now)  # up to what the partner's screen draws
                    if s.result() is None and o.result() is None:
                        assert hashed[0] == 0, (gid, s.n_log)  # (the end's fold: once a game)
                    assert s.n_log == n_mover + 1, "the mover authored more with its move"
                    assert o.n_log >= n_other + 1
                    if o.n_log > n_other + 1:
                        answered += 1
                        assert gid != "periplus", "a sealed step before the move was drawn"
                    hashed[0] = 0
                    u.runner.late(now)
                    other.runner.late(now)
                    after += hashed[0]
                    moves += 1
                u.runner.tick(now)
                u.runner.late(now)
    finally:
        undo()
    assert moves >= 4 and after > 0, (moves, after)
    if gid in ("ashtapada", "ping"):
        assert answered > 0  # a move the partner answers from its secrets: also unhashed
