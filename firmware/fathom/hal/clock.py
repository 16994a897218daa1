# Millisecond ticks that behave the same on MicroPython (time.ticks_*) and CPython (monotonic),
# and the app's clock, now_ms(), which every timer in the firmware runs on.
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

# The largest value a tick takes: 2**30 - 1 on a 32-bit port (the largest small int), whose
# next tick is 0. Tests start the clock just below it to cross the wrap.
MAX_TICKS = ticks_add(0, -1)

_at = [ticks_ms(), 0]  # ticks_ms() when now_ms() last read _at[1]: boot reads 0


def now_ms():
    """Milliseconds since boot, wrapping exactly like ticks_ms (every 2**30 ms, 12.4 days, on a
    32-bit port). An unwrapped count would become a heap-allocated long int after 2**30 ms and
    make every timer comparison allocate; this stays a small int. The price: compare and add
    times only with ticks_diff / ticks_add, never with plain - or + (which break at the wrap)."""
    return ticks_add(_at[1], ticks_diff(ticks_ms(), _at[0]))


def start_at(t):
    """Make now_ms() read `t` (0..MAX_TICKS) from this moment: tests start near the wrap."""
    _at[0] = ticks_ms()
    _at[1] = t


# The loop's wake flag: an interrupt (a button's edge, a frame the radio kept) sets it, so a
# resting loop (App.turn) takes its next step at once instead of when its timers are due.
_woke = [False]


def wake(_=None):
    """An interrupt handler (Pin.irq, ESPNow.irq): something may have changed."""
    _woke[0] = True


def woken():
    """True once since the last call if wake() ran; clears the flag."""
    w = _woke[0]
    _woke[0] = False
    return w


def pending():
    """True while wake() has run since the last woken(); leaves the flag as it is."""
    return _woke[0]
