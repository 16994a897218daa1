# No bystander stops a pairing with a frame (link/connect.py, link/session.py): a jammer in
# radio range (or on the cable) answers 5% of the pairing's traffic with a frame of its own,
# from the chosen unit's address: a plain "ok" or "no" at the very sequence number the unit
# waits for next, a hello naming another unit, a forged key commitment, a replay of any frame
# heard so far (earlier pairings' included), the unit's own frame reflected back, a frame with
# a bad CRC, a message nested too deep, a beacon from a made-up unit. Every pairing must still
# complete with one code and one seed on both units; the frames are ignored and counted, and a
# pairing slowed down says so on its screen. Real Connectors over the in-memory radio
# (hostmodes.wire.Air), as tests/link/test_hail.py.
import pytest

from fathom import games
from fathom.link import frame
from fathom.link.connect import Connector
from fathom.link.session import beacon, encode_msg
from fathom.prng import Prng
from fathom.flow.pairing import JAM_SAY, PairScreen
from hostmodes.wire import Air
from kit.memstore import MemStorage
from kit.panel import App

pytestmark = pytest.mark.micropython

STEP = 10
RATE = 50           # per mille of the pairing's frames answered by a forged one
KINDS = ("ok", "no", "hello", "commit", "replay", "reflect", "bad crc", "deep", "beacon")
DEEP = b"\x90" * 40 + b"\x00"  # forty nested lists: deeper than the codec takes


def mac(i):
    return b"\x02\x00\x00\x00\x00" + bytes((i + 1,))


class Jammer:
    """Wraps an Air's delivery: after a frame the pairing sends, with RATE per mille, one
    forged frame to one of the two units, as from the other."""

    def __init__(self, air, seed, heard):
        self.air = air
        self.prng = Prng(seed, b"jam")
        self.fill = Prng(seed, b"jam bytes")  # forged values, apart from when and what is forged
        self.heard = heard       # every frame any pairing so far sent (replays)
        self.conns = {}
        self.sent = dict((k, 0) for k in KINDS)
        real = air._send

        def send(src, peer, data):
            real(src, peer, data)
            self.heard.append(bytes(data))
            if self.prng.below(1000) < RATE:
                self.forge(src.mac)
        air._send = send

    def _next_seq(self, c):
        ch = c.ch0 or c.ch1
        return 0 if ch is None else ch._rcv_next & 0xFFFF

    def forge(self, sender):
        kinds = [k for k in KINDS if not (self.air.cable and k in ("beacon",))]
        kind = kinds[self.prng.below(len(kinds))]
        self.sent[kind] += 1
        # to the unit that sender's frame went to, or back to the sender itself, as from
        # the other one
        macs = list(self.conns)
        to = macs[self.prng.below(2)]
        other = macs[1] if to == macs[0] else macs[0]
        c = self.conns[to]
        seq = self._next_seq(c)
        if kind in ("ok", "no"):
            data = frame.encode(frame.DATA, 0, seq, 0, encode_msg(kind), None, 0)
        elif kind == "hello":
            data = frame.encode(frame.DATA, 0, seq, 0, encode_msg(
                "hi", frame.VERSION, "X", mac(9), self.fill.token(16), []), None, 0)
        elif kind == "commit":
            data = frame.encode(frame.DATA, 0, seq, 0, encode_msg("pc", self.fill.token(32)),
                                None, 0)
        elif kind == "deep":
            data = frame.encode(frame.DATA, 0, seq, 0, DEEP, None, 0)
        elif kind == "replay":
            data = self.heard[self.prng.below(len(self.heard))]
        elif kind == "reflect":
            mine = [d for s, _p, d in self.air.heard if s == to]
            data = mine[-1] if mine else self.heard[-1]
        elif kind == "bad crc":
            d = self.heard[-1]
            data = d[:-1] + bytes((d[-1] ^ 0x5A,))
        else:
            data = beacon("X", mac(9), game="ping")
            other = mac(9)
        self.air.radios[[r.mac for r in self.air.radios].index(to)].put(other, data)

    def total(self):
        return sum(self.sent.values())


