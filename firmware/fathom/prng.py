# Deterministic randomness from a seed: SHA-256 in counter mode, the same bits on every runtime.
# `random` differs between CPython and MicroPython, and engines must replay identically.
import hashlib


class Prng:
    def __init__(self, seed, label=b""):
        if isinstance(seed, str):
            seed = seed.encode()
        if isinstance(label, str):
            label = label.encode()
        self._key = hashlib.sha256(bytes(seed) + b"|" + label).digest()
        self._ctr = 0
        self._buf = b""

    def _bytes(self, n):
        while len(self._buf) < n:
            self._buf += hashlib.sha256(self._key + self._ctr.to_bytes(8, "big")).digest()
            self._ctr += 1
        out = self._buf[:n]
        self._buf = self._buf[n:]
        return out

    def below(self, n):
        """Uniform int in [0, n), by rejection so no value is favoured."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            # _bytes(4), inline: shuffles call this deep in set-up and play, where one frame
            # less matters on the ESP32's 16 KB C stack
            while len(self._buf) < 4:
                self._buf += hashlib.sha256(self._key + self._ctr.to_bytes(8, "big")).digest()
                self._ctr += 1
            x = int.from_bytes(self._buf[:4], "big")
            self._buf = self._buf[4:]
            if x < limit:
                return x % n

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, lst):
        for i in range(len(lst) - 1, 0, -1):
            j = self.below(i + 1)
            lst[i], lst[j] = lst[j], lst[i]
        return lst

    def token(self, n):
        return self._bytes(n)
