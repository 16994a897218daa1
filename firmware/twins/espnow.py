# Host twin of MicroPython's `espnow` module (ESP32 flavour): the same calls, return values and
# errors, with the radio replaced by the emulator's ether (FATHOM_ETHER). Mirrored on purpose:
# the sender must have the peer registered (a receiver needs no peer to receive), broadcast
# needs the broadcast peer, empty or >250-byte messages raise OSError ESP_ERR_ESPNOW_ARG as the
# ESP-IDF does, re-adding a peer raises ESP_ERR_ESPNOW_EXIST, a 21st peer or a 7th encrypted one
# (added, or a clear one modified to encrypt) raises ESP_ERR_ESPNOW_FULL (the ESP-IDF's
# ESP_NOW_MAX_TOTAL_PEER_NUM 20, ESP_NOW_MAX_ENCRYPT_PEER_NUM 6), a full receive buffer (rxbuf)
# drops packets that the sender still saw acknowledged, units on other channels hear nothing,
# and a packet sent to an encrypted peer reaches only a receiver holding the same PMK and LMK.
# The receive buffer is what the board's is: active(True) allocates rxbuf bytes on the GC heap
# (ports/esp32/esp_espnow.c) and packets wait in that ring, each behind its 13-byte record
# header, so the heap figures of the 32-bit runtime include it as a board's would.
# Held to MicroPython's own two-board tests (tests/host/test_multi_espnow.py runs v1.28.0's
# multi_espnow suite against two units): recvinto/irecv/recv and iteration, irq() callbacks,
# one per packet kept as ports/esp32/modespnow.c's recv_cb schedules them, the stream poll
# asyncio uses (the aioespnow twin), and transmit rates, of which the Long Range ones reach only
# a receiver whose WLAN protocol includes PROTOCOL_LR.
import hashlib
import sys

import etherwire
import network

try:  # the 32-bit runtimes' probe (host_tools/fathom_host/probe)
    from fathomprobe import hold as _hold
except ImportError:
    def _hold(flag):
        pass


def _held(fn):
    """The Wi-Fi driver's work and tables: on a board, not the MicroPython heap, and C that no
    scheduled callback interrupts (see _leave)."""
    def run(*args, **kw):
        _hold(1)
        _s.busy += 1
        try:
            return fn(*args, **kw)
        finally:
            _hold(0)
            _leave()
    return run


def _leave():
    # The board's espnow calls are C: a callback scheduled meanwhile runs after they return.
    # The twin's are Python, which the scheduler may enter at any jump, so the irq twin's
    # scheduled calls wait (espnow_irq) while a call is busy, and are scheduled again here.
    _s.busy -= 1
    if not _s.busy and _s.owed:
        import espnow_irq
        espnow_irq.release(_s)


MAX_DATA_LEN = 250
ADDR_LEN = 6
KEY_LEN = 16
MAX_TOTAL_PEER_NUM = 20
MAX_ENCRYPT_PEER_NUM = 6

_BASE = 0x3000 + 100  # ESP_ERR_WIFI_BASE + 100, as in esp_now.h
_ERRS = {1: "ESP_ERR_ESPNOW_NOT_INIT", 2: "ESP_ERR_ESPNOW_ARG", 3: "ESP_ERR_ESPNOW_NO_MEM",
         4: "ESP_ERR_ESPNOW_FULL", 5: "ESP_ERR_ESPNOW_NOT_FOUND", 6: "ESP_ERR_ESPNOW_INTERNAL",
         7: "ESP_ERR_ESPNOW_EXIST", 8: "ESP_ERR_ESPNOW_IF", 9: "ESP_ERR_ESPNOW_CHAN"}
_NOT_INIT, _ARG, _NO_MEM, _FULL, _NOT_FOUND, _INTERNAL, _EXIST, _IF, _CHAN = range(1, 10)
# wifi_phy_rate_t (esp_wifi_types.h): the long-preamble forms of the 802.11b rates, as the board
RATE_1M, RATE_2M, RATE_5M, RATE_11M = 0x00, 0x01, 0x02, 0x03
RATE_6M, RATE_12M, RATE_24M, RATE_54M = 0x0B, 0x0A, 0x09, 0x0C
RATE_LORA_250K, RATE_LORA_500K = 0x29, 0x2A
_DEFAULT_PMK = b"pmk1234567890123"  # the ESP-IDF's default primary master key
# A packet's record in the ring: magic, length, timestamp (4), RSSI, then the sender's MAC (6).
# The default rxbuf, 2 * (13 + 250) = 526, holds exactly two full packets.
_HDR = 7
_PKT_OVERHEAD = _HDR + 6
_MAGIC = 0x99
_ENC = 2
_LR = 4  # flags bit: sent at a Long Range rate (see the ether)
_SYNC_TIMEOUT_MS = 2000
_RSSI = -40


