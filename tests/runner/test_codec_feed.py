# codec.feed: the hash of a value's encoding, fed in small pieces (a game's hash chain
# covers its whole public state, whose encoding as one block would grow with the game).
import hashlib

import pytest

from fathom.codec import _CHUNK, CodecError, encode, feed

pytestmark = pytest.mark.micropython


class _Pieces:
    """A hash stand-in that remembers how large each piece handed to it was."""

    def __init__(self):
        self.h = hashlib.sha256()
        self.sizes = []

    def update(self, b):
        self.sizes.append(len(b))
        self.h.update(b)


def _values():
    big = {"log": [[i, "move", [i % 7, -i * 1000]] for i in range(120)],
           "decks": [list(range(40)), list(range(40, 80))], "n": 2, "done": False}
    return [None, 5, -70000, "x" * 70, b"\x00" * 10, [], {}, [1, [2, [3, []]]],
            {"b": 1, "a": [True, None], 3: "three"}, big]


def test_feed_hashes_exactly_the_encoding():
    for v in _values():
        p = _Pieces()
        feed(p, v)
        assert p.h.digest() == hashlib.sha256(encode(v)).digest()


def test_feed_hands_over_small_pieces_of_a_large_value():
    v = _values()[-1]
    assert len(encode(v)) > 8 * _CHUNK
    p = _Pieces()
    feed(p, v)
    # a piece is what was pending plus at most one scalar (small here) and one container head
    assert len(p.sizes) > 8 and max(p.sizes) < 2 * _CHUNK, p.sizes


def test_feed_refuses_what_encode_refuses():
    for bad in ({1.5: 1}, [object()]):
        with pytest.raises(CodecError):
            feed(_Pieces(), bad)
