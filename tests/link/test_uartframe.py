# UART byte framing: round trips, resynchronisation after garbage, bad frames dropped and counted.
import pytest

from fathom.link import uartframe
from fathom.link.uartframe import Deframer, cobs_decode, cobs_encode, crc32, crc32_soft, wrap
from fathom.prng import Prng

pytestmark = pytest.mark.micropython

SAMPLES = [b"x", b"\x00", b"\x00\x00\x00", b"\xff" * 250, bytes(range(250)),
           b"\x00" * 250, b"ab\x00cd\x00", b"\x01" * 250]


def test_cobs_round_trip_and_no_zero_on_the_wire():
    rng = Prng(b"cobs")
    cases = list(SAMPLES) + [rng.token(rng.below(300) + 1) for _ in range(60)]
    for data in cases:
        enc = cobs_encode(data)
        assert 0 not in enc
        assert cobs_decode(enc) == data


def test_crc32_matches_the_ieee_check_value():
    assert crc32(b"123456789") == 0xCBF43926
    assert crc32_soft(b"123456789") == 0xCBF43926
    data = Prng(b"crc").token(300)
    assert crc32_soft(data) == crc32(data)


def test_frames_round_trip_one_by_one_and_in_one_chunk():
    d = Deframer()
    for f in SAMPLES:
        assert d.feed(wrap(f)) == [f]
    stream = b"".join(wrap(f) for f in SAMPLES)
    assert Deframer().feed(stream) == SAMPLES


def test_frames_survive_any_split_of_the_stream():
    stream = b"".join(wrap(f) for f in SAMPLES[:4])
    rng = Prng(b"split")
    for _ in range(20):
        d = Deframer()
        out = []
        i = 0
        while i < len(stream):
            n = rng.below(7) + 1
            out += d.feed(stream[i:i + n])
            i += n
        assert out == SAMPLES[:4]


def test_resynchronises_after_garbage():
    rng = Prng(b"garbage")
    for _ in range(30):
        garbage = rng.token(rng.below(400) + 1)
        d = Deframer()
        out = d.feed(garbage + wrap(b"hello") + rng.token(rng.below(20)) + wrap(b"world"))
        assert out == [b"hello", b"world"]
        assert d.frames == 2


def test_garbage_is_counted_and_never_delivered():
    d = Deframer()
    assert d.feed(b"\x00\x05abc\x00\x02\x01\x01\x00") == []
    assert d.frames == 0
    assert d.malformed + d.bad_crc >= 2


def test_a_flipped_bit_is_dropped_and_counted():
    wire = bytearray(wrap(b"attack at dawn"))
    wire[5] ^= 0x10
    d = Deframer()
    assert d.feed(bytes(wire) + wrap(b"ok")) == [b"ok"]
    assert d.bad_crc + d.malformed == 1
    assert d.frames == 1


def test_a_dropped_byte_loses_only_that_frame():
    wire = wrap(b"first frame")
    d = Deframer()
    assert d.feed(wire[:4] + wire[5:] + wrap(b"second")) == [b"second"]


def test_overlong_runs_are_skipped_to_the_next_delimiter():
    d = Deframer()
    assert d.feed(b"\x01" * (uartframe.MAX_WIRE + 50)) == []
    assert d.feed(b"\x01" * 10 + wrap(b"after")) == [b"after"]
    assert d.too_long == 1


def test_largest_frame_fits_the_wire_bound():
    w = wrap(b"\xff" * uartframe.MAX_FRAME)
    assert len(w) <= uartframe.MAX_WIRE
    assert Deframer().feed(w) == [b"\xff" * uartframe.MAX_FRAME]


@pytest.mark.parametrize("bad", [b"", b"x" * 251])
def test_wrap_refuses_empty_and_oversize_frames(bad):
    with pytest.raises(ValueError, match="1..250"):
        wrap(bad)
