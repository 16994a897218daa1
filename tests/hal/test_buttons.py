# Buttons to keys with fake pins and a fake clock: debounce, short vs long, auto-repeat, chords.
import pytest

from fathom.hal.buttons import (CHORD_MS, DEBOUNCE_MS, LONG_MS, PRESS_CONFIRM_MS,
                                REPEAT_DELAY_MS, REPEAT_MS, Buttons)

pytestmark = pytest.mark.micropython

STEP = 5  # ms between polls, like a busy main loop


class FakePin:
    def __init__(self):
        self.level = 1   # released (active low, pulled up)

    def value(self):
        return self.level


def make(buttons, chords=None, active_low=True):
    pins = {}

    def factory(n):
        pins[n] = FakePin()
        if not active_low:
            pins[n].level = 0
        return pins[n]

    prof = {"buttons": buttons, "active_low": active_low}
    if chords:
        prof["chords"] = chords
    return Buttons(prof, factory), pins


def run(btns, pins, events, until, active_low=True):
    """events: [(t_ms, pin, pressed)]; returns [(t_ms, key)] from polling every STEP ms."""
    out = []
    events = sorted(events, key=lambda e: e[0])
    i = 0
    for t in range(0, until + 1, STEP):
        while i < len(events) and events[i][0] <= t:
            _, pin, pressed = events[i]
            pins[pin].level = (0 if pressed else 1) if active_low else (1 if pressed else 0)
            i += 1
        for k in btns.poll(t):
            out.append((t, k))
    return out


def keys(out):
    return [k for _, k in out]


SIX = [{"pin": 1, "short": "UP"}, {"pin": 2, "short": "DOWN"}, {"pin": 5, "short": "OK"},
       {"pin": 6, "short": "BACK"}]


def test_plain_press_emits_once_on_press():
    # a key with no long press acts as soon as the press is confirmed, not on its release
    b, pins = make(SIX)
    out = run(b, pins, [(100, 5, True), (200, 5, False)], 400)
    assert keys(out) == ["OK"]
    assert PRESS_CONFIRM_MS <= out[0][0] - 100 <= PRESS_CONFIRM_MS + STEP < DEBOUNCE_MS


def test_bounces_are_ignored():
    b, pins = make(SIX)
    bounce = [(100, 5, True), (103, 5, False), (106, 5, True), (109, 5, False), (112, 5, True),
              (300, 5, False), (304, 5, True), (308, 5, False)]
    # polls every 1 ms so the poller sees every bounce
    out = []
    evs = sorted(bounce)
    i = 0
    for t in range(0, 500):
        while i < len(evs) and evs[i][0] <= t:
            pins[5].level = 0 if evs[i][2] else 1
            i += 1
        out.extend(b.poll(t))
    assert out == ["OK"]


def test_glitch_shorter_than_the_confirmation_is_not_a_press():
    b, pins = make(SIX)
    assert run(b, pins, [(100, 1, True), (104, 1, False)], 300) == []


def test_settling_while_a_press_waits_for_confirmation():
    b, pins = make(SIX)
    b.poll(0)
    pins[5].level = 0
    assert not b.settling()          # not read yet
    assert b.poll(10) == [] and b.settling()
    assert b.poll(10 + PRESS_CONFIRM_MS) == ["OK"] and not b.settling()


def test_short_and_long_on_one_button():
    b, pins = make([{"pin": 0, "short": "DOWN", "long": "OK"}])
    out = run(b, pins, [(100, 0, True), (250, 0, False)], 500)
    assert keys(out) == ["DOWN"] and out[0][0] >= 250       # short comes on release
    b, pins = make([{"pin": 0, "short": "DOWN", "long": "OK"}])
    out = run(b, pins, [(100, 0, True), (2000, 0, False)], 2500)
    assert keys(out) == ["OK"]                             # long once, nothing on release
    assert LONG_MS <= out[0][0] - 100 <= LONG_MS + STEP


def test_a_loop_stalled_after_the_release_keeps_a_short_press_short():
    # The loop stalls past LONG_MS across the release (a loaded host, a slow redraw): the
    # button was let go, so it is a short press and no repeat, not a long one.
    b, pins = make([{"pin": 0, "short": "BACK", "long": "HELP"}, {"pin": 1, "short": "UP"}])
    got = []
    pins[0].level = pins[1].level = 0
    for t in range(0, 101, 10):
        got += b.poll(t)
    pins[0].level = pins[1].level = 1
    got += b.poll(110 + LONG_MS + 300)     # the loop stalled across the release
    got += b.poll(110 + LONG_MS + 300 + DEBOUNCE_MS)
    assert sorted(got) == ["BACK", "UP"], got


def test_arrows_repeat_while_held():
    b, pins = make(SIX)
    hold = REPEAT_DELAY_MS + 5 * REPEAT_MS + 10
    out = run(b, pins, [(100, 2, True), (100 + hold, 2, False)], hold + 400)
    assert keys(out) == ["DOWN"] * 7
    gaps = [out[i + 1][0] - out[i][0] for i in range(1, len(out) - 1)]
    assert all(REPEAT_MS <= g <= REPEAT_MS + STEP for g in gaps), gaps


