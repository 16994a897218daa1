# The real App (fathom/app.py) on parts made here, for tests that boot the unit's own screens:
# its SSD1306 driver over a bus that only counts (the host's I2C twin would decode into a
# Python panel model, whose allocations are the emulator's), Buttons on Pins the test sets, and
# real Storage in a scratch folder. What hal.hw.build returns on a board, without `machine`.
import sys

from fathom.app import App
from fathom.hal.buttons import Buttons
from fathom.hal.display import SSD1306
from kit.memstore import MemStorage

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


def real_app(storage=None, size=(128, 64)):
    """(app, pins by number, bus): an App with nothing pushed yet, on a panel of `size`."""
    pins = {}

    def factory(n):
        pins[n] = Pin()
        return pins[n]

    profile = {"name": "test", "buttons": BUTTONS, "active_low": True}
    bus = CountingBus()
    hw = Parts(profile, SSD1306(bus, size[0], size[1]), Buttons(profile, factory, 0),
               storage or MemStorage())
    return App(hw), pins, bus


def locked(fn):
    """Run fn with the heap locked under MicroPython (an allocation raises MemoryError); on
    CPython the same steps run unlocked, checked for behaviour only."""
    if sys.implementation.name != "micropython":
        fn()
        return
    import micropython
    micropython.heap_lock()
    try:
        fn()
    finally:
        micropython.heap_unlock()
