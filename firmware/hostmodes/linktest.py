# Headless link soak for the link's end-to-end tests and `fathom bench link` (host only): a unit
# pairs through the real Connector (with a dummy game set-up), then both units send N numbered
# messages each way over a LinkPeer and check the peer's arrive complete, once each, in order.
# Progress is saved in the same atomic record as the channel, so a unit killed at any instant
# and started again resumes from storage instead of pairing again. Output: JSON lines
# "fathom-linktest {...}" (event: paired, resumed, progress, error, result).
import json
import os
import time

from fathom import codec
from fathom.hal.clock import now_ms
from fathom.hal.storage import Storage
from fathom.link.connect import Connector
from fathom.link.peer import LINK, LinkPeer, open_transport, restore_peer

GAME = "linktest"      # the set-up agrees on this id; it is never looked up as a game
PAIR_MS = 60000
LINGER_MS = 5000       # after finishing, keep acking while the peer may still need our acks
PROGRESS_EVERY = 50    # received messages between two progress lines
IN_FLIGHT = 6          # messages queued in the channel at once: keeps the saved record small
MAX_ERRORS = 20        # error lines printed; the count goes on
_SIZES = (1, 17, 60, 3, 120, 230, 9, 500, 40, 235, 2, 700)  # 235+: more than one frame


def _env(k, default=None):
    v = os.getenv(k)
    return default if v is None or v == "" else v


def out(event, **kw):
    kw["event"] = event
    print("fathom-linktest " + json.dumps(kw))


def payload(k):
    """Message k's body: its size cycles through _SIZES, its bytes depend on k."""
    n = _SIZES[k % len(_SIZES)]
    return bytes(((k * 31 + i * 7) & 0xFF for i in range(n)))


class SoakPeer(LinkPeer):
    """A LinkPeer whose saved record also holds the soak's counters: one atomic write covers
    both, so a kill between them cannot make a message go twice or vanish."""

    def __init__(self, transport, peer_mac, channel, storage, kind, lt):
        self.lt = lt
        LinkPeer.__init__(self, transport, peer_mac, channel, storage, kind)

    def _persist(self):  # LinkPeer's record, then the counters
        if self.storage is not None and self.ch.needs_save:
            self.storage.write_obj(self.slot, [self.kind, self.peer_mac, self.lmk,
                                               self.ch.save(), self.lt])

    def take(self):
        """The next raw message, not saved yet: the caller updates the counters first."""
        return self.ch.recv()


def adopt(peer, lt):
    """restore_peer's LinkPeer as a SoakPeer (same transport, same channel)."""
    me = object.__new__(SoakPeer)
    for k in ("t", "slot", "peer_mac", "storage", "kind", "lmk", "bad", "foreign", "ch"):
        setattr(me, k, getattr(peer, k))
    me.lt = lt
    return me


def _pair(t, kind, name, storage):
    c = Connector(t, kind, name, storage, GAME, {}, now_ms())
    deadline = now_ms() + PAIR_MS
    while c.state not in ("ready", "failed"):
        now = now_ms()
        if now > deadline:
            c.fail("pairing timed out in state %s" % c.state)
            break
        c.tick(now)
        c.autopilot(now)
        time.sleep_ms(2)
    return c


