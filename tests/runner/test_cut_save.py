# A save cut in the middle (runner.load, hal/records.repair): a journal that ends inside a
# record, far from its end (a filesystem that lost the file's tail), is read up to its last good
# record. The bytes cut off are kept aside in game.cut, the unit says in one line what it rolled
# back, holds its own moves until the partner's copy of the game is in, authors its own lost
# events again from that copy with its own secrets (an answer as the rules give it, an action
# whose event and state commitment both match), and the game ends verified with equal logs.
# Real runners, journals, keyed channels and LinkPeers over an in-memory wire (the harness of
# tests/runner/test_resume_gap.py), PING with its sealed deal.
import os

import pytest

from fathom.games.ping.engine import ENGINE as PING
import test_resume_gap as gap

pytestmark = pytest.mark.micropython


def cut_run(seed, k, keep):
    """Player 0's power fails as it journals its k-th action; its journal then loses its
    tail (keeps `keep` of every 4 bytes); returns the units, the clock and what the boot saw."""
    units = gap.pair(seed, (gap.own_act(0, k), None), engine=PING)
    seen = {}
    u = units[0]
    boot = u.boot

    def cut_boot(now):
        path = u.root + "/game"
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:len(data) * keep // 4])
        boot(now)
        r = u.runner
        seen.update(left=data[:len(data) * keep // 4], n=r.seat.n_log, problem=r.problem,
                    behind=r.behind)
        u.boot = boot
    u.boot = cut_boot
    now = gap.run(units, 20000)
    return units, now, seen


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("k,keep", [(10, 2), (14, 3)])
def test_a_save_cut_in_the_middle_is_said_kept_and_healed_from_the_partner(k, keep):
    units, now, seen = cut_run(b"cut%d" % k, k, keep)
    assert seen["problem"] == "save cut after event %d: partner resends" % (seen["n"] - 1)
    assert seen["behind"]
    # more than a torn record was lost: events this unit had authored and sent
    assert seen["n"] < units[1].runner.seat.n_log
    with open(units[0].root + "/game.cut", "rb") as f:
        kept = f.read()
    # the torn record the cut left, byte for byte, cut off the journal and kept aside
    assert kept and seen["left"].endswith(kept)
    gap.check_verified_end(units, now)
    assert not units[0].runner.behind and units[0].runner.problem is None
    print("cut back to event %d of %d; healed and verified at %d events" % (
        seen["n"], units[1].runner.seat.n_log, units[0].runner.seat.n_log))


@pytest.mark.slow   # whole games: make test, not the fast loop
def test_a_cut_file_is_no_game_and_goes_with_the_game():
    units, now, _seen = cut_run(b"cut10", 10, 2)
    r = units[0].runner
    assert "game.cut" not in r.storage.names()
    assert "game.cut" in os.listdir(units[0].root)
    r.clear()
    assert "game.cut" not in os.listdir(units[0].root)
