# `fathom deploy` and `fathom monitor` end to end against the MicroPython serial twin, with the
# real mpremote (as a command and as deploy's transport) talking to it over a pty.
import os
import subprocess
import sys
import threading

import pytest
import serial

from kit.host import ROOT, STAND_IN, fathom
from fathom_host import monitor
from fathom_host.twins.serialtwin import SerialTwin

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
def deploy(twin, tree, tmp_path):
    return fathom("deploy", "--board", "host", "--port", twin.path,
                  "--firmware-dir", str(tree), "--build-dir", str(tmp_path / "build"))

pytest_plugins = ["kit.host_fixtures"]   # tree, twin


def test_mpremote_talks_to_the_twin(twin):
    r = subprocess.run([MPREMOTE, "connect", twin.path, "exec", "print(6*7)",
                        "fs", "cp", str(ROOT / "boards" / "host.json"), ":/x.json", "+",
                        "exec", "import os; print(os.stat('/x.json')[6])"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "42"
    size = (ROOT / "boards" / "host.json").stat().st_size
    assert r.stdout.splitlines()[-1] == str(size)
    assert (twin.unit_dir / "x.json").read_bytes() == (ROOT / "boards" / "host.json").read_bytes()


def test_soft_reset_keeps_files_and_restarts(twin):
    start = twin.boots
    r = subprocess.run([MPREMOTE, "connect", twin.path, "exec", "open('/keep.txt','w').write('k')",
                        "soft-reset", "exec", "print(open('/keep.txt').read())"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("k")
    assert twin.boots >= start + 2


def test_deploy_boots_then_second_deploy_copies_nothing(twin, tree, tmp_path):
    r = deploy(twin, tree, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    unit = twin.unit_dir
    assert (unit / "main.py").read_text() == STAND_IN["main.py"]
    assert (unit / "fathom" / "home.mpy").exists()
    assert not (unit / "fathom" / "home.py").exists()
    assert not (unit / "twins").exists()
    assert (unit / "board.json").exists()
    assert "[4/4]" in r.stdout                  # main.py, 2 modules, board.json
    assert twin.wait_for(b"fathom: home", timeout=15)

    mark = len(twin.transcript)
    r = deploy(twin, tree, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 files copied, 4 unchanged" in r.stdout
    assert "0 compiled, 3 unchanged" in r.stdout
    assert twin.wait_for(b"fathom: home", timeout=15, start=mark)

    # One changed module: one compile, one copy, and a stale module is removed.
    (tree / "fathom" / "home.py").write_text(STAND_IN["fathom/home.py"].replace("home'", "home!'"))
    (unit / "fathom" / "old.py").write_text("x = 1\n")
    mark = len(twin.transcript)
    r = deploy(twin, tree, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 file copied" in r.stdout and "1 compiled" in r.stdout
    assert not (unit / "fathom" / "old.py").exists()
    assert twin.wait_for(b"fathom: home!", timeout=15, start=mark)


@pytest.mark.slow   # boots the deployed firmware on a unit: `make test`
@pytest.mark.skipif(not (ROOT / "firmware" / "main.py").exists()
                    or not (ROOT / "firmware" / "fathom" / "app.py").exists(),
                    reason="the real firmware app is not there yet")
def test_real_firmware_boots_to_home(twin, tmp_path):
    r = fathom("deploy", "--board", "host", "--port", twin.path,
               "--build-dir", str(tmp_path / "build"), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert twin.wait_for(b"fathom: home", timeout=30), bytes(twin.transcript[-2000:])


def test_deploy_busy_and_missing_port(twin, tree, tmp_path):
    with serial.Serial(twin.path, exclusive=True):
        r = deploy(twin, tree, tmp_path)
    assert r.returncode == 1
    assert "port %s is busy" % twin.path in r.stderr and "Traceback" not in r.stderr
    r = fathom("deploy", "--board", "host", "--port", "/dev/ttyNOPE9", "--firmware-dir", str(tree))
    assert r.returncode == 1
    assert r.stderr.startswith("fathom: no serial port /dev/ttyNOPE9")


def test_monitor_survives_unplug_and_replug(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "main.py").write_text("print('unit a up')\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "main.py").write_text("print('unit b up')\n")
    link = tmp_path / "ttyUSB0"           # like /dev/serial/by-id/...: follows the board
    lines, stop = [], threading.Event()
    a = SerialTwin(tmp_path / "a")
    a.start()
    os.symlink(a.path, link)
    t = threading.Thread(target=monitor.follow, args=(str(link), lines.append, stop))
    t.start()
    b = None
    try:
        with serial.Serial(str(link)) as s:   # a soft reset makes unit a print again
            s.write(b"\x04")
        _wait(lambda: any("unit a up" in x for x in lines))
        a.stop()                              # unplug
        _wait(lambda: any("unplugged" in x for x in lines))
        b = SerialTwin(tmp_path / "b")
        b.start()
        os.unlink(link)
        os.symlink(b.path, link)              # replug
        _wait(lambda: any("is back" in x for x in lines))
        with serial.Serial(str(link)) as s:
            s.write(b"\x04")
        _wait(lambda: any("unit b up" in x for x in lines))
    finally:
        stop.set()
        t.join(5)
        if b is not None:
            b.stop()
    stamped = [x for x in lines if "unit a up" in x][0]
    assert stamped[2] == ":" and stamped[12] == " "   # HH:MM:SS.mmm line


def _wait(cond, timeout=10):
    import time
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)
