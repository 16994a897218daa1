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

from fathom import games
from fathom.games.ping.engine import ENGINE as PING
from fathom.runner import events
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
    assert seen["problem"] == "save cut to %s: partner resends" % events(seen["n"])
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


# ---- a cut that takes the unit's own set-up ---------------------------------------------------
GAMES = ("ping", "ashtapada", "sugardog", "pinned_down", "periplus")
CHOOSING = ("ping", "ashtapada", "sugardog", "periplus")  # a set-up of secret choices
VOID = "P%d's save was damaged: this game cannot be checked and is void"


def records_of(path):
    """[(pos, record)] of a journal file."""
    from fathom.codec import decode
    from fathom.hal.records import scan_records
    with open(path, "rb") as f:
        return [(p, decode(body)) for p, _e, body in scan_records(f)]


def setup_cut(gid, who, into):
    """Player `who`'s power fails as it journals its first action (both set-ups were sent and
    are in the partner's log); its save then ends one byte into its own set-up event
    ("event": its set-up choices survive) or into its first set-up choice ("choice": they
    do not). Returns the units, the clock (None if they stalled) and what the boot saw."""
    units = gap.pair(b"setupcut" + gid.encode(),
                     [gap.own_act(p, 0) if p == who else None for p in range(2)],
                     games.engine(gid))
    u = units[who]
    boot = u.boot
    seen = {}

    def cut_boot(now):
        path = u.root + "/game"
        recs = records_of(path)
        if into == "event":
            at = [p for p, r in recs if r[0] == "e" and r[1] == who and len(r) == 5][0]
        else:
            at = [p for p, r in recs if r[0] == "c"][0]
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:at + 1])
        boot(now)
        seen.update(n=u.runner.seat.n_log, problem=u.runner.problem, notice=u.runner.notice)
        u.boot = boot
    u.boot = cut_boot
    try:
        now = gap.run(units, 20000)
    except AssertionError as e:
        seen["stalled"] = str(e)
        now = None
    return units, now, seen


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid", GAMES)
def test_a_cut_that_took_the_own_set_up_event_heals_from_the_partner(gid):
    units, now, seen = setup_cut(gid, 1, "event")
    assert "stalled" not in seen, seen
    assert seen["problem"] == "save cut to %s: partner resends" % events(seen["n"])
    # said in words a player reads, until a key: as a player counts events, never "-1"
    assert "first %d event" % seen["n"] in seen["notice"] and "-1" not in seen["notice"], seen
    gap.check_verified_end(units, now)


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid", CHOOSING)
@pytest.mark.parametrize("who", [0, 1])
def test_a_cut_that_took_the_own_set_up_choices_ends_the_game_void_on_both_units(gid, who):
    # The set-up choices are this unit's secrets: the partner holds only a commitment to them,
    # so the game cannot be checked any more. Both units end it with one sentence, at once,
    # instead of asking the player to lay the set-up again and refusing the partner's copy.
    units, now, seen = setup_cut(gid, who, "choice")
    assert "stalled" not in seen, seen
    for u in units:
        r = u.runner
        assert r.result() == ([], VOID % (who + 1)), (u.player, r.result(), r.problem)
        assert r.finished() and r.desync is None
    # a reboot shows the same end again, on the damaged unit as on its partner
    for u in units:
        u.boot(now)
        assert u.runner.result() == ([], VOID % (who + 1))
