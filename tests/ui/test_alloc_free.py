# The app loop at rest, and a cursor move in a menu, allocate nothing (heap_lock proves it under
# MicroPython): the loop runs every 10 ms for as long as the unit is on, so an allocation there
# is garbage the collector must chase forever. The real App, Menu, Buttons and SSD1306 driver;
# the bus under the driver is a counter, because the host's I2C twin decodes into a Python panel
# model (its own allocations are the emulator's, not the device's C driver's).
import sys

import pytest

from kit.app import locked, real_app
from fathom.hal.buttons import DEBOUNCE_MS
from fathom.ui.menu import Item, Menu

pytestmark = pytest.mark.micropython

MICROPYTHON = sys.implementation.name == "micropython"


def _app(cursor=0):
    app, pins, bus = real_app()
    chosen = []
    app.push(Menu(app, "fathom", [Item("Game %d" % i, chosen.append) for i in range(12)] +
                  [Item("Settings", None, True, "on"), Item("Later", None, False, "soon")],
                  cursor))
    app.redraw()
    return app, pins, bus


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

    locked(idle)
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

    locked(press)
    assert app.top().cursor == cursor
    assert bus.data - before == 2 * 128
    assert box[0] > DEBOUNCE_MS