def _err(n):
    # The C module raises OSError(-esp_err_t, name); callers match err.args[1].
    return OSError(-(_BASE + n), _ERRS[n])


def _mac(mac):
    mac = bytes(mac)
    if len(mac) != 6:
        raise ValueError("invalid buffer length")
    return mac


def _multicast(mac):
    return bool(mac[0] & 1)


class _State:
    def __init__(self):
        self.active = False
        self.rxbuf = 526
        self.timeout_ms = 300000
        self.rate = None
        self.pmk = _DEFAULT_PMK
        self.peers = []  # [mac, lmk(16), channel, ifidx, encrypt], in the order added
        self.table = {}  # the peers table: mac -> [rssi, time_ms] of the last packet read
        self.ring = None  # bytearray(rxbuf) while active: the receive buffer
        self.head = 0     # where the oldest packet's record starts
        self.queued = 0   # bytes of records waiting in the ring
        self.tx_pkts = self.tx_responses = self.tx_failures = 0
        self.rx_pkts = self.dropped = 0
        self.undecryptable = 0  # not in stats(): the real driver discards these silently
        self.arrived = 0  # packets the ether handed this unit, whatever became of them
        self.wire = None
        self.irq = None   # (callback, arg): called per packet kept, as recv_cb schedules it
        self.watch = 0    # the radio task's generation (espnow_irq.py): a stale one ends
        self.kick = False  # the radio task has asked for a pump that has not run yet
        self.busy = 0     # depth of twin calls under way (_leave)
        self.owed = 0     # irq callbacks due, not yet run (espnow_irq)
        self.delivering = False  # one of them is in the schedule queue


_s = _State()


def _sta():
    return network.WLAN(network.STA_IF)


def _hello():
    sta = _sta()
    return {"kind": "espnow", "unit": etherwire.unit_index(), "mac": sta.config("mac").hex(),
            "channel": sta.config("channel"), "protocol": sta.config("protocol")}


def _net_changed():
    if _s.wire is not None:
        _s.wire.rehello(_hello())


network._listeners.append(_net_changed)


def _tag(lmk):
    return hashlib.sha256(_s.pmk + lmk).digest()[:8]


def _find(mac):
    for p in _s.peers:
        if p[0] == mac:
            return p
    return None


def _pump(timeout_ms=0):
    if _s.wire is None:
        return
    # On a board the radio task fills the ring in C: no Python heap, no Python stack.
    _hold(1)
    _s.busy += 1
    try:
        _pump_wire(timeout_ms)
    finally:
        _hold(0)
        _leave()


def _pump_wire(timeout_ms):
    for typ, body in _s.wire.get(timeout_ms):
        if typ == b"A":
            _s.tx_responses += 1
            if body[:1] != b"\x01":
                _s.tx_failures += 1
        elif typ == b"R":
            _s.arrived += 1
            _arrive(body)


def _arrive(body):
    src, flags = bytes(body[:6]), body[6]
    if flags & _ENC:
        tag, msg = bytes(body[7:15]), bytes(body[15:])
        p = _find(src)
        if p is None or not p[4] or _tag(p[1]) != tag:
            _s.undecryptable += 1
            return
    else:
        msg = bytes(body[7:])
    if not _sta().active():
        return  # a radio that is off hears nothing
    cost = _PKT_OVERHEAD + len(msg)
    ring = _s.ring
    if _s.queued + cost > len(ring):
        _s.dropped += 1
        return
    t = etherwire.ticks_ms()
    rec = bytes((_MAGIC, len(msg), t & 0xFF, (t >> 8) & 0xFF, (t >> 16) & 0xFF,
                 (t >> 24) & 0xFF, _RSSI & 0xFF)) + src + msg
    _ring_write((_s.head + _s.queued) % len(ring), rec)
    _s.queued += cost
    _s.rx_pkts += 1
    if _s.irq is not None:
        import espnow_irq
        espnow_irq.fire(_s)


