# What a peer sends that is malformed is refused by name where it enters the link, counted, and
# the pairing or the game goes on; a bug in the link's own code is not taken for a peer's bad
# input: it raises, so a test sees it. One test per place that once caught every exception
# (the connector's frame loop, its "bye" and group readers, the handshake's receive path and
# filter, the game set-up, the channel's frame parser and sender, LinkPeer.recv).
import pytest

from fathom import codec
from fathom.link import crypto, frame
from fathom.link.channel import Channel
from fathom.link.connect import Connector, load_pairings, PAIRINGS
from fathom.link.discovery import Discovery, is_hello
from fathom.link.group import GROUP_N, GROUP_SEAT, GroupHost, GroupMember
from fathom.link.peer import LinkPeer
from fathom.link.session import (GameSetup, Handshake, PairRecord, SessionError, beacon,
                                 encode_msg, parse_beacon)
from kit.memstore import MemStorage
from test_hostile_peer import Queue

pytestmark = pytest.mark.micropython

KEY = bytes(range(32))
SID = 0x2222
NONCE = b"n" * 16


class Cable(Queue):
    """One end of an in-memory cable (or radio: frames from `src`)."""

    def __init__(self, mac=b"\x02\x00\x00\x00\x00\x09", src=None):
        Queue.__init__(self, mac)
        self.src = src

    def recv(self):
        return (self.src, self.inbox.pop(0)) if self.inbox else None


def _plain(seq, payload):
    return frame.encode(frame.DATA, 0, seq, 0, payload, None, 0)


def _linked():
    """Two keyed channels joined: what one sends reaches the other when it polls."""
    ends = []
    a = Channel(lambda f: ends[1].on_frame(f), KEY, SID, 0, 0)
    b = Channel(lambda f: ends[0].on_frame(f), KEY, SID, 0, 1)
    ends += [a, b]
    return a, b


def _carry(a, b, msg, now=10):
    a.send(msg)
    a.poll(now)
    return b.recv()


# ---- the connector's frame loop --------------------------------------------------------------
def test_a_malformed_frame_from_the_chosen_unit_is_refused_by_name_and_counted():
    t = Cable()
    c = Connector(t, "uart", "Ann", MemStorage(), "ping", {}, 0)
    bad = bytearray(_plain(0, encode_msg("hi")))
    bad[0] = (frame.VERSION << 4) | 7  # a frame type no version has
    t.inbox.append(bytes(bad))
    c.tick(10)
    assert c.dropped == 1 and "unknown frame type" in c.refused
    assert c.state == "handshake" and c.ch0.stats["delivered"] == 0


def test_an_undecodable_message_at_the_next_sequence_number_is_not_this_exchanges():
    t = Cable()
    c = Connector(t, "uart", "Ann", MemStorage(), "ping", {}, 0)
    t.inbox.append(_plain(0, b"\xff\xfe"))
    c.tick(10)
    assert c.jammed == 1 and c.hs.refused.startswith("undecodable message")
    assert c.state == "handshake" and c.ch0.stats["delivered"] == 0


def test_a_broken_discovery_is_a_bug_that_surfaces():
    class Broken(Discovery):
        def heard(self, mac, data, b, now, prekey_any=False):
            raise AttributeError("a bug in the list")
    bob = b"\x02\x00\x00\x00\x00\x02"
    t = Cable(b"\x02\x00\x00\x00\x00\x01", bob)
    c = Connector(t, "espnow", "Ann", MemStorage(), "ping", {}, 0)
    c.discovery = Broken(t, "Ann", c.mac, c.pairings, "ping", "ping", 2, False, True, 0, True)
    t.inbox.append(beacon("Bob", bob))
    with pytest.raises(AttributeError):
        c.tick(10)


# ---- the handshake's receive path and filter --------------------------------------------------
def _handshake():
    return Handshake("Ann", b"\x02" * 6, NONCE, b"s" * 32)


@pytest.mark.parametrize("raw", [b"\xff", codec.encode(5), codec.encode(["pc"]),
                                 codec.encode(["hi", "x"])])
def test_the_handshake_refuses_a_malformed_message_by_name(raw):
    hs = _handshake()
    hs.start()
    assert hs.on_message(raw) == [] and hs.ignored == 1 and hs.refused
    assert hs.state == "hello" and not hs.wants(raw)


def test_a_bug_in_the_handshake_raises():
    class Broken(Handshake):
        def _hello(self, m):
            raise AttributeError("a bug in the hello")
    hs = Broken("Ann", b"\x02" * 6, NONCE, b"s" * 32)
    hi = Handshake("Bob", b"\x03" * 6, b"m" * 16, b"t" * 32).start()[0]
    with pytest.raises(AttributeError):
        hs.on_message(hi)


# ---- the game set-up -------------------------------------------------------------------------
def test_a_short_set_up_message_fails_the_set_up_by_name():
    g = GameSetup(0, NONCE, KEY)
    g.propose("ping", {})
    g.on_message(codec.encode(["ga"]))
    assert g.state == "failed" and g.error == "bad set-up message: short 'ga' message"


