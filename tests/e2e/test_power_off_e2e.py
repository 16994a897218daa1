# Power off on an emulated unit (the real firmware; the esp32 and machine twins model the chip's
# wake sources and its deep sleep, which ends the unit's process with DEEPSLEEP_EXIT): Settings'
# Power off turns the panel off and the unit sleeps until its wake button, which boots it again
# (the host restarts it); left alone at the home menu, it powers off by itself after Settings'
# Sleep time. A second of those times lasts FATHOM_PANEL_SECOND_MS here (twins/hub.py).
import pytest

from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow

DEEPSLEEP_EXIT = 77   # firmware/twins/machine.py


def _sleeps(u, timeout):
    u.proc.wait(timeout)
    assert u.proc.returncode == DEEPSLEEP_EXIT, u.console()[-2000:]
    assert "deep sleep, wakes on [('ext0', ((5,), 0))]" in u.console()   # host.json's OK


def test_power_off_sleeps_with_the_panel_off_and_the_wake_button_boots_it(tmp_path):
    with Emulator(1, workdir=tmp_path, env={"FATHOM_LINK": "uart"}) as emu:
        u = emu.units[0]
        u.wait_text("Settings", 30)
        u.choose("Settings")
        u.wait_text("Contrast")
        while not (u.selected() or "").startswith("Power off"):
            u.press("DOWN")
        u.press("OK", wait=False)           # the unit will not answer: it sleeps
        _sleeps(u, 30)
        assert u.screen.lit() == 0          # the panel went off before the chip slept
        u.proc = None
        u.start()                           # the wake button: the unit boots again
        u.wait_text("Companion", 30)


def test_a_unit_left_at_home_powers_off_by_itself(tmp_path):
    with Emulator(1, workdir=tmp_path, env={"FATHOM_LINK": "uart",
                                            "FATHOM_PANEL_SECOND_MS": "4"}) as emu:
        u = emu.units[0]
        u.wait_text("Settings", 30)
        _sleeps(u, 30)                      # 900 "s" of Sleep: 3.6 s here