class Soak:
    def __init__(self, peer, n):
        self.p = peer
        self.lt = peer.lt   # {"n", "tx": next to send, "rx": next expected, "errors", "resumes"}
        self.n = n
        self.errors = []

    def error(self, what):
        self.lt["errors"] += 1
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(what)
            out("error", error=what)

    def check(self, raw):
        lt = self.lt
        try:
            m = codec.decode(raw)
            k, body = m[0], m[1]
        except Exception:
            self.error("undecodable message %r" % (raw[:20],))
            return
        if k != lt["rx"]:
            self.error("got message %d, expected %d" % (k, lt["rx"]))
        elif body != payload(k):
            self.error("message %d has the wrong body (%d bytes)" % (k, len(body)))
        if k >= lt["rx"]:
            lt["rx"] = k + 1

    def done(self):
        lt = self.lt
        return lt["tx"] >= self.n and lt["rx"] >= self.n and self.p.ch.pending() == 0

    def step(self, now):
        """One pass of the loop; True if anything moved."""
        p, lt = self.p, self.lt
        p.tick(now)
        busy = False
        while True:
            raw = p.take()
            if raw is None:
                break
            self.check(raw)
            p._persist()   # the counters and the channel that gave up the message, together
            if lt["rx"] % PROGRESS_EVERY == 0:
                out("progress", sent=lt["tx"], recv=lt["rx"])   # only what is saved
            busy = True
        while lt["tx"] < self.n and p.ch.pending() < IN_FLIGHT:
            k = lt["tx"]
            lt["tx"] = k + 1
            p.send([k, payload(k)])   # persists the queued message and the counter together
            busy = True
        return busy

    def result(self, t0, elapsed_ms, err=None):
        st = dict(self.p.ch.stats)
        st["foreign"] = self.p.foreign
        st["bad"] = self.p.bad
        rx = self.lt["rx"]
        return {"ok": err is None and self.lt["errors"] == 0 and self.done(),
                "error": err, "n": self.n, "sent": self.lt["tx"], "recv": rx,
                "errors": self.lt["errors"], "first_errors": self.errors,
                "resumes": self.lt["resumes"], "ms": elapsed_ms,
                "per_s": round(rx * 1000 / elapsed_ms, 1) if elapsed_ms else None,
                "stats": st}


def _start(profile, storage, kind, n):
    """A SoakPeer: restored from storage when a soak was in progress, else freshly paired."""
    saved = None
    try:
        saved = storage.read_obj(LINK)
    except Exception as e:
        out("error", error="saved link unreadable: %s" % (e,))
    if isinstance(saved, list) and len(saved) > 4 and isinstance(saved[4], dict):
        lt = saved[4]
        lt["resumes"] += 1
        try:
            peer = adopt(restore_peer(storage, profile, now_ms()), lt)
        except ValueError as e:
            out("error", error="resume failed: %s" % (e,))
            return None
        peer.ch.needs_save = True
        peer._persist()
        out("resumed", sent=lt["tx"], recv=lt["rx"], resumes=lt["resumes"])
        return peer
    t = open_transport(kind, profile)
    c = _pair(t, kind, "LT" + _env("FATHOM_UNIT", "0"), storage)
    if c.state != "ready":
        out("error", error="pairing: %s" % c.error)
        t.close()
        return None
    lt = {"n": n, "tx": 0, "rx": 0, "errors": 0, "resumes": 0}
    peer = SoakPeer(t, c.peer_mac, c.ch1, storage, kind, lt)
    out("paired", kind=kind, player=c.player, sid=c.ch1.session_id)
    return peer


def main(profile, root):
    n = int(_env("FATHOM_LINKTEST_N", "500"))
    timeout_ms = int(_env("FATHOM_LINKTEST_TIMEOUT_MS", "600000"))
    linger_ms = int(_env("FATHOM_LINKTEST_LINGER_MS", str(LINGER_MS)))
    kind = _env("FATHOM_LINK", "espnow")
    storage = Storage(root)
    peer = _start(profile, storage, kind, n)
    if peer is None:
        return
    soak = Soak(peer, peer.lt.get("n", n))
    t0 = now_ms()
    deadline = t0 + timeout_ms
    finished = None
    heard = 0
    while True:
        now = now_ms()
        if finished is None and soak.done():
            finished = now
            out("result", **soak.result(t0, now - t0))
        if finished is not None:
            # the peer still retransmitting means it has not had our ack yet: stay for it
            seen = peer.ch.stats["dropped_replay"]
            if seen != heard:
                heard = seen
                finished = now
            if now - finished > linger_ms:
                break
        elif now > deadline:
            out("result", **soak.result(t0, now - t0, "timed out"))
            break
        if not soak.step(now):
            time.sleep_ms(1)
    peer.close()
