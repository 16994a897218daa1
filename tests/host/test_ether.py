# The emulator's radio and cable: real MicroPython unit processes talk through the espnow,
# network and UART twins and the ether, which must keep the real module's rules (peer table,
# 250-byte limit, broadcast peer, channels, LMK) and make its fault knobs measurably act.
import json
import os
import pathlib
import queue
import socket
import subprocess
import sys
import threading
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
try:
    import fathom_host  # noqa: F401
except ImportError:  # the package is not installed in this interpreter: use the tree
    sys.path.insert(0, str(ROOT / "host_tools"))

from kit.runtimes import micropython_exe  # noqa: E402
from fathom_host import FathomError  # noqa: E402
from fathom_host.emulator.ether import Ether, EtherClient, mac_for_unit  # noqa: E402

TIMEOUT = 20.0  # seconds for any one step: generous, for a loaded two-core machine

# A unit that executes the JSON-encoded code lines it reads and answers each with one line:
# @@{"ok": value of `_`} or @@{"err": exception name, "args": [...]}.
SHELL = r"""
import sys, json
g = {}
while True:
    line = sys.stdin.readline()
    if not line:
        break
    g["_"] = None
    try:
        exec(json.loads(line), g)
        v = g.get("_")
        if isinstance(v, (bytes, bytearray)):
            v = {"hex": bytes(v).hex()}
        out = {"ok": v}
    except Exception as e:
        out = {"err": type(e).__name__, "args": [a if isinstance(a, (int, str)) else repr(a)
                                                 for a in e.args]}
    print("@@" + json.dumps(out))
"""

ESPNOW_UP = """
import network, espnow
sta = network.WLAN(network.STA_IF)
sta.active(True)
sta.config(channel=%d, pm=sta.PM_NONE)
e = espnow.ESPNow()
e.config(rxbuf=%d)
e.active(True)
"""

DRAIN = """
got = []
while True:
    mac, msg = e.recv(0)
    if msg is None:
        break
    got.append(msg.hex())
_ = got
"""


