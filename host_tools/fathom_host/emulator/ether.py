# The emulator's air and cable: relays ESP-NOW packets and UART bytes between unit processes,
# with seeded faults (loss, delay, duplication, corruption, garbage, partition) and a capture of
# everything each unit sends, so tests can look for secrets in every frame that left a unit.
#
# Units (firmware/twins/etherwire.py) connect over TCP on loopback and speak length-prefixed
# messages: 2-byte big-endian length (type byte included), a type byte, a body.
#   unit -> ether  H hello (JSON: kind espnow|uart|control, unit, mac, channel, protocol,
#                  pipe, end)
#                  S espnow send: dst mac(6) flags(1) [key tag(8) if encrypted] payload
#                  W uart bytes
#                  F espnow send under another's address: src mac(6) dst mac(6) flags(1)
#                    payload (only on a connection whose hello said "forge": a third radio
#                    that forges and replays, tests/kit/flood.py)
#                  C control request (JSON), answered with C (JSON)
#   ether -> unit  R espnow packet: src mac(6) flags(1) [key tag(8)] payload
#                  A espnow send status: 1 byte, 1 = the radio would have acknowledged
#                  B uart bytes
# The status of a unicast is 1 when the receiver exists on the same channel and is not
# partitioned from the sender; loss and corruption strike after that, as a full receive buffer
# does on the real radio (send() returning True proves nothing). A packet sent at a Long Range
# rate (flags bit 4) reaches only a unit whose WLAN protocol bitmap has PROTOCOL_LR (8), and
# one sent at any other rate only a unit with one of 11b/11g/11n (7): the others do not hear it.
import argparse
import collections
import heapq
import json
import random
import selectors
import socket
import sys
import threading
import time
import traceback

from fathom_host import FathomError

BROADCAST = b"\xff" * 6
MAX_DATA_LEN = 250
_MAX_MSG = 0xFFFF
_MAX_OUTBUF = 1 << 20  # a unit that stops reading loses what overflows, like a full buffer
_ENC = 2  # flags bit: payload sent to an encrypted peer, key tag follows
_LR = 4   # flags bit: sent at a Long Range rate
_PROTOCOL_LR = 8
_PROTOCOL_DEFAULT = 7  # 11b | 11g | 11n
_TAG_LEN = 8
_UART_FAULT_SPAN = 8  # longest run of bytes one UART drop or duplication touches
_UART_GARBAGE_MAX = 16
_COUNTER_NAMES = ("sent", "bytes", "delivered", "lost", "dup", "corrupt", "garbage",
                  "partitioned", "unroutable")
KNOBS = ("loss", "dup", "corrupt", "delay_ms", "jitter_ms", "garbage")


def mac_for_unit(unit):
    """The MAC the network twin gives unit `unit` (locally administered, unicast)."""
    return b"\x02\x00\x00\x00\x00" + bytes([unit + 1])


def unit_for_mac(mac):
    if len(mac) == 6 and mac[:5] == b"\x02\x00\x00\x00\x00" and mac[5] > 0:
        return mac[5] - 1
    return None


class Sent(collections.namedtuple("Sent", "t src dst data")):
    """One capture record: what unit `src` put on the air or the cable.

    dst is the receiving unit, "*" for broadcast, or the raw MAC in hex when no unit has it;
    .link is "espnow" or "uart"; .enc says the unit sent it to an encrypted peer."""


def _new_counters():
    return dict.fromkeys(_COUNTER_NAMES, 0)


class _Conn:
    def __init__(self, sock):
        self.sock = sock
        self.rbuf = bytearray()
        self.wbuf = bytearray()
        self.kind = None
        self.unit = None
        self.mac = None
        self.channel = 1
        self.protocol = _PROTOCOL_DEFAULT
        self.pipe = None
        self.end = None
        self.baud = 115200
        self.forge = False      # may send as any address (F): a bystander's radio
        self.closed = False


class _Forged:
    """A forging connection seen as the sender it pretends to be (the address it put on its
    frame), for one send."""

    def __init__(self, real, mac):
        if len(mac) != 6:
            raise ValueError("a forged send needs a 6-byte address")
        self.real = real
        self.mac = bytes(mac)
        self.unit = real.unit
        self.channel = real.channel
        self.protocol = real.protocol


