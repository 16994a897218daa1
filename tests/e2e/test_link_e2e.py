# The link end to end with real unit processes (firmware/hostmodes/linktest.py, headless): 500
# messages each way at 30% loss with duplication and corruption over the emulated ESP-NOW and
# UART, a unit killed mid-exchange that resumes from storage, a third party injecting and
# replaying frames, and (with the real screens) a version mismatch that names both versions.
# The two long soaks start in the background when the module starts and are checked last, so
# the other tests run while they do.
import random
import shutil
import socket
import threading
import time

import pytest

from fathom import games
from fathom.link import frame
from fathom_host import FIRMWARE, FathomError
from fathom_host.emulator import units
from fathom_host.emulator.ether import mac_for_unit
from fathom_host.bench.link import LinkRun
from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow

SOAK_N = 500
SOAK_KNOBS = {"loss": 0.3, "dup": 0.05, "corrupt": 0.05}
SOAK_TIMEOUT_S = 240
SETUP_MSGS = 3   # the game set-up's messages come first on the same keyed channel
DROPS = ("dropped_bad_tag", "dropped_replay", "dropped_malformed", "dropped_session",
         "dropped_reflected", "foreign")


@pytest.fixture(scope="module", autouse=True)
def soaks():
    runs = {
        "espnow": LinkRun("espnow", SOAK_N, seed=11, **SOAK_KNOBS),
        "uart": LinkRun("uart", SOAK_N, seed=12, garbage=0.05, **SOAK_KNOBS),
    }
    for r in runs.values():
        r.__enter__()
    yield runs
    for r in runs.values():
        r.__exit__(None, None, None)


def assert_clean(results, n):
    """Every message arrived once, whole, in order, on both units."""
    for r in results:
        assert r["error"] is None and r["errors"] == 0, r
        assert r["sent"] == n and r["recv"] == n, r
        assert r["ok"], r


# ---- a unit killed in the middle resumes --------------------------------------------------
@pytest.mark.parametrize("kind", ["espnow", "uart"])
def test_unit_killed_mid_exchange_resumes(kind):
    n = 300
    with LinkRun(kind, n, seed=5, loss=0.1, dup=0.05, corrupt=0.05) as run:
        old = run.units[1]
        old.wait("progress", lambda e: e["recv"] >= 150, 60)
        new, _ = run.restart(1)
        resumed = new.wait("resumed", timeout=20)
        assert 150 <= resumed["recv"] < n
        res = run.results(120)
        assert new.find("paired") is None, "a restarted unit must resume, not pair again"
    assert_clean(res, n)
    assert res[1]["resumes"] == 1


