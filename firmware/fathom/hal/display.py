# SSD1306 / SH1106 OLED driver over machine.I2C: draws through framebuf, and show() sends only
# the bytes of each page that changed since the last show, so a cursor move costs a few dozen
# bytes on the bus instead of the whole 1 KB frame.
import framebuf

from fathom.compat import const

# Command bytes, shared by both controllers unless noted.
_CONTRAST = const(0x81)        # + 1 byte, 0..255
_FOLLOW_RAM = const(0xA4)      # A5 would light every pixel
_NORMAL = const(0xA6)          # A7 inverts
_OFF = const(0xAE)             # AF turns the panel on
_SEG_REMAP = const(0xA0)       # | 1: column 0 drives the last segment
_MUX = const(0xA8)             # + rows - 1
_COM_SCAN = const(0xC0)        # | 8: scan COM[N-1] -> COM0
_DISP_OFFSET = const(0xD3)     # + 1 byte
_CLOCK = const(0xD5)           # + divide ratio / oscillator
_PRECHARGE = const(0xD9)       # + phase lengths in DCLKs
_COM_PINS = const(0xDA)        # + 0x02 sequential / 0x12 alternative
_VCOMH = const(0xDB)           # + deselect level
_START_LINE = const(0x40)      # | line 0..63
_PAGE = const(0xB0)            # | page 0..7
_COL_LO = const(0x00)          # | low nibble of the column
_COL_HI = const(0x10)          # | high nibble of the column
_MEM_MODE = const(0x20)        # SSD1306 + 0 horizontal, 1 vertical, 2 page
_CHARGE_PUMP = const(0x8D)     # SSD1306 + 0x14 on (internal VCC)
_NO_SCROLL = const(0x2E)       # SSD1306
_IREF = const(0xAD)            # SSD1306 0.42" glass: + 0x30 internal current reference
_DCDC = const(0xAD)            # SH1106 + 0x8B DC-DC on (same opcode, other chip)

_RAM_ROWS = const(64)
_CTRL_CMD = const(0x00)        # control byte: a stream of commands follows
_DATA = b"\x40"                # control byte: a stream of display data follows
_COUNT_WRAP = const(1 << 29)   # bytes_sent wraps here so it stays a small int (no allocation)


