# The CPU's clock while nothing happens. With the panel resting (dimmed or off: no key for
# Settings' "dim" seconds) the CPU runs at 80 MHz, the lowest clock at which an ESP32's,
# ESP32-S3's or ESP32-C3's Wi-Fi, and so ESP-NOW, keeps working (MicroPython's machine.freq
# takes 20, 40, 80, 160 and, but on the C3, 240 MHz; under 80 MHz the radio's PLL clock is
# gone). Waking the panel (a key, or the player's turn) gives back the clock the unit booted
# with before the redraw. A board whose profile names no such chip (the emulator's own) keeps
# its clock.
SLOW_HZ = 80000000
CHIPS = ("esp32", "esp32s3", "esp32c3")


class Speed:
    def __init__(self, chip):
        self.full = None
        self.slow = False
        if chip in CHIPS:   # (machine imported here: host tools import the app without it)
            import machine
            self._freq = machine.freq
            self.full = machine.freq()

    def rest(self):
        """The loop has nothing to do for a while: the slower clock (once)."""
        if self.full is not None and not self.slow and self.full > SLOW_HZ:
            self._freq(SLOW_HZ)
            self.slow = True

    def wake(self):
        """Something happens again: the boot clock back (on an ESP32 the call returns once
        the new clock runs, within one FreeRTOS tick)."""
        if self.slow:
            self._freq(self.full)
            self.slow = False
