# The loop's sleep between steps (firmware/fathom/hal/rest.py) on the MicroPython unix port,
# whose select.poll waits on streams as a board's does: it ends when the wake flag is set (a
# button's or the radio's interrupt ran), when a watched stream has bytes (a UART link's
# port), or when its time is up; a stream no longer watched wakes nothing. CPython's poll takes
# only file descriptors, so these run under MicroPython only.
import io
import sys

import pytest

from fathom.hal import clock

pytestmark = pytest.mark.micropython

MICROPYTHON = sys.implementation.name == "micropython"
LONG_MS = 5000   # a wait that would last this long ends at once when woken


class Port(io.IOBase if MICROPYTHON else object):
    """A stream select.poll can wait on, readable while it holds bytes (as machine.UART)."""

    def __init__(self):
        self.waiting = 0

    def ioctl(self, req, flags):
        if req == 3:
            return flags & 1 if self.waiting else 0
        return -1


def _timed(rest, ms):
    t0 = clock.ticks_ms()
    assert rest.wait(ms)
    return clock.ticks_diff(clock.ticks_ms(), t0)


def _rest():
    if not MICROPYTHON:
        pytest.skip("CPython's select.poll polls file descriptors only")
    from fathom.hal.rest import Rest
    clock.woken()
    return Rest()


def test_the_wake_flag_ends_the_sleep():
    rest = _rest()
    clock.wake()
    assert _timed(rest, LONG_MS) < LONG_MS // 2
    assert clock.woken()   # left for the loop's step to take


def test_the_sleep_lasts_until_the_step_is_due():
    rest = _rest()
    assert 40 <= _timed(rest, 40) < LONG_MS
    assert not clock.woken()


def test_bytes_on_a_watched_port_end_the_sleep_and_wake_the_loop():
    from fathom.hal import rest as mod
    rest = _rest()
    port = Port()
    port.waiting = 3
    mod.watch(port)
    try:
        assert _timed(rest, LONG_MS) < LONG_MS // 2
        assert clock.woken()   # the step that follows reads the port
    finally:
        mod.unwatch(port)
    assert 40 <= _timed(rest, 40) < LONG_MS   # unwatched, its bytes wake nothing
    assert not clock.woken()



def test_a_boards_wait_shorter_than_a_tick_is_slept_to_the_ms():
    # An ESP32's poll waits in whole FreeRTOS ticks (10 ms): a press confirmed 5 ms after its
    # first read would wait 5-15 ms there. A board (no emulator host) sleeps such a wait, timed
    # to the ms, even when the flag is up; a longer one still polls, and the flag ends it.
    from fathom.hal.rest import _TICK_MS
    rest = _rest()
    clock.wake()
    assert 5 <= _timed(rest, 5) < _TICK_MS
    assert rest._p is None            # no poll was made for it
    assert clock.woken()              # the flag waits for the step
    clock.wake()
    assert _timed(rest, LONG_MS) < LONG_MS // 2