class Ether:
    """The relay, run as a thread in this process. Knobs may change at any time.

    Global knobs apply to every directed link without its own setting; set(..., link=(a, b))
    overrides the knobs for traffic from unit a to unit b only. Probabilities are per packet on
    ESP-NOW and per written chunk on UART (where a fault damages a few bytes of the chunk)."""

    def __init__(self, port=0, host="127.0.0.1", seed=0, capture_path=None, baud_pacing=False,
                 **knobs):
        self.host = host
        self.port = port
        self.seed = seed
        self.baud_pacing = baud_pacing
        self._knobs = dict.fromkeys(KNOBS, 0)
        self._link_knobs = {}
        self._partitions = set()
        self._check_knobs(knobs)
        self._knobs.update(knobs)
        self._lock = threading.RLock()
        self._rngs = {}
        self._totals = {"espnow": _new_counters(), "uart": _new_counters()}
        self._links = {}
        self.capture = []
        self._capture_path = capture_path
        self._capture_file = None
        self._conns = []
        self._pipes = {}
        self._line_free = {}
        self._queue = []
        self._qseq = 0
        self._sel = None
        self._listener = None
        self._thread = None
        self._wake_r = self._wake_w = None
        self._running = False

    # --- life cycle -------------------------------------------------------------------------

    def start(self):
        if self._thread is not None:
            return self
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._listener.bind((self.host, self.port))
        except OSError as e:
            self._listener.close()
            raise FathomError("ether cannot listen on %s:%s (%s)" % (self.host, self.port, e))
        self._listener.listen(16)
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        if self._capture_path:
            self._capture_file = open(self._capture_path, "a", encoding="utf-8")
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._listener, selectors.EVENT_READ, None)
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._running = True
        self._thread = threading.Thread(target=self._run, name="ether", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if self._thread is None:
            return
        self._running = False
        self._wake()
        self._thread.join(5)
        self._thread = None
        for c in list(self._conns):
            self._close(c)
        for s in (self._listener, self._wake_r, self._wake_w):
            s.close()
        self._sel.close()
        if self._capture_file:
            self._capture_file.close()
            self._capture_file = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def address(self):
        """The value for the units' FATHOM_ETHER."""
        return "%s:%d" % (self.host, self.port)

    # --- control ----------------------------------------------------------------------------

    def set(self, link=None, partition=None, **knobs):
        """Change knobs globally, or for the directed link (src, dst) only.

        partition=[(a, b), ...] replaces the set of cut unit pairs (both directions);
        partition=[] heals them all. A knob set to None on a link falls back to the global."""
        self._check_knobs(knobs)
        with self._lock:
            if link is None:
                for k, v in knobs.items():
                    if v is not None:
                        self._knobs[k] = v
            else:
                lk = self._link_knobs.setdefault(tuple(link), {})
                for k, v in knobs.items():
                    if v is None:
                        lk.pop(k, None)
                    else:
                        lk[k] = v
            if partition is not None:
                self._partitions = {frozenset(p) for p in partition}
        self._wake()

    def knobs(self, link=None):
        with self._lock:
            return self._knobs_for(link) if link else dict(self._knobs)

    @property
    def counters(self):
        """Totals: {"espnow": {...}, "uart": {...}}, each a dict of _COUNTER_NAMES."""
        with self._lock:
            return {k: dict(v) for k, v in self._totals.items()}

    def link_counters(self, src, dst):
        with self._lock:
            got = self._links.get((src, dst))
            return {k: dict(got[k]) if got else _new_counters() for k in ("espnow", "uart")}

    def units(self, kind="espnow"):
        """Unit number -> MAC (or (pipe, end) for uart) of the units connected now."""
        with self._lock:
            return {c.unit: (c.mac if kind == "espnow" else (c.pipe, c.end))
                    for c in self._conns if c.kind == kind and not c.closed}

    def pending(self):
        """How many deliveries the ether still holds: scheduled (delayed or due) or not yet
        written whole to a unit's socket. 0 means every delivered copy has left the ether; a
        test that must know a unit took it waits on the unit (the twins count arrivals)."""
        with self._lock:
            return len(self._queue) + sum(1 for c in self._conns if c.wbuf and not c.closed)

    def sent_by(self, unit, link=None):
        with self._lock:
            return [s for s in self.capture if s.src == unit and (link is None or s.link == link)]

    def clear_capture(self):
        with self._lock:
            del self.capture[:]

    def wait_until(self, pred, timeout=30.0, what="condition"):
        """Poll pred() until true; FathomError after `timeout` seconds (instead of sleeps)."""
        end = time.monotonic() + timeout
        while True:
            got = pred()
            if got:
                return got
            if time.monotonic() > end:
                raise FathomError("ether: timed out waiting for %s" % what)
            time.sleep(0.005)

    def wait_units(self, units, kind="espnow", timeout=30.0):
        return self.wait_until(lambda: set(units) <= set(self.units(kind)), timeout,
                               "%s units %s to connect" % (kind, sorted(units)))

    def _check_knobs(self, knobs):
        for k, v in knobs.items():
            if k not in KNOBS:
                raise FathomError("unknown ether knob %r (knobs: %s)" % (k, ", ".join(KNOBS)))
            if v is None:
                continue
            if k in ("delay_ms", "jitter_ms"):
                if v < 0:
                    raise FathomError("%s must be >= 0, not %r" % (k, v))
            elif not 0 <= v <= 1:
                raise FathomError("%s is a probability in [0, 1], not %r" % (k, v))

    def _knobs_for(self, link):
        k = dict(self._knobs)
        k.update(self._link_knobs.get(tuple(link), {}))
        return k

    def _wake(self):
        if self._wake_w is not None:
            try:
                self._wake_w.send(b"x")
            except OSError:
                pass

    # --- event loop -------------------------------------------------------------------------

    def _run(self):
        while self._running:
            with self._lock:
                timeout = None
                if self._queue:
                    timeout = max(0.0, self._queue[0][0] - time.monotonic())
            for key, ev in self._sel.select(timeout):
                if key.data is None:
                    self._accept()
                elif key.data == "wake":
                    try:
                        self._wake_r.recv(4096)
                    except OSError:
                        pass
                else:
                    c = key.data
                    try:
                        if ev & selectors.EVENT_READ:
                            self._read(c)
                        if ev & selectors.EVENT_WRITE and not c.closed:
                            self._flush(c)
                    except Exception:  # a bug here must not silence the whole air
                        traceback.print_exc()
                        self._close(c)
            self._deliver_due()

    def _accept(self):
        try:
            sock, _ = self._listener.accept()
        except OSError:
            return
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        c = _Conn(sock)
        with self._lock:
            self._conns.append(c)
        self._sel.register(sock, selectors.EVENT_READ, c)

    def _close(self, c):
        if c.closed:
            return
        c.closed = True
        try:
            self._sel.unregister(c.sock)
        except (KeyError, ValueError, OSError):
            pass
        c.sock.close()
        with self._lock:
            if c in self._conns:
                self._conns.remove(c)
            if c.kind == "uart" and self._pipes.get(c.pipe, [None, None])[c.end] is c:
                self._pipes[c.pipe][c.end] = None

    def _read(self, c):
        try:
            data = c.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(c)
            return
        c.rbuf += data
        while len(c.rbuf) >= 2 and not c.closed:
            n = int.from_bytes(c.rbuf[:2], "big")
            if len(c.rbuf) < 2 + n:
                break
            msg = bytes(c.rbuf[2:2 + n])
            del c.rbuf[:2 + n]
            if n == 0:
                continue
            try:
                self._handle(c, msg[0:1], msg[1:])
            except (ValueError, KeyError, TypeError, IndexError) as e:
                print("ether: dropping a unit that sent a bad message (%s)" % e, file=sys.stderr)
                self._close(c)

    def _send(self, c, typ, body):
        if c.closed:
            return
        msg = typ + body
        if len(c.wbuf) > _MAX_OUTBUF:
            return
        c.wbuf += len(msg).to_bytes(2, "big") + msg
        self._flush(c)

    def _flush(self, c):
        try:
            n = c.sock.send(c.wbuf)
            del c.wbuf[:n]
        except BlockingIOError:
            pass
        except OSError:
            self._close(c)
            return
        want = selectors.EVENT_READ | (selectors.EVENT_WRITE if c.wbuf else 0)
        try:
            self._sel.modify(c.sock, want, c)
        except (KeyError, ValueError, OSError):
            pass

    def _handle(self, c, typ, body):
        if typ == b"H":
            self._hello(c, json.loads(body))
        elif typ == b"S" and c.kind == "espnow":
            self._espnow_send(c, body)
        elif typ == b"W" and c.kind == "uart":
            self._uart_write(c, body)
        elif typ == b"F" and c.kind == "espnow" and c.forge:
            self._espnow_send(_Forged(c, body[:6]), body[6:])
        elif typ == b"C" and c.kind == "control":
            self._send(c, b"C", json.dumps(self._control(json.loads(body))).encode())
        else:
            raise ValueError("unexpected message %r from a %s connection" % (typ, c.kind))

    def _hello(self, c, h):
        kind = h["kind"]
        if kind not in ("espnow", "uart", "control"):
            raise ValueError("unknown kind %r" % kind)
        with self._lock:
            c.kind = kind
            c.unit = h.get("unit")
            if kind == "espnow":
                c.mac = bytes.fromhex(h["mac"])
                c.channel = int(h.get("channel", 1))
                c.protocol = int(h.get("protocol", _PROTOCOL_DEFAULT))
                c.forge = bool(h.get("forge"))
                for old in self._conns:  # a rebooted unit takes over its MAC
                    if old is not c and old.kind == "espnow" and old.mac == c.mac:
                        old.kind = "stale"
            elif kind == "uart":
                c.pipe = str(h["pipe"])
                c.end = int(h["end"])
                c.baud = int(h.get("baud", 115200))
                if c.end not in (0, 1):
                    raise ValueError("a UART pipe has ends 0 and 1, not %r" % c.end)
                ends = self._pipes.setdefault(c.pipe, [None, None])
                ends[c.end] = c

    # --- faults ---------------------------------------------------------------------------

    def _rng(self, kind, src, dst):
        key = (kind, src, dst)
        r = self._rngs.get(key)
        if r is None:
            r = self._rngs[key] = random.Random("%s:%s:%s:%s" % (self.seed, kind, src, dst))
        return r

    def _count(self, kind, src, dst, name, n=1):
        self._totals[kind][name] += n
        links = self._links.setdefault((src, dst), {"espnow": _new_counters(),
                                                    "uart": _new_counters()})
        links[kind][name] += n

    def _record(self, t, src, dst, data, link, enc=False):
        s = Sent(t, src, dst, data)
        s.link = link
        s.enc = enc
        self.capture.append(s)
        if self._capture_file:
            self._capture_file.write(json.dumps({"t": round(t, 6), "src": src, "dst": dst,
                                                 "link": link, "enc": enc,
                                                 "hex": data.hex()}) + "\n")
            self._capture_file.flush()

    def _schedule(self, due, conn, typ, body):
        self._qseq += 1
        heapq.heappush(self._queue, (due, self._qseq, conn, typ, body))

    def _deliver_due(self):
        now = time.monotonic()
        while True:
            # pop and write under one lock: between the two, pending() would say 0 while the
            # bytes were still in neither the queue nor the socket
            with self._lock:
                if not self._queue or self._queue[0][0] > now:
                    return
                _, _, conn, typ, body = heapq.heappop(self._queue)
                self._send(conn, typ, body)

    def _delay(self, rng, k):
        d = k["delay_ms"]
        if k["jitter_ms"]:
            d += rng.uniform(0, k["jitter_ms"])
        return d / 1000.0

    def _espnow_send(self, c, body):
        dst, flags = body[:6], body[6]
        head = 7 + (_TAG_LEN if flags & _ENC else 0)
        tag, payload = body[7:head], body[head:]
        if len(dst) != 6 or not 0 < len(payload) <= MAX_DATA_LEN:
            raise ValueError("bad ESP-NOW send of %d bytes" % len(payload))
        now = time.monotonic()
        bcast = dst == BROADCAST or dst[0] & 1
        hears = _PROTOCOL_LR if flags & _LR else _PROTOCOL_DEFAULT
        with self._lock:
            targets = [t for t in self._conns if t.kind == "espnow" and t is not c
                       and t is not getattr(c, "real", None)
                       and t.channel == c.channel and t.protocol & hears
                       and (bcast or t.mac == dst)]
            if bcast:
                dst_name = "*"
            elif targets:
                dst_name = targets[0].unit
            else:
                u = unit_for_mac(dst)
                dst_name = u if u is not None else dst.hex()
            self._record(time.time(), c.unit, dst_name, payload, "espnow", bool(flags & _ENC))
            self._count("espnow", c.unit, dst_name, "sent")
            self._count("espnow", c.unit, dst_name, "bytes", len(payload))
            if not targets and not bcast:
                self._count("espnow", c.unit, dst_name, "unroutable")
            acked = bool(bcast)
            for t in targets:
                if frozenset((c.unit, t.unit)) in self._partitions:
                    self._count("espnow", c.unit, t.unit, "partitioned")
                    continue
                acked = True
                k = self._knobs_for((c.unit, t.unit))
                rng = self._rng("espnow", c.unit, t.unit)
                if rng.random() < k["loss"]:
                    self._count("espnow", c.unit, t.unit, "lost")
                    continue
                data = payload
                if rng.random() < k["corrupt"]:
                    data = bytearray(data)
                    for _ in range(rng.randint(1, 3)):
                        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
                    data = bytes(data)
                    self._count("espnow", c.unit, t.unit, "corrupt")
                copies = 1
                if rng.random() < k["dup"]:
                    copies = 2
                    self._count("espnow", c.unit, t.unit, "dup")
                msg = c.mac + bytes([flags]) + tag + data
                for _ in range(copies):
                    self._schedule(now + self._delay(rng, k), t, b"R", msg)
                    self._count("espnow", c.unit, t.unit, "delivered")
        self._send(getattr(c, "real", c), b"A", b"\x01" if acked else b"\x00")

    def _uart_write(self, c, data):
        now = time.monotonic()
        with self._lock:
            other = self._pipes.get(c.pipe, [None, None])[1 - c.end]
            dst = other.unit if other is not None else "uart:%s" % c.pipe
            self._record(time.time(), c.unit, dst, data, "uart")
            self._count("uart", c.unit, dst, "sent")
            self._count("uart", c.unit, dst, "bytes", len(data))
            if other is None:
                self._count("uart", c.unit, dst, "unroutable")
                return
            if frozenset((c.unit, other.unit)) in self._partitions:
                self._count("uart", c.unit, dst, "partitioned")
                return
            k = self._knobs_for((c.unit, dst))
            rng = self._rng("uart", c.unit, dst)
            data = bytearray(data)
            if rng.random() < k["loss"]:
                i, n = self._span(rng, data)
                del data[i:i + n]
                self._count("uart", c.unit, dst, "lost")
            if data and rng.random() < k["dup"]:
                i, n = self._span(rng, data)
                data[i:i] = data[i:i + n]
                self._count("uart", c.unit, dst, "dup")
            if data and rng.random() < k["corrupt"]:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
                self._count("uart", c.unit, dst, "corrupt")
            if rng.random() < k["garbage"]:
                i = rng.randrange(len(data) + 1)
                data[i:i] = bytes(rng.randrange(256)
                                  for _ in range(rng.randint(1, _UART_GARBAGE_MAX)))
                self._count("uart", c.unit, dst, "garbage")
            if not data:
                return
            # A wire keeps bytes in order whatever the delay; pacing holds the line busy.
            line = (c.pipe, c.end)
            due = max(now + self._delay(rng, k), self._line_free.get(line, 0.0))
            if self.baud_pacing and c.baud:
                due += len(data) * 10.0 / c.baud
            self._line_free[line] = due
            self._schedule(due, other, b"B", bytes(data))
            self._count("uart", c.unit, dst, "delivered", len(data))

    @staticmethod
    def _span(rng, data):
        n = rng.randint(1, min(_UART_FAULT_SPAN, len(data)))
        return rng.randrange(len(data) - n + 1), n

    # --- control over the wire (for an ether in another process) -----------------------------

    def _control(self, req):
        op = req.get("op")
        try:
            if op == "set":
                args = dict(req.get("args", {}))
                if args.get("link") is not None:
                    args["link"] = tuple(args["link"])
                if args.get("partition") is not None:
                    args["partition"] = [tuple(p) for p in args["partition"]]
                self.set(**args)
                return {"ok": True}
            if op == "counters":
                with self._lock:
                    links = {"%s>%s" % k: v for k, v in self._links.items()}
                return {"ok": True, "total": self.counters, "links": links}
            if op == "capture":
                since = int(req.get("since", 0))
                with self._lock:
                    got = self.capture[since:]
                return {"ok": True, "next": since + len(got),
                        "frames": [[s.t, s.src, s.dst, s.link, s.enc, s.data.hex()]
                                   for s in got]}
            if op == "units":
                return {"ok": True, "espnow": {str(u): m.hex() for u, m in
                                               self.units("espnow").items()},
                        "uart": {str(u): list(p) for u, p in self.units("uart").items()}}
        except (FathomError, TypeError) as e:
            return {"ok": False, "error": str(e)}
        return {"ok": False, "error": "unknown op %r" % op}


class EtherClient:
    """Drives an ether running in another process (python -m fathom_host.emulator.ether) by its port."""

    def __init__(self, port, host="127.0.0.1", timeout=5.0):
        try:
            self._sock = socket.create_connection((host, port), timeout)
        except OSError as e:
            raise FathomError("no ether at %s:%s (%s)" % (host, port, e))
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buf = b""
        self._put(b"H", {"kind": "control"})

    def _put(self, typ, obj):
        msg = typ + json.dumps(obj).encode()
        self._sock.sendall(len(msg).to_bytes(2, "big") + msg)

    def _call(self, op, **kw):
        kw["op"] = op
        self._put(b"C", kw)
        while True:
            if len(self._buf) >= 2:
                n = int.from_bytes(self._buf[:2], "big")
                if len(self._buf) >= 2 + n:
                    msg, self._buf = self._buf[2:2 + n], self._buf[2 + n:]
                    rep = json.loads(msg[1:])
                    if not rep.get("ok"):
                        raise FathomError("ether: %s" % rep.get("error"))
                    return rep
            chunk = self._sock.recv(65536)
            if not chunk:
                raise FathomError("the ether closed the control connection")
            self._buf += chunk

    def set(self, link=None, partition=None, **knobs):
        args = dict(knobs)
        if link is not None:
            args["link"] = list(link)
        if partition is not None:
            args["partition"] = [list(p) for p in partition]
        self._call("set", args=args)

    @property
    def counters(self):
        return self._call("counters")["total"]

    def link_counters(self, src, dst):
        return self._call("counters")["links"].get("%s>%s" % (src, dst))

    def capture(self, since=0):
        rep = self._call("capture", since=since)
        out = []
        for t, src, dst, link, enc, hexdata in rep["frames"]:
            s = Sent(t, src, dst, bytes.fromhex(hexdata))
            s.link = link
            s.enc = enc
            out.append(s)
        return out

    def units(self):
        return self._call("units")

    def close(self):
        self._sock.close()


def add_fault_arguments(p):
    """The fault knobs as command-line options; `fathom emu` shares them."""
    p.add_argument("--seed", type=int, default=0, help="seed for the fault generator")
    p.add_argument("--loss", type=float, default=0.0, help="probability a packet/chunk is lost")
    p.add_argument("--dup", type=float, default=0.0, help="probability it is duplicated")
    p.add_argument("--corrupt", type=float, default=0.0, help="probability bits are flipped")
    p.add_argument("--garbage", type=float, default=0.0,
                   help="UART: probability random bytes are inserted into a chunk")
    p.add_argument("--delay-ms", type=float, default=0.0, help="delivery delay")
    p.add_argument("--jitter-ms", type=float, default=0.0, help="extra random delay, 0..this")
    p.add_argument("--baud-pacing", action="store_true",
                   help="UART: deliver bytes no faster than the units' baud rate")
    p.add_argument("--partition", action="append", default=[], metavar="A,B",
                   help="cut all traffic between units A and B (repeatable)")
    p.add_argument("--capture", metavar="FILE", help="append every sent frame as JSON lines")


def ether_from_args(args, port=0):
    """An Ether (not started) configured from add_fault_arguments options."""
    try:
        parts = [tuple(int(x) for x in p.split(",")) for p in args.partition]
    except ValueError:
        raise FathomError("--partition takes two unit numbers like 0,1")
    if any(len(p) != 2 for p in parts):
        raise FathomError("--partition takes two unit numbers like 0,1")
    e = Ether(port=port, seed=args.seed, capture_path=args.capture,
              baud_pacing=args.baud_pacing, loss=args.loss, dup=args.dup,
              corrupt=args.corrupt, garbage=args.garbage, delay_ms=args.delay_ms,
              jitter_ms=args.jitter_ms)
    e._partitions = {frozenset(p) for p in parts}
    return e


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m fathom_host.emulator.ether",
                                description="relay ESP-NOW packets and UART bytes between "
                                            "emulated units, with faults")
    p.add_argument("--port", type=int, default=7601, help="TCP port on 127.0.0.1 (0: any)")
    p.add_argument("--stats", type=float, default=0.0, metavar="SECONDS",
                   help="print the counters every SECONDS")
    add_fault_arguments(p)
    args = p.parse_args(argv)
    try:
        ether = ether_from_args(args, args.port).start()
    except FathomError as e:
        print("fathom: %s" % e, file=sys.stderr)
        return 1
    print("ether listening on %s" % ether.address, flush=True)
    try:
        while True:
            time.sleep(args.stats or 3600)
            if args.stats:
                print(json.dumps(ether.counters), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        ether.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
