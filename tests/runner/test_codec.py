# The canonical codec: round trips, canonical form, and refusal of malformed input.
import pytest

from fathom.codec import CodecError, decode, encode
from fathom.prng import Prng

pytestmark = pytest.mark.micropython

SAMPLES = [None, True, False, 0, 63, 64, -1, -64, 2**40, -(2**40), "", "héllo", "x" * 70,
           b"", b"\x00\xff" * 100, [], [1, [2, [3]]], list(range(40)),
           {"b": 1, "a": [None, b"z"]}, {1: "x", 2: "y"}, {"k": {"n": -5}}]


def test_round_trip_every_kind():
    for v in SAMPLES:
        assert decode(encode(v)) == v


def test_tuples_encode_as_lists():
    assert encode((1, 2)) == encode([1, 2])
    assert decode(encode((1, (2,)))) == [1, [2]]


def test_dict_encoding_ignores_insertion_order():
    a = {}
    a["zeta"] = 1
    a["alpha"] = 2
    b = {}
    b["alpha"] = 2
    b["zeta"] = 1
    assert encode(a) == encode(b)


def test_small_values_are_one_byte():
    assert len(encode(5)) == 1
    assert len(encode(None)) == 1
    assert len(encode("ab")) == 3


@pytest.mark.parametrize("bad", [b"", b"\x03", b"\x04\x05ab", b"\xff", b"\x40\x40",
                                 b"\x03\x02", b"\x05\x01a", b"\x07\x02\x81b\x40\x81a\x40",
                                 b"\x07\x02\x81a\x40\x81a\x40", b"\x82\xc3\x28",
                                 b"\x06\x01\x40", b"\x03\x80\x00"])
def test_malformed_input_is_refused(bad):
    with pytest.raises(CodecError):
        decode(bad)


def test_unencodable_values_are_refused():
    with pytest.raises(CodecError):
        encode(1.5)
    with pytest.raises(CodecError):
        encode({(1, 2): 3})
    nested = []
    for _ in range(40):
        nested = [nested]
    with pytest.raises(CodecError):
        encode(nested)


def test_prng_is_fixed_across_runtimes():
    r = Prng(b"seed", b"x")
    # Known values: the same on CPython and MicroPython, so both runtimes replay identically.
    assert [r.below(100) for _ in range(5)] == KNOWN_DRAWS
    deck = Prng(b"seed", b"deck").shuffle(list(range(10)))
    assert sorted(deck) == list(range(10))
    assert deck == KNOWN_SHUFFLE


def test_prng_below_covers_range():
    r = Prng(b"cover")
    seen = set(r.below(7) for _ in range(300))
    assert seen == set(range(7))
    with pytest.raises(ValueError):
        r.below(0)


KNOWN_DRAWS = [86, 59, 94, 59, 5]
KNOWN_SHUFFLE = [6, 4, 5, 3, 9, 2, 1, 0, 7, 8]


def _reference(v):
    """The encoding by the plain rules of the layout (codec.py's header), recursively: what
    encode() must give, whatever its fast paths."""
    out = bytearray()

    def varint(n):
        while n > 0x7F:
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        out.append(n)

    if v is None or v is False or v is True:
        out.append(0 if v is None else 1 if v is False else 2)
    elif isinstance(v, int):
        if 0 <= v < 64:
            out.append(0x40 | v)
        else:
            out.append(3)
            varint(v << 1 if v >= 0 else (-v << 1) - 1)
    elif isinstance(v, str):
        b = v.encode()
        if len(b) < 64:
            out.append(0x80 | len(b))
        else:
            out.append(5)
            varint(len(b))
        out.extend(b)
    elif isinstance(v, (bytes, bytearray)):
        out.append(4)
        varint(len(v))
        out.extend(v)
    elif isinstance(v, dict):
        pairs = sorted([(_reference(k), _reference(v[k])) for k in v])
        out.append(7)
        varint(len(pairs))
        for k, x in pairs:
            out.extend(k)
            out.extend(x)
    else:
        if len(v) < 32:
            out.append(0xC0 | len(v))
        else:
            out.append(6)
            varint(len(v))
        for x in v:
            out.extend(_reference(x))
    return bytes(out)


def _value(p, depth):
    k = p.below(14 if depth < 6 else 9)
    if k == 0:
        return None
    if k == 1:
        return p.below(2) == 1
    if k == 2:
        return p.below(64)
    if k == 3:
        return (p.below(1 << 20) << 20 | p.below(1 << 20)) - (1 << 39)   # (below: < 2**32)
    if k == 4:
        return "x" * p.below(70)
    if k == 5:
        return "é" * p.below(40)      # 2 bytes a character: 32 and more are 64 bytes and more
    if k == 6:
        return bytes([p.below(256) for _ in range(p.below(200))])
    if k == 7:
        return bytearray(p.below(5))
    if k == 8:
        return 64 + p.below(200)
    n = p.below(40 if k == 9 and depth == 0 else 3)   # a long list at the top only: small
    items = [_value(p, depth + 1) for _ in range(n)]
    if k in (9, 10):
        return items
    if k == 11:
        return tuple(items)
    return {("k%d" % i if k == 12 else i - 2): x for i, x in enumerate(items)}


def test_encode_is_the_layout_for_random_values():
    # nested values of every kind at every depth the limit allows, each encoded by encode()
    # (its fast paths by exact type) and by the layout's plain rules; and fed to a hash the same
    import hashlib
    from fathom.codec import feed
    p = Prng(b"codec-fast", b"values")
    for _ in range(300):
        v = _value(p, 0)
        want = _reference(v)
        assert encode(v) == want, v
        h = hashlib.sha256()
        feed(h, v)
        assert h.digest() == hashlib.sha256(want).digest()
