# `fathom sim --link`'s own housekeeping, with real processes: a unit that crashes stops the
# others at once (they would otherwise wait for it to pair, game after game, for the whole
# budget), and a clean run leaves no unit folders behind while a failed one keeps them.
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from fathom_host.simlink import _read, _wait_all, tally


def _procs(*codes):
    return [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True) for code in codes]


def _watch(procs):
    ended = threading.Event()
    lines = [[] for _ in procs]
    for p, out in zip(procs, lines):
        threading.Thread(target=_read, args=(p, out, ended), daemon=True).start()
    return ended, lines


def test_a_crashed_unit_stops_the_others_at_once():
    procs = _procs("import sys; print('boom'); sys.exit(3)",
                   "import time; time.sleep(600)", "import time; time.sleep(600)")
    ended, lines = _watch(procs)
    stats = {"failures": []}
    t0 = time.monotonic()
    _wait_all(procs, ended, lines, 600, stats)
    assert time.monotonic() - t0 < 30          # not the 600 s budget
    assert all(p.poll() is not None for p in procs)
    assert stats["failures"] == [{"kind": "stopped", "units": [1, 2],
                                  "detail": "unit 0 crashed in game 0"}]


def test_units_that_finish_are_waited_for_and_nothing_is_recorded():
    procs = _procs("print('a')", "import time; time.sleep(1); print('b')")
    ended, lines = _watch(procs)
    stats = {"failures": []}
    _wait_all(procs, ended, lines, 60, stats)
    assert [p.returncode for p in procs] == [0, 0] and stats["failures"] == []


@pytest.mark.slow   # linked unit processes: make test, not the fast loop
def test_units_that_go_quiet_are_stopped_and_named():
    procs = _procs("print('fathom-sim {}', flush=True); import time; time.sleep(600)")
    ended, lines = _watch(procs)
    stats = {"failures": []}
    _wait_all(procs, ended, lines, 1, stats)
    assert procs[0].poll() is not None
    [f] = stats["failures"]
    assert f["kind"] == "stopped" and f["units"] == [0]
    assert f["detail"].startswith("no unit reported for ") and f["detail"].endswith(
        ": unit 0 in game 1"), f


def test_units_that_keep_reporting_are_not_stopped_however_long_they_take():
    # 3 s of work, a line every 0.3 s, against a 1 s limit on silence: a slow but healthy
    # run (a loaded machine) completes
    procs = _procs("import time\nfor i in range(10):\n    time.sleep(0.3); print(i, flush=True)")
    ended, lines = _watch(procs)
    stats = {"failures": []}
    _wait_all(procs, ended, lines, 1, stats)
    assert procs[0].returncode == 0 and stats["failures"] == [], stats


def test_a_failed_game_names_its_units_and_why():
    def rec(g, player, error=None):
        return "fathom-sim " + json.dumps({
            "game": g, "player": player, "error": error, "desync": None, "hash": "ab",
            "winners": [0], "verdicts": [], "turns": 3, "frames": 1, "bytes": 1,
            "retransmits": 0})
    lines = [[rec(0, 0), rec(1, 0, "no progress for 600 s (machine pace x1.0)")],
             [rec(0, 1)]]
    stats = {"games": 2, "failures": [], "crashes": 0, "completed": 0, "draws": 0,
             "wins": [0, 0], "frames": 0, "bytes": 0, "retransmits": 0}
    procs = [subprocess.Popen([sys.executable, "-c", ""]) for _ in range(2)]
    for p in procs:
        p.wait()
    tally(stats, lines, procs)
    assert stats["completed"] == 1 and stats["crashes"] == 1
    [f] = stats["failures"]
    assert f["game"] == 1 and f["units"] == {
        0: "no progress for 600 s (machine pace x1.0)", 1: "no report (the unit stopped)"}


def _sim(tmp_path, *argv, code=0):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "fathom_host.cli", "sim"] + list(argv),
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == code, out.stderr + out.stdout[-4000:]  # failures exit 1
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.slow   # linked unit processes: make test, not the fast loop
def test_a_clean_run_removes_its_unit_folders_and_a_failed_one_keeps_them(tmp_path):
    r = _sim(tmp_path, "--game", "ping", "--link", "espnow", "--games", "1")
    assert r["completed"] == 1 and "workdir" not in r
    assert not list(tmp_path.glob("fathom-sim-*"))
    # 24 KB cannot hold a unit: every unit crashes at boot, and the files stay to look at
    r = _sim(tmp_path, "--game", "ping", "--link", "espnow", "--games", "1", "--heap", "24k",
             code=1)
    assert r["completed"] == 0 and r["failures"]
    assert os.path.isdir(r["workdir"]) and r["workdir"].startswith(str(tmp_path))


# ---- the unit's side (hostmodes/simrun.py), under CPython ----------------------------------
def test_a_unit_says_how_far_a_long_game_got_so_the_host_does_not_stop_it(capsys, monkeypatch):
    # The host stops a run when no unit printed a line for its limit; a unit printed one line a
    # game, so an 8-unit game of random bots that outlasted the limit was stopped mid-game
    from fathom.peers import BotPeer
    from hostmodes import simrun
    from kit.memstore import MemStorage
    from kit.play import solo
    monkeypatch.setattr(BotPeer, "THINK_MS", 0)
    monkeypatch.setattr(simrun, "PROGRESS_MS", 0, raising=False)  # every growth of the log, here
    monkeypatch.setattr(simrun, "_heap", [-1])  # as main() leaves it without FATHOM_SIM_HEAP
    runner, bot = solo("ping", b"progress", MemStorage())
    assert simrun._play(runner, bot, 60000) is None and runner.seat.result() is not None
    told = [int(ln.split()[1]) for ln in capsys.readouterr().out.splitlines()
            if ln.startswith("fathom-sim-progress ")]
    assert len(told) > 10 and told == sorted(set(told)) and told[-1] <= runner.seat.n_log


def test_heartbeats_are_no_progress_for_a_units_own_limit():
    # links that only exchange heartbeats around a stalled game: the unit's own limit (which
    # reports the game's state) must see no progress, or only the host's backstop stops it
    from hostmodes import simrun
    from runner.test_group_host_pacing import linked_star
    runners, wires, _store = linked_star(3, b"beats")
    before = simrun._progress(runners[0])
    now = 0
    for _ in range(300):  # 3 s of links alone, no runner ticked: heartbeats each way
        now += 10
        for r in runners:
            for p in r.peers:
                p.tick(now)
    assert sum(p.ch.stats["frames_received"] for p in runners[0].peers) > 4
    assert simrun._progress(runners[0]) == before


def test_a_units_reveal_and_vanish_limits_stretch_with_the_machines_pace(monkeypatch):
    # a unit three times slower than a device relays reveals three times slower: the runner's
    # limits, a device's seconds, stretch as the sim's own do
    from fathom.runner import Runner
    from hostmodes import simrun
    from kit.memstore import MemStorage
    from kit.play import solo
    runner, _bot = solo("ping", b"pace", MemStorage())
    monkeypatch.setattr(simrun._pace, "slow", 3.0)
    simrun._pace.limits(runner)
    assert runner.reveal_ms == 3 * Runner.reveal_ms and runner.vanish_ms == 3 * Runner.vanish_ms
