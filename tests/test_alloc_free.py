# The app loop at rest, and a cursor move in a menu, allocate nothing (heap_lock proves it under
# MicroPython): the loop runs every 10 ms for as long as the unit is on, so an allocation there
# is garbage the collector must chase forever. The real App, Menu, Buttons and SSD1306 driver;
# the bus under the driver is a counter, because the host's I2C twin decodes into a Python panel
# model (its own allocations are the emulator's, not the device's C driver's).
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
try:
    import framebuf  # noqa: F401
except ImportError:  # CPython: the pure-Python stand-in
    sys.path.insert(0, _FW.rsplit("/", 1)[0] + "/tests/cpython_shims")

from fathom.app import App  # noqa: E402
from fathom.hal.buttons import DEBOUNCE_MS, Buttons  # noqa: E402
from fathom.hal.display import SSD1306  # noqa: E402
from fathom.ui.menu import Item, Menu  # noqa: E402
from memstore import MemStorage  # noqa: E402

pytestmark = pytest.mark.micropython

MICROPYTHON = sys.implementation.name == "micropython"
BUTTONS = [{"pin": 1, "short": "UP"}, {"pin": 2, "short": "DOWN"}, {"pin": 5, "short": "OK"},
           {"pin": 6, "short": "BACK"}]


class CountingBus:
    def __init__(self):
        self.writes = 0
        self.data = 0

    def writeto(self, addr, buf):
        self.writes += 1

    def writevto(self, addr, bufs):
        self.writes += 1
        self.data += len(bufs[1])


class Parts:
    """What hal.hw.build returns, from parts made here (hw.py itself imports machine)."""

    def __init__(self, profile, display, buttons, storage):
        self.profile = profile
        self.display = display
        self.buttons = buttons
        self.storage = storage


class Pin:
    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


def _app(cursor=0):
    pins = {}

    def factory(n):
        pins[n] = Pin()
        return pins[n]

    profile = {"name": "test", "buttons": BUTTONS, "active_low": True}
    bus = CountingBus()
    hw = Parts(profile, SSD1306(bus, 128, 64), Buttons(profile, factory, 0), MemStorage())
    app = App(hw)
    chosen = []
    app.push(Menu(app, "fathom", [Item("Game %d" % i, chosen.append) for i in range(12)] +
                  [Item("Settings", None, True, "on"), Item("Later", None, False, "soon")],
                  cursor))
    app.redraw()
    return app, pins, bus


def _locked(fn):
    if not MICROPYTHON:
        fn()  # CPython: the same steps, checked for behaviour only
        return
    import micropython
    micropython.heap_lock()
    try:
        fn()
    finally:
        micropython.heap_unlock()


def test_idle_loop_allocates_nothing():
    app, pins, bus = _app()
    before = bus.writes
    box = [10]

    def idle():
        n = 0
        while n < 50:
            n += 1
            box[0] += 10
            app.step(box[0])

    _locked(idle)
    assert bus.writes == before  # nothing changed, nothing sent


# The bar moves within the window: two whole pages change, sent from vectors made once. (A
# scroll changes narrower spans of text, and each such span slices one small memoryview.)
@pytest.mark.parametrize("key_pin, start, cursor", [(2, 0, 1), (1, 3, 2)])
def test_a_cursor_move_in_a_menu_allocates_nothing(key_pin, start, cursor):
    app, pins, bus = _app(start)
    app.step(10)
    before = bus.data
    box = [10]
    pin = pins[key_pin]

    def press():
        n = 0
        while n < 20:  # down for 100 ms, up for 100 ms: one short press
            n += 1
            box[0] += 10
            pin.level = 0 if n <= 10 else 1
            app.step(box[0])

    _locked(press)
    assert app.top().cursor == cursor
    assert bus.data - before == 2 * 128
    assert box[0] > DEBOUNCE_MS
