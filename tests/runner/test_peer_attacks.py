# A modified peer over a real link (real runners, journals, keyed channels and LinkPeers over an
# in-memory wire: runner/test_resume_gap.py's units) sends what an honest unit never does, in the
# middle of a game: a message larger than a channel reassembles, one nested deeper than the
# codec reads, an event out of its turn, an event the rules do not allow, an event as its
# partner. Each is refused and counted or named on the receiver, and the game goes on to a
# verified end with equal logs. Power cuts at seeded random moments of a whole game (the
# in-process kill -9: nothing after the cut runs, the unit boots from its flash alone) resume
# with equal logs and hashes too.
import pytest

from fathom.link.channel import MAX_MESSAGE
from fathom.prng import Prng
from hostmodes.cheat import DEEP, oversized
import test_resume_gap as gap

pytestmark = pytest.mark.micropython

FOUL = object()                 # any foul the engine names ("refused: ...")


def attacks(victim, attacker):
    """(name, send(), the victim's status after it or None), sent by the attacker's unit at
    the victim's next log index as it is when each is sent."""
    peer = attacker.runner.peers[0]
    other = 1 - victim.player

    def n():
        return victim.runner.seat.n_log

    def turn():
        t = victim.runner.seat.to_move()
        return t[0] if t is not None else other
    yield "oversized", lambda: oversized(peer.ch, MAX_MESSAGE + 600), None
    yield "deep", lambda: peer.ch.send(DEEP), "refused: unknown message bad"
    yield "as its partner", lambda: peer.send(
        ["ev", n(), victim.player, ["zz"], b"h" * 8, b"c" * 8]), \
        "refused: a peer sent an event as me"
    yield "no commitment", lambda: peer.send(["ev", n(), other, ["c", 0], b"h" * 8, None]), \
        "refused: an event without its state commitment"
    yield "malformed", lambda: peer.send(["ev", n(), other]), "refused: malformed event message"
    yield "out of turn or illegal", lambda: peer.send(
        ["ev", n(), other, ["zz", 1], b"h" * 8, b"c" * 8]), \
        lambda: "refused: out of turn: player %d sent, player %d to play" % (
            other, turn()) if turn() != other else FOUL


def test_a_modified_peer_is_refused_counted_and_the_game_goes_on():
    units = gap.pair(b"attack", engine=gap.TOY)
    victim, attacker = units
    now = 0
    done = []
    for _ in range(gap.ROUNDS):
        now += gap.STEP
        for u in units:
            u.step(now)
        if not done and victim.runner.seat.n_log >= 3:
            for name, send, words in attacks(victim, attacker):
                before = (victim.runner.peers[0].ch.stats["dropped_malformed"],
                          victim.runner.peers[0].bad, victim.runner.seat.n_log)
                send()
                for _k in range(60):  # the frames travel, the victim reads them
                    now += gap.STEP
                    attacker.tick(now)
                    victim.tick(now)
                r = victim.runner
                if name == "oversized":
                    assert r.peers[0].ch.stats["dropped_malformed"] == before[0] + 1
                elif name == "deep":
                    assert r.peers[0].bad == before[1] + 1
                if callable(words):
                    words = words()
                if words is FOUL:  # an illegal event on its turn: the engine names the foul
                    assert r.problem.startswith("refused: ") and r.seat.n_log == before[2], \
                        (name, r.problem)
                elif words is not None:
                    assert r.problem == words, (name, r.problem)
                assert r.desync is None, (name, r.desync)
                done.append(name)
        if all(u.runner.finished() for u in units):
            break
    assert {"oversized", "deep", "malformed", "no commitment"} <= set(done), done
    a, b = units[0].runner, units[1].runner
    assert a.verdicts == {1: None} and b.verdicts == {0: None}
    assert gap.log_of(a.seat) == gap.log_of(b.seat)
    print("refused and counted: %s; the game ended verified at %d events" % (
        ", ".join(done), a.seat.n_log))


def random_cuts(seed, count):
    """cut(kind, name, body) for Flash: the power fails at the k-th effect (a write, an append
    or a frame) of a boot, k seeded at random, `count` times in all, player 0 and 1 in turn."""
    prng = Prng(seed, b"cuts")
    left = [count]

    def arm(unit):
        if left[0] <= 0:
            unit.flash.cut = None
            return
        k = 1 + prng.below(60)
        seen = [0]

        def cut(kind, name, body):
            seen[0] += 1
            if seen[0] == k:
                left[0] -= 1
                return True
            return False
        unit.flash.cut = cut
    return arm, left


def cut_game(seed, count, engine):
    units = gap.pair(seed, engine=engine)
    arm, left = random_cuts(seed, count)
    for u in units:
        boot = u.boot

        def again(now, u=u, boot=boot):
            boot(now)
            arm(u)
        u.boot = again
    arm(units[0])
    arm(units[1])
    now = gap.run(units, 60000)
    gap.check_verified_end(units, now)
    cuts = sum(u.boots for u in units)
    assert cuts >= min(count, 1) and left[0] <= 0, (cuts, left)
    return units, cuts


@pytest.mark.slow   # a whole game cut three times: make test, not the fast loop
@pytest.mark.parametrize("engine", ["toy", "ping"])
def test_three_power_cuts_at_random_moments_resume_with_equal_logs(engine):
    from fathom.games.ping.engine import ENGINE as PING
    units, cuts = cut_game(b"cut3" + engine.encode(), 3, gap.TOY if engine == "toy" else PING)
    print("%s: %d cuts, equal logs and hashes at %d events" % (
        engine, cuts, units[0].runner.seat.n_log))


@pytest.mark.bench
def test_twenty_four_power_cuts_in_a_ping_game_resume_with_equal_logs():
    from fathom.games.ping.engine import ENGINE as PING
    units, cuts = cut_game(b"cut24", 24, PING)
    print("PING: %d cuts, equal logs and hashes at %d events" % (
        cuts, units[0].runner.seat.n_log))
