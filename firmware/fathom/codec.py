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

_MAX_DEPTH = 24


class CodecError(ValueError):
    pass


def _varint(out, n):
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _enc(out, v, depth):
    if depth > _MAX_DEPTH:
        raise CodecError("too deep")
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
            _varint(out, (v << 1) if v >= 0 else ((-v << 1) - 1))
    elif isinstance(v, str):
        b = v.encode()
        if len(b) < 64:
            out.append(0x80 | len(b))
        else:
            out.append(5)
            _varint(out, len(b))
        out.extend(b)
    elif isinstance(v, (bytes, bytearray)):
        out.append(4)
        _varint(out, len(v))
        out.extend(v)
    elif isinstance(v, (list, tuple)):
        if len(v) < 32:
            out.append(0xC0 | len(v))
        else:
            out.append(6)
            _varint(out, len(v))
        for x in v:
            _enc(out, x, depth + 1)
    elif isinstance(v, dict):
        pairs = []
        for k in v:
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise CodecError("dict key must be str or int")
            kb = bytearray()
            _enc(kb, k, depth + 1)
            pairs.append((bytes(kb), v[k]))
        pairs.sort(key=lambda p: p[0])
        out.append(7)
        _varint(out, len(pairs))
        for kb, x in pairs:
            out.extend(kb)
            _enc(out, x, depth + 1)
    else:
        raise CodecError("cannot encode " + type(v).__name__)


def encode(v):
    out = bytearray()
    _enc(out, v, 0)
    return bytes(out)


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

    def varint(self):
        n = 0
        shift = 0
        while True:
            c = self.byte()
            if shift and c == 0:
                raise CodecError("non-minimal varint")
            n |= (c & 0x7F) << shift
            if c < 0x80:
                return n
            shift += 7
            if shift > 63:
                raise CodecError("varint too long")


def _text(b):
    try:
        return b.decode()
    except Exception:
        raise CodecError("bad utf-8")


def _dec(r, depth):
    if depth > _MAX_DEPTH:
        raise CodecError("too deep")
    t = r.byte()
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
    if 0xC0 <= t < 0xE0:
        return [_dec(r, depth + 1) for _ in range(t & 0x1F)]
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
    if t == 6:
        n = r.varint()
        if n < 32:
            raise CodecError("non-minimal list")
        if n > len(r.b) - r.i:
            raise CodecError("truncated")
        return [_dec(r, depth + 1) for _ in range(n)]
    if t == 7:
        n = r.varint()
        if n > len(r.b) - r.i:
            raise CodecError("truncated")
        d = {}
        last = None
        for _ in range(n):
            start = r.i
            k = _dec(r, depth + 1)
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise CodecError("bad dict key")
            kb = bytes(r.b[start:r.i])
            if last is not None and kb <= last:
                raise CodecError("dict keys not sorted")
            last = kb
            d[k] = _dec(r, depth + 1)
        return d
    raise CodecError("bad tag")


def decode(data):
    """Decode one value that must use all of `data`; raises CodecError on anything malformed."""
    r = _Reader(data)
    v = _dec(r, 0)
    if r.i != len(data):
        raise CodecError("trailing bytes")
    return v
