# An in-memory radio for tests and `fathom bench link`: two ends joined by a wire that loses,
# duplicates, reorders (by random delay) and corrupts frames, driven by a seeded Prng; and an
# in-memory air (or cable) for whole Connectors, which keeps every frame a bystander would hear.
from fathom.prng import Prng
from fathom.link.channel import Channel

STEP_MS = 10      # simulated poll period
LATENCY_MS = 4    # base one-way delay


class Wire:
    """Faults are per-mille ints so the same seed gives the same run on both runtimes."""

    def __init__(self, seed=b"wire", loss=0, dup=0, reorder=0, corrupt=0, jitter_ms=40):
        self.prng = Prng(seed, b"wire")
        self.loss, self.dup, self.reorder, self.corrupt = loss, dup, reorder, corrupt
        self.jitter = jitter_ms
        self.q = []          # [(due_ms, order, dest, data)]
        self.n = 0
        self.frames = 0
        self.bytes = 0
        self.now = 0
        self.ends = [None, None]
        self.up = True       # False: a partition, everything is lost

    def sender(self, src):
        def send(data):
            assert 0 < len(data) <= 250
            self.frames += 1
            self.bytes += len(data)
            self._put(1 - src, bytes(data))
        return send

    def _hit(self, permille):
        return permille > 0 and self.prng.below(1000) < permille

    def _put(self, dest, data):
        if not self.up or self._hit(self.loss):
            return
        copies = 2 if self._hit(self.dup) else 1
        for _ in range(copies):
            d = data
            if self._hit(self.corrupt):
                b = bytearray(d)
                i = self.prng.below(len(b))
                b[i] ^= 1 << self.prng.below(8)
                d = bytes(b)
            delay = LATENCY_MS + (self.prng.below(self.jitter + 1) if self._hit(self.reorder) else 0)
            self.n += 1
            self.q.append((self.now + delay, self.n, dest, d))

    def pump(self, now):
        self.now = now
        due = [x for x in self.q if x[0] <= now]
        if not due:
            return
        self.q = [x for x in self.q if x[0] > now]
        due.sort()
        for _, _, dest, d in due:
            if self.ends[dest] is not None:
                self.ends[dest].on_frame(d)


def pair(wire, key=None, sid=0):
    """Two channels joined by `wire`, roles 0 and 1."""
    a = Channel(wire.sender(0), key, sid, wire.now, 0)
    b = Channel(wire.sender(1), key, sid, wire.now, 1)
    wire.ends[0] = a
    wire.ends[1] = b
    return a, b


def step(wire, chans, now):
    for c in chans:
        c.poll(now)
    wire.pump(now)


def bench(loss, n=200, size=40, seed=b"bench"):
    """Send n messages of `size` bytes one way at `loss` (0..1), duplication/reorder/corruption
    at a third of it; return wire cost per delivered message."""
    pm = int(loss * 1000)
    w = Wire(seed, loss=pm, dup=pm // 3, reorder=pm // 3, corrupt=pm // 3)
    a, b = pair(w, key=bytes(range(32)), sid=0x1234)
    msgs = [Prng(seed, b"m%d" % i).token(size) for i in range(n)]
    for m in msgs:
        a.send(m)
    got = []
    now = 0
    while len(got) < n and now < 3600000:
        now += STEP_MS
        step(w, (a, b), now)
        m = b.recv()
        while m is not None:
            got.append(m)
            m = b.recv()
    ok = got == msgs
    return {"loss": loss, "messages": n, "size": size, "delivered_ok": ok, "ms": now,
            "frames_per_msg": w.frames / n, "bytes_per_msg": w.bytes / n,
            "retransmits": a.stats["retransmits"], "payload_bytes_per_msg": size}


class Air:
    """An in-memory radio (or, with cable=True, a cable) for whole Connectors: radio(mac) is a
    transport as EspNowLink/UartLink are. `heard` keeps every frame any unit sent, as
    (sender mac, destination mac or None, bytes): what a bystander's receiver captures.
    Faults (per mille, seeded): `corrupt` flips one bit of a delivered copy; `reflect` also
    delivers a unicast frame back to its sender, as if from the unit it was sent to."""

    def __init__(self, seed=b"air", corrupt=0, reflect=0, cable=False):
        self.prng = Prng(seed, b"air")
        self.corrupt = corrupt
        self.reflect = reflect
        self.cable = cable
        self.radios = []
        self.heard = []

    def radio(self, mac):
        r = Radio(self, bytes(mac))
        self.radios.append(r)
        return r

    def _hit(self, permille):
        return permille > 0 and self.prng.below(1000) < permille

    def _copy(self, data):
        if not self._hit(self.corrupt):
            return data
        b = bytearray(data)
        b[self.prng.below(len(b))] ^= 1 << self.prng.below(8)
        return bytes(b)

    def _send(self, src, peer, data):
        data = bytes(data)
        assert 0 < len(data) <= 250
        self.heard.append((src.mac, peer, data))
        for r in self.radios:
            if r is not src and (peer is None or self.cable or r.mac == peer):
                r.put(src.mac, self._copy(data))
        if peer is not None and not self.cable and self._hit(self.reflect):
            src.put(peer, self._copy(data))


class Radio:
    def __init__(self, air, mac):
        self.air = air
        self.mac = mac   # on a cable, the unit's id standing in for the address it lacks
        self.inbox = []
        self.keys = {}   # peer -> LMK the unit asked for (recorded: this air does not encrypt)

    def put(self, sender, data):
        """A frame arrives, from `sender` (ignored on a cable, which has no addresses)."""
        self.inbox.append((None if self.air.cable else sender, bytes(data)))

    def send(self, peer, data):
        self.air._send(self, peer, data)
        return True

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def set_key(self, peer, lmk):
        self.keys[bytes(peer)] = lmk

    def close(self):
        pass


def connect_all(conns, now=0, until=120000, host_name=None, code=True, hook=None):
    """Tick Connectors (each on a Radio of one Air) with autopilot until all are ready or any
    failed; `hook(now)` runs every step (to inject frames). Returns the time reached."""
    while now < until:
        now += STEP_MS
        for c in conns:
            c.tick(now)
            c.autopilot(now, None if c.players > 2 else host_name, code)
        if hook is not None:
            hook(now)
        if all(c.state == "ready" for c in conns) or any(c.state == "failed" for c in conns):
            break
    return now
