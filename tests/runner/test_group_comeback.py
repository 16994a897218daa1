# No fault strands a group: a member that leaves (Leave (keep)) and resumes is taken back by
# every other unit without a key, host and partner alike; a partner whose relayed feed lost an
# event asks the host for it within seconds and gets it, and a host that keeps it is named
# after a time limit instead of being waited for in silence. Stars of runners over pipes.
import pytest

from fathom.games.bots import RandomBot
from fathom.runner import ASK_MS, GAP_MS
from kit.play import bot_step, drive
from test_runner_relay import check_agreement, star

pytestmark = pytest.mark.micropython


def step_all(runners, bots, now, skip=()):
    now += 100
    for i, (r, b) in enumerate(zip(runners, bots)):
        if i not in skip:
            bot_step(r, b, now)
    return now


def started(seed, n=3):
    runners = star(n, seed, keyed=True)
    bots = [RandomBot(seed, p) for p in range(n)]
    now = 0
    while runners[0].seat.n_log < n + 2:  # set-ups in, a few moves played
        now = step_all(runners, bots, now)
    return runners, bots, now


def tick_only(runners, now, steps=5, skip=()):
    """Links and runners tick, nobody chooses a move (a player thinking)."""
    for _ in range(steps):
        now += 100
        for i, r in enumerate(runners):
            if i not in skip:
                r.tick(now)
    return now


@pytest.mark.parametrize("leaver", [2, 1, 0])
def test_a_group_member_that_leaves_and_resumes_is_taken_back_by_every_unit(leaver):
    runners, bots, now = started(b"back%d" % leaver)
    while True:  # another player's turn, every unit there, nothing on its way (failure 1)
        now = tick_only(runners, now, 3)
        t = runners[0].seat.to_move()
        if t[0] != leaver and t[1] == "act" and \
                len(set(r.seat.n_log for r in runners)) == 1:
            break
        now = step_all(runners, bots, now)
    others = [r for i, r in enumerate(runners) if i != leaver]
    runners[leaver].bye("left")  # Leave (keep)
    now = tick_only(runners, now, skip=(leaver,))
    for r in others:  # said at once, not guessed from a silence
        assert list(r.left) == [leaver], (r.seat.player, r.left)
        assert r.left[leaver] is not None  # since when: the screen says it
    runners[leaver].resync()  # Resume game: what a resumed unit says first
    now = tick_only(runners, now)
    for r in others:  # no key pressed anywhere: every unit takes it back by itself
        assert not r.left, (r.seat.player, r.left)
    drive(runners, bots, now=now, step=100)
    check_agreement(runners)


def test_a_back_message_is_checked():
    runners, bots, now = started(b"backbad")
    p2 = runners[1]
    p2.left[2] = now
    for bad in (["back"], ["back", [2]], ["back", "2"]):
        runners[0].peers[0].send(bad)
        now = step_all(runners, bots, now)
    assert not p2.left and p2.problem is None  # the host's messages say the host is there
    p2.left[2] = now
    runners[0].peers[0].send(["ev", 1, [2]])  # an author that is no player: no crash
    now = step_all(runners, bots, now)
    assert "refused" in (p2.problem or "")


def drop_once(host, partner_i, pred):
    """The host's pipe to partner `partner_i` loses the first event for which pred(msg) holds
    (an honest host's feed losing one to a bug or a reboot): returns the list of dropped."""
    pipe = host.peers[partner_i - 1]
    send = pipe.send
    dropped = []

    def lossy(msg):
        if not dropped and msg[0] == "ev" and pred(msg):
            dropped.append(msg[1])
            return
        send(msg)
    pipe.send = lossy
    return dropped


def withhold(host, partner_i, pred):
    """A modified host that never sends partner `partner_i` the first event pred(msg) picks,
    however often it is asked (kit/cheat_firmware does the same on an emulated unit)."""
    pipe = host.peers[partner_i - 1]
    send = pipe.send
    kept = []

    def keeping(msg):
        if msg[0] == "ev" and (msg[1] in kept or not kept and pred(msg)):
            if not kept:
                kept.append(msg[1])
            return
        send(msg)
    pipe.send = keeping
    return kept


def run_until(runners, bots, now, cond, limit_ms):
    end = now + limit_ms
    while not cond():
        assert now < end, [r.seat.n_log for r in runners]
        now = step_all(runners, bots, now)
    return now


def test_a_lost_relayed_event_before_the_partners_turn_is_asked_for_and_filled():
    # The lost event is the last before P3 acts: nothing later comes to show the gap, so only
    # asking the host how far it is can find it.
    runners, bots, now = started(b"gapfill")
    host, p3 = runners[0], runners[2]
    dropped = drop_once(host, 2, lambda m: m[2] == 1 and m[1] >= host.seat.n_log - 1)
    now = run_until(runners, bots, now, lambda: dropped, 60000)
    lost = dropped[0]
    t0 = now
    now = run_until(runners, bots, now, lambda: p3.seat.n_log > lost, ASK_MS + 3000)
    assert now - t0 <= ASK_MS + 2000
    drive(runners, bots, now=now, step=100)
    check_agreement(runners)


def test_a_host_that_keeps_one_event_from_a_partner_is_named_after_the_limit():
    runners, bots, now = started(b"gapkeep")
    host, p3 = runners[0], runners[2]
    kept = withhold(host, 2, lambda m: m[2] == 1)
    now = run_until(runners, bots, now, lambda: kept, 60000)
    t0 = now
    now = run_until(runners, bots, now, lambda: p3.desync is not None, GAP_MS + ASK_MS + 5000)
    idx, reason = p3.desync
    assert idx == kept[0]
    assert reason.startswith("the host (P1) did not send this unit event %d" % kept[0]), \
        reason
    assert now - t0 >= GAP_MS - 1000  # a slow link is not named
    assert ["x", idx, reason] in [rec for _p, _e, rec in p3.seat.journal.read(None)]
    assert runners[1].desync is None and host.desync is None
