# The battery gauge on an emulated Heltec V3 (the real firmware over the twins; the ADC twin
# reads the cell through the board's switched divider, its voltage from the file FATHOM_CELL
# names): the top bar's right end shows the charge, a cell drained low brings the warning, an
# empty one the sentence that the game is saved, and the unit turns off (deep sleep, the twin's
# DEEPSLEEP_EXIT); charged again, the wake button boots it. A second of the gauge's reading
# period (30 s) lasts FATHOM_PANEL_SECOND_MS here (twins/hub.py).
import pytest

from fathom_host.emulator.units import Emulator
from fathom.ui import topbar
from fathom.ui.font import CH

pytestmark = pytest.mark.slow

DEEPSLEEP_EXIT = 77   # firmware/twins/machine.py
SECOND_MS = 100       # a reading every 3 s; the panel dims at 3 s, goes off at 12 s


def _bar_end(pct, width=128):
    """The top bar's right end as the firmware draws it with the charge at `pct`."""
    import framebuf
    buf = bytearray(width)
    d = framebuf.FrameBuffer(buf, width, CH, framebuf.MONO_VLSB)
    topbar.CELL[0] = pct
    try:
        topbar.top_bar(d, "fathom")
        cw = topbar.cell_width()
    finally:
        topbar.CELL[0] = None
    return [[(buf[x] >> y) & 1 for x in range(width - cw, width)] for y in range(CH)], cw


def _shows(u, pct):
    want, cw = _bar_end(pct)
    s = u.screen
    return s is not None and [[s.pixel(x, y) for x in range(s.w - cw, s.w)]
                              for y in range(CH)] == want


def test_the_gauge_shows_the_charge_warns_and_turns_the_unit_off_when_empty(tmp_path):
    cell = tmp_path / "cell"
    cell.write_text("4150")
    with Emulator(1, workdir=tmp_path, board="heltec_wifi_kit_32_v3",
                  env={"FATHOM_LINK": "uart", "FATHOM_CELL": str(cell),
                       "FATHOM_PANEL_SECOND_MS": str(SECOND_MS)}) as emu:
        u = emu.units[0]
        u.wait_text("Settings", 30)
        u.wait(lambda c: _shows(c, 100), 10, "100% in the top bar")
        cell.write_text("3550")
        u.wait_text("Battery low", 20)
        assert "charge it soon" in " ".join(u.text)
        u.wait(lambda c: _shows(c, 12), 10, "12% in the top bar")
        cell.write_text("3350")
        u.wait_text("Battery empty", 20)
        assert "the game is saved" in " ".join(u.text)
        u.proc.wait(30)
        assert u.proc.returncode == DEEPSLEEP_EXIT, u.console()[-2000:]
        assert "battery empty, turning off" in u.console()
        assert u.screen.lit() == 0            # the panel went off before the chip slept
        cell.write_text("4100")               # charged; the wake button boots it again
        u.proc = None
        u.start()
        u.wait_text("Companion", 30)
