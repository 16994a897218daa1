# The one frame format both transports carry: a 7-byte header, the payload, and a tag
# (8 bytes of HMAC-SHA256 under a direction key once paired, a CRC-32 before). See docs/PROTOCOL.md.
import struct

from fathom.link.crypto import crc32, equal

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

VERSION = const(3)        # frame/protocol version, the high nibble of byte 0 (2: keyed seeds;
                          # 3: the hash chain over the state each event applies to)
MAX_FRAME = const(250)    # one ESP-NOW packet
HEADER = const(7)
TAG = const(8)            # truncated HMAC: a forger needs 2**64 tries, each one a radio packet
CRC = const(4)
MAX_PAYLOAD = MAX_FRAME - HEADER - TAG

DATA = const(0)     # last (or only) fragment of a message
MORE = const(1)     # a fragment with more to follow
ACK = const(2)      # acknowledgement / heartbeat, empty payload
BEACON = const(3)   # discovery broadcast, unkeyed, outside any channel
_KEYED = const(0x08)


class FrameError(ValueError):
    pass


class VersionError(FrameError):
    """A frame from a unit speaking another version; `version` says which, for the UI."""

    def __init__(self, version):
        super().__init__("frame version %d, this unit speaks %d" % (version, VERSION))
        self.version = version


class BadTag(FrameError):
    pass


def _mac_input(role, seq, ack):
    # The tag covers the full 32-bit counters and the sender's role, none of which are sent in
    # full: an old frame from 65536 messages ago, or our own frame reflected back, fails to verify.
    return struct.pack(">BII", role, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF)


def encode(ftype, sid, seq, ack, payload=b"", mac=None, role=0):
    """One frame as bytes. `mac` is a crypto.Mac (tagged frame) or None (CRC frame)."""
    keyed = mac is not None
    if len(payload) > MAX_FRAME - HEADER - (TAG if keyed else CRC):
        raise FrameError("payload too long: %d bytes" % len(payload))
    body = struct.pack(">BHHH", VERSION << 4 | (_KEYED if keyed else 0) | ftype,
                       sid & 0xFFFF, seq & 0xFFFF, ack & 0xFFFF) + payload
    if keyed:
        return body + mac.digest(_mac_input(role, seq, ack), body)[:TAG]
    return body + struct.pack(">I", crc32(body))


def parse(data):
    """Split a frame without checking its tag: (ftype, keyed, sid, seq16, ack16, payload).
    Raises FrameError for anything that is not structurally a frame of our version."""
    n = len(data)
    if n < HEADER + CRC or n > MAX_FRAME:
        raise FrameError("bad frame length %d" % n)
    b0 = data[0]
    if b0 >> 4 != VERSION:
        raise VersionError(b0 >> 4)
    keyed = bool(b0 & _KEYED)
    ftype = b0 & 0x07
    if ftype > BEACON:
        raise FrameError("unknown frame type %d" % ftype)
    end = n - (TAG if keyed else CRC)
    if end < HEADER:
        raise FrameError("frame too short for its tag")
    if ftype == ACK and end != HEADER:
        raise FrameError("ack frame with a payload")
    if ftype == BEACON and keyed:
        raise FrameError("keyed beacon")
    _, sid, seq, ack = struct.unpack(">BHHH", data[:HEADER])
    return ftype, keyed, sid, seq, ack, bytes(data[HEADER:end])


def check(data, mac=None, role=0, seq=0, ack=0):
    """True if the frame's tag is right: CRC when mac is None, else the HMAC over the full
    counters `seq`/`ack` (the receiver's expansion of the 16-bit wire values) and the role."""
    if mac is None:
        if len(data) < CRC or data[0] & _KEYED:
            return False
        return struct.unpack(">I", data[-CRC:])[0] == crc32(data[:-CRC])
    if len(data) < TAG or not data[0] & _KEYED:
        return False
    return equal(mac.digest(_mac_input(role, seq, ack), data[:-TAG])[:TAG], data[-TAG:])


def unwrap(wire, near):
    """The full counter whose low 16 bits are `wire`, closest to `near` (serial arithmetic)."""
    return near + ((wire - near + 0x8000) & 0xFFFF) - 0x8000


def decode(data, mac=None, role=0, seq_near=0, ack_near=0):
    """Parse and authenticate one frame: (ftype, sid, seq, ack, payload) with full counters.
    Raises FrameError (BadTag for a wrong tag, VersionError for another version)."""
    ftype, keyed, sid, seq, ack, payload = parse(data)
    seq = unwrap(seq, seq_near)
    ack = unwrap(ack, ack_near)
    if keyed != (mac is not None) or not check(data, mac, role, seq, ack):
        raise BadTag("bad tag")
    return ftype, sid, seq, ack, payload
