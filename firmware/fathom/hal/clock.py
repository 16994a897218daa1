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


_mono = [None, 0]  # last ticks_ms seen, milliseconds accumulated


def now_ms():
    """Milliseconds since start that never wrap: ticks_ms wraps every 2**30 ms (12.4 days) on
    a port, so the app's timers (link retransmits, heartbeats, bot pauses) use this instead and
    may compare times with plain arithmetic. Call it at least once per wrap (the loop does)."""
    t = ticks_ms()
    if _mono[0] is not None:
        _mono[1] += ticks_diff(t, _mono[0])
    _mono[0] = t
    return _mono[1]
