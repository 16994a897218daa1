# What a hostile or broken peer can send never escapes the app loop: a message nested past the
# codec's limit, a message that is not a list, beacons from a flood of made-up MACs. Each is
# counted or refused where it enters (LinkPeer.recv, the Connector's handshake), never raised.
import pytest

from fathom import codec
from fathom.link import crypto, frame
from fathom.link.channel import Channel
from fathom.link.connect import Connector
from fathom.link.discovery import MAX_SEEN
from fathom.link.peer import LinkPeer
from fathom.link.session import beacon
from kit.memstore import MemStorage

pytestmark = pytest.mark.micropython

KEY = bytes(range(32))
SID = 0x3131
TOO_DEEP = b"\xc1" * (codec._MAX_DEPTH + 1) + b"\x41"


class Queue:
    """One end of an in-memory cable: frames written by the other end's channel."""

    def __init__(self, mac=b"\x02\x00\x00\x00\x00\x09"):
        self.mac = mac
        self.inbox = []
        self.sent = []

    def send(self, peer, data):
        self.sent.append(data)
        return True

    def recv(self):
        return (None, self.inbox.pop(0)) if self.inbox else None

    def close(self):
        pass


def _linked_peer():
    t = Queue()
    other = Channel(t.inbox.append, KEY, SID, 0, 0)
    mine = LinkPeer(t, None, Channel(other.on_frame, KEY, SID, 0, 1), None, "uart")
    return mine, other


def _deliver(peer, other, raw, now):
    """Send `raw` from the other end; what the peer's recv() gives once it has arrived."""
    other.send(raw)
    for i in range(100):  # a long message is many fragments, a window of them at a time
        other.poll(now + i)
        peer.tick(now + i)
        got = peer.recv()
        if got is not None:
            return got
    raise AssertionError("never delivered")


def test_too_deep_message_is_counted_and_refused_not_raised():
    peer, other = _linked_peer()
    assert _deliver(peer, other, TOO_DEEP, 10) == ["bad"]
    assert peer.bad == 1
    # the link goes on: the next good message arrives as sent
    assert _deliver(peer, other, codec.encode(["ev", 0, 1, ["move", 3], b"h" * 8]), 20) == \
        ["ev", 0, 1, ["move", 3], b"h" * 8]
    assert peer.bad == 1


@pytest.mark.parametrize("raw", [codec.encode(5), codec.encode([]), codec.encode([7, "x"]),
                                 codec.encode({"a": 1}), b"\xff", b"\xc1" * 8000])
def test_message_that_is_not_a_tagged_list_is_refused(raw):
    peer, other = _linked_peer()
    assert _deliver(peer, other, raw, 10) == ["bad"]
    assert peer.bad == 1


def _unkeyed_frame(seq, payload):
    return frame.encode(frame.DATA, 0, seq, 0, payload, None, 0)


def test_deep_handshake_message_is_dropped_and_counted_and_the_pairing_goes_on():
    t = Queue()
    c = Connector(t, "uart", "Ann", MemStorage(), "ping", {}, 0)
    assert c.state == "handshake"
    t.inbox.append(_unkeyed_frame(0, TOO_DEEP))
    c.tick(10)
    assert c.state == "handshake" and c.jammed == 1
    assert c.ch0.stats["delivered"] == 0  # it never took the partner's sequence number


def test_garbage_frames_never_stop_the_connector():
    t = Queue()
    c = Connector(t, "uart", "Ann", MemStorage(), "ping", {}, 0)
    junk = [b"", b"\x00", b"\x10" * 11, b"\x18" + b"\xff" * 30, bytes(range(16, 250)),
            _unkeyed_frame(5, TOO_DEEP), frame.encode(frame.DATA, 0, 0, 0, b"\xc1" * 200,
                                                      crypto.Mac(KEY), 1)]
    for i, j in enumerate(junk):
        t.inbox.append(j)
        c.tick(10 * (i + 1))
    assert c.state == "handshake"  # nothing authentic arrived: still waiting for the partner


def test_beacon_flood_from_made_up_macs_is_capped():
    t = Queue()
    c = Connector(t, "espnow", "Ann", MemStorage(), "ping", {}, 0)
    for i in range(200):
        mac = b"\x02\x00\x00\x00" + bytes((i >> 8, i & 0xFF))
        t.inbox.append(beacon("x%d" % i, mac))
        got = t.recv()
        c._frame(mac, got[1], 100)
    assert len(c.seen) == MAX_SEEN
    assert len(c.nearby(100)) == MAX_SEEN
    # once the flood is stale, a real unit still gets listed
    real = b"\x02\x00\x00\x00\x00\x01"
    c._frame(real, beacon("Bob", real), 100 + 5000)
    assert [n for _m, n, _v in c.nearby(100 + 5000)] == ["Bob"]
