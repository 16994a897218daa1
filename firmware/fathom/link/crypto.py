# Small crypto kit for the link: HMAC-SHA256 and HKDF over hashlib (MicroPython has no `hmac`),
# a constant-time compare, CRC-32, and a 1536-bit Diffie-Hellman for pairing.
import binascii
import hashlib

_BLOCK = 64  # SHA-256 block size, bytes


class Mac:
    """HMAC-SHA256 with the padded keys computed once, since the channel tags every frame."""

    def __init__(self, key):
        key = bytes(key)
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        key = key + bytes(_BLOCK - len(key))
        self._ipad = bytes(b ^ 0x36 for b in key)
        self._opad = bytes(b ^ 0x5C for b in key)

    def digest(self, *parts):
        h = hashlib.sha256(self._ipad)
        for p in parts:
            h.update(p)
        return hashlib.sha256(self._opad + h.digest()).digest()


def hmac_sha256(key, msg):
    return Mac(key).digest(msg)


def hkdf(ikm, salt=b"", info=b"", n=32):
    """RFC 5869 HKDF-SHA256: extract then expand to n bytes (n <= 8160)."""
    prk = hmac_sha256(salt if salt else bytes(32), ikm)
    return kdf(prk, info, n)


def kdf(key, info, n=32):
    """HKDF-Expand of a uniformly random key: independent sub-keys, one per `info` label."""
    m = Mac(key)
    out = b""
    t = b""
    i = 1
    while len(out) < n:
        t = m.digest(t, info, bytes((i,)))
        out += t
        i += 1
    return out[:n]


def equal(a, b):
    """Compare secrets in time that depends only on their length, not on where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0


def crc32(data):
    return binascii.crc32(data) & 0xFFFFFFFF


def sha256(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


# RFC 3526 group 5 (1536-bit MODP, generator 2). With 256-bit exponents one pow() costs about
# 16 ms on the unix port on a laptop, roughly 0.5-1 s on a 240 MHz ESP32: paid once per pairing.
DH_BYTES = 192
_DH_P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E34"
    "04DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6"
    "F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A6916"
    "3FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA237327"
    "FFFFFFFFFFFFFFFF", 16)


def dh_public(secret):
    """Public value for a 32-byte secret, as DH_BYTES big-endian bytes."""
    return pow(2, int.from_bytes(secret, "big") | 1 << 255, _DH_P).to_bytes(DH_BYTES, "big")


def dh_shared(secret, peer_public):
    """Shared secret bytes; raises ValueError for a peer value that would force a weak result."""
    if len(peer_public) != DH_BYTES:
        raise ValueError("bad public value length")
    y = int.from_bytes(peer_public, "big")
    if y < 2 or y > _DH_P - 2:
        raise ValueError("degenerate public value")
    s = pow(y, int.from_bytes(secret, "big") | 1 << 255, _DH_P)
    return s.to_bytes(DH_BYTES, "big")