def _ring_write(at, data):
    ring = _s.ring
    first = min(len(data), len(ring) - at)
    ring[at:at + first] = data[:first]
    if first < len(data):
        ring[:len(data) - first] = data[first:]


def _ring_read(at, n):
    ring = _s.ring
    at %= len(ring)
    end = at + n
    if end <= len(ring):
        return bytes(ring[at:end])
    return bytes(ring[at:]) + bytes(ring[:end - len(ring)])


def arrived():
    """Packets that reached this unit from the ether so far, kept, dropped or undecryptable
    (not in the real module): what a test waits on before it looks at the receive side."""
    _pump(0)
    return _s.arrived


def _encrypted():
    return sum(1 for q in _s.peers if q[4])


def _check_init():
    if not _s.active:
        raise _err(_NOT_INIT)


# MicroPython: a stream, so select.poll (and asyncio) polls it through ioctl() as the board's
# ESPNow type (its stream protocol); CPython's io.IOBase would bring file methods instead.
_Base = object
if sys.implementation.name == "micropython":
    try:
        from io import IOBase as _Base
    except ImportError:  # a port without io.IOBase (the web page's build, maybe): no polling
        pass


class ESPNow(_Base):
    """Every instance shares one state, as the real ESPNow() returns a singleton."""

    def __init__(self):
        self._data = [None, None]

    @property
    def peers_table(self):
        return _s.table

    def active(self, flag=None):
        if flag is not None:
            if flag and not _s.active:
                _s.active = True
                _s.ring = bytearray(_s.rxbuf)  # on the GC heap, as the board's buffer_init
                _s.head = _s.queued = 0
                _hold(1)  # the radio's own state: a board's is in the Wi-Fi driver
                try:
                    _s.wire = etherwire.Wire(_hello())
                finally:
                    _hold(0)
            elif not flag and _s.active:
                _s.active = False
                if _s.wire is not None:
                    _s.wire.close()
                _s.wire = None
                _s.peers = []
                _s.ring = None
                _s.head = _s.queued = 0
        return _s.active

    def init(self):
        self.active(True)

    def deinit(self):
        self.active(False)

    def config(self, *args, **kw):
        if args:
            if len(args) != 1 or kw:
                raise TypeError("can query only one param")
            name = args[0]
            if name == "rxbuf":
                return _s.rxbuf
            if name == "timeout_ms":
                return _s.timeout_ms
            raise ValueError("unknown config param")
        for name, v in kw.items():
            if name == "rxbuf":
                _s.rxbuf = int(v)  # like the real one, takes effect at the next active(True)
            elif name == "timeout_ms":
                _s.timeout_ms = int(v)
            elif name == "rate":
                _s.rate = _rate(v)
            else:
                raise TypeError("unexpected keyword argument '%s'" % name)

    def irq(self, callback):
        """callback(self) is scheduled (micropython.schedule) for every packet the radio keeps,
        whoever reads it; a unit busy in Python still gets it, as from the board's Wi-Fi task."""
        if callback is not None and not callable(callback):
            raise ValueError("invalid handler")
        import espnow_irq
        espnow_irq.set_handler(_s, callback, self, _pump)

    def ioctl(self, req, arg):
        """The stream poll of modespnow.c (MP_STREAM_POLL only), its XOR included: readable
        while a packet waits, writable once every sent packet has its response."""
        if req != 3:
            return -1
        if not _s.active:
            return 0
        _pump(0)
        return arg ^ ((0 if _s.queued else 1) | (4 if _s.tx_responses < _s.tx_pkts else 0))

    # --- sending and receiving -----------------------------------------------------------------

    @_held
    def send(self, *args):
        if not 1 <= len(args) <= 3:
            raise TypeError("send() takes 1 to 3 arguments")
        if len(args) == 1:
            peer, msg, sync = None, args[0], True
        else:
            peer, msg = args[0], args[1]
            sync = True if len(args) < 3 or args[2] is None else bool(args[2])
        _check_init()
        if isinstance(msg, str):
            msg = msg.encode()
        msg = bytes(msg)
        if not 0 < len(msg) <= MAX_DATA_LEN:
            raise _err(_ARG)
        if peer:
            peer = _mac(peer)
            p = _find(peer)
            if p is None:
                raise _err(_NOT_FOUND)
            targets = [p]
        else:
            targets = [p for p in _s.peers if not _multicast(p[0])]
            if not targets:
                raise _err(_NOT_FOUND)
        ch = _sta().config("channel")
        for p in targets:
            if not network.WLAN(p[3]).active():
                raise _err(_IF)
            if p[2] and p[2] != ch:
                raise _err(_CHAN)
        if sync:
            self._wait_responses()
        failures = _s.tx_failures
        lr = _LR if _s.rate in (RATE_LORA_250K, RATE_LORA_500K) else 0
        for p in targets:
            enc = p[4] and not _multicast(p[0])
            head = p[0] + bytes([(_ENC if enc else 0) | lr]) + (_tag(p[1]) if enc else b"")
            _s.tx_pkts += 1
            if _s.wire is None or not _s.wire.put(b"S", head + msg):
                # No ether: a broadcast still "succeeds", a unicast finds nobody.
                _s.tx_responses += 1
                if not _multicast(p[0]):
                    _s.tx_failures += 1
        if sync:
            self._wait_responses()
            return _s.tx_failures == failures
        return True

    def _wait_responses(self):
        start = etherwire.ticks_ms()
        while _s.tx_responses < _s.tx_pkts:
            if _s.wire is None or not _s.wire.connected():
                n = _s.tx_pkts - _s.tx_responses
                _s.tx_responses += n
                _s.tx_failures += n
                return
            left = _SYNC_TIMEOUT_MS - etherwire.ticks_diff(etherwire.ticks_ms(), start)
            if left <= 0:
                raise OSError(110, "ETIMEDOUT")
            _pump(left)

    def recv(self, timeout_ms=None):
        got = self._recv(timeout_ms)
        if got is None:
            return (None, None)
        return [got[0], got[1]]

    def irecv(self, timeout_ms=None):
        """The same list and bytearray every time, as the board's alloc-free irecv."""
        if self._data[1] is None:
            self._data[1] = bytearray(MAX_DATA_LEN)
        return self._data if self.recvinto(self._data, timeout_ms) else (None, None)

    def recvinto(self, data, timeout_ms=None):
        """Into data = [peer, bytearray(250)] (+ [rssi, time_ms] when 4 long): the message's
        length, or 0 at the timeout."""
        if not isinstance(data, list):
            raise TypeError
        if len(data) < 2:
            raise ValueError
        buf = data[1]
        if not isinstance(buf, bytearray) and len(memoryview(buf)) != MAX_DATA_LEN:
            raise ValueError("invalid buffer length")
        got = self._recv(timeout_ms)
        if got is None:
            return 0
        src, msg = got
        if isinstance(buf, bytearray):
            buf[:] = msg  # the board sets the bytearray's length, within its 250 bytes
        else:
            memoryview(buf)[:len(msg)] = msg
        data[0] = src
        if len(data) >= 4:
            data[2], data[3] = _s.table[src]
        return len(msg)

    def __iter__(self):
        return self

    def __next__(self):
        return self.irecv()

    def _recv(self, timeout_ms):
        _s.busy += 1
        try:
            return self._recv_busy(timeout_ms)
        finally:
            _leave()

    def _recv_busy(self, timeout_ms):
        _check_init()
        if timeout_ms is None:
            timeout_ms = _s.timeout_ms
        start = etherwire.ticks_ms()
        _pump(0)
        while not _s.queued:
            if timeout_ms >= 0:
                left = timeout_ms - etherwire.ticks_diff(etherwire.ticks_ms(), start)
                if left <= 0:
                    return None
            else:
                left = -1
            if _s.wire is None or not _s.wire.connected():
                # Nothing can arrive; honour the timeout without spinning.
                if left < 0:
                    raise OSError(110, "ETIMEDOUT")
                _sleep_ms(left)
                _pump(0)
                return None if not _s.queued else self._pop()
            _pump(left)
        return self._pop()

    def _pop(self):
        head = _s.head
        n = _s.ring[(head + 1) % len(_s.ring)]
        if _s.ring[head] != _MAGIC:
            raise ValueError("espnow: corrupt receive buffer")
        src = _ring_read(head + _HDR, 6)
        msg = _ring_read(head + _PKT_OVERHEAD, n)
        _s.head = (head + _PKT_OVERHEAD + n) % len(_s.ring)
        _s.queued -= _PKT_OVERHEAD + n
        entry = _s.table.get(src)
        if entry is None:
            entry = _s.table[src] = [0, 0]
        entry[0] = _RSSI
        entry[1] = etherwire.ticks_ms()
        return src, msg

    def any(self):
        _check_init()
        _pump(0)
        return bool(_s.queued)

    def poll(self):
        return self.any()

    def stats(self):
        return (_s.tx_pkts, _s.tx_responses, _s.tx_failures, _s.rx_pkts, _s.dropped)

    # --- peers ---------------------------------------------------------------------------------

    def set_pmk(self, pmk):
        pmk = bytes(pmk)
        if len(pmk) != KEY_LEN:
            raise ValueError("invalid buffer length")
        _s.pmk = pmk

    @_held
    def add_peer(self, mac, lmk=None, channel=None, ifidx=None, encrypt=None):
        _check_init()
        mac = _mac(mac)
        p = [mac, bytes(KEY_LEN), 0, network.STA_IF, False]
        self._update(p, lmk, channel, ifidx, encrypt)
        if _find(mac) is not None:
            raise _err(_EXIST)
        if len(_s.peers) >= MAX_TOTAL_PEER_NUM:
            raise _err(_FULL)
        if p[4] and _encrypted() >= MAX_ENCRYPT_PEER_NUM:
            raise _err(_FULL)
        _s.peers.append(p)

    @_held
    def mod_peer(self, mac, lmk=None, channel=None, ifidx=None, encrypt=None):
        _check_init()
        p = _find(_mac(mac))
        if p is None:
            raise _err(_NOT_FOUND)
        q = list(p)
        self._update(q, lmk, channel, ifidx, encrypt)
        if q[4] and not p[4] and _encrypted() >= MAX_ENCRYPT_PEER_NUM:
            raise _err(_FULL)  # turning a clear peer encrypted takes one of the six slots
        p[:] = q

    def _update(self, p, lmk, channel, ifidx, encrypt):
        if lmk is not None:
            p[4] = bool(lmk)
            if lmk:
                lmk = bytes(lmk)
                if len(lmk) != KEY_LEN:
                    raise ValueError("invalid buffer length")
                p[1] = lmk
        if channel is not None:
            if not 0 <= channel <= 14:
                raise _err(_ARG)
            p[2] = channel
        if ifidx is not None:
            if ifidx not in (network.STA_IF, network.AP_IF):
                raise _err(_ARG)
            p[3] = ifidx
        if encrypt is not None:
            p[4] = bool(encrypt)
        if p[4] and _multicast(p[0]):
            raise _err(_ARG)  # broadcast and multicast cannot be encrypted

    def del_peer(self, mac):
        _check_init()
        p = _find(_mac(mac))
        if p is None:
            raise _err(_NOT_FOUND)
        _s.peers.remove(p)

    def get_peer(self, mac):
        _check_init()
        p = _find(_mac(mac))
        if p is None:
            raise _err(_NOT_FOUND)
        return tuple(p)

    def get_peers(self):
        _check_init()
        return tuple(tuple(p) for p in _s.peers if not _multicast(p[0]))

    def peer_count(self):
        _check_init()
        return (len(_s.peers), _encrypted())


def _rate(v):
    # esp_wifi_config_espnow_rate on the interfaces that are up (none up: ENOENT, as the board)
    v = int(v)
    if not (network.WLAN(network.STA_IF).active() or network.WLAN(network.AP_IF).active()):
        raise OSError(2, "ENOENT")
    if not (0 <= v <= 0x1F and v != 4 or v in (RATE_LORA_250K, RATE_LORA_500K)):
        raise OSError(-0x102, "ESP_ERR_INVALID_ARG")
    return v


def _sleep_ms(ms):
    try:
        from time import sleep_ms
    except ImportError:
        from time import sleep

        def sleep_ms(ms):
            sleep(ms / 1000)
    sleep_ms(ms)