# ---- a third party cannot inject or replay ------------------------------------------------
class Attacker:
    """A third unit on the ether (the espnow twin's wire protocol, under its own MAC) that
    sends junk and replays every kind of captured frame; plus, since a radio's sender address
    is easy to forge, the same frames forged as coming from the paired units themselves."""

    def __init__(self, ether, unit=2, seed=3):
        self.ether = ether
        self.rng = random.Random(seed)
        self.mac = mac_for_unit(unit)
        self.sock = socket.create_connection(("127.0.0.1", ether.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._put(b"H" + ('{"kind": "espnow", "unit": %d, "mac": "%s", "channel": 1}' % (
            unit, self.mac.hex())).encode())
        self.sock.setblocking(False)
        self.sent = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _put(self, msg):
        self.sock.setblocking(True)
        self.sock.sendall(len(msg).to_bytes(2, "big") + msg)
        self.sock.setblocking(False)
        try:
            while self.sock.recv(65536):
                pass  # send statuses and broadcasts: not needed
        except BlockingIOError:
            pass

    def send(self, dst_unit, data):
        """Over the air from this unit's own MAC."""
        self._put(b"S" + mac_for_unit(dst_unit) + b"\x00" + data)
        self.sent += 1

    def forge(self, dst_unit, src_unit, data):
        """Over the air as if from src_unit: straight into the receiver's queue in the ether."""
        e = self.ether
        with e._lock:
            for c in e._conns:
                if c.kind == "espnow" and c.unit == dst_unit and not c.closed:
                    e._schedule(time.monotonic(), c, b"R", mac_for_unit(src_unit) + b"\x00" + data)
        e._wake()
        self.sent += 1

    def _run(self):
        rng = self.rng
        while not self.stop.is_set():
            captured = self.ether.sent_by(0, "espnow") + self.ether.sent_by(1, "espnow")
            if self.sent >= len(captured):
                # one forged frame for each live one: as many, however fast the units run (a
                # fixed pace sent too few when a quick run ended early)
                time.sleep(0.001)
                continue
            s = rng.choice(captured)
            data = s.data
            victim = 1 - s.src
            what = rng.randrange(6)
            if what == 0:            # replay to the intended receiver, forged sender
                self.forge(victim, s.src, data)
            elif what == 1:          # reflect a frame back to its own sender
                self.forge(s.src, victim, data)
            elif what == 2:          # replay from our own address
                self.send(victim, data)
            elif what == 3:          # a frame with a live header and a made-up tag
                junk = data[:7] + bytes(rng.randrange(256) for _ in range(rng.randint(8, 60)))
                self.forge(victim, s.src, junk)
            elif what == 4:          # a flipped bit in a real frame
                b = bytearray(data)
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
                self.forge(victim, s.src, bytes(b))
            else:                    # random bytes
                self.send(rng.choice((0, 1)), bytes(rng.randrange(256)
                                                    for _ in range(rng.randint(1, 250))))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


def test_third_party_injecting_and_replaying_changes_nothing():
    n = 300
    with LinkRun("espnow", n, seed=9, loss=0.1) as run:
        run.units[0].wait("paired", timeout=60)
        run.units[1].wait("paired", timeout=60)
        with Attacker(run.ether) as atk:
            res = run.results(120)
        sent = atk.sent
    assert_clean(res, n)
    assert sent > 200, sent
    stats = [r["stats"] for r in res]
    total = sum(st[k] for st in stats for k in DROPS)
    # every forged or replayed frame that was not a live one is counted as dropped
    assert total > sent // 3, (sent, stats)
    for k in ("dropped_replay", "dropped_bad_tag", "dropped_reflected", "foreign"):
        assert sum(st[k] for st in stats) > 0, (k, stats)
    assert all(n < st["delivered"] <= n + SETUP_MSGS for st in stats), stats


# ---- version mismatch, on the real screens ---------------------------------------------------
def firmware_v2(tmp_path):
    dst = tmp_path / "firmware_v2"
    shutil.copytree(str(FIRMWARE), str(dst), ignore=shutil.ignore_patterns("__pycache__"))
    p = dst / "fathom" / "link" / "frame.py"
    src = p.read_text()
    line = "VERSION = const(%d)" % frame.VERSION
    assert line in src
    p.write_text(src.replace(line, "VERSION = const(%d)" % (frame.VERSION + 1), 1))
    return dst


@pytest.mark.parametrize("kind", ["espnow", "uart"])
def test_version_mismatch_shows_both_versions(tmp_path, kind):
    from fathom_host.emulator.ether import Ether
    v2 = firmware_v2(tmp_path)
    title = games.engine("ashtapada").TITLE
    with Ether(seed=1) as ether:
        emu = Emulator(2, workdir=tmp_path / "emu", ether=ether, env={"FATHOM_LINK": kind})
        try:
            a, b = emu.units
            a.start(wait=False)
            orig = units.FIRMWARE
            units.FIRMWARE = v2   # unit b boots the copied tree: v2 frames, same everything else
            try:
                b.start(wait=False)
            finally:
                units.FIRMWARE = orig
            for u in (a, b):
                u.wait(lambda c: c.text and c.screen is not None, 30, "boot")
                u.choose(title)
                u.choose("vs other unit")
            if kind == "espnow":
                for u, theirs in ((a, frame.VERSION + 1), (b, frame.VERSION)):
                    u.wait_text("Choose a unit", 30)
                    u.wait_text("(v%d)" % theirs, 5)   # the list marks the other version
                for u in (a, b):
                    u.press("OK")
            v = frame.VERSION
            for u, mine, theirs in ((a, v, v + 1), (b, v + 1, v)):
                try:
                    u.wait_text("version mismatch", 60)
                except FathomError as e:  # the other side's screen and console say why
                    o = b if u is a else a
                    raise FathomError("%s\nunit %d: %s\n%s" % (
                        e, o.index, o.text, o.console()[-2000:])) from None
                msg = " ".join(u.text)
                assert "this unit speaks v%d" % mine in msg, u.text
                assert "other unit speaks v%d" % theirs in msg, u.text
                # The panel image ships after the text, and may be in already: ask for the
                # panel as it is now and wait for that one (the hub counts what it got).
                c = u.wait(lambda c: True, 10, "connection")
                shipped = c.screens
                c.send(b"R")
                u.wait(lambda c: c.screens > shipped, 10, "the mismatch's panel image")
                assert "version mismatch" in " ".join(u.text), u.text
                u.screen.png(str(tmp_path / ("version_%s_v%d.png" % (kind, mine))))
        finally:
            emu.close()


# ---- the long soaks (started when the module started) -------------------------------------
@pytest.mark.parametrize("kind", ["espnow", "uart"])
def test_500_each_way_at_30pct_loss_dup_corrupt(soaks, kind):
    run = soaks[kind]
    try:
        res = run.results(SOAK_TIMEOUT_S)
    except FathomError as e:
        pytest.fail(str(e))
    assert_clean(res, SOAK_N)
    wire = run.ether.counters[kind]
    for k in ("lost", "dup", "corrupt"):
        assert wire[k] > 50, wire         # the faults really struck
    if kind == "uart":
        assert wire["garbage"] > 50, wire
    stats = [r["stats"] for r in res]
    assert all(st["retransmits"] > 0 and SOAK_N < st["delivered"] <= SOAK_N + SETUP_MSGS
               for st in stats), stats
    # corruption that slips past the UART CRC or hits ESP-NOW is caught by the tag or parser
    if kind == "espnow":
        assert sum(st["dropped_bad_tag"] + st["dropped_malformed"] for st in stats) > 0, stats
    assert sum(st["dropped_replay"] for st in stats) > 0, stats  # duplicates were dropped
