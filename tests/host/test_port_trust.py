# Tools a maker can trust: a port another program holds is refused within seconds, naming that
# program; every exchange of `fathom deploy` has a time limit and says what it waited for;
# `fathom monitor` says it is connected; deploy refuses a profile made for another chip.
# Real processes on real ptys: the serial twin, `fathom monitor` as a subprocess, mpremote.
import os
import subprocess
import sys
import threading
import time

import pytest

from kit.host import HOST_TOOLS, fathom
from fathom_host import FathomError, flash, monitor, serialports, unitrepl
from fathom_host.twins.ptywire import PtyWire

def _deploy(port, tree, tmp_path, *extra, board="host", timeout=60):
    return fathom("deploy", "--board", board, "--port", port, "--firmware-dir", str(tree),
                  "--build-dir", str(tmp_path / "build"), *extra, timeout=timeout)

pytest_plugins = ["kit.host_fixtures"]   # tree, twin


def _wait(cond, timeout=15):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


@pytest.fixture
def monitor_proc(twin, tmp_path):
    """`fathom monitor` on the twin's port, as a maker leaves it running in another terminal."""
    log = open(tmp_path / "monitor.log", "w")
    env = dict(os.environ, PYTHONPATH=str(HOST_TOOLS))
    proc = subprocess.Popen([sys.executable, "-m", "fathom_host.cli", "monitor", "--port",
                             twin.path], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        _wait(lambda: "connected" in (tmp_path / "monitor.log").read_text())
        yield proc
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_deploy_beside_a_running_monitor_says_busy_naming_it(twin, tree, tmp_path, monitor_proc):
    """The hang that was: deploy and monitor on one port. Now one line within seconds."""
    start = time.monotonic()
    r = _deploy(twin.path, tree, tmp_path, timeout=30)
    took = time.monotonic() - start
    print("deploy refused a port held by `fathom monitor` in %.2f s" % took)
    assert r.returncode == 1
    line = r.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith("fathom: port %s is busy" % twin.path)
    assert "pid %d (" % monitor_proc.pid in line and "monitor --port %s)" % twin.path in line
    assert not (twin.unit_dir / "main.py").exists()
    assert took < 30      # 0.8 s on an idle machine (start-up included): margin for load


def test_flash_and_a_second_monitor_are_refused_too(twin, tmp_path, monitor_proc):
    image = tmp_path / "fw.bin"
    image.write_bytes(b"\xe9" + bytes(255))
    for argv in (("flash", "--board", "esp32_devkit_ssd1306", "--firmware", str(image)),
                 ("monitor",)):
        r = fathom(*argv, "--port", twin.path, timeout=30)
        assert r.returncode == 1, argv
        assert r.stderr.startswith("fathom: port %s is busy" % twin.path), r.stderr
        assert str(monitor_proc.pid) in r.stderr


def test_the_twin_holding_its_own_pty_is_not_a_competitor(twin, tmp_path):
    """The emulator keeps the port's far end (and the near end, for its settings) open: that is
    the board, not a program to close. A plain reader that opened it without a lock is one."""
    assert serialports.holders(twin.path) == []
    serialports.check_port(twin.path)
    reader = subprocess.Popen([sys.executable, "-c", "import sys,time; f=open(sys.argv[1],'rb');"
                               "print('open', flush=True); time.sleep(60)", twin.path],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert reader.stdout.readline().strip() == "open"
        start = time.monotonic()
        with pytest.raises(FathomError) as e:
            serialports.check_port(twin.path)
        print("check_port named the holder in %.3f s" % (time.monotonic() - start))
        assert "busy" in str(e.value) and str(reader.pid) in str(e.value)
        assert "python" in str(e.value) or "-c" in str(e.value)
    finally:
        reader.kill()
        reader.wait()


class _SilentBoard:
    """A board on a pty that answers nothing (not running MicroPython, or stuck), or, with
    enters_raw, one that enters the raw REPL and then locks up: it swallows every byte after."""

    def __init__(self, enters_raw):
        self.wire = PtyWire()
        self.path = self.wire.path
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(enters_raw,), daemon=True)
        self._thread.start()

    def _run(self, enters_raw):
        import select
        state = "friendly" if enters_raw else "hung"
        while not self._stop.is_set():
            if not select.select([self.wire.master], [], [], 0.05)[0]:
                continue
            for c in self.wire.read():
                if c == 0x01 and state == "friendly":
                    state = "raw"
                    self.wire.write(b"\r\nraw REPL; CTRL-B to exit\r\n>")
                elif c == 0x04 and state == "raw":
                    state = "hung"
                    self.wire.write(b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>")

    def close(self):
        self._stop.set()
        self._thread.join(2)
        self.wire.close()


@pytest.mark.parametrize("enters_raw, step, hint", [
    (False, "entering its raw REPL", "is MicroPython on it (`fathom flash`)?"),
    (True, "asking which chip it is", "Press its RESET button"),
])
def test_deploy_to_a_unit_that_stops_answering_names_the_step(tree, tmp_path, enters_raw, step,
                                                             hint):
    board = _SilentBoard(enters_raw)
    try:
        start = time.monotonic()
        r = _deploy(board.path, tree, tmp_path, "--timeout", "1.5")
        took = time.monotonic() - start
    finally:
        board.close()
    print("deploy gave up while %s in %.2f s (--timeout 1.5)" % (step, took))
    assert r.returncode == 1
    line = r.stderr.strip()
    assert "\n" not in line, line
    assert line.startswith("fathom: no answer from the unit on %s for 1.5 s while %s"
                           % (board.path, step)), line
    assert hint in line
    assert took < 20      # 1.5 s limit plus start-up: the margin is for a loaded machine


def test_deploy_refuses_a_profile_for_another_chip_unless_forced(twin, tree, tmp_path):
    r = _deploy(twin.path, tree, tmp_path, board="heltec_wifi_kit_32_v3")
    assert r.returncode == 1
    line = r.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith("fathom: the unit on %s reports 'linux" % twin.path), line
    assert "an emulated unit" in line and "is for an ESP32-S3" in line and "--force" in line
    assert not (twin.unit_dir / "main.py").exists()

    r = _deploy(twin.path, tree, tmp_path, "--force", board="heltec_wifi_kit_32_v3")
    assert r.returncode == 0, r.stderr
    assert "--force: deploying profile heltec_wifi_kit_32_v3 (for an ESP32-S3)" in r.stdout
    assert (twin.unit_dir / "main.py").exists()
    assert '"chip":"esp32s3"' in (twin.unit_dir / "board.json").read_text()

    r = _deploy(twin.path, tree, tmp_path)             # the host profile matches: no word
    assert r.returncode == 0, r.stderr
    assert "--force" not in r.stdout


@pytest.mark.parametrize("platform, machine, chip", [
    ("esp32", "Generic ESP32 module with ESP32", "esp32"),
    ("esp32", "Generic ESP32S3 module with ESP32S3", "esp32s3"),
    ("esp32", "ESP32C3 module with ESP32C3", "esp32c3"),
    ("esp32", "Arduino Nano ESP32 with ESP32-S3", "esp32s3"),
    ("esp32", "", "esp32"),
    ("linux", "linux [GCC 14.2.1] version", "host"),
    ("rp2", "Raspberry Pi Pico with RP2040", "rp2"),
])
def test_the_chip_a_unit_reports(platform, machine, chip):
    assert unitrepl.chip_of(platform, machine) == chip


def test_monitor_says_it_is_connected_and_still_listening(twin):
    lines, stop = [], threading.Event()
    t = threading.Thread(target=monitor.follow, args=(twin.path, lines.append, stop),
                         kwargs={"quiet_note_s": 0.5})
    t.start()
    try:
        _wait(lambda: any("connected" in x for x in lines))
        _wait(lambda: any("nothing from the unit" in x for x in lines))
    finally:
        stop.set()
        t.join(5)
    first = lines[0]
    assert "-- %s connected at 115200 baud; waiting for the unit to print" % twin.path in first
    assert "still connected to %s" % twin.path in [x for x in lines if "nothing" in x][0]


def test_flash_stops_an_esptool_that_says_nothing(tmp_path):
    """The net under esptool's own timeouts: a run silent for the stall limit is stopped."""
    import io
    cmd = [sys.executable, "-c", "import time; time.sleep(60)", "--port", "/dev/ttyFAKE0"]
    start = time.monotonic()
    with pytest.raises(FathomError) as e:
        flash._run_esptool(cmd, io.StringIO(), stall_s=1.0)
    took = time.monotonic() - start
    assert "esptool said nothing for 1 s on /dev/ttyFAKE0" in str(e.value)
    assert took < 30      # 1 s and a kill: the margin is for a loaded machine
