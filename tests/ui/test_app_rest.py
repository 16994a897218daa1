# An idle unit rests (firmware/fathom/app.py, App._rest / App.due): at the home menu with
# nothing running, the loop takes a step only when a key's edge or a frame wakes it or a timer
# is due, instead of one every LOOP_MS; a button in use is polled every loop again (debounce,
# long press, repeats), and nothing is drawn when nothing changed.
import pytest

from fathom.app import App, LOOP_MS, REST_MAX_MS, home_menu
from fathom.hal import clock
from fathom.hal.buttons import Buttons
from fathom.hal.display import SSD1306
from fathom.ui.screen import Screen
from kit.app import BUTTONS, CountingBus, Parts
from kit.memstore import MemStorage

pytestmark = pytest.mark.micropython


class IrqPin:
    """An input pin that interrupts at its edges, as a board's GPIO does (Pin.irq)."""

    def __init__(self):
        self.level = 1
        self.handler = None

    def value(self):
        return self.level

    def irq(self, handler=None, trigger=3):
        self.handler = handler

    def set(self, level):
        if level != self.level:
            self.level = level
            if self.handler is not None:
                self.handler(self)


def unit(link="uart"):
    pins = {}

    def factory(n):
        pins[n] = IrqPin()
        return pins[n]

    profile = {"name": "test", "buttons": BUTTONS, "active_low": True}
    bus = CountingBus()
    hw = Parts(profile, SSD1306(bus, 128, 64), Buttons(profile, factory, 0), MemStorage())
    app = App(hw)
    app.settings.values["link"] = link  # uart: the home menu does not listen for invitations
    app.push(home_menu(app))
    app.steps = 0   # the loops that took a step (the others rested)
    clock.woken()
    return app, pins, bus


def loop(app, now, ms, pins=None, press=None):
    """Run the loop for `ms` of loop time at LOOP_MS; `press` = (pin, down_at, up_at)."""
    for t in range(now, now + ms, LOOP_MS):
        if press is not None:
            pin, down, up = press
            pins[pin].set(0 if down <= t < up else 1)
        if app.due(t):
            app.steps += 1
            app.step(t)
    return now + ms


def test_an_idle_home_menu_steps_at_most_once_a_second_and_draws_nothing():
    app, pins, bus = unit()
    now = loop(app, 0, 100)
    steps, writes = app.steps, bus.writes
    now = loop(app, now, 10000)
    assert app.steps - steps <= 10000 // REST_MAX_MS + 1   # was one a loop: 1000
    assert bus.writes == writes                            # nothing changed, nothing sent


def test_a_key_wakes_the_resting_loop_and_is_polled_every_loop_while_held():
    app, pins, bus = unit()
    now = loop(app, 0, 2000)
    lines = app.top().lines()
    steps = app.steps
    # DOWN (pin 2) held 60 ms: every loop from the edge to the release is a step
    now = loop(app, now, 200, pins, (2, now + 5, now + 65))
    assert app.steps - steps >= 6
    assert app.top().lines() != lines                     # the cursor moved once
    steps = app.steps
    loop(app, now, 3000)
    assert app.steps - steps <= 4                        # at rest again


def test_a_long_press_still_becomes_its_long_key_while_the_loop_would_rest():
    app, pins, bus = unit()
    got = []
    app.top().key = got.append
    now = loop(app, 0, 2000)
    loop(app, now, 1500, pins, (6, now + 5, now + 1000))   # BACK held one second: no long key
    assert got == ["BACK"]


def test_a_screen_with_its_own_tick_and_no_wake_in_is_ticked_every_loop():
    app, pins, bus = unit()

    class Ticking(Screen):
        n = 0

        def tick(self, now):
            Ticking.n += 1
            return False

    app.push(Ticking(app))
    loop(app, 0, 1000)
    assert Ticking.n >= 99


def test_a_timer_a_screen_declares_is_kept_while_resting():
    app, pins, bus = unit()

    class Timer(Screen):
        at = []

        def tick(self, now):
            if now >= 2500 and not Timer.at:
                Timer.at.append(now)
                return True
            return False

        def wake_in(self, now):
            return max(0, 2500 - now) if not Timer.at else None

    app.push(Timer(app))
    loop(app, 0, 4000)
    assert Timer.at and 2500 <= Timer.at[0] <= 2500 + LOOP_MS
