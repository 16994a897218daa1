# The reference pace the ESP32 estimates are anchored on (bench path's and bench bots' drivers
# import it): kernel() takes REF_US at 124k pystones/s on the 32-bit runtime, the figure
# docs/ARCHITECTURE.md's factor is anchored on. Measured side by side with MicroPython's
# misc_pystone.py: run after every move's kernels (Proc0(1000), 3 games, 182 moves),
# kernel us x pystones/s = 1.84-1.94e8 (quartiles 1.80-1.99e8); in a quiet process, 12 pairs of
# longer runs, 2.03e8 (1.9-2.4e8), while the machine's own pace ranged 83k-138k pystones/s.
# The kernel's work is its own (pacecodec.py), not the firmware's: a firmware made faster must
# not move the yardstick it is measured by.
import hashlib
import time

try:
    from pacecodec import decode, encode, feed   # the drivers' own folder, under MicroPython
except ImportError:   # CPython: bench bots reads REF_US
    from fathom_host.bench.mp.pacecodec import decode, encode, feed

# 1.9e8 was measured with the kernel over the firmware's frozen codec; the same code as a copy
# compiled when the driver starts runs it in 0.846 of the time (400 pairs interleaved in one
# process, three runs: 0.845-0.848, 2026-12-07), so the anchor carries over by that ratio.
PACE = 1.9e8 * 0.846
REF_PYSTONES = 124000
REF_US = PACE / REF_PYSTONES
_V = {"grid": [[i * j % 7 for j in range(12)] for i in range(12)],
      "log": [["c", i, b"xyz"] for i in range(20)], "names": ["a%d" % i for i in range(10)],
      "n": 123456, "flag": True}


def kernel():
    """A fixed piece of a move's kind of work (a state hashed, a message encoded and read)."""
    t0 = time.ticks_us()
    h = hashlib.sha256()   # (games/seat.state_hash, written out over the kernel's own codec)
    feed(h, _V)
    h.digest()
    decode(encode(_V))
    return time.ticks_diff(time.ticks_us(), t0)
