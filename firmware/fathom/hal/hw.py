# Builds the hardware layer from a board profile. The same code drives a real board and, under
# the unix port, the twins in firmware/twins (machine.I2C decodes into a panel model there).
import machine

from fathom.hal import buttons, clock, display, storage

from fathom.compat import const

_VEXT_SETTLE_MS = const(50)   # OLED supply ramp before the controller listens
_RESET_LOW_MS = const(10)     # SSD1306 needs >= 3 us; generous for slow-rising boards
_RESET_WAIT_MS = const(10)


class Hardware:
    """What build() returns: .profile .i2c .display .buttons .storage, and .power_pins (kept
    so Vext/RST stay driven). No methods on purpose: a method would keep this module's globals
    (build and all) alive for as long as the unit runs, and boot drops the module once built."""


def _power_up(d):
    pins = []
    if d.get("vext") is not None:
        pins.append(machine.Pin(d["vext"], machine.Pin.OUT, value=d.get("vext_on", 0)))
        clock.sleep_ms(_VEXT_SETTLE_MS)
    if d.get("rst") is not None:
        rst = machine.Pin(d["rst"], machine.Pin.OUT, value=1)
        clock.sleep_ms(1)
        rst.value(0)
        clock.sleep_ms(_RESET_LOW_MS)
        rst.value(1)
        clock.sleep_ms(_RESET_WAIT_MS)
        pins.append(rst)
    return pins


def build(profile, storage_root, validated=False):
    """Hardware for a profile (dict or JSON path): .profile .display .buttons .storage."""
    if validated:
        p = profile
    else:
        from fathom.hal import board  # the validator is needed once, at boot
        p = board.load_profile(profile)
    mhz = p.get("cpu_mhz")
    if mhz:
        # the clock a lit unit runs at (its chip's top one in the shipped profiles: the press
        # path's Python is most of a move's time); MicroPython boots at 160 MHz
        machine.freq(mhz * 1000000)
    d = p["display"]
    power = _power_up(d)
    add_panel = getattr(machine, "add_panel", None)
    if add_panel is not None:
        # host twin only: fit the bus with the glass the profile describes, unless a test or the
        # emulator already put a different one there
        add_panel(d["addr"], d["driver"], d["width"], d["height"], d["col_offset"],
                  d["row_offset"], d["flip"])
    i2c = machine.I2C(d["i2c"], scl=machine.Pin(d["scl"]), sda=machine.Pin(d["sda"]),
                      freq=d["freq"])
    disp = display.make_display(d, i2c)
    pull = machine.Pin.PULL_UP if p["active_low"] else getattr(machine.Pin, "PULL_DOWN", None)

    def pin_factory(n):
        return machine.Pin(n, machine.Pin.IN, pull)

    hw = Hardware()
    hw.profile = p
    hw.i2c = i2c
    hw.display = disp
    hw.buttons = buttons.Buttons(p, pin_factory, clock.now_ms())  # the clock App.step polls with
    hw.storage = storage.Storage(storage_root)
    hw.power_pins = power
    return hw
