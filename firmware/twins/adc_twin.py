# Host twin of machine.ADC, for the battery gauge (fathom/hal/battery.py). It models the board:
# the cell behind the divider the board profile (FATHOM_BOARD) describes, switched by its enable
# pin. Switched off, nothing pulls the pin down and it reads the top of the range (as a Heltec
# V3's GPIO1 reads 4095 when GPIO37 is not driven). The cell's voltage, in mV, is read from the
# file FATHOM_CELL names at every reading, so a test or `fathom emu` drains it by rewriting the
# file; with no file the cell is full. Other pins read 0 V.
import json
import os

PINS = {}    # machine's pin states (machine sets it: the enable pin's level is read there)

FULL_MV = 4150
_OUT = 3   # machine.Pin.OUT
_RANGE_MV = (950, 1250, 1750, 3100)   # full scale per attenuation (0, 2.5, 6, 11 dB)
_board = [None]


def set_board(battery):
    """Tests in one process: the board's "battery" entry the twin models (None: no gauge)."""
    _board[0] = battery or {}


def _battery():
    if _board[0] is None:
        path = os.getenv("FATHOM_BOARD")
        try:
            with open(path) as f:
                _board[0] = json.load(f).get("battery") or {}
        except (OSError, TypeError, ValueError):
            _board[0] = {}
    return _board[0]


def cell_mv():
    path = os.getenv("FATHOM_CELL")
    if not path:
        return FULL_MV
    try:
        with open(path) as f:
            return int(f.read().strip() or FULL_MV)
    except (OSError, ValueError):
        return FULL_MV


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_12BIT = 12

    def __init__(self, pin, atten=ATTN_0DB):
        self._pin = getattr(pin, "id", pin)
        self._atten = atten

    def atten(self, a):
        self._atten = a

    def _mv(self):
        b = _battery()
        if not b or b.get("adc") != self._pin:
            return 0
        top = _RANGE_MV[self._atten]
        en = b.get("enable")
        if en is not None:
            s = PINS.get(en)
            on = s is not None and s.mode == _OUT and s.level == b.get("enable_on", 0)
            if not on:
                return top
        return min(top, int(cell_mv() / b["ratio"] + 0.5))

    def read_uv(self):
        return self._mv() * 1000

    def read_u16(self):
        return self._mv() * 65535 // _RANGE_MV[self._atten]

    def read(self):
        return self.read_u16() >> 4
