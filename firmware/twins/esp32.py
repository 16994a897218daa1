# Host twin of MicroPython's `esp32` module, its deep-sleep wake sources only, as each chip has
# them (MicroPython 1.28, ports/esp32/modesp32.c over ESP-IDF's esp_sleep): the ESP32 and the
# ESP32-S3 wake on an RTC GPIO's level (wake_on_ext0: one pin; wake_on_ext1: several); the
# ESP32-C3 has no RTC GPIO and no ext0/ext1, and wakes from deep sleep only on GPIO0-5
# (wake_on_gpio). The chip is the emulated unit's board's (FATHOM_CHIP, default esp32; "host" for the emulator's board); a call
# the chip does not have raises as its firmware would (no such function), a pin it cannot wake
# on raises ValueError. machine.deepsleep reads what was set (WAKE).
import os

WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True

_RTC32 = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39)
_SOURCES = {  # chip -> {call: the pins it takes}
    "esp32": {"ext0": _RTC32, "ext1": _RTC32},
    "esp32s3": {"ext0": tuple(range(22)), "ext1": tuple(range(22))},
    "esp32c3": {"gpio": tuple(range(6))},
    "host": {"ext0": tuple(range(64)), "ext1": tuple(range(64))},  # the emulator's own board
}
WAKE = {}   # call -> (pin numbers, level): what the next deep sleep wakes on
_chip = [None]  # set_chip's, over FATHOM_CHIP


def set_chip(c):
    """Tests: the chip whose wake sources this twin has (None: FATHOM_CHIP's); forgets WAKE."""
    _chip[0] = c
    WAKE.clear()


def chip():
    c = _chip[0] or os.getenv("FATHOM_CHIP") or "esp32"
    return c if c in _SOURCES else "esp32"


def _set(call, pins, level):
    ok = _SOURCES[chip()].get(call)
    if ok is None:
        raise AttributeError("'module' object has no attribute 'wake_on_%s' (%s)" % (call, chip()))
    nums = []
    for p in pins:
        n = getattr(p, "id", p)
        if n not in ok:
            raise ValueError("invalid pin for wake: %r on %s" % (n, chip()))
        nums.append(n)
    if nums:
        WAKE[call] = (tuple(nums), 1 if level else 0)
    else:
        WAKE.pop(call, None)


def wake_on_ext0(pin, level):
    _set("ext0", () if pin is None else (pin,), level)


def wake_on_ext1(pins, level):
    _set("ext1", pins or (), level)


def wake_on_gpio(pins, level):
    _set("gpio", pins or (), level)
