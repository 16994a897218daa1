# The loop's wait between two steps (App.run): it sleeps until the step is due, or until
# something that can change the screen happens first: a button's edge or a packet the radio
# kept (their interrupts set clock's wake flag), or bytes on a cable a link watches (watch()).
# One select.poll holds all of them, so the CPU sleeps in the port's own wait (on an ESP32 a
# FreeRTOS wait the pin and UART interrupts cut short) instead of looping every 10 ms.
import io
import select

from fathom.hal import clock

_POLLIN = 1   # select.POLLIN on every port
_POLL = 3     # MP_STREAM_POLL: the request select.poll makes of a stream
# An ESP32's poll waits in whole FreeRTOS ticks (10 ms in MicroPython's build): asked for 5 ms,
# it returns at the first tick after them, 5-15 ms later. A board's shorter wait (a press being
# confirmed, PRESS_CONFIRM_MS) is slept instead, which the port times to the microsecond (the
# last part of time.sleep_ms under a tick is a busy wait): the press acts on time, and the CPU
# is busy a few ms per press. Nothing that could end such a wait sooner is missed: the radio's
# frames wait for the step in its buffer, a key's edge is read by that step.
_TICK_MS = 10


class _Flag(io.IOBase):
    """clock's wake flag as a stream select.poll can wait on: readable once an interrupt has
    run (the handlers run inside the wait, between its ticks)."""

    def ioctl(self, req, flags, _woke=clock._woke):
        # asked at every tick of a wait (on an ESP32 100 times a second): one list read, no
        # call (the flag's list bound at definition, the request's number compared once)
        if req != _POLL:
            return -1  # no file descriptor, nothing else
        return flags if _woke[0] else 0


_watched = []    # streams whose readable bytes end the wait (a UART link's port)
_changed = [0]   # bumped by watch/unwatch: a Rest registers them again


def watch(stream):
    """A link's stream (machine.UART): bytes arriving on it end the loop's wait."""
    if stream not in _watched:
        _watched.append(stream)
        _changed[0] += 1


def unwatch(stream):
    if stream in _watched:
        _watched.remove(stream)
        _changed[0] += 1


class Rest:
    """wait(ms): back after `ms`, or sooner when woken. `host` is the emulator's wire
    (twins/hub.py) or None on a board: its socket wakes the wait too, and while it plays a key
    press or a scripted player watches the screen it is served every `slice_ms` (twin work,
    which a board does not have)."""

    def __init__(self, host=None, slice_ms=10):
        self._flag = _Flag()
        self._host = host
        self._slice = slice_ms
        self._seen = -1
        self._p = None

    def _poller(self):
        if self._seen != _changed[0]:
            p = select.poll()
            p.register(self._flag, _POLLIN)
            for s in _watched:
                p.register(s, _POLLIN)
            sock = getattr(self._host, "_sock", None)
            if sock is not None:
                p.register(sock, _POLLIN)
            self._p = p
            self._seen = _changed[0]
        return self._p

    def wait(self, ms):
        """False when the emulator's host said quit, else True."""
        host = self._host
        if host is None and 0 < ms < _TICK_MS:
            clock.sleep_ms(ms)
            return True
        p = self._poller()
        t0 = clock.ticks_ms()
        left = ms
        while left > 0:
            busy = host is not None and (host._queue or host._press_state is not None
                                         or host.on_idle is not None)
            got = False
            for obj, _ev in p.ipoll(self._slice if busy and left > self._slice else left):
                got = True
                if obj is not self._flag and obj is not getattr(host, "_sock", None):
                    clock.wake()  # a watched stream is readable: the loop steps to read it
            if got:
                return True   # (the host's message is read by the turn that follows)
            if busy:
                if not host.poll():
                    return False
                if clock.pending():
                    return True   # the host's press made an edge
            left = ms - clock.ticks_diff(clock.ticks_ms(), t0)
        return True
