# Fuzzing every link decoder with random and mutated bytes (hypothesis, CPython only):
# nothing escapes but the documented error, and nothing is delivered that was not sent.
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from fathom.link import crypto, frame
from fathom.link.channel import Channel
from fathom.link.session import (GameSetup, Handshake, SessionError, beacon, decode_msg,
                                 parse_beacon, encode_msg)

KEY = bytes(range(32))
SID = 0x5151
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def valid_frames():
    mac = crypto.Mac(KEY)
    out = []
    for ftype in (frame.DATA, frame.MORE, frame.ACK):
        for m in (mac, None):
            out.append(frame.encode(ftype, SID, 0, 0, b"" if ftype == frame.ACK else b"payload", m, 0))
    out.append(beacon("Ann", b"\x00" * 6))
    return out


SEEDS = valid_frames()


@st.composite
def mutated(draw):
    """A real frame with random flips, cuts and insertions, or plain random bytes."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    b = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.integers(0, 3))
        i = draw(st.integers(0, max(0, len(b) - 1)))
        if op == 0 and b:
            b[i] ^= 1 << draw(st.integers(0, 7))
        elif op == 1:
            del b[i:i + draw(st.integers(1, 8))]
        elif op == 2:
            b[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif b:
            b[i] = draw(st.integers(0, 255))
    return bytes(b)


@FUZZ
@given(mutated(), st.booleans())
def test_frame_decode_raises_only_frame_error(data, keyed):
    try:
        frame.decode(data, crypto.Mac(KEY) if keyed else None, 0, 1, 0)
    except frame.FrameError:
        pass


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@FUZZ
@given(st.lists(mutated(), max_size=20), st.booleans())
def test_channel_on_frame_never_raises_and_delivers_nothing(frames, keyed):
    sent = []
    ch = Channel(sent.append, KEY if keyed else None, SID, 0, 1)
    for d in frames:
        ch.on_frame(d)
    ch.poll(10)
    m = ch.recv()
    while m is not None:
        assert m == b"payload"  # the only message a real sender ever framed
        m = ch.recv()
    s = ch.stats
    assert s["frames_received"] + s["dropped_bad_tag"] + s["dropped_malformed"] + \
        s["dropped_session"] + s["ignored"] + s["dropped_reflected"] == len(frames)
    for d in sent:
        assert 0 < len(d) <= frame.MAX_FRAME


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@FUZZ
@given(st.lists(mutated(), max_size=20))
def test_unkeyed_channel_delivers_only_frames_that_check(frames):
    """Before pairing anyone may send; still, only frames with a right CRC can deliver."""
    ch = Channel(lambda d: None, None, SID, 0, 1)
    good = 0
    for d in frames:
        try:
            frame.decode(d, None, 0, 0, 0)
            good += 1
        except frame.FrameError:
            pass
        ch.on_frame(d)
    assert ch.stats["frames_received"] <= good


@FUZZ
@given(mutated())
def test_parse_beacon_returns_tuple_or_none(data):
    r = parse_beacon(data)
    assert r is None or (isinstance(r, tuple) and len(r) == 3)


@FUZZ
@given(st.binary(max_size=300))
def test_decode_msg_raises_only_session_error(data):
    try:
        m = decode_msg(data)
        assert isinstance(m, list) and isinstance(m[0], str)
    except SessionError:
        pass


MSG_KINDS = st.sampled_from(["hi", "pc", "pk", "pr", "ok", "no", "gp", "ga", "gd", "rv", "x"])
ITEMS = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.binary(max_size=200),
                  st.text(max_size=20), st.lists(st.binary(max_size=6), max_size=10),
                  st.dictionaries(st.text(max_size=4), st.integers(), max_size=3))


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@FUZZ
@given(st.lists(st.one_of(st.binary(max_size=80),
                          st.builds(lambda k, xs: encode_msg(k, *xs), MSG_KINDS,
                                    st.lists(ITEMS, max_size=6))), max_size=8))
def test_session_machines_never_raise(msgs):
    h = Handshake("Ann", b"\x01" * 6, b"a" * 16, b"\x11" * 32)
    g0, g1 = GameSetup(0, b"a" * 16, b"k" * 32), GameSetup(1, b"b" * 16, b"k" * 32)
    h.start()
    g0.propose("g", {})
    for m in msgs:
        for machine in (h, g0, g1):
            out = machine.on_message(m)
            assert isinstance(out, list)
    for machine in (g0, g1):
        assert machine.state != "done" or machine.seed is not None


@st.composite
def hostile_messages(draw):
    """Any bytes, or a deep tower of list/dict headers (past the codec's limit or not)."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=400))
    heads = draw(st.lists(st.sampled_from([b"\xc1", b"\x07\x01\x81k", b"\xc2\x40", b"\x06"]),
                          min_size=1, max_size=40))
    return b"".join(heads) + draw(st.binary(max_size=4))


@FUZZ
@given(st.lists(hostile_messages(), min_size=1, max_size=5))
def test_link_peer_recv_never_raises_and_counts_what_it_refuses(msgs):
    from fathom import codec
    from fathom.link.peer import LinkPeer

    class Pipe:
        mac = None

        def __init__(self):
            self.q = []

        def send(self, peer, data):
            return True

        def recv(self):
            return (None, self.q.pop(0)) if self.q else None

    t = Pipe()
    other = Channel(t.q.append, KEY, SID, 0, 0)
    peer = LinkPeer(t, None, Channel(other.on_frame, KEY, SID, 0, 1), None, "uart")
    for m in msgs:
        other.send(m)
    got = []
    for now in range(0, 2000, 10):
        other.poll(now)
        peer.tick(now)
        m = peer.recv()
        while m is not None:
            got.append(m)
            m = peer.recv()
        if len(got) == len(msgs):
            break
    assert len(got) == len(msgs)
    bad = 0
    for raw, m in zip(msgs, got):
        try:
            want = codec.decode(raw)
            ok = isinstance(want, list) and want and isinstance(want[0], str)
        except codec.CodecError:
            ok = False
        assert m == (want if ok else ["bad"])
        bad += not ok
    assert peer.bad == bad