def one_pairing(seed, heard, cable=False, limit=120000):
    air = Air(seed=seed, cable=cable)
    jam = Jammer(air, seed, heard)
    kind = "uart" if cable else "espnow"
    a, b = [Connector(air.radio(mac(i)), kind, "U%d" % i, MemStorage(), "ping",
                      games.options("ping", None), 0) for i in range(2)]
    jam.conns = {a.mac: a, b.mac: b}
    now = 0
    chose = cable
    confirmed = set()
    while now < limit and not (a.state == b.state == "ready"):
        now += STEP
        for c in (a, b):
            c.tick(now)
        assert a.state != "failed" and b.state != "failed", (a.error, b.error, jam.sent)
        if not chose and b.mac in a.seen and a.mac in b.seen:
            b.choose(a.mac, now)
            chose = True
        for c in (a, b):
            if c.state == "confirm" and c not in confirmed and c.code() is not None:
                confirmed.add(c)
                c.confirm(True)
    assert a.state == b.state == "ready", (a.state, b.state, a.error, b.error, jam.sent)
    assert a.seed == b.seed and {a.player, b.player} == {0, 1}
    if not cable:
        assert a.code() == b.code()
    ignored = sum(c.jammed + c.reflected + c.foreign + c.dropped for c in (a, b))
    return jam, ignored, now


def run(n, cable=False):
    heard = []
    injected = ignored = 0
    kinds = dict((k, 0) for k in KINDS)
    slowest = 0
    for k in range(n):
        jam, ign, took = one_pairing(b"jam%d" % k, heard, cable)
        injected += jam.total()
        ignored += ign
        slowest = max(slowest, took)
        for kk in KINDS:
            kinds[kk] += jam.sent[kk]
    assert injected > n, kinds  # the jammer did jam
    print("%d of %d pairings completed (%s) with %d forged frames at %d per mille %r; %d "
          "frames ignored; slowest %d ms" % (n, n, "cable" if cable else "radio", injected,
                                             RATE, kinds, ignored, slowest))
    return kinds


def test_four_jammed_radio_pairings_complete():
    kinds = run(4)
    assert kinds["ok"] + kinds["no"] > 0


def test_two_jammed_cable_pairings_complete():
    run(2, cable=True)


@pytest.mark.bench
def test_twenty_jammed_radio_pairings_complete_and_ten_on_the_cable():
    kinds = run(20)
    assert all(kinds[k] > 0 for k in KINDS), kinds
    run(10, cable=True)


def test_a_plain_ok_or_no_at_the_next_sequence_number_is_ignored_and_counted():
    """The single frame that used to end a pairing: now it changes nothing."""
    for kind in ("ok", "no"):
        air = Air()
        a, b = [Connector(air.radio(mac(i)), "espnow", "U%d" % i, MemStorage(), "ping",
                          games.options("ping", None), 0) for i in range(2)]
        now = 0
        while not (b.mac in a.seen and a.mac in b.seen):
            now += STEP
            a.tick(now)
            b.tick(now)
        b.choose(a.mac, now)
        while not a.state == b.state == "confirm":
            now += STEP
            a.tick(now)
            b.tick(now)
        seq = a.ch0._rcv_next
        air.radios[0].put(b.mac, frame.encode(frame.DATA, 0, seq, 0, encode_msg(kind), None, 0))
        now += STEP
        a.tick(now)
        assert a.state == "confirm" and a.jammed == 1 and not a.hs._peer_confirmed
        a.confirm(True)
        b.confirm(True)
        for _ in range(500):
            now += STEP
            a.tick(now)
            b.tick(now)
        assert a.state == b.state == "ready", (kind, a.error, b.error)


def test_the_pairing_screen_blames_the_noise_after_a_limit():
    air = Air()
    a = Connector(air.radio(mac(0)), "espnow", "U0", MemStorage(), "ping",
                  games.options("ping", None), 0)
    app = App(128, 64)
    app.settings["opponent"] = "off"
    scr = PairScreen(app, a)
    a.choose(mac(1), 0)  # a unit that never answers; its address is forged by a jammer
    for i in range(JAM_SAY):
        air.radios[0].put(mac(1), frame.encode(frame.DATA, 0, 5 + i, 0, encode_msg("ok"),
                                               None, 0))
    scr.tick(100)
    assert "Radio noise" not in " ".join(scr.lines())  # not at once: noise is common
    scr.tick(9000)
    lines = scr.lines()
    assert lines[1] == "Radio noise: %d" % JAM_SAY and "Still connecting..." in lines, lines
    assert a.state == "handshake"