def test_ok_and_back_do_not_repeat():
    b, pins = make(SIX)
    assert keys(run(b, pins, [(100, 5, True), (3000, 5, False)], 3200)) == ["OK"]


def test_late_poll_does_not_burst():
    b, pins = make(SIX)
    pins[1].level = 0
    b.poll(0)
    assert b.poll(DEBOUNCE_MS) == ["UP"]
    assert b.poll(5000) == ["UP"]          # one repeat, not forty
    assert b.poll(5000 + REPEAT_MS - 10) == []
    assert b.poll(5000 + REPEAT_MS) == ["UP"]


CHORDED = [{"pin": 9, "short": "DOWN", "long": "OK"}, {"pin": 2, "short": "UP"},
           {"pin": 3, "short": "LEFT"}]
CHORDS = [{"pins": [9, 2], "key": "BACK"}]


def test_chord_emits_its_key_only():
    b, pins = make(CHORDED, CHORDS)
    out = run(b, pins, [(100, 9, True), (120, 2, True), (400, 2, False), (420, 9, False)], 900)
    assert keys(out) == ["BACK"]


def test_chord_partner_alone_still_works():
    b, pins = make(CHORDED, CHORDS)
    out = run(b, pins, [(100, 2, True), (200, 2, False)], 400)
    assert keys(out) == ["UP"]
    assert CHORD_MS <= out[0][0] - 100 <= CHORD_MS + STEP
    b, pins = make(CHORDED, CHORDS)
    assert keys(run(b, pins, [(100, 9, True), (150, 9, False)], 400)) == ["DOWN"]


def test_chord_pressed_late_is_not_a_chord():
    b, pins = make(CHORDED, CHORDS)
    out = run(b, pins, [(100, 9, True), (1000, 2, True), (1100, 2, False), (1200, 9, False)],
              1500)
    assert keys(out) == ["OK", "UP"]


def test_button_held_at_start_is_silent_until_pressed_again():
    pins = {}

    def factory(n):
        pins[n] = FakePin()
        pins[n].level = 0 if n == 5 else 1
        return pins[n]

    b = Buttons({"buttons": SIX, "active_low": True}, factory)
    assert b.held("OK")
    out = run(b, pins, [(300, 5, False), (600, 5, True), (700, 5, False)], 900)
    assert keys(out) == ["OK"] and out[0][0] > 600


def test_active_high_buttons():
    b, pins = make(SIX, active_low=False)
    out = run(b, pins, [(100, 6, True), (200, 6, False)], 300, active_low=False)
    assert keys(out) == ["BACK"]


def test_two_buttons_interleaved():
    b, pins = make(SIX)
    out = run(b, pins, [(100, 5, True), (110, 6, True), (200, 5, False), (210, 6, False)], 400)
    assert keys(out) == ["OK", "BACK"]


def test_long_press_and_repeat_across_the_clock_wrap():
    from fathom.hal.clock import MAX_TICKS, ticks_add
    start = ticks_add(MAX_TICKS, -300)   # the press begins 300 ms before the clock wraps
    pins = {}

    def factory(n):
        pins[n] = FakePin()
        return pins[n]

    b = Buttons({"buttons": [{"pin": 0, "short": "DOWN", "long": "OK"},
                             {"pin": 1, "short": "UP"}], "active_low": True}, factory, start)
    got = []
    for i in range(0, 1500, STEP):
        now = ticks_add(start, i)
        pins[0].level = 0 if i < 1000 else 1            # held 1 s: a long press
        pins[1].level = 0 if 100 <= i < 1100 else 1     # held 1 s: repeats
        for k in b.poll(now):
            got.append((i, k))
    assert [k for _, k in got if k == "OK"] == ["OK"]
    ups = [i for i, k in got if k == "UP"]
    # repeats while held, none once it is let go (1100)
    first = 100 + -(-PRESS_CONFIRM_MS // STEP) * STEP   # the first poll the press is confirmed at
    assert ups == [first] + list(range(100 + REPEAT_DELAY_MS, 1100, REPEAT_MS)), ups


def test_idle_poll_and_a_press_allocate_nothing():
    import sys
    if sys.implementation.name != "micropython":
        pytest.skip("heap_lock is MicroPython's")
    import micropython
    b, pins = make(SIX)
    b.poll(0)
    got = []
    micropython.heap_lock()
    try:
        t = 0
        while t < 400:  # not range(..., STEP): a non-literal step builds a range object
            t += STEP
            pins[2].level = 0 if 100 <= t < 200 else 1
            if b.poll(t):
                got.append(t)  # a new list has room for a few items: no allocation either
    finally:
        micropython.heap_unlock()
    assert len(got) == 1
