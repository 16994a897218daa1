# `fathom sim --link`'s own housekeeping, with real processes: a unit that crashes stops the
# others at once (they would otherwise wait for it to pair, game after game, for the whole
# budget), and a clean run leaves no unit folders behind while a failed one keeps them.
import json
import os
import subprocess
import sys
import threading
import time

from fathom_host.simlink import _read, _wait_all


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
    ended, _ = _watch(procs)
    stats = {"failures": []}
    t0 = time.monotonic()
    _wait_all(procs, ended, t0 + 600, stats)
    assert time.monotonic() - t0 < 30          # not the 600 s budget
    assert all(p.poll() is not None for p in procs)
    assert stats["failures"] == [{"kind": "stopped", "units": [1, 2], "detail": "unit 0 crashed"}]


def test_units_that_finish_are_waited_for_and_nothing_is_recorded():
    procs = _procs("print('a')", "import time; time.sleep(1); print('b')")
    ended, lines = _watch(procs)
    stats = {"failures": []}
    _wait_all(procs, ended, time.monotonic() + 60, stats)
    assert [p.returncode for p in procs] == [0, 0] and stats["failures"] == []


def test_the_deadline_stops_units_that_never_finish():
    procs = _procs("import time; time.sleep(600)")
    ended, _ = _watch(procs)
    stats = {"failures": []}
    _wait_all(procs, ended, time.monotonic() + 1, stats)
    assert procs[0].poll() is not None
    assert stats["failures"] == [{"kind": "stopped", "units": [0], "detail": "timed out"}]


def _sim(tmp_path, *argv, code=0):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "fathom_host.cli", "sim"] + list(argv),
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == code, out.stderr   # a run with failures exits 1
    return json.loads(out.stdout.splitlines()[-1])


def test_a_clean_run_removes_its_unit_folders_and_a_failed_one_keeps_them(tmp_path):
    r = _sim(tmp_path, "--game", "ping", "--link", "espnow", "--games", "1")
    assert r["completed"] == 1 and "workdir" not in r
    assert not list(tmp_path.glob("fathom-sim-*"))
    # 24 KB cannot hold a unit: every unit crashes at boot, and the files stay to look at
    r = _sim(tmp_path, "--game", "ping", "--link", "espnow", "--games", "1", "--heap", "24k",
             code=1)
    assert r["completed"] == 0 and r["failures"]
    assert os.path.isdir(r["workdir"]) and r["workdir"].startswith(str(tmp_path))
