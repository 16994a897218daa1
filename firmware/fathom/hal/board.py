# Board profiles (boards/*.json) loaded and validated: every error names the field at fault.
import json

KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "HELP")   # HELP: a long BACK on every board
CHIPS = ("esp32", "esp32s3", "esp32c3", "host")
DRIVERS = ("ssd1306", "sh1106")
LINKS = ("espnow", "uart")
# The pins that can wake each chip from deep sleep (the profile's "wake" button): the ESP32's
# and the S3's RTC GPIOs (ext0/ext1), the C3's GPIO0-5 (its only deep-sleep wake, wake_on_gpio).
_RTC32 = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39)
WAKE_PINS = {"esp32": _RTC32, "esp32s3": tuple(range(22)), "esp32c3": tuple(range(6))}
# The CPU clocks, MHz, each chip's MicroPython port takes (machine.freq) at which its radio works
# (under 80 MHz the Wi-Fi's clock is gone): the profile's "cpu_mhz", the clock a lit unit runs
# at, set at boot (hal/hw.py); hal/speed.py lowers it to 80 while the panel rests.
CPU_MHZ = {"esp32": (80, 160, 240), "esp32s3": (80, 160, 240), "esp32c3": (80, 160)}
SIZES = ((128, 64), (128, 32), (72, 40))
RAM_COLUMNS = {"ssd1306": 128, "sh1106": 132}
RAM_ROWS = 64


class ProfileError(ValueError):
    pass


def _fail(field, msg):
    raise ProfileError("%s: %s" % (field, msg))


def _get(d, key, kind, where, required=True):
    field = where + key if where else key
    if key not in d:
        if required:
            _fail(field, "missing")
        return None
    v = d[key]
    # bool is an int subclass: keep true/false out of pin numbers and sizes
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        _fail(field, "expected an integer, got %r" % (v,))
    if kind is not int and not isinstance(v, kind):
        _fail(field, "expected %s, got %r" % (kind.__name__, v))
    return v


def _choice(d, key, options, where, required=True):
    v = _get(d, key, str, where, required)
    if v is not None and v not in options:
        _fail(where + key, "%r is not one of %s" % (v, ", ".join(options)))
    return v


def _display(d, pins):
    w = "display."
    drv = _choice(d, "driver", DRIVERS, w)
    width = _get(d, "width", int, w)
    height = _get(d, "height", int, w)
    if (width, height) not in SIZES:
        _fail("display.width", "%dx%d is not supported (%s)" % (
            width, height, ", ".join("%dx%d" % s for s in SIZES)))
    for k in ("i2c", "addr", "freq", "col_offset", "row_offset"):
        if _get(d, k, int, w) < 0:
            _fail(w + k, "must not be negative")
    _get(d, "flip", bool, w)
    if d["col_offset"] + width > RAM_COLUMNS[drv]:
        _fail("display.col_offset", "%d + width %d exceeds the %s's %d columns" % (
            d["col_offset"], width, drv, RAM_COLUMNS[drv]))
    if d["row_offset"] + height > RAM_ROWS:
        _fail("display.row_offset", "%d + height %d exceeds %d rows" % (
            d["row_offset"], height, RAM_ROWS))
    for k in ("sda", "scl", "rst", "vext"):
        p = _get(d, k, int, w, k in ("sda", "scl"))
        if p is not None:
            _claim(pins, p, w + k)
    if _get(d, "vext_on", int, w, False) not in (None, 0, 1):
        _fail("display.vext_on", "must be 0 or 1")


def _claim(pins, pin, field):
    if pin < 0:
        _fail(field, "must not be negative")
    if pin in pins:
        _fail(field, "duplicate pin %d (already %s)" % (pin, pins[pin]))
    pins[pin] = field


def _buttons(lst, pins):
    if not lst:
        _fail("buttons", "needs at least one button")
    mine = []
    for i, b in enumerate(lst):
        w = "buttons[%d]." % i
        if not isinstance(b, dict):
            _fail("buttons[%d]" % i, "expected an object")
        _claim(pins, _get(b, "pin", int, w), w + "pin")
        _choice(b, "short", KEYS, w)
        _choice(b, "long", KEYS, w, False)
        mine.append(b["pin"])
    return mine


