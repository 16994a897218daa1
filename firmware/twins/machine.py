# Host twin of MicroPython's `machine` for the emulator and the tests. firmware/twins goes first on
# sys.path, so `import machine` finds this file and the real drivers run unchanged against it:
#  - I2C decodes the SSD1306/SH1106 command stream into a Panel (display RAM + controller state)
#    and Panel.visible() shows what a viewer would see on the glass;
#  - Pin inputs are driven by the host (pin_set, pin_script); outputs remember their level;
#  - reset()/soft_reset() exit the process with RESET_EXIT / SOFT_RESET_EXIT, and the emulator
#    restarts the unit (SystemExit passes through the firmware's `except Exception`).
import os
import sys

try:
    from fathom.hal.clock import ticks_ms as _clock_ms, ticks_diff, sleep_ms
except ImportError:  # twins used without the firmware on the path
    import time
    _clock_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    sleep_ms = time.sleep_ms

try:
    from uart_twin import UART  # noqa: F401  (written alongside the link twins)
except ImportError:
    pass

try:  # the 32-bit runtimes' probe (host_tools/fathom_host/probe)
    from fathomprobe import hold as _hold
except ImportError:
    def _hold(flag):
        pass

RESET_EXIT = 75
SOFT_RESET_EXIT = 76
DEEPSLEEP_EXIT = 77   # machine.deepsleep(): the unit is off until its wake pin restarts it
DEEPSLEEP_RESET = 4
PWRON_RESET = 1
SOFT_RESET = 5
ENODEV = 19

PANELS = {}      # I2C address -> Panel on the (single, shared) host bus
PINS = {}        # pin id -> _PinState

try:
    import adc_twin
    from adc_twin import ADC  # noqa: F401  (the battery gauge's pin and divider)
    adc_twin.PINS = PINS
except ImportError:
    pass
_listeners = []
_ticks = [_clock_ms]


def set_ticks(fn):
    """Use fn() as the clock for pin scripts (tests pass a fake clock)."""
    _ticks[0] = fn or _clock_ms


def on_panel_update(fn):
    """fn(addr, panel) runs after each I2C transaction that changed what a panel shows."""
    _listeners.append(fn)


def reset_twins():
    """Forget panels, pins and listeners (test isolation)."""
    PANELS.clear()
    PINS.clear()
    del _listeners[:]
    _ticks[0] = _clock_ms
    _freq[0] = BOOT_FREQ
    del FREQ_LOG[:]


# ---- display panel ------------------------------------------------------------------------

_ARGS_SSD1306 = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                 0xDA: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5,
                 0x2A: 5}
_ARGS_SH1106 = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1}


