# The group the sealed deal computes in, and the codec for its elements.
#
# p = 2q + 1 is a safe prime made for fathom (below: derived from a public label, so no one
# chose it and no one holds a precomputation for it). We compute in Z_p* / {+-1}, the "signed
# quadratic residues": an element is the pair {x, p - x}, written as the one of the two that is
# at most (p - 1) / 2. That group has prime order q, so it has no small subgroup to leak through:
# every value in 1..(p-1)/2 is a member and a peer cannot smuggle in a non-member (the Legendre
# symbol that breaks plain SRA on residues and non-residues does not exist here). Products and
# powers are taken mod p and then folded; decoding a peer's bytes is a range check, no
# exponentiation. A card k is the element k + 2 (1 is the identity, so cards start at 2).
import hashlib

try:
    from micropython import const
except ImportError:  # CPython
    const = lambda x: x  # noqa: E731


class SealedError(ValueError):
    """A value a peer sent that is not a well-formed sealed-deal value, or a step out of order."""


# Safe primes p = 2q+1, first after a public label (group_start below: SHA-256 of "fathom sealed
# deal <bits>", top two bits set, then q, q+1, ... until q and 2q+1 are both prime). The offset
# is where the search stopped; tests/sealed/test_sealed_prime.py re-derives both and checks
# primality.
PRIMES = {
    768: (119038, 0xd6751e604b88d84804118a06eb1d2f4d087957f29bd37cea074316a89305837e20030c0f99905ab6e3178cf62f2cf5f4fe9dff4f097fcbc7089a10f527fcf5fadc11b1b9089c7922a8691f4760f55fa7ccc2338261c73cc4740d236179a586ab),  # noqa: E501
    1024: (571336, 0xd6b84c4887f5e00d16142703dc5a6e17e02aaa506266f817509cf0dade4753af1198201996e6e54caa06f5c079341c3858d7e50be9ae111f3fe808356c4339d891d6a4efcabd7d783c0f692c4f2c55c83d81f1d4ca13d217022bb1013c8046cc75b99fe852b5b9789b2c21a4c5906ae37ea39d86def783cc24411f9ba0997e9f),  # noqa: E501
}
BITS = const(768)       # the modulus games use: 1024 misses the ESP32 time targets 1.2-2.3x
#                         (docs/SEALED_DEAL.md: the figures and the security reasoning)
EXP_BYTES = const(20)   # secret exponents: 160 bits, beyond the modulus's own strength
COMB_ROWS = const(3)    # fixed-base table: 2**3 entries per base (~1 KB at 768 bits on a 32-bit
#                         heap), ~100 multiplications a power against pow's ~240. 4 rows save
#                         another 25% of the time for twice the table: 3 KB more at the peak
#                         of a Periplus reshuffle mid-game (docs/SEALED_DEAL.md, memory)
_BASE = const(4)        # the generator: 2 squared, a member other than the identity


def group_start(bits):
    """Where the search for PRIMES[bits] begins (q, not p): the public label's hash."""
    n = bits // 256 + 1
    b = b"".join(hashlib.sha256(b"fathom sealed deal %d" % bits + bytes([i])).digest()
                 for i in range(n))
    x = int.from_bytes(b, "big") >> (n * 256 - bits)
    x |= 3 << (bits - 2)
    return x >> 1


class Group:
    def __init__(self, bits=BITS):
        if bits not in PRIMES:
            raise SealedError("no sealed-deal prime of %d bits" % bits)
        self.bits = bits
        self.p = PRIMES[bits][1]
        self.q = (self.p - 1) >> 1      # the group's order, and the largest folded value
        self.nbytes = (bits + 7) // 8
        self.g = _BASE
        self.n_pow = 0      # exponentiations done, for the bench: variable-base ...
        self.n_comb = 0     # ... and fixed-base (comb) ones

    def fold(self, x):
        return x if x <= self.q else self.p - x

    def mul(self, a, b):
        return self.fold(a * b % self.p)

    def pow(self, base, e):
        """A variable-base power (a share, a check): MicroPython's pow, folded."""
        self.n_pow += 1
        return self.fold(pow(base, e, self.p))

    def inverse(self, a):
        """a**-1 by extended Euclid (pow(a, -1, p) is not available on MicroPython)."""
        r0, r1, s0, s1 = self.p, a % self.p, 0, 1
        while r1:
            k = r0 // r1
            r0, r1 = r1, r0 - k * r1
            s0, s1 = s1, s0 - k * s1
        if r0 != 1:
            raise SealedError("no inverse")
        return self.fold(s0 % self.p)

    def to_bytes(self, x):
        return x.to_bytes(self.nbytes, "big")

    def element(self, b, identity_ok=False):
        """A peer's bytes as an element: exactly nbytes, big-endian, folded (1..q), so each
        element has one encoding. Raises SealedError on anything else."""
        if not isinstance(b, (bytes, bytearray)) or len(b) != self.nbytes:
            raise SealedError("an element is %d bytes" % self.nbytes)
        x = int.from_bytes(b, "big")
        if x == 0 or x > self.q:
            raise SealedError("element out of range")
        if x == 1 and not identity_ok:
            raise SealedError("identity where a random element belongs")
        return x

    def card(self, k):
        return k + 2

    def card_of(self, m, n):
        """The card k < n that element m encodes, else -1."""
        k = m - 2
        return k if 0 <= k < n else -1


def exponent(secret, label):
    """A secret exponent of EXP_BYTES*8 bits from a player's secret (never 0)."""
    d = hashlib.sha256(bytes(secret) + b"|" + label).digest()
    return int.from_bytes(d[:EXP_BYTES], "big") or 1


class Comb:
    """Fixed-base powers base**e for e < 2**(8*EXP_BYTES) by the Lim-Lee comb: the exponent's
    bits read as COMB_ROWS rows of `cols` columns (the last row padded with zeros), one squaring
    and at most one multiplication per column (54 columns for 160 bits in 3 rows, against ~240
    steps for square-and-multiply). The table is 2**COMB_ROWS elements; it lives for one
    shuffle."""

    def __init__(self, grp, base):
        self.grp = grp
        p = grp.p
        self.cols = cols = (EXP_BYTES * 8 + COMB_ROWS - 1) // COMB_ROWS
        rows = [base]
        for _i in range(1, COMB_ROWS):
            b = rows[-1]
            for _j in range(cols):
                b = b * b % p
            rows.append(b)
        t = [1] * (1 << COMB_ROWS)
        for s in range(1, 1 << COMB_ROWS):
            i = 0
            while not (s >> i) & 1:
                i += 1
            rest = s & ~(1 << i)
            t[s] = rows[i] if not rest else t[rest] * rows[i] % p
        self.t = t

    def pow(self, e):
        self.grp.n_comb += 1
        eb = e.to_bytes(EXP_BYTES, "big")
        last = EXP_BYTES - 1
        nbits = EXP_BYTES * 8
        p = self.grp.p
        t = self.t
        cols = self.cols
        r = 1
        for j in range(cols - 1, -1, -1):
            r = r * r % p
            s = 0
            for i in range(COMB_ROWS):
                k = i * cols + j
                if k < nbits:
                    s |= ((eb[last - (k >> 3)] >> (k & 7)) & 1) << i
            if s:
                r = r * t[s] % p
        return self.grp.fold(r)
