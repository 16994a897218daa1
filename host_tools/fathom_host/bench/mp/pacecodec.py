# The reference pace's own codec (pace.py's kernel): a verbatim copy of firmware/fathom/codec.py
# as it was before its encoder was made faster (2026-12-07), so that the fixed piece of work
# the bench scales every move by stays fixed when the firmware changes: with the faster
# firmware encoder the kernel ran faster, the machine seemed a quarter faster and every time
# the bench reported came out larger by as much. Not the firmware's: never edit it to follow
# the firmware.
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
    out = bytearray()
    stack = []  # per open container: [items, next index, True if items are (key bytes, value)]
    while True:
        if h is not None and len(out) >= _CHUNK:
            h.update(out)
            out = bytearray()
        if not _scalar(out, v):
            if len(stack) >= _MAX_DEPTH:
                raise CodecError("too deep")
            if isinstance(v, dict):
                items = []
                for k in v:
                    items.append((_key_bytes(k), v[k]))
                # distinct keys encode distinctly, so the values are never compared
                items.sort()
                out.append(7)
                _varint(out, len(items))
                stack.append([items, 0, True])
            else:
                if len(v) < 32:
                    out.append(0xC0 | len(v))
                else:
                    out.append(6)
                    _varint(out, len(v))
                stack.append([v, 0, False])
        # the next value to write: the next item of the innermost container not yet finished
        while stack:
            f = stack[-1]
            i = f[1]
            if i < len(f[0]):
                f[1] = i + 1
                v = f[0][i]
                if f[2]:
                    out.extend(v[0])
                    v = v[1]
                break
            stack.pop()
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
