# The panel rests on an emulated unit (the real firmware, the SSD1306 twin decoding its
# commands): left alone at the home menu the panel dims and then turns off, and the emulator's
# screen goes dark; the key that wakes it lights the same screen and moves nothing; the next key
# does. A second of the Settings' rest times lasts FATHOM_PANEL_SECOND_MS here (twins/hub.py).
import pytest

from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow

SECOND_MS = 40    # dim after 30 "s" = 1.2 s, off after 120 "s" = 4.8 s


def test_an_idle_unit_goes_dark_and_the_waking_key_does_nothing_else(tmp_path):
    with Emulator(1, workdir=tmp_path, env={"FATHOM_PANEL_SECOND_MS": str(SECOND_MS),
                                            "FATHOM_LINK": "uart"}) as emu:
        u = emu.units[0]
        u.wait_text("Settings", 30)
        chosen = u.selected()
        assert u.screen.lit() > 0
        u.wait(lambda c: c.screen is not None and c.screen.lit() == 0, 30, "the dark panel")
        assert u.selected() == chosen
        u.press("DOWN")
        u.wait(lambda c: c.screen is not None and c.screen.lit() > 0, 10, "the lit panel")
        assert u.selected() == chosen           # the waking key moved nothing
        u.press("DOWN")
        assert u.selected() != chosen
