# Byte framing for the UART link: COBS over (frame + CRC32), delimited by 0x00 on both sides.
# A serial line has no packet boundaries and can deliver garbage (noise on connect, a unit
# rebooting mid-frame), so the receiver must find frame starts again by itself: COBS makes 0x00
# appear only as a delimiter, and the CRC rejects whatever garbage happens to look like a frame.
# The leading delimiter ends any garbage already on the line before this frame begins.
try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32
    _crc32 = None

MAX_FRAME = const(250)  # one ESP-NOW packet: both transports carry the same frames
_CRC_LEN = const(4)
# COBS adds one byte per 254 bytes of input plus one; +2 for the delimiters.
MAX_WIRE = const(MAX_FRAME + _CRC_LEN + (MAX_FRAME + _CRC_LEN) // 254 + 1 + 2)
_MAX_ENC = const(MAX_WIRE - 2)

# CRC-32 (IEEE, as binascii.crc32) a nibble at a time: a 16-entry table, not 256.
_NIB = (0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4,
        0x4DB26158, 0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
        0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C)


def crc32_soft(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        crc = (crc >> 4) ^ _NIB[crc & 15]
        crc = (crc >> 4) ^ _NIB[crc & 15]
    return crc ^ 0xFFFFFFFF


def crc32(data):
    if _crc32 is None:
        return crc32_soft(data)
    return _crc32(data) & 0xFFFFFFFF


def cobs_encode(data):
    out = bytearray(len(data) + len(data) // 254 + 2)
    code_at = 0
    o = 1
    code = 1
    for b in data:
        if b:
            out[o] = b
            o += 1
            code += 1
        if not b or code == 0xFF:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
    out[code_at] = code
    return bytes(out[:o])


def cobs_decode(data):
    """The decoded bytes, or None when `data` is not valid COBS (never raises)."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        out += data[i + 1:i + code]
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def wrap(frame):
    """The bytes to write to the UART for one frame."""
    n = len(frame)
    if n == 0 or n > MAX_FRAME:
        raise ValueError("frame must be 1..%d bytes, not %d" % (MAX_FRAME, n))
    return b"\x00" + cobs_encode(bytes(frame) + crc32(frame).to_bytes(4, "little")) + b"\x00"


class Deframer:
    """Turns a byte stream into checked frames; anything else on the line is counted and lost."""

    def __init__(self):
        self._buf = bytearray()
        self._skip = False  # inside an overlong run: drop bytes until the next delimiter
        self.frames = 0
        self.bad_crc = 0
        self.malformed = 0
        self.too_long = 0

    def feed(self, data):
        out = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._take(data, start, n)
                break
            self._take(data, start, end)
            if self._skip:
                self._skip = False
            elif self._buf:
                frame = self._decode(self._buf)
                if frame is not None:
                    out.append(frame)
            self._buf = bytearray()
            start = end + 1
        return out

    def _take(self, data, a, b):
        if self._skip or a == b:
            return
        if len(self._buf) + b - a > _MAX_ENC:
            self.too_long += 1
            self._skip = True
            self._buf = bytearray()
            return
        self._buf += data[a:b]

    def _decode(self, enc):
        raw = cobs_decode(enc)
        if raw is None or len(raw) <= _CRC_LEN:
            self.malformed += 1
            return None
        body = raw[:-_CRC_LEN]
        if crc32(body) != int.from_bytes(raw[-_CRC_LEN:], "little"):
            self.bad_crc += 1
            return None
        self.frames += 1
        return body