def _chords(lst, buttons):
    for i, c in enumerate(lst):
        w = "chords[%d]." % i
        if not isinstance(c, dict):
            _fail("chords[%d]" % i, "expected an object")
        ps = _get(c, "pins", list, w)
        if len(ps) != 2 or ps[0] == ps[1]:
            _fail(w + "pins", "needs two different pins")
        for p in ps:
            if p not in buttons:
                _fail(w + "pins", "pin %r is not a button" % (p,))
        _choice(c, "key", KEYS, w)


def _battery(b, pins, wake):
    # the cell read through a divider on an ADC pin, switched on by "enable" at "enable_on"
    w = "battery."
    _claim(pins, _get(b, "adc", int, w), "battery.adc")
    r = b.get("ratio")
    if isinstance(r, bool) or not isinstance(r, (int, float)) or r < 1:
        _fail("battery.ratio", "expected the divider's ratio (cell / pin voltage, >= 1), got %r"
              % (r,))
    en = _get(b, "enable", int, w, False)
    if en is not None:
        _claim(pins, en, "battery.enable")
        if _get(b, "enable_on", int, w) not in (0, 1):
            _fail("battery.enable_on", "expected 0 or 1")
    if wake is None:
        _fail("battery", "an empty cell turns the unit off: the profile needs a wake button")


def validate(p):
    if not isinstance(p, dict):
        raise ProfileError("profile: expected an object")
    _get(p, "name", str, "")
    _get(p, "title", str, "")
    chip = _choice(p, "chip", CHIPS, "")
    _choice(p, "link", LINKS, "")
    _get(p, "active_low", bool, "")
    pins = {}
    _display(_get(p, "display", dict, ""), pins)
    u = _get(p, "uart", dict, "")
    for k in ("id", "tx", "rx", "baud"):
        _get(u, k, int, "uart.")
    _claim(pins, u["tx"], "uart.tx")
    _claim(pins, u["rx"], "uart.rx")
    buttons = _buttons(_get(p, "buttons", list, ""), pins)
    _chords(_get(p, "chords", list, "", False) or [], buttons)
    wake = _get(p, "wake", int, "", False)
    if wake is not None:
        if wake not in buttons:
            _fail("wake", "pin %r is not a button" % (wake,))
        if chip in WAKE_PINS and wake not in WAKE_PINS[chip]:
            _fail("wake", "pin %r cannot wake an %s from deep sleep (it can: %s)" % (
                wake, chip, ", ".join(str(n) for n in WAKE_PINS[chip])))
    mhz = _get(p, "cpu_mhz", int, "", False)
    if mhz is not None and mhz not in CPU_MHZ.get(chip, ()):
        _fail("cpu_mhz", "%d MHz is not a clock the %s runs at (%s)" % (
            mhz, chip, ", ".join(str(n) for n in CPU_MHZ.get(chip, ())) or "none: it keeps its own"))
    b = _get(p, "battery", dict, "", False)
    if b is not None:
        _battery(b, pins, wake)
    real = chip != "host"
    for k in ("flash_offset", "flash_baud"):
        v = _get(p, k, int, "", real)
        if v is not None and v < 0:
            _fail(k, "must not be negative")
    fw = _get(p, "firmware", dict, "", real)
    if fw is not None:
        _get(fw, "board", str, "firmware.")
        _get(fw, "url", str, "firmware.")
    return p


def load_profile(src):
    """A validated profile dict from a dict or a JSON file path; ProfileError names the field."""
    if not isinstance(src, str):
        return validate(src)
    try:
        with open(src) as f:
            data = json.load(f)
    except OSError:
        raise ProfileError("%s: cannot read the profile file" % (src,))
    except ValueError as e:
        raise ProfileError("%s: not valid JSON (%s)" % (src, e))
    return validate(data)
