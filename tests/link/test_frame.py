# Frame format and crypto kit: layout, tags, counters, and refusal of anything not ours.
import pytest

from fathom.link import crypto, frame
from fathom.link.frame import FrameError

pytestmark = pytest.mark.micropython

KEY = bytes(range(32))


def test_hmac_matches_rfc4231_case_2():
    tag = crypto.hmac_sha256(b"Jefe", b"what do ya want for nothing?")
    assert tag.hex() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"


def test_hmac_long_key_matches_rfc4231_case_6():
    tag = crypto.hmac_sha256(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First")
    assert tag.hex() == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"


def test_hkdf_matches_rfc5869_case_1():
    okm = crypto.hkdf(b"\x0b" * 22, bytes(range(13)), bytes(range(0xf0, 0xfa)), 42)
    assert okm.hex() == ("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                         "34007208d5b887185865")


def test_equal_compares_content_and_length():
    assert crypto.equal(b"abc", b"abc")
    assert not crypto.equal(b"abc", b"abd")
    assert not crypto.equal(b"abc", b"ab")


def test_dh_both_sides_agree_and_degenerate_values_refused():
    a, b = b"\x01" * 32, b"\x02" * 32
    pa, pb = crypto.dh_public(a), crypto.dh_public(b)
    assert len(pa) == crypto.DH_BYTES and pa != pb
    assert crypto.dh_shared(a, pb) == crypto.dh_shared(b, pa)
    with pytest.raises(ValueError):
        crypto.dh_shared(a, (1).to_bytes(crypto.DH_BYTES, "big"))
    with pytest.raises(ValueError):
        crypto.dh_shared(a, b"\x05" * 10)


def test_keyed_frame_round_trip_and_overhead():
    mac = crypto.Mac(KEY)
    data = frame.encode(frame.DATA, 0x1234, 70000, 5, b"hello", mac, 1)
    assert len(data) == frame.HEADER + 5 + frame.TAG == 20
    assert frame.decode(data, mac, 1, seq_near=70000, ack_near=5) == (frame.DATA, 0x1234, 70000, 5, b"hello")


def test_unkeyed_frame_carries_crc():
    data = frame.encode(frame.ACK, 0, 3, 4)
    assert len(data) == frame.HEADER + frame.CRC
    assert frame.decode(data, seq_near=3, ack_near=4) == (frame.ACK, 0, 3, 4, b"")


def test_payload_fills_one_espnow_packet_and_no_more():
    mac = crypto.Mac(KEY)
    assert len(frame.encode(frame.DATA, 1, 0, 0, bytes(frame.MAX_PAYLOAD), mac)) == 250
    with pytest.raises(FrameError, match="too long"):
        frame.encode(frame.DATA, 1, 0, 0, bytes(frame.MAX_PAYLOAD + 1), mac)


def test_wrong_key_role_or_counter_epoch_fails_the_tag():
    mac = crypto.Mac(KEY)
    data = frame.encode(frame.DATA, 1, 7, 0, b"x", mac, 0)
    with pytest.raises(frame.BadTag):
        frame.decode(data, crypto.Mac(b"k" * 32), 0, 7, 0)
    with pytest.raises(frame.BadTag):
        frame.decode(data, mac, 1, 7, 0)          # reflected to its sender
    with pytest.raises(frame.BadTag):
        frame.decode(data, mac, 0, 7 + 65536, 0)  # same low bits, another epoch
    with pytest.raises(frame.BadTag):
        frame.decode(data, None, 0, 7, 0)         # a keyed frame where CRC frames are expected


def test_every_single_bit_flip_is_caught():
    mac = crypto.Mac(KEY)
    for m in (mac, None):
        data = frame.encode(frame.MORE, 9, 2, 1, b"payload", m, 0)
        for i in range(len(data) * 8):
            b = bytearray(data)
            b[i // 8] ^= 1 << (i % 8)
            try:
                frame.decode(bytes(b), m, 0, 2, 1)
            except FrameError:
                continue
            raise AssertionError("flip %d accepted" % i)


def test_other_version_is_reported_by_number():
    data = bytearray(frame.encode(frame.ACK, 0, 0, 0))
    other = frame.VERSION + 1
    data[0] = other << 4 | (data[0] & 0x0F)
    with pytest.raises(frame.VersionError, match="frame version %d" % other) as e:
        frame.parse(bytes(data))
    assert e.value.version == other


@pytest.mark.parametrize("bad", [b"", b"\x10", bytes(10), b"\x17" + bytes(10), bytes(251),
                                 b"\x12\x00\x00\x00\x00\x00\x00zzzz\x00\x00\x00\x00"])
def test_malformed_frames_raise_frame_error(bad):
    with pytest.raises(FrameError):
        frame.decode(bad)


def test_unwrap_picks_the_nearest_counter():
    assert frame.unwrap(5, 65534) == 65541
    assert frame.unwrap(65534, 65541) == 65534
    assert frame.unwrap(100, 100) == 100