def test_a_bug_in_the_set_up_raises():
    class Broken(GameSetup):
        def _handle(self, kind, m):
            raise AttributeError("a bug in the set-up")
    g = Broken(0, NONCE, KEY)
    with pytest.raises(AttributeError):
        g.on_message(codec.encode(["gp", "ping", {}, b"c" * 32]))


# ---- discovery and stored pairings -----------------------------------------------------------
def test_garbage_is_no_hello_and_no_beacon():
    junk = frame.encode(frame.BEACON, 0, 0, 0, b"\xff\x00")
    assert not is_hello(junk) and parse_beacon(junk) is None
    assert not is_hello(b"\x00") and not is_hello(_plain(0, b"\xff"))


def test_a_damaged_pairing_record_is_refused_and_the_unit_pairs_anew():
    with pytest.raises(SessionError, match="without"):
        PairRecord.restore({"name": "Bob", "mac": b"\x02" * 6})
    st = MemStorage()
    st.write_obj(PAIRINGS, [{"name": "Bob", "mac": b"\x02" * 6}])
    assert load_pairings(st).records == []


# ---- the channel -----------------------------------------------------------------------------
def test_a_malformed_frame_is_counted_by_the_channel():
    a, b = _linked()
    b.on_frame(b"\x00\x01")
    assert b.stats["dropped_malformed"] == 1


def test_a_transport_hiccup_is_a_lost_frame_and_a_bug_in_the_transport_raises():
    def hiccup(f):
        raise OSError(12)
    ch = Channel(hiccup, KEY, SID, 0, 0)
    ch.send(b"x")
    ch.poll(10)
    assert ch.stats["send_failed"] >= 1 and ch.pending() == 1  # resent later

    def broken(f):
        raise AttributeError("a bug in the transport")
    ch = Channel(broken, KEY, SID, 0, 0)
    ch.send(b"x")
    with pytest.raises(AttributeError):
        ch.poll(10)


def test_send_unchecked_is_the_seam_past_the_size_check():
    from fathom.link.channel import MAX_MESSAGE
    a, b = _linked()
    with pytest.raises(ValueError):
        a.send(b"x" * (MAX_MESSAGE + 1))
    a.send_unchecked(b"x" * (MAX_MESSAGE + 1))
    for i in range(200):
        a.poll(10 + i)
        b.poll(10 + i)
    assert b.stats["dropped_malformed"] == 1 and b.recv() is None


# ---- LinkPeer --------------------------------------------------------------------------------
def test_linkpeer_names_what_it_refused():
    t = Cable()
    other = Channel(lambda f: None, KEY, SID, 0, 0)
    peer = LinkPeer(t, None, Channel(lambda f: None, KEY, SID, 0, 1), None, "uart")
    other._send_frame = peer.ch.on_frame
    other.send(b"\xff")
    other.poll(10)
    assert peer.recv() == ["bad"] and peer.bad == 1 and peer.refused


# ---- group formation -------------------------------------------------------------------------
def test_a_group_start_that_is_no_message_is_refused_by_name():
    a, b = _linked()
    m = GroupMember(b, {GROUP_N: 3, GROUP_SEAT: 1}, b"s" * 32)
    m.on_message(codec.encode(["gs", 3]))
    assert m.state == "failed" and m.error.startswith("group start refused")


def test_a_group_proposal_with_a_seat_that_is_no_number_is_refused():
    a, b = _linked()
    with pytest.raises(ValueError, match="seat"):
        GroupMember(b, {GROUP_N: "three", GROUP_SEAT: 1}, b"s" * 32)


def test_a_bug_in_group_formation_raises():
    class Broken(GroupMember):
        def _take(self, m):
            raise AttributeError("a bug in the group start")
    a, b = _linked()
    m = Broken(b, {GROUP_N: 3, GROUP_SEAT: 1}, b"s" * 32)
    with pytest.raises(AttributeError):
        m.on_message(codec.encode(["gs", 3, b"", []]))


def test_a_partners_malformed_commitment_is_refused_by_the_host():
    host = GroupHost(3)
    links = [_linked(), _linked()]
    for i, (a, b) in enumerate(links):
        host.add(bytes((2, 0, 0, 0, 0, i)), b, "P%d" % i, b"s" * 32)
    assert host.state == "commits"
    a, b = links[0]
    a.send(codec.encode(["kc", 5]))  # no 32-byte commitment
    a.poll(10)
    host.step()
    assert host.state == "failed" and host.error == "group keys refused: unexpected 'kc'"


def test_a_degenerate_value_from_the_host_is_refused_by_name():
    from fathom.link import groupkeys
    mb = groupkeys.Member(3, 1, b"x" * 32, KEY)
    mb.pks = [mb.public(), (1).to_bytes(crypto.DH_BYTES, "big")]
    mb.view = b"v" * 32
    mb.keys = [None] * 3
    mb.todo = [2]
    with pytest.raises(groupkeys.GroupError, match="degenerate"):
        mb.step()
