# What a bystander's radio could do to a pairing before the keys are agreed, one frame at a time
# (link/handshake.py, link/connect.py, link/discovery.py): a hello forged at the partner's address
# that beats the real one, a plain "bye" there, a beacon of the next version there. None may end
# the pairing or leave it stalled: the exchange that took the forged hello starts over and
# completes. Real Connectors over the in-memory radio (hostmodes.wire.Air), as
# tests/link/test_pairing_jam.py; the flood of all of them at once over the emulated radio is
# tests/e2e/test_pairing_flood_e2e.py.
import pytest

from fathom import games
from fathom.codec import encode
from fathom.link import frame
from fathom.link.connect import Connector
from fathom.link.handshake import STALL_MS
from fathom.link.session import beacon
from hostmodes.wire import Air
from kit.memstore import MemStorage

pytestmark = pytest.mark.micropython

STEP = 10


def mac(i):
    return b"\x02\x00\x00\x00\x00" + bytes((i + 1,))


def units(air):
    return [Connector(air.radio(mac(i)), "espnow", "U%d" % i, MemStorage(), "ashtapada",
                      games.options("ashtapada", None), 0) for i in range(2)]


def tick(cs, now, until, limit=60000):
    while not until():
        now += STEP
        assert now < limit, [(c.state, c.error) for c in cs]
        for c in cs:
            c.tick(now)
            assert c.state not in ("failed", "left"), (c.state, c.error)
            if c.state == "confirm" and not c.confirmed() and c.code() is not None:
                others = [o.code() for o in cs if o is not c]
                if others == [c.code()]:  # the players compare the codes: the same
                    c.confirm(True)
    return now


def plain(to, sender, msg, seq=0):
    to.t.put(sender, frame.encode(frame.DATA, 0, seq, 0, encode(msg), None, 0))


def paired(a, b):
    return a.state == b.state == "ready" and a.seed == b.seed


def test_a_forged_hello_that_beat_the_partner_costs_one_attempt_not_the_pairing():
    air = Air()
    a, b = units(air)
    now = tick([a, b], 0, lambda: b.mac in a.seen and a.mac in b.seen)
    # as from b, before b's own: a takes it (it hails a), and b's real hello is then a repeat
    plain(a, b.mac, ["hi", frame.VERSION, "X", b.mac, b"\x7f" * 16, []])
    now = tick([a, b], now, lambda: a.state == "handshake")
    b.choose(a.mac, now)
    start = now
    now = tick([a, b], now, lambda: paired(a, b))
    assert a.restarts + b.restarts >= 1
    assert now - start < 3 * STALL_MS


def test_a_plain_bye_at_the_partners_address_before_the_keys_ends_nothing():
    air = Air()
    a, b = units(air)
    now = tick([a, b], 0, lambda: b.mac in a.seen and a.mac in b.seen)
    b.choose(a.mac, now)
    plain(a, b.mac, ["bye", "left"])
    plain(b, a.mac, ["bye", "left"])
    tick([a, b], now, lambda: paired(a, b))
    assert a.pair.state == b.pair.state == "keyed"


def test_a_beacon_of_the_next_version_at_the_partners_address_changes_nothing():
    air = Air()
    a, b = units(air)
    now = tick([a, b], 0, lambda: b.mac in a.seen and a.mac in b.seen)
    nxt = bytearray(beacon("U1", b.mac, game="ashtapada"))
    nxt[0] = (frame.VERSION + 1) << 4 | nxt[0] & 0x0F
    from fathom.link.crypto import crc32
    body = bytes(nxt[:-frame.CRC])
    forged = body + crc32(body).to_bytes(4, "big")
    for _ in range(5):
        a.t.put(b.mac, forged)
        now = tick([a, b], now, lambda: True)
        now += STEP
        a.tick(now)
    assert [v for m, _n, v in a.nearby(now) if m == b.mac] == [frame.VERSION]
    b.choose(a.mac, now)
    for _ in range(40):  # and while the partner's hello is under way
        a.t.put(b.mac, forged)
        now += STEP
        a.tick(now)
        b.tick(now)
    tick([a, b], now, lambda: paired(a, b))
