# Canonical compact binary encoding of plain values, the same bytes on CPython and MicroPython.
# One encoding serves frames, saves and hashes, so it must be canonical: dict keys are sorted
# and the decoder refuses anything encode() would not have produced (so decode is injective).
#
# Values: None, bool, int, bytes, str, list/tuple (decoded as list), dict with str or int keys.
# Layout (first byte):
#   0x00 None  0x01 False  0x02 True
#   0x03 int   zigzag varint follows
#   0x04 bytes varint length, data
#   0x05 str   varint length, utf-8
#   0x06 list  varint count, items
#   0x07 dict  varint count, key/value pairs sorted by the key's encoding
#   0x40-0x7f  small int 0..63
#   0x80-0xbf  str of 0..63 bytes
#   0xc0-0xdf  list of 0..31 items

# Nesting limit: at most this many containers open at once, in encode and decode alike (so
# whatever encode() produces, decode() accepts). Both walk the value with an explicit stack, not
# recursion, so a peer's deep message costs heap (one small list per level), never C stack: the
# ESP32 task has 16 KB of it, and a recursive decoder takes 512 B per list level on the 32-bit
# unix port (12 KB at a depth of 24); this one peaks at ~1.4 KB at any depth (measured with
# micropython.stack_use(), tests/runner/test_codec_stack.py). The deepest legitimate
# value is a game save, 6 levels (save -> seat -> log -> entry -> event -> a list in the event);
# link messages reach 4 ("rev": message -> reveal -> actions -> action). 8 leaves room to grow.
_MAX_DEPTH = 8


class CodecError(ValueError):
    pass


def _varint(out, n):
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


# encode() calls _scalar and _key_bytes, and they call nothing (the varint is written inline):
# encoding sits under a commitment or a journal append at the bottom of the play path, where
# every frame counts against the ESP32's 16 KB C stack (docs/ARCHITECTURE.md, Budgets).
def _key_bytes(k):
    if isinstance(k, bool) or not isinstance(k, (str, int)):
        raise CodecError("dict key must be str or int")
    kb = bytearray()
    _scalar(kb, k)
    return bytes(kb)


def _scalar(out, v):
    """Encode a non-container; False if `v` is a list, tuple or dict."""
    n = -1      # a varint to write after the tag
    tail = None  # bytes to write after that
    if v is None:
        out.append(0)
    elif v is False:
        out.append(1)
    elif v is True:
        out.append(2)
    elif isinstance(v, int):
        if 0 <= v < 64:
            out.append(0x40 | v)
        else:
            out.append(3)
            n = (v << 1) if v >= 0 else ((-v << 1) - 1)
    elif isinstance(v, str):
        tail = v.encode()
        if len(tail) < 64:
            out.append(0x80 | len(tail))
        else:
            out.append(5)
            n = len(tail)
    elif isinstance(v, (bytes, bytearray)):
        out.append(4)
        n = len(v)
        tail = v
    elif isinstance(v, (list, tuple, dict)):
        return False
    else:
        raise CodecError("cannot encode " + type(v).__name__)
    if n >= 0:
        while n > 0x7F:
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        out.append(n)
    if tail:
        out.extend(tail)
    return True


_CHUNK = 64  # feed() hands the hash this much at a time


def encode(v):
    return _encode(v, None)


def feed(h, v):
    """h.update(encode(v)) without encode(v) as one block: the bytes go to the hash in pieces of
    about _CHUNK. A game's hash chain covers its whole public state after every event; encoded
    whole, it would be the largest allocation of a game and grow with it, and nothing during
    play may allocate a block that grows with the game."""
    _encode(v, h)


def _encode(v, h):
    # The values a move's path encodes most (small ints, short strs, bytes, lists: a journal
    # record, a message, a channel's save, the state fed to a commitment) are written here by
    # their exact type, without a call; anything else goes through _scalar as before. The
    # container being written is held in three locals and only the ones around it on the
    # stack: encoding was ~40 % of an author's Python from its key to its frame.
    out = bytearray()
    stack = []      # the containers open around `cur`: (items, next index, keyed) each
    cur = None      # the innermost open container's items (None: none open)
    i = 0           # its next item
    keyed = False   # its items are (key bytes, value): a dict's
    depth = 0       # containers open
    while True:
        if h is not None and len(out) >= _CHUNK:
            h.update(out)
            out = bytearray()
        t = type(v)
        if t is int and 0 <= v < 64:
            out.append(0x40 | v)
        elif t is bytes:
            out.append(4)
            n = len(v)
            while n > 0x7F:
                out.append((n & 0x7F) | 0x80)
                n >>= 7
            out.append(n)
            out.extend(v)
        elif t is str and len(v) < 64:   # (characters: its utf-8 may still be 64 bytes or more)
            b = v.encode()
            if len(b) < 64:
                out.append(0x80 | len(b))
                out.extend(b)
            else:
                _scalar(out, v)
        elif t is list or t is tuple or not _scalar(out, v):
            if depth >= _MAX_DEPTH:
                raise CodecError("too deep")
            if isinstance(v, dict):
                items = []
                for k in v:
                    items.append((_key_bytes(k), v[k]))
                # distinct keys encode distinctly, so the values are never compared
                items.sort()
                out.append(7)
                _varint(out, len(items))
                v = items
                k = True
            else:
                if len(v) < 32:
                    out.append(0xC0 | len(v))
                else:
                    out.append(6)
                    _varint(out, len(v))
                k = False
            if cur is not None:
                stack.append((cur, i, keyed))
            cur, i = v, 0
            keyed = k
            depth += 1
        # the next value to write: the next item of the innermost container not yet finished
        while cur is not None:
            if i < len(cur):
                v = cur[i]
                i += 1
                if keyed:
                    out.extend(v[0])
                    v = v[1]
                break
            depth -= 1
            if stack:
                cur, i, keyed = stack.pop()
            else:
                cur = None
        else:
            if h is None:
                return bytes(out)
            h.update(out)
            return None


