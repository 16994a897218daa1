# Millisecond ticks that behave the same on MicroPython (time.ticks_*) and CPython (monotonic).
import time

if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
    sleep_ms = time.sleep_ms
else:
    # Wrap like a 32-bit port (period 2**30) so wrap-around bugs show up on the host too.
    _PERIOD = 1 << 30
    _MASK = _PERIOD - 1
    _HALF = _PERIOD >> 1
    _T0 = time.monotonic()

    def ticks_ms():
        return int((time.monotonic() - _T0) * 1000) & _MASK

    def ticks_us():
        return int((time.monotonic() - _T0) * 1000000) & _MASK

    def ticks_add(t, delta):
        return (t + delta) & _MASK

    def ticks_diff(a, b):
        return ((a - b + _HALF) & _MASK) - _HALF

    def sleep_ms(ms):
        if ms > 0:
            time.sleep(ms / 1000)
