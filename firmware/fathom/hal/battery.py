# The cell's charge, on a board whose profile says how to read it ("battery": the ADC pin, the
# divider's ratio, and the pin that switches the divider on, with its on level: the Heltec V3's
# divider is switched so it does not drain the cell between readings). Read every READ_S; a
# LiPo's voltage under a light load maps to a percentage by CURVE. Loaded only on such a board.
from machine import ADC, Pin

from fathom.hal.clock import sleep_ms, ticks_diff

READ_S = 30         # the charge moves by about 1 % a minute at the unit's ~110 mA
SETTLE_MS = 2       # the switched divider's node settles (100 kOhm against the ADC's input)
SAMPLES = 4         # averaged: a radio burst dips the cell for a moment
LOW_PCT = 15        # the player is told to charge
CRITICAL_PCT = 3    # the unit saves its game and turns off while it still can
# Below this no cell is fitted (the board runs from USB and its divider reads about 0 V): a
# LiPo's protection cuts it off near 2.5-3.0 V, so an empty cell never reads this low. The gauge
# then shows nothing rather than power off a unit at every boot.
NO_CELL_MV = 2000
# (mV, %) of a LiPo cell under a light load, from full down to where the board's regulator
# stops holding 3.3 V: between two points the percentage is linear.
CURVE = ((4150, 100), (4000, 85), (3900, 72), (3800, 55), (3700, 35), (3600, 18),
         (3500, 8), (3400, 3), (3300, 0))


def percent(mv):
    """The charge left for a cell at `mv`, 0..100."""
    hi_mv, hi_pct = CURVE[0]
    if mv >= hi_mv:
        return 100
    for lo_mv, lo_pct in CURVE[1:]:
        if mv >= lo_mv:
            return lo_pct + (mv - lo_mv) * (hi_pct - lo_pct) // (hi_mv - lo_mv)
        hi_mv, hi_pct = lo_mv, lo_pct
    return 0


class Battery:
    def __init__(self, cfg, second_ms=1000):
        self.read_ms = READ_S * second_ms   # (an emulator's test shortens its seconds)
        self._adc = ADC(Pin(cfg["adc"]), atten=ADC.ATTN_11DB)
        self._ratio = cfg["ratio"]
        en = cfg.get("enable")
        self._on = cfg.get("enable_on", 0)
        self._en = None if en is None else Pin(en, Pin.OUT, value=1 - self._on)
        self.pct = None     # the last reading's charge (None before the first)
        self._at = None     # when it was read

    def read_mv(self):
        """The cell's voltage now, the divider switched on only for the reading."""
        en = self._en
        if en is not None:
            en.value(self._on)
            sleep_ms(SETTLE_MS)
        uv = 0
        for _ in range(SAMPLES):
            uv += self._adc.read_uv()
        if en is not None:
            en.value(1 - self._on)
        return int(uv * self._ratio) // (SAMPLES * 1000)

    def tick(self, now):
        """True when a reading changed the percentage shown."""
        if self._at is not None and ticks_diff(now, self._at) < self.read_ms:
            return False
        self._at = now
        mv = self.read_mv()
        pct = percent(mv) if mv >= NO_CELL_MV else None
        if pct == self.pct:
            return False
        self.pct = pct
        return True

    def wake_in(self, now):
        return self.read_ms - ticks_diff(now, self._at) if self._at is not None else 0