class _Oled(framebuf.FrameBuffer):
    RAM_COLUMNS = 128

    def __init__(self, i2c, width, height, addr=0x3C, col_offset=0, row_offset=0, flip=False,
                 contrast=0xCF):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.col_offset = col_offset
        self.row_offset = row_offset
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._shadow = bytearray(len(self.buffer))
        mv = memoryview(self.buffer)
        sv = memoryview(self._shadow)
        self._rows = [mv[p * width:(p + 1) * width] for p in range(self.pages)]
        self._srows = [sv[p * width:(p + 1) * width] for p in range(self.pages)]
        # One write vector per page, made once: a whole-page update (what a menu's cursor bar
        # changes) then allocates nothing. Only a narrow span slices a fresh memoryview.
        self._whole = [(_DATA, r) for r in self._rows]
        self._addr_cmd = bytearray(4)  # control, page, column low, column high
        self.bytes_sent = 0            # everything written to the bus, for the bench
        self.flipped = flip
        self._contrast = contrast
        self.init_display()

    # -- bus ---------------------------------------------------------------------------------

    def write_cmds(self, cmds):
        self.i2c.writeto(self.addr, bytes([_CTRL_CMD]) + bytes(cmds))
        self._count(len(cmds) + 1)

    def _count(self, n):
        n += self.bytes_sent
        self.bytes_sent = n - _COUNT_WRAP if n >= _COUNT_WRAP else n

    def _write_span(self, page, a, b):
        col = self._col + a
        c = self._addr_cmd
        c[0] = _CTRL_CMD
        c[1] = _PAGE | page
        c[2] = _COL_LO | (col & 0x0F)
        c[3] = _COL_HI | (col >> 4)
        self.i2c.writeto(self.addr, c)
        if b - a == self.width:
            self.i2c.writevto(self.addr, self._whole[page])
        else:
            self.i2c.writevto(self.addr, (_DATA, self._rows[page][a:b]))
        self._count(5 + b - a)

    # -- set-up ------------------------------------------------------------------------------

    def _geometry(self):
        # Remapped segments mirror the whole RAM width, so a flipped panel's window starts at
        # the other end (u8g2's flipmode offset). The glass sits on COM lines row_offset..;
        # driving exactly that many lines and moving the start line keeps RAM row 0 on the
        # glass's top row in both orientations, so show() never shifts bits between pages.
        mux = self.row_offset + self.height
        if self.flipped:
            self._col = self.RAM_COLUMNS - self.width - self.col_offset
            start = (_RAM_ROWS - self.row_offset) % _RAM_ROWS
        else:
            self._col = self.col_offset
            start = 0
        return (_SEG_REMAP | (0 if self.flipped else 1), _COM_SCAN | (0 if self.flipped else 8),
                _MUX, mux - 1, _DISP_OFFSET, 0, _START_LINE | start)

    def _power_cmds(self):
        return ()

    def init_display(self):
        com_pins = 0x02 if self.width > 2 * self.height else 0x12
        self.write_cmds((_OFF, _CLOCK, 0x80) + self._geometry() + self._power_cmds() + (
            _COM_PINS, com_pins, _CONTRAST, self._contrast, _FOLLOW_RAM, _NORMAL))
        self._clear_ram()
        self.invalidate()
        self.fill(0)
        self.show()
        self.poweron()

    def _clear_ram(self):
        # Clear the whole RAM, not just the glass window, so nothing stale shows after a flip.
        zeros = bytes(self.RAM_COLUMNS)
        for page in range(_RAM_ROWS // 8):
            self.write_cmds((_PAGE | page, _COL_LO, _COL_HI))
            self.i2c.writevto(self.addr, (_DATA, zeros))
            self._count(1 + len(zeros))

    def invalidate(self):
        """Make the next show() send every page (after a panel reset or power loss)."""
        self._stale = True

    # -- public controls ---------------------------------------------------------------------

    def poweron(self):
        self.write_cmds((_OFF | 1,))

    def poweroff(self):
        self.write_cmds((_OFF,))

    def contrast(self, value):
        self._contrast = max(0, min(255, value))
        self.write_cmds((_CONTRAST, self._contrast))

    def invert(self, on):
        self.write_cmds((_NORMAL | (1 if on else 0),))

    def set_flip(self, flip):
        self.flipped = bool(flip)
        self.write_cmds(self._geometry())
        self._clear_ram()
        self.invalidate()
        self.show()

    def show(self):
        """Send what changed since the last show; returns the number of pixel bytes sent."""
        w = self.width
        sent = 0
        stale = self._stale
        for p in range(self.pages):
            row = self._rows[p]
            old = self._srows[p]
            if stale:
                a, b = 0, w
            else:
                if row == old:
                    continue
                a, b = 0, w
                while row[a] == old[a]:
                    a += 1
                while row[b - 1] == old[b - 1]:
                    b -= 1
                if b - a > w - (w >> 3):
                    a, b = 0, w  # near enough the whole page: send it all, allocation-free
            self._write_span(p, a, b)
            if b - a == w:
                old[:] = row
            else:
                old[a:b] = row[a:b]
            sent += b - a
        self._stale = False
        return sent


class SSD1306(_Oled):
    RAM_COLUMNS = 128

    def _power_cmds(self):
        cmds = (_MEM_MODE, 0x02, _NO_SCROLL, _CHARGE_PUMP, 0x14, _PRECHARGE, 0xF1, _VCOMH, 0x30)
        if self.width == 72:
            cmds += (_IREF, 0x30)  # the 0.42" glass stays dim without it (u8g2 issue 1047)
        return cmds


class SH1106(_Oled):
    # 132 columns of RAM for 128 of glass, page addressing only: the SSD1306's 0x20/0x21/0x22
    # addressing commands mean nothing here and their arguments would be read as commands.
    RAM_COLUMNS = 132

    def _power_cmds(self):
        return (_DCDC, 0x8B, _PRECHARGE, 0x22, _VCOMH, 0x35)


DRIVERS = {"ssd1306": SSD1306, "sh1106": SH1106}


def make_display(dcfg, i2c):
    """The driver a profile's `display` section asks for, on an initialised I2C bus."""
    cls = DRIVERS.get(dcfg["driver"])
    if cls is None:
        raise ValueError("display.driver: unknown %r" % (dcfg["driver"],))
    return cls(i2c, dcfg["width"], dcfg["height"], dcfg["addr"], dcfg.get("col_offset", 0),
               dcfg.get("row_offset", 0), dcfg.get("flip", False))
