# Buttons to semantic keys: debounce, long press, auto-repeat and chords, as the profile maps them.
# poll(now_ms) is called from the main loop every ~10 ms while a button is down or settling; an
# idle loop rests, and a pin's edge interrupt only wakes it (clock.wake): nothing else runs there.
from fathom.compat import const
from fathom.hal.clock import ticks_add, ticks_diff, wake

DEBOUNCE_MS = const(20)      # a release must hold this long to count (contact bounce is < 10 ms)
PRESS_CONFIRM_MS = const(2)  # a press must: a thumb's tap lasts 30 ms or more, and what bounces
                             # after the first contact is a release shorter than DEBOUNCE_MS, so
                             # a press answers 2 ms after its edge woke the loop while a spike
                             # (microseconds: one read) or a brush of the key still does not count
LONG_MS = const(600)         # held this long: the button's 'long' key instead of its 'short' one
REPEAT_DELAY_MS = const(400)  # arrows held this long start repeating...
REPEAT_MS = const(120)       # ...once per this period
CHORD_MS = const(60)         # a chord button waits this long for its partner before acting alone

_REPEATS = ("UP", "DOWN", "LEFT", "RIGHT")


class _Button:
    def __init__(self, pin, short, long, chorded):
        self.pin = pin
        self.short = short
        self.long = long
        self.chorded = chorded
        self.down = False        # debounced state
        self.raw = False
        self.raw_t = 0           # when the raw level last changed
        self.press_t = 0
        self.pending = False     # pressed, nothing emitted yet
        self.repeat_at = None    # next auto-repeat time while held


class Buttons:
    def __init__(self, profile, pin_factory, now_ms=0):
        chorded = []
        for c in profile.get("chords") or ():
            chorded.extend(c["pins"])
        self._active = 0 if profile["active_low"] else 1
        self._buttons = []
        by_pin = {}
        for b in profile["buttons"]:
            btn = _Button(pin_factory(b["pin"]), b["short"], b.get("long"), b["pin"] in chorded)
            self._buttons.append(btn)
            by_pin[b["pin"]] = btn
        self._chords = [(by_pin[c["pins"][0]], by_pin[c["pins"][1]], c["key"])
                        for c in profile.get("chords") or ()]
        # poll()'s answer, reused: the loop polls every 10 ms and must not allocate each time.
        # Emptied with pop(): MicroPython's clear() and del [:] reallocate. A new list holds 4
        # items without growing and pop() never shrinks it below that, so up to 4 keys in one
        # poll (a chord is one) cost no allocation at all.
        self._keys = []
        for btn in self._buttons:
            # a button already held at start-up (or through a reboot) stays silent until released
            btn.raw = btn.down = btn.pin.value() == self._active
            btn.raw_t = now_ms
        # A pin that cannot interrupt leaves the loop polling it: never at rest (idle()).
        self.irq = True
        for btn in self._buttons:
            try:
                btn.pin.irq(handler=wake, trigger=3)  # Pin.IRQ_RISING | Pin.IRQ_FALLING
            except (AttributeError, TypeError, ValueError, OSError):
                self.irq = False

    def idle(self):
        """True while no button is down, settling or waiting to emit, and every pin wakes the
        loop by its edge: the loop may rest until one does."""
        if not self.irq:
            return False
        for b in self._buttons:
            if b.raw or b.down or b.pending:
                return False
        return True

    def held(self, key):
        """True while a button whose short key is `key` is (debounced) down."""
        for b in self._buttons:
            if b.down and b.short == key:
                return True
        return False

    def settling(self):
        """True while a press has been read but not yet confirmed: the loop polls again after
        PRESS_CONFIRM_MS instead of its usual period."""
        for b in self._buttons:
            if b.raw and not b.down:
                return True
        return False

    def poll(self, now_ms):
        """Keys produced since the last poll, oldest first. The list is reused: read it before
        the next poll."""
        out = self._keys
        while out:
            out.pop()
        for b in self._buttons:
            raw = b.pin.value() == self._active
            if raw != b.raw:
                b.raw = raw
                b.raw_t = now_ms
            elif raw != b.down and ticks_diff(now_ms, b.raw_t) >= (
                    PRESS_CONFIRM_MS if raw else DEBOUNCE_MS):
                b.down = raw
                if raw:
                    b.press_t = b.raw_t
                    b.pending = True
                    b.repeat_at = None
                else:
                    if b.pending:
                        out.append(b.short)
                    b.pending = False
                    b.repeat_at = None
        for first, second, key in self._chords:
            if first.pending and second.pending:
                out.append(key)
                first.pending = second.pending = False
        for b in self._buttons:
            if not b.down:
                continue
            held = ticks_diff(now_ms, b.press_t)
            if b.pending:
                if b.long is not None:
                    # only while still held: a loop that stalled across the release must not
                    # turn a short press into a long one (BACK into HELP)
                    if held >= LONG_MS and b.raw:
                        out.append(b.long)
                        b.pending = False
                elif not b.chorded or held >= CHORD_MS:
                    out.append(b.short)
                    b.pending = False
                    if b.short in _REPEATS:
                        b.repeat_at = ticks_add(b.press_t, REPEAT_DELAY_MS)
            elif b.raw and b.repeat_at is not None and ticks_diff(now_ms, b.repeat_at) >= 0:
                out.append(b.short)
                nxt = ticks_add(b.repeat_at, REPEAT_MS)
                # after a late poll, repeat from now rather than emit a burst
                b.repeat_at = nxt if ticks_diff(nxt, now_ms) > 0 else ticks_add(now_ms, REPEAT_MS)
        return out