class Unit:
    def __init__(self, tmp, index, ether, extra_env=None):
        env = dict(os.environ)
        env.update({"FATHOM_UNIT": str(index), "FATHOM_ETHER": ether.address,
                    "MICROPYPATH": os.pathsep.join([str(ROOT / "firmware" / "twins"),
                                                    str(ROOT / "firmware")])})
        env.pop("FATHOM_UART", None)
        env.update(extra_env or {})
        if micropython_exe() is None:
            pytest.fail("no micropython executable: run `make setup`")
        shell = tmp / "unitshell.py"
        shell.write_text(SHELL)
        self.index = index
        self.proc = subprocess.Popen([micropython_exe(), "-X", "heapsize=4m", str(shell)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=env, text=True, bufsize=1)
        self._lines = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def run(self, code, timeout=TIMEOUT):
        """Execute code in the unit; the value of `_`, or the exception as ("ERR", name, args)."""
        self.proc.stdin.write(json.dumps(code) + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        seen = []
        while True:
            try:
                line = self._lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError("unit %d did not answer %r; said %r" % (
                    self.index, code, seen))
            if line is None:
                raise AssertionError("unit %d exited; said %r" % (self.index, seen))
            if line.startswith("@@"):
                out = json.loads(line[2:])
                if "err" in out:
                    return ("ERR", out["err"], out["args"])
                v = out["ok"]
                return bytes.fromhex(v["hex"]) if isinstance(v, dict) and "hex" in v else v
            seen.append(line)

    def ok(self, code):
        v = self.run(code)
        assert not (isinstance(v, tuple) and v[:1] == ("ERR",)), v
        return v

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def ether():
    e = Ether(seed=7).start()
    yield e
    e.stop()


@pytest.fixture
def spawn(tmp_path, ether):
    units = []

    def make(index, **env):
        u = Unit(tmp_path, index, ether, env)
        units.append(u)
        return u

    yield make
    for u in units:
        u.kill()


def espnow_units(spawn, ether, n=2, rxbuf=200000, channels=None):
    units = [spawn(i) for i in range(n)]
    for i, u in enumerate(units):
        u.ok(ESPNOW_UP % ((channels or {}).get(i, 1), rxbuf))
    ether.wait_units(range(n), timeout=TIMEOUT)
    return units


def mac(i):
    return "%r" % mac_for_unit(i)


def until(unit, code, pred, what, timeout=TIMEOUT):
    """Run code in the unit until pred(its `_`) holds; the value. A copy that left the ether
    is not yet in the unit's twin: what the unit has taken is asked of the unit."""
    end = time.monotonic() + timeout
    while True:
        got = unit.ok(code)
        if pred(got):
            return got
        if time.monotonic() > end:
            raise AssertionError("unit %d: timed out waiting for %s (last %r)" % (
                unit.index, what, got))
        time.sleep(0.01)


def wait_delivered(ether, n, src=0, dst=1, unit=None):
    """Until the ether has finished with n sends from src and every copy has left it; with
    `unit` (unit dst), until that unit has also taken every copy the ether delivered."""
    ether.wait_until(lambda: ether.link_counters(src, dst)["espnow"]["sent"] >= n,
                     TIMEOUT, "%d sends" % n)
    ether.wait_until(lambda: not ether.pending(), TIMEOUT, "the delivery queue to empty")
    if unit is not None:
        want = ether.link_counters(src, dst)["espnow"]["delivered"]
        until(unit, "_ = espnow.arrived()", lambda got: got >= want,
              "%d packets to arrive" % want)


def drain(unit, want, timeout=TIMEOUT):
    """Receive until `want` packets arrived (or the ether has nothing more for us)."""
    got = []
    end = time.monotonic() + timeout
    while len(got) < want and time.monotonic() < end:
        got += unit.ok(DRAIN)
        if len(got) < want:
            time.sleep(0.01)
    return [bytes.fromhex(h) for h in got]


# --- ESP-NOW: the real module's rules -------------------------------------------------------

def test_unicast_needs_the_peer_and_keeps_the_real_errors(spawn, ether):
    a, b = espnow_units(spawn, ether)
    assert a.ok("_ = sta.config('mac')") == mac_for_unit(0)
    assert a.run("e.send(%s, b'hi')" % mac(1)) == ("ERR", "OSError",
                                                    [-12393, "ESP_ERR_ESPNOW_NOT_FOUND"])
    a.ok("e.add_peer(%s)" % mac(1))
    assert a.run("e.add_peer(%s)" % mac(1))[:2] == ("ERR", "OSError")
    assert a.run("e.add_peer(%s)" % mac(1))[2][1] == "ESP_ERR_ESPNOW_EXIST"
    assert a.run("e.send(%s, bytes(251))" % mac(1))[2][1] == "ESP_ERR_ESPNOW_ARG"
    assert a.run("e.send(%s, b'')" % mac(1))[2][1] == "ESP_ERR_ESPNOW_ARG"
    assert a.run("e.send(b'12345', b'x')")[:2] == ("ERR", "ValueError")
    assert a.ok("_ = espnow.MAX_DATA_LEN") == 250
    assert a.ok("_ = e.send(%s, b'\\xab' * 250)" % mac(1)) is True
    got = b.ok("m, msg = e.recv(%d)\n_ = [m.hex(), msg.hex()]" % (TIMEOUT * 1000))
    assert got == [mac_for_unit(0).hex(), "ab" * 250]
    # A receiver needs no peer entry to hear a sender; it has one in its peers table after.
    assert b.ok("_ = e.get_peers()") == []
    assert b.ok("_ = list(e.peers_table)[0]") == mac_for_unit(0)
    assert b.ok("_ = e.recv(0)") == [None, None]
    elapsed = b.ok("import time\nt = time.ticks_ms()\ne.recv(150)\n"
                   "_ = time.ticks_diff(time.ticks_ms(), t)")
    assert 140 <= elapsed < 5000
    assert a.ok("_ = e.stats()")[:3] == [1, 1, 0]
    a.ok("e.del_peer(%s)" % mac(1))
    assert a.run("e.del_peer(%s)" % mac(1))[2][1] == "ESP_ERR_ESPNOW_NOT_FOUND"


def test_broadcast_reaches_every_unit_on_the_channel_only(spawn, ether):
    a, b, c = espnow_units(spawn, ether, 3, channels={2: 6})
    bcast = "b'\\xff' * 6"
    assert a.run("e.send(%s, b'hello')" % bcast)[2][1] == "ESP_ERR_ESPNOW_NOT_FOUND"
    a.ok("e.add_peer(%s)" % bcast)
    assert a.ok("_ = e.send(%s, b'hello')" % bcast) is True
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"hello"
    wait_delivered(ether, 1, 0, "*")
    assert c.ok("_ = e.recv(100)[1]") is None  # channel 6 hears nothing from channel 1
    # send(None, ...) goes to every registered peer except broadcast addresses.
    assert a.run("e.send(None, b'x')")[2][1] == "ESP_ERR_ESPNOW_NOT_FOUND"
    a.ok("e.add_peer(%s)" % mac(1))
    a.ok("e.send(None, b'to-peers')")
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"to-peers"
    assert [s.dst for s in ether.sent_by(0)] == ["*", 1]


def test_a_full_receive_buffer_drops_packets_the_sender_saw_acknowledged(spawn, ether):
    a = spawn(0)
    b = spawn(1)
    a.ok(ESPNOW_UP % (1, 526))
    b.ok(ESPNOW_UP % (1, 526))  # the real default: two full packets
    ether.wait_units([0, 1])
    a.ok("e.add_peer(%s)" % mac(1))
    assert a.ok("_ = [e.send(%s, bytes([i]) * 250) for i in range(5)]" % mac(1)) == [True] * 5
    wait_delivered(ether, 5, unit=b)
    got = [bytes.fromhex(h) for h in b.ok(DRAIN)]  # all five reached the unit before this
    assert [m[0] for m in got] == [0, 1]
    assert b.ok("_ = e.stats()")[3:] == [2, 3]


def test_lmk_encryption_needs_the_same_keys_on_both_sides(spawn, ether):
    a, b = espnow_units(spawn, ether)
    key = "b'k' * 16"
    a.ok("e.add_peer(%s, %s)" % (mac(1), key))
    assert a.ok("_ = e.get_peer(%s)[4]" % mac(1)) is True
    a.ok("e.send(%s, b'secret-1')" % mac(1))
    wait_delivered(ether, 1, unit=b)  # arriving after b's add_peer, it would decrypt
    assert b.ok("_ = e.recv(100)[1]") is None  # b holds no key for a: undecryptable
    b.ok("e.add_peer(%s, %s)" % (mac(0), key))
    a.ok("e.send(%s, b'secret-2')" % mac(1))
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"secret-2"
    b.ok("e.set_pmk(b'p' * 16)")  # a different primary key breaks it again
    a.ok("e.send(%s, b'secret-3')" % mac(1))
    wait_delivered(ether, 3, unit=b)
    assert b.ok("_ = e.recv(100)[1]") is None
    assert [s.enc for s in ether.sent_by(0)] == [True, True, True]
    assert a.run("e.add_peer(b'\\xff' * 6, encrypt=True)")[2][1] == "ESP_ERR_ESPNOW_ARG"


# --- fault knobs ----------------------------------------------------------------------------

N = 200


def blast(a, n=N):
    a.ok("e.add_peer(%s)\nfor i in range(%d):\n e.send(%s, i.to_bytes(2, 'big') + bytes(40),"
         " False)" % (mac(1), n, mac(1)))


def test_loss_drops_about_the_set_fraction(spawn, ether):
    a, b = espnow_units(spawn, ether)
    ether.set(loss=0.3)
    blast(a)
    wait_delivered(ether, N)
    lost = ether.counters["espnow"]["lost"]
    got = drain(b, N - lost)
    assert 30 <= lost <= 90
    assert len(got) == N - lost
    assert len(set(got)) == len(got)


def test_dup_and_corrupt_act_and_are_counted(spawn, ether):
    a, b = espnow_units(spawn, ether)
    ether.set(dup=0.4, corrupt=0.3)
    blast(a)
    wait_delivered(ether, N)
    c = ether.link_counters(0, 1)["espnow"]
    got = drain(b, c["delivered"])
    assert len(got) == c["delivered"] == N + c["dup"]
    assert 40 <= c["dup"] <= 120
    sent = {i.to_bytes(2, "big") + bytes(40) for i in range(N)}
    damaged = [m for m in got if m not in sent]
    assert 30 <= c["corrupt"] <= 90
    assert c["corrupt"] <= len(damaged) <= 2 * c["corrupt"]  # a damaged packet may be doubled


def test_a_long_range_rate_reaches_only_a_station_with_protocol_lr(spawn, ether):
    # unit 2 (and the sender) add Espressif's Long Range protocol; unit 1 keeps the default
    units = [spawn(i) for i in range(3)]
    for i, u in enumerate(units):
        if i != 1:
            u.ok("import network\nw = network.WLAN(network.STA_IF)\nw.active(True)\n"
                 "w.config(protocol=w.PROTOCOL_LR | w.PROTOCOL_DEFAULT)")
        u.ok(ESPNOW_UP % (1, 200000))
    ether.wait_units(range(3), timeout=TIMEOUT)
    a, b, c = units
    assert c.ok("_ = sta.config('protocol')") == 8 | 7
    assert b.ok("_ = sta.config('protocol')") == 7
    assert a.run("e.config(rate=4)")[2] == [-0x102, "ESP_ERR_INVALID_ARG"]
    a.ok("e.add_peer(%s)\ne.add_peer(%s)" % (mac(1), mac(2)))
    a.ok("e.config(rate=espnow.RATE_LORA_250K)")
    assert a.ok("_ = e.send(%s, b'far')" % mac(1)) is False  # no receiver, no acknowledgement
    assert a.ok("_ = e.send(%s, b'far')" % mac(2)) is True
    assert c.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"far"
    a.ok("e.config(rate=espnow.RATE_11M)")
    assert a.ok("_ = e.send(%s, b'near')" % mac(1)) is True
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"near"
    assert b.ok("_ = e.recv(0)[1]") is None  # the Long Range packet never reached it


def test_irq_callbacks_come_once_per_packet_between_the_twins_own_calls(spawn, ether):
    # The callback reads with the radio's own calls while the unit keeps calling any(), whose
    # pump keeps the packets as they come. On a board those calls are C, which no callback
    # enters; the twin's are Python, and a callback run inside one (the twin's busy count up)
    # would corrupt the receive ring.
    a, b = espnow_units(spawn, ether)
    b.ok("calls = []\ngot = []\n"
         "def cb(e):\n    calls.append(espnow._s.busy)\n    while True:\n"
         "        m, msg = e.irecv(0)\n"
         "        if m is None:\n            return\n        got.append(bytes(msg))\n"
         "e.add_peer(%s)\ne.irq(cb)" % mac(0))
    a.ok("e.add_peer(%s)" % mac(1))
    out = {}
    busy = threading.Thread(target=lambda: out.update(b=b.ok(
        "import time\ne.send(%s, b'ready')\nt = time.ticks_ms()\n"
        "while len(got) < 30 and time.ticks_diff(time.ticks_ms(), t) < %d:\n"
        "    e.any()\n"
        "_ = [got == [b'%%d' %% i for i in range(30)], calls, e.stats()[3]]"
        % (mac(0), TIMEOUT * 1000))))
    busy.start()
    # unit 1 is in its loop once its "ready" arrives: the 30 come while it runs
    assert a.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"ready"
    assert a.ok("_ = all(e.send(%s, b'%%d' %% i) for i in range(30))" % mac(1)) is True
    busy.join(TIMEOUT * 2)
    assert out.get("b") == [True, [0] * 30, 30]
    b.ok("e.irq(None)")
    a.ok("e.send(%s, b'after')" % mac(1))
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"after"
    assert b.ok("_ = len(calls)") == 30


def test_partition_cuts_both_ways_until_healed(spawn, ether):
    a, b = espnow_units(spawn, ether)
    a.ok("e.add_peer(%s)" % mac(1))
    b.ok("e.add_peer(%s)" % mac(0))
    ether.set(partition=[(0, 1)])
    assert a.ok("_ = e.send(%s, b'lost')" % mac(1)) is False  # no radio ack across the cut
    assert b.ok("_ = e.send(%s, b'lost')" % mac(0)) is False
    assert ether.counters["espnow"]["partitioned"] == 2
    assert b.ok("_ = e.recv(50)[1]") is None
    ether.set(partition=[])
    assert a.ok("_ = e.send(%s, b'back')" % mac(1)) is True
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"back"


def test_delay_and_per_link_knobs(spawn, ether):
    a, b = espnow_units(spawn, ether)
    ether.set(delay_ms=300, link=(0, 1))
    ether.set(loss=1.0, link=(1, 0))
    a.ok("e.add_peer(%s)" % mac(1))
    b.ok("e.add_peer(%s)" % mac(0))
    t = time.monotonic()
    a.ok("e.send(%s, b'slow')" % mac(1))
    assert b.ok("_ = e.recv(%d)[1]" % (TIMEOUT * 1000)) == b"slow"
    assert time.monotonic() - t >= 0.29
    b.ok("e.send(%s, b'gone')" % mac(0))
    wait_delivered(ether, 1, 1, 0)
    assert a.ok("_ = e.recv(0)[1]") is None
    assert ether.link_counters(1, 0)["espnow"]["lost"] == 1
    assert ether.knobs()["loss"] == 0 and ether.knobs((1, 0))["loss"] == 1.0


def test_capture_records_every_packet_a_unit_sends(spawn, ether):
    a, b = espnow_units(spawn, ether)
    ether.set(loss=1.0)  # captured as sent, whatever the air does with it
    blast(a, 20)
    wait_delivered(ether, 20)
    cap = ether.sent_by(0, "espnow")
    assert [s.data[:2] for s in cap] == [i.to_bytes(2, "big") for i in range(20)]
    assert {(s.src, s.dst, s.link) for s in cap} == {(0, 1, "espnow")}
    assert all(isinstance(s.t, float) for s in cap)


def test_same_seed_same_faults(tmp_path):
    def lost_pattern():
        with Ether(seed=3, loss=0.5) as e:
            u = [Unit(tmp_path, i, e) for i in (0, 1)]
            try:
                for x in u:
                    x.ok(ESPNOW_UP % (1, 200000))
                e.wait_units([0, 1])
                blast(u[0], 40)
                wait_delivered(e, 40)
                return [m[:2] for m in drain(u[1], 40 - e.counters["espnow"]["lost"])]
            finally:
                for x in u:
                    x.kill()
    assert lost_pattern() == lost_pattern()


# --- UART -----------------------------------------------------------------------------------

UART_UP = """
from uart_twin import UART
u = UART(1, baudrate=115200, tx=17, rx=16, rxbuf=65536)
"""

LINK_UP = UART_UP + """
from fathom.link.uart_link import UartLink
link = UartLink({'id': 1, 'tx': 17, 'rx': 16, 'baud': 115200}, uart=u)
"""


def uart_units(spawn, ether, code=UART_UP):
    a = spawn(0, FATHOM_UART="cable:0")
    b = spawn(1, FATHOM_UART="cable:1")
    a.ok(code)
    b.ok(code)
    ether.wait_units([0, 1], "uart")
    return a, b


def received(unit, n):
    """Until the unit's UART twin has taken n bytes off the cable."""
    until(unit, "u.any()\n_ = u.received", lambda got: got >= n, "%d bytes to arrive" % n)


def test_uart_twin_is_a_byte_pipe_both_ways(spawn, ether):
    a, b = uart_units(spawn, ether)
    assert a.ok("_ = u.write(b'hello ')") == 6
    a.ok("u.write(bytearray(b'world'))")
    ether.wait_until(lambda: ether.counters["uart"]["delivered"] >= 11 and not ether.pending())
    received(b, 11)
    assert b.ok("_ = u.any()") == 11
    assert b.ok("_ = u.read(5)") == b"hello"
    assert b.ok("buf = bytearray(10)\nn = u.readinto(buf)\n_ = bytes(buf[:n])") == b" world"
    assert b.ok("_ = u.read()") is None
    b.ok("u.write(b'back')")
    ether.wait_until(lambda: ether.counters["uart"]["delivered"] >= 15 and not ether.pending())
    received(a, 4)
    assert a.ok("_ = u.read()") == b"back"
    assert [(s.src, s.dst, s.data) for s in ether.sent_by(1, "uart")] == [(1, 0, b"back")]


def test_uart_link_frames_survive_byte_faults_and_garbage(spawn, ether):
    a, b = uart_units(spawn, ether, LINK_UP)
    ether.set(loss=0.2, dup=0.2, corrupt=0.2, garbage=0.3)
    a.ok("for i in range(%d):\n link.send(None, b'frame-%%03d' %% i + bytes(60))" % N)
    ether.wait_until(lambda: ether.counters["uart"]["sent"] >= N and not ether.pending())
    c = ether.counters["uart"]
    received(b, c["delivered"])  # else the reads below could end before the last bytes came
    assert c["lost"] and c["dup"] and c["corrupt"] and c["garbage"]
    got = []
    for _ in range(50):
        got += b.ok("got = []\nwhile True:\n r = link.recv()\n if r is None: break\n"
                    " got.append(r[1][:9].decode())\n_ = got")
        if not b.ok("_ = u.any()"):
            break
    idx = [int(g[6:]) for g in got]
    assert idx == sorted(idx)  # nothing invented, nothing out of order
    assert all(g.startswith("frame-") for g in got)
    damaged = N - len(set(idx))
    assert 0.2 * N <= damaged <= 0.8 * N
    assert b.ok("_ = u.overflows") == 0
    stats = b.ok("_ = link.stats")
    assert stats["bad_crc"] + stats["malformed"] >= damaged // 2
    assert stats["rx"] == len(got)


def test_uart_partition_and_an_unplugged_cable(spawn, ether):
    a, b = uart_units(spawn, ether)
    ether.set(partition=[(0, 1)])
    a.ok("u.write(b'cut')")
    ether.wait_until(lambda: ether.counters["uart"]["partitioned"] == 1)
    assert b.ok("_ = u.read()") is None
    ether.set(partition=[])
    b.kill()
    ether.wait_until(lambda: 1 not in ether.units("uart"))
    assert a.ok("_ = u.write(b'nobody')") == 6  # a loose cable swallows bytes silently
    ether.wait_until(lambda: ether.counters["uart"]["unroutable"] == 1)


# --- the device transports on the twins -----------------------------------------------------

ESPNOW_LINK_UP = """
from fathom.link.espnow_link import EspNowLink
link = EspNowLink(channel=1)
import network
_ = [link.mac.hex(), link.mtu, network.WLAN(network.STA_IF).config('pm')]
"""

RECV_WAIT = """
import time
t = time.ticks_ms()
r = None
while r is None and time.ticks_diff(time.ticks_ms(), t) < %d:
    r = link.recv()
_ = None if r is None else [r[0].hex() if r[0] else None, r[1].hex()]
"""


def recv_wait(u, ms=int(TIMEOUT * 1000)):
    r = u.ok(RECV_WAIT % ms)
    return None if r is None else (r[0] and bytes.fromhex(r[0]), bytes.fromhex(r[1]))


def test_espnow_link_discovers_by_broadcast_then_talks_encrypted(spawn, ether):
    a, b = spawn(0), spawn(1)
    assert a.ok(ESPNOW_LINK_UP) == [mac_for_unit(0).hex(), 250, 0]
    b.ok(ESPNOW_LINK_UP)
    ether.wait_units([0, 1])
    a.ok("link.send(None, b'who is there')")
    assert recv_wait(b) == (mac_for_unit(0), b"who is there")
    b.ok("link.send(%s, b'me')" % mac(0))
    b.ok("link.send(%s, b'me again')" % mac(0))  # the peer is already there: no error
    assert recv_wait(a) == (mac_for_unit(1), b"me")
    assert recv_wait(a) == (mac_for_unit(1), b"me again")
    a.ok("link.set_key(%s, b'L' * 16)" % mac(1))
    b.ok("link.set_key(%s, b'L' * 16)" % mac(0))
    a.ok("link.send(%s, b'encrypted')" % mac(1))
    assert recv_wait(b) == (mac_for_unit(0), b"encrypted")
    assert ether.sent_by(0)[-1].enc is True
    assert a.run("link.send(None, b'')")[:2] == ("ERR", "ValueError")
    assert a.run("link.send(None, bytes(251))")[:2] == ("ERR", "ValueError")
    assert a.run("link.set_key(%s, b'short')" % mac(1))[:2] == ("ERR", "ValueError")
    assert a.ok("_ = link.stats")["tx"] == 2
    a.ok("link.close()")
    assert recv_wait(b, 50) is None


def test_uart_link_round_trip_on_a_clean_cable(spawn, ether):
    a, b = uart_units(spawn, ether, LINK_UP)
    assert a.ok("_ = link.mtu") == 250
    a.ok("link.send(None, bytes(range(250)))")
    assert recv_wait(b) == (None, bytes(range(250)))
    b.ok("link.send(None, b'\\x00ack\\x00')")
    assert recv_wait(a) == (None, b"\x00ack\x00")


# --- the ether on its own -------------------------------------------------------------------

def _raw_unit(port, unit):
    """A unit speaking the wire protocol by hand, as firmware/twins/etherwire.py does."""
    s = socket.create_connection(("127.0.0.1", port), TIMEOUT)
    _put(s, b"H", json.dumps({"kind": "espnow", "unit": unit,
                              "mac": mac_for_unit(unit).hex()}).encode())
    return s


def _put(s, typ, body):
    s.sendall((len(body) + 1).to_bytes(2, "big") + typ + body)


def _get(s):
    head = b""
    while len(head) < 2:
        head += s.recv(2 - len(head))
    body = b""
    n = int.from_bytes(head, "big")
    while len(body) < n:
        body += s.recv(n - len(body))
    return body[:1], body[1:]


def test_standalone_ether_is_driven_by_its_control_port():
    proc = subprocess.Popen([sys.executable, "-m", "fathom_host.emulator.ether", "--port", "0",
                             "--loss", "0.25", "--seed", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                [str(ROOT / "host_tools")] + sys.path)))
    try:
        line = proc.stdout.readline()
        assert line.startswith("ether listening on 127.0.0.1:"), line
        port = int(line.rsplit(":", 1)[1])
        client = EtherClient(port)
        with pytest.raises(FathomError, match="probability"):
            client.set(loss=2)
        client.set(loss=0.0, link=(0, 1))
        a, b = _raw_unit(port, 0), _raw_unit(port, 1)
        deadline = time.monotonic() + TIMEOUT
        while len(client.units()["espnow"]) < 2:
            assert time.monotonic() < deadline, "the raw units never showed in the ether"
            time.sleep(0.01)
        _put(a, b"S", mac_for_unit(1) + b"\x00" + b"ping")
        assert _get(a) == (b"A", b"\x01")
        assert _get(b) == (b"R", mac_for_unit(0) + b"\x00" + b"ping")
        client.set(partition=[(0, 1)])
        _put(a, b"S", mac_for_unit(1) + b"\x00" + b"cut")
        assert _get(a) == (b"A", b"\x00")
        assert client.counters["espnow"]["partitioned"] == 1
        assert [(s.src, s.dst, s.data) for s in client.capture()] == [(0, 1, b"ping"),
                                                                      (0, 1, b"cut")]
        for s in (a, b):
            s.close()
        client.close()
    finally:
        proc.kill()
        proc.wait(10)


def test_bad_knobs_are_refused_clearly():
    e = Ether()
    with pytest.raises(FathomError, match="unknown ether knob"):
        e.set(los=0.3)
    with pytest.raises(FathomError, match="probability"):
        e.set(loss=1.5)
    with pytest.raises(FathomError, match=">= 0"):
        e.set(delay_ms=-1)