class Panel:
    """One OLED module: a controller (ssd1306 | sh1106) and the glass wired to it.

    col_offset and row_offset describe the glass the way a board profile does: the RAM column of
    the left edge with the segments remapped (A1), and the first COM line the glass is wired to.
    mounted_flip is a glass fitted upside down (LOLIN32 OLED).
    """

    def __init__(self, kind="ssd1306", width=128, height=64, col_offset=0, row_offset=0,
                 mounted_flip=False):
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError("panel kind %r" % (kind,))
        self.kind = kind
        self.ncols = 132 if kind == "sh1106" else 128
        self.width = width
        self.height = height
        self.seg0 = self.ncols - width - col_offset   # first segment wired to the glass
        self.com0 = row_offset                        # first COM line wired to the glass
        self.mounted_flip = mounted_flip
        self.com_pins_wired = 0x02 if width > 2 * height else 0x12
        self.ram = bytearray(8 * self.ncols)           # page-major: ram[page * ncols + col]
        # the glass image shipped to the host, made once: shipping a screen must not take a
        # fresh KB from the unit's heap (the twin would fail a 96 KB unit, not the firmware)
        self.glass = bytearray(((height + 7) // 8) * width)
        self.bytes_written = 0
        self.data_bytes = 0
        self.transactions = 0
        self.unknown = []                              # opcodes this controller ignores
        self.power_on_reset()

    def power_on_reset(self):
        self.on = False
        self.contrast = 0x7F
        self.inverse = False
        self.entire_on = False
        self.mode = 2                 # page addressing
        self.col = 0
        self.page = 0
        self.col_start, self.col_end = 0, self.ncols - 1
        self.page_start, self.page_end = 0, 7
        self.start_line = 0
        self.seg_remap = False
        self.com_reversed = False
        self.mux = 64
        self.offset = 0
        self.com_pins = 0x12
        self.pump = self.kind == "sh1106"   # SH1106 DC-DC / external VPP is on by default
        self._cmd = None
        self._args = []

    # -- command decoding --------------------------------------------------------------------

    def command(self, b):
        if self._cmd is not None:
            self._args.append(b)
            table = _ARGS_SH1106 if self.kind == "sh1106" else _ARGS_SSD1306
            if len(self._args) == table[self._cmd]:
                cmd, args = self._cmd, self._args
                self._cmd, self._args = None, []
                self._with_args(cmd, args)
            return
        table = _ARGS_SH1106 if self.kind == "sh1106" else _ARGS_SSD1306
        if b in table:
            self._cmd = b
            return
        if b <= 0x0F:
            self.col = (self.col & 0xF0) | b
        elif b <= 0x1F:
            self.col = (self.col & 0x0F) | ((b & 0x0F) << 4)
        elif 0x40 <= b <= 0x7F:
            self.start_line = b & 0x3F
        elif b in (0xAE, 0xAF):
            self.on = b == 0xAF
        elif b in (0xA6, 0xA7):
            self.inverse = b == 0xA7
        elif b in (0xA4, 0xA5):
            self.entire_on = b == 0xA5
        elif b in (0xA0, 0xA1):
            self.seg_remap = b == 0xA1
        elif b in (0xC0, 0xC8):
            self.com_reversed = b == 0xC8
        elif 0xB0 <= b <= 0xB7:
            self.page = b & 7
        elif b in (0x2E, 0x2F) and self.kind == "ssd1306":
            pass  # scrolling is never used by the firmware; decoded so it is not "unknown"
        elif 0x30 <= b <= 0x33 and self.kind == "sh1106":
            pass  # pump voltage
        elif b in (0xE3, 0xE0, 0xEE):
            pass  # NOP, read-modify-write start/end
        else:
            self.unknown.append(b)

    def _with_args(self, cmd, a):
        if cmd == 0x81:
            self.contrast = a[0]
        elif cmd == 0x20:
            self.mode = a[0] & 3
        elif cmd == 0x21:
            self.col_start, self.col_end = a[0] & 0x7F, a[1] & 0x7F
            self.col = self.col_start
        elif cmd == 0x22:
            self.page_start, self.page_end = a[0] & 7, a[1] & 7
            self.page = self.page_start
        elif cmd == 0xA8:
            self.mux = (a[0] & 0x3F) + 1
        elif cmd == 0xD3:
            self.offset = a[0] & 0x3F
        elif cmd == 0xDA:
            self.com_pins = a[0] & 0x32
        elif cmd == 0x8D:
            self.pump = bool(a[0] & 0x04)
        elif cmd == 0xAD and self.kind == "sh1106":
            self.pump = bool(a[0] & 0x01)

    def data(self, b):
        if self.col < self.ncols:
            self.ram[self.page * self.ncols + self.col] = b
        if self.kind == "sh1106" or self.mode == 2:
            # page mode: SSD1306 wraps within the page, SH1106 stops at the last column
            self.col += 1
            if self.kind == "ssd1306" and self.col > self.col_end:
                self.col = self.col_start
        elif self.mode == 0:
            self.col += 1
            if self.col > self.col_end:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start
        else:
            self.page += 1
            if self.page > self.page_end:
                self.page = self.page_start
                self.col = self.col + 1 if self.col < self.col_end else self.col_start

    def transaction(self, buf):
        """Decode one I2C write (control bytes, commands, data); True if the view changed."""
        self.transactions += 1
        self.bytes_written += len(buf)
        before = (self.on, self.inverse, self.entire_on, self.seg_remap, self.com_reversed,
                  self.mux, self.offset, self.start_line, self.pump, self.com_pins)
        wrote = False
        i, n = 0, len(buf)
        while i < n:
            ctrl = buf[i]
            i += 1
            is_data = ctrl & 0x40
            count = 1 if ctrl & 0x80 else n - i   # Co=1: one byte, then another control byte
            for b in buf[i:i + count]:
                if is_data:
                    self.data(b)
                    self.data_bytes += 1
                    wrote = True
                else:
                    self.command(b)
            i += count
        after = (self.on, self.inverse, self.entire_on, self.seg_remap, self.com_reversed,
                 self.mux, self.offset, self.start_line, self.pump, self.com_pins)
        return wrote or before != after

    # -- what the glass shows ----------------------------------------------------------------

    def lit(self):
        return self.on and self.pump

    def _ram_col(self, x):
        seg = self.seg0 + (self.width - 1 - x)
        return self.ncols - 1 - seg if self.seg_remap else seg

    def _ram_row(self, y):
        com = self.com0 + (self.height - 1 - y)
        if self.com_pins != self.com_pins_wired:
            com = (com * 2) % 64 + (com * 2) // 64   # wrong COM pin layout: rows interleave
        r = self.mux - 1 - com if self.com_reversed else com
        if r < 0 or r >= self.mux:
            return None   # that COM line is not driven
        return (r + self.start_line + self.offset) % 64

    def pixel(self, x, y):
        """1 if the viewer sees pixel (x, y) lit."""
        if not self.lit():
            return 0
        if self.mounted_flip:
            x, y = self.width - 1 - x, self.height - 1 - y
        row = self._ram_row(y)
        if row is None:
            return 0
        if self.entire_on:
            on = 1
        else:
            on = (self.ram[(row >> 3) * self.ncols + self._ram_col(x)] >> (row & 7)) & 1
        return on ^ (1 if self.inverse else 0)

    def visible(self):
        """The glass as a MONO_VLSB buffer (width x height), comparable with a framebuf."""
        return bytes(self.render())

    def render(self):
        """visible() drawn into self.glass, allocating nothing."""
        w = self.width
        out = self.glass
        for i in range(len(out)):
            out[i] = 0
        if self.lit():
            for y in range(self.height):
                bit = 1 << (y & 7)
                base = (y >> 3) * w
                for x in range(w):
                    if self.pixel(x, y):
                        out[base + x] |= bit
        return out

    def rows(self, on="#", off="."):
        """The glass as text, one string per row (for failure messages and the terminal)."""
        v = self.visible()
        w = self.width
        return ["".join(on if v[(y >> 3) * w + x] >> (y & 7) & 1 else off for x in range(w))
                for y in range(self.height)]


def add_panel(addr, kind="ssd1306", width=128, height=64, col_offset=0, row_offset=0,
              mounted_flip=False, replace=False):
    """Put a panel on the host I2C bus (kept if one is there already, unless replace)."""
    if replace or addr not in PANELS:
        _hold(1)  # the display RAM is the controller's, not the board's heap
        try:
            PANELS[addr] = Panel(kind, width, height, col_offset, row_offset, mounted_flip)
        finally:
            _hold(0)
    return PANELS[addr]


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq

    def init(self, scl=None, sda=None, freq=400000):
        self.freq = freq

    def scan(self):
        return sorted(PANELS)

    def _panel(self, addr):
        p = PANELS.get(addr)
        if p is None:
            raise OSError(ENODEV)   # what a real bus reports when nobody acknowledges
        return p

    def _write(self, addr, buf):
        p = self._panel(addr)
        if p.transaction(buf):
            for fn in _listeners:
                fn(addr, p)
        return len(buf)

    # A board's I2C driver writes from the caller's buffers in C: the twin's copies and its
    # decoding are held out of the 32-bit runtime's allocation and stack counts.
    def writeto(self, addr, buf, stop=True):
        _hold(1)
        try:
            return self._write(addr, bytes(buf))
        finally:
            _hold(0)

    def writevto(self, addr, vector, stop=True):
        _hold(1)
        try:
            return self._write(addr, b"".join(bytes(v) for v in vector))
        finally:
            _hold(0)

    def readfrom_into(self, addr, buf, stop=True):
        p = self._panel(addr)
        status = 0 if p.on else 0x40   # SSD1306 status byte: bit 6 = display off
        for i in range(len(buf)):
            buf[i] = status

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        self.readfrom_into(addr, buf)
        return bytes(buf)


SoftI2C = I2C


# ---- pins -----------------------------------------------------------------------------------

class _PinState:
    def __init__(self):
        self.mode = None
        self.pull = None
        self.level = None     # output level, or the host-set input level
        self.script = None    # (start_ms, [(level, hold_ms), ...])
        self.watch = None     # called at every read of an input pin, before the level is
        #                       taken: a finger that lifts when its time is up (twins/hub.py)
        self.writes = []      # output levels in order (Vext, RST pulses)
        self.irq = None       # (handler, trigger, Pin): called at an edge the host makes


def _state(pin_id):
    s = PINS.get(pin_id)
    if s is None:
        s = PINS[pin_id] = _PinState()
    return s


def pin_set(pin_id, level):
    """Host drives an input pin to a level (cancels any script)."""
    s = _state(pin_id)
    s.script = None
    old = s.level if s.level is not None else (1 if s.pull == Pin.PULL_UP else 0)
    s.level = 1 if level else 0
    _edge(s, old, s.level)


def _edge(s, old, new):
    # A board's GPIO interrupt for the edge, run as MicroPython runs a soft Pin.irq handler:
    # between two statements, which the host's call to pin_set is.
    if s.irq is None or old == new:
        return
    handler, trigger, pin = s.irq
    if trigger & (Pin.IRQ_RISING if new else Pin.IRQ_FALLING):
        handler(pin)


def pin_watch(pin_id, fn):
    """fn() runs at every read of the input pin (it may pin_set it): the level then follows
    the clock at the moment of the read, as a real pin does, not the last time the host's
    code ran."""
    _state(pin_id).watch = fn


def pin_script(pin_id, segments):
    """Play [(level, hold_ms), ...] on an input pin from now; the last level then stays.

    A press of an active-low button is [(0, 80), (1, 0)].
    """
    s = _state(pin_id)
    s.script = (_ticks[0](), list(segments))


def pin_writes(pin_id):
    """Levels the firmware wrote to an output pin, oldest first."""
    return list(_state(pin_id).writes)


def _input_level(s):
    if s.watch is not None:
        s.watch()
    if s.script is not None:
        t = ticks_diff(_ticks[0](), s.script[0])
        level = None
        for level, hold in s.script[1]:
            if t < hold:
                return level
            t -= hold
        if level is not None:
            return level
    if s.level is not None:
        return s.level
    return 1 if s.pull == Pin.PULL_UP else 0


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self._s = _state(id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        s = self._s
        if mode != -1:
            s.mode = mode
        if pull != -1:
            s.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        s = self._s
        if v is None:
            if s.mode in (Pin.OUT, Pin.OPEN_DRAIN) and s.script is None:
                return s.level or 0
            return _input_level(s)
        s.level = 1 if v else 0
        s.writes.append(s.level)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3):
        """An edge interrupt on an input pin: handler(pin) is scheduled at each edge the host
        makes (pin_set; a pin_script's levels change with no one to see them, as a test's
        scripted pin is read by polling)."""
        self._s.irq = None if handler is None else (handler, trigger, self)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


# ---- the rest of the module surface the firmware touches -------------------------------------

BOOT_FREQ = 160000000   # MicroPython's default CPU clock on the ESP32, S3 and C3
_freq = [BOOT_FREQ]
FREQ_LOG = []           # every clock set, as the hardware would run it (tests read it)
# The clocks each chip's port takes (MicroPython 1.28, ports/esp32/modmachine.c): the C3 has no
# 240 MHz. The chip is the esp32 twin's (FATHOM_CHIP, or a test's set_chip).
_FREQS = (20000000, 40000000, 80000000, 160000000, 240000000)
_FREQS_C3 = (20000000, 40000000, 80000000, 160000000)


def freq(hz=None):
    """machine.freq as the ESP32 port has it: the clocks it takes, ValueError for another."""
    if hz is None:
        return _freq[0]
    import esp32
    if esp32.chip() == "esp32c3":
        if hz not in _FREQS_C3:
            raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz or 160MHz")
    elif hz not in _FREQS:
        raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz, 160MHz or 240MHz")
    _freq[0] = hz
    FREQ_LOG.append(hz)


def unique_id():
    """6 bytes like a MAC, stable per emulated unit (FATHOM_UNIT names the unit)."""
    import hashlib
    name = os.getenv("FATHOM_UNIT") or "0"
    return hashlib.sha256(b"fathom-unit:" + name.encode()).digest()[:6]


def reset():
    sys.exit(RESET_EXIT)


def soft_reset():
    sys.exit(SOFT_RESET_EXIT)


def deepsleep(ms=None):
    """Deep sleep: the chip stops, and wakes only by a reset. The twin checks that a wake
    source was set (esp32.WAKE: a unit with none would sleep for ever), says on the console
    what wakes it, and exits with DEEPSLEEP_EXIT: the host restarts the unit as the wake
    button would (host_tools/fathom_host/emulator: Unit.start)."""
    import esp32
    if not esp32.WAKE and ms is None:
        raise ValueError("deepsleep with no wake source: the unit would never wake")
    print("fathom: deep sleep, wakes on %r" % (sorted(esp32.WAKE.items()),))
    if on_deepsleep is not None:
        on_deepsleep()   # a test in one process: it cannot let the process end
    hub = sys.modules.get("hub")
    if hub is not None:
        hub.poll()       # the emulator sees the panel as the chip left it: off
    sys.exit(DEEPSLEEP_EXIT)


on_deepsleep = None


def reset_cause():
    return PWRON_RESET


def idle():
    sleep_ms(1)   # a real idle waits for an interrupt; the host just yields the CPU


def disable_irq():
    return 0


def enable_irq(state=0):
    return None