def _text(b):
    try:
        return b.decode()
    except Exception:
        raise CodecError("bad utf-8")


class _Reader:
    def __init__(self, data):
        self.b = data
        self.i = 0

    def byte(self):
        if self.i >= len(self.b):
            raise CodecError("truncated")
        c = self.b[self.i]
        self.i += 1
        return c

    def take(self, n):
        if n > len(self.b) - self.i:
            raise CodecError("truncated")
        s = self.b[self.i:self.i + n]
        self.i += n
        return bytes(s)

    # varint reads its bytes itself, and _item checks counts inline: decode -> _item -> varint
    # is the whole call depth, since a journal read sits at the bottom of a deep play path
    # (the 16 KB C stack: docs/ARCHITECTURE.md, Budgets).
    def varint(self):
        b = self.b
        i = self.i
        n = 0
        shift = 0
        while True:
            if i >= len(b):
                raise CodecError("truncated")
            c = b[i]
            i += 1
            if shift and c == 0:
                raise CodecError("non-minimal varint")
            n |= (c & 0x7F) << shift
            if c < 0x80:
                self.i = i
                return n
            shift += 7
            if shift > 63:
                raise CodecError("varint too long")


_OPEN = object()  # _item's answer for a container tag: its frame was pushed on the stack


def _item(r, t, stack):
    """The value that tag `t` starts, or _OPEN after pushing a frame for a non-empty container:
    [container, items left, dict key awaiting its value (or _OPEN), last key's bytes]."""
    if t == 0:
        return None
    if t == 1:
        return False
    if t == 2:
        return True
    if 0x40 <= t < 0x80:
        return t & 0x3F
    if 0x80 <= t < 0xC0:
        return _text(r.take(t & 0x3F))
    if t == 3:
        z = r.varint()
        v = (z >> 1) if not z & 1 else -((z + 1) >> 1)
        if 0 <= v < 64:
            raise CodecError("non-minimal int")
        return v
    if t == 4:
        return r.take(r.varint())
    if t == 5:
        n = r.varint()
        if n < 64:
            raise CodecError("non-minimal str")
        return _text(r.take(n))
    if 0xC0 <= t < 0xE0:
        n = t & 0x1F
        c = []
    elif t == 6:
        n = r.varint()
        if n > len(r.b) - r.i:  # every item takes at least one byte: more is a lie
            raise CodecError("truncated")
        if n < 32:
            raise CodecError("non-minimal list")
        c = []
    elif t == 7:
        n = r.varint()
        if n > len(r.b) - r.i:
            raise CodecError("truncated")
        c = {}
    else:
        raise CodecError("bad tag")
    if len(stack) >= _MAX_DEPTH:
        raise CodecError("too deep")
    if n == 0:
        return c
    stack.append([c, n, _OPEN, None])
    return _OPEN


def decode(data):
    """Decode one value that must use all of `data`; raises CodecError on anything malformed."""
    r = _Reader(data)
    stack = []
    while True:
        start = r.i
        v = _item(r, r.byte(), stack)
        if v is _OPEN:
            continue
        # hand the value to the containers it completes, innermost first
        while stack:
            f = stack[-1]
            c = f[0]
            if isinstance(c, list):
                c.append(v)
            elif f[2] is _OPEN:
                if not isinstance(v, (str, int)) or isinstance(v, bool):
                    raise CodecError("bad dict key")
                kb = bytes(r.b[start:r.i])
                if f[3] is not None and kb <= f[3]:
                    raise CodecError("dict keys not sorted")
                f[2] = v
                f[3] = kb
                break  # its value comes next
            else:
                c[f[2]] = v
                f[2] = _OPEN
            f[1] -= 1
            if f[1]:
                break
            stack.pop()
            v = c
        else:
            if r.i != len(data):
                raise CodecError("trailing bytes")
            return v
