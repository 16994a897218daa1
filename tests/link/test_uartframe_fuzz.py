# Fuzzing the UART deframer (CPython only: hypothesis): it never raises, never invents a frame,
# and always recovers the real frames whatever garbage surrounds them.
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fathom.link.uartframe import MAX_FRAME, Deframer, cobs_encode, crc32, wrap

frames = st.binary(min_size=1, max_size=MAX_FRAME)
garbage = st.binary(max_size=600)


def _feed_in_chunks(d, stream, cuts):
    out = []
    pos = 0
    for c in sorted(cuts):
        c = min(c, len(stream))
        out += d.feed(stream[pos:c])
        pos = max(pos, c)
    return out + d.feed(stream[pos:])


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=20))
def test_random_bytes_never_raise_and_every_output_was_on_the_wire(data, cuts):
    d = Deframer()
    out = _feed_in_chunks(d, data, cuts)
    for f in out:
        assert 1 <= len(f) <= MAX_FRAME
        assert cobs_encode(f + crc32(f).to_bytes(4, "little")) in data
    assert d.frames == len(out)


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(garbage, frames), min_size=1, max_size=6), garbage,
       st.lists(st.integers(0, 5000), max_size=10))
def test_frames_come_through_any_garbage_between_them(pairs, tail, cuts):
    stream = b"".join(g + wrap(f) for g, f in pairs) + tail
    out = _feed_in_chunks(Deframer(), stream, cuts)
    expected = [f for _, f in pairs]
    it = iter(out)
    assert all(any(f == o for o in it) for f in expected), (expected, out)


@settings(max_examples=200, deadline=None)
@given(frames, st.integers(0, 300), st.integers(0, 7))
def test_any_single_bit_flip_is_never_delivered(f, pos, bit):
    wire = bytearray(wrap(f))
    pos %= len(wire)
    wire[pos] ^= 1 << bit
    d = Deframer()
    out = d.feed(bytes(wire) + wrap(b"next"))
    assert out == [b"next"]
    assert d.bad_crc + d.malformed + d.too_long >= 1
