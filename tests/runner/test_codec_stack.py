# The codec's nesting limit and its C stack: a peer's deep message is refused as a CodecError
# (never RuntimeError: maximum recursion depth), and under MicroPython decoding the deepest legal
# value takes no more C stack than a flat one (the ESP32's task stack is 16 KB; the app's C
# stack budget is 8 KB, docs/ARCHITECTURE.md).
import sys

import pytest

from fathom import codec
from fathom.codec import CodecError, decode, encode

pytestmark = pytest.mark.micropython

LIMIT = codec._MAX_DEPTH
# Decoding peaks at ~1.4 KB of C stack on the 32-bit unix port, whatever the depth (the
# recursive decoder took 512 B more per level); the 64-bit port's frames are about twice that.
# The bound holds both with headroom and is far below the 12 KB the old limit could reach.
STACK_BOUND = 3072
PER_LEVEL_BOUND = 32  # bytes per extra level: 0 is expected, a recursive walk would be 200+


def nested(depth, kind="list", leaf=1):
    v = leaf
    for _ in range(depth):
        v = [v] if kind == "list" else {"k": v}
    return v


def deep_bytes(depth, kind="list"):
    """The encoding of `depth` nested one-item containers, built by hand (encode refuses them)."""
    head = b"\xc1" if kind == "list" else b"\x07\x01\x81k"
    return head * depth + b"\x41"


def test_the_limit_covers_every_legal_value():
    # a game save is the deepest value the firmware writes: 6 levels (codec.py says which)
    assert LIMIT >= 6


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_deepest_legal_value_round_trips(kind):
    v = nested(LIMIT, kind)
    b = encode(v)
    assert b == deep_bytes(LIMIT, kind)
    assert decode(b) == v


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_one_level_too_deep_is_a_codec_error_both_ways(kind):
    with pytest.raises(CodecError, match="too deep"):
        encode(nested(LIMIT + 1, kind))
    with pytest.raises(CodecError, match="too deep"):
        decode(deep_bytes(LIMIT + 1, kind))


def test_empty_containers_count_toward_the_limit():
    with pytest.raises(CodecError):
        encode(nested(LIMIT, "list", []))
    with pytest.raises(CodecError):
        decode(b"\xc1" * LIMIT + b"\xc0")
    assert decode(b"\xc1" * (LIMIT - 1) + b"\xc0") == nested(LIMIT - 1, "list", [])


@pytest.mark.parametrize("depth", [LIMIT + 1, 1000, 100000])
def test_hostile_nesting_is_refused_before_it_costs_anything(depth):
    # Far deeper than any recursion limit: a recursive decoder would die of RuntimeError here.
    for data in (b"\xc1" * depth, b"\xc1" * depth + b"\x41", b"\x07\x01\x81k" * depth,
                 b"\xc2\x40" * depth):
        with pytest.raises(CodecError):
            decode(data)


def test_mixed_deep_value_with_siblings_round_trips():
    v = {"a": [1, {"b": [[2, 3], {"c": [[4]]}]}], "z": [[], {}]}
    assert decode(encode(v)) == v
    with pytest.raises(CodecError):
        decode(encode(v)[:-1])


def test_cyclic_value_is_refused_not_looped_forever():
    v = []
    v.append(v)
    with pytest.raises(CodecError):
        encode(v)


def _decode_stack_peak(data):
    """Peak C stack (bytes above the caller's) while decode(data) runs: sampled each time the
    reader takes a byte, which happens at every item of every level."""
    import micropython
    peak = [0]
    reader = codec._Reader
    orig = reader.byte

    def byte(self):
        s = micropython.stack_use()
        if s > peak[0]:
            peak[0] = s
        return orig(self)

    reader.byte = byte
    try:
        base = micropython.stack_use()
        decode(data)
    finally:
        reader.byte = orig
    return peak[0] - base


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_deepest_legal_message_decodes_in_a_small_fixed_stack(kind):
    if sys.implementation.name != "micropython":
        pytest.skip("C stack is measured under MicroPython")
    flat = _decode_stack_peak(deep_bytes(1, kind))
    deep = _decode_stack_peak(deep_bytes(LIMIT, kind))
    assert deep <= STACK_BOUND, deep
    assert deep - flat <= PER_LEVEL_BOUND * (LIMIT - 1), (flat, deep)
