# The battery gauge (firmware/fathom/hal/battery.py, App._cell) on the Heltec V3's profile over
# the twins: the ADC twin (firmware/twins/adc_twin.py) reads the cell through the board's
# divider only while its enable pin is driven on, so a gauge that forgot the switch reads the
# top of the range. The top bar shows the charge, a low cell is told once, an empty one saves
# and turns the unit off with a sentence; a board without a gauge shows nothing.
import json

import pytest

from kit.twins import ROOT as _ROOT

import adc_twin  # noqa: E402  (the twin)
import esp32  # noqa: E402
import machine  # noqa: E402
import fathom.app as appmod  # noqa: E402
from fathom.app import App, home_menu  # noqa: E402
from fathom.hal import hw  # noqa: E402
from fathom.hal.battery import CRITICAL_PCT, LOW_PCT, percent  # noqa: E402
from fathom.hal.board import ProfileError, load_profile  # noqa: E402
from fathom.ui import topbar  # noqa: E402

pytestmark = pytest.mark.micropython

READ_MS = 30 * appmod.SECOND_MS


class Slept(Exception):
    pass


def _slept():
    raise Slept


_CELL_MV = adc_twin.cell_mv


def _clean(test):
    """The gauge's charge is the top bar's for every screen after it: other tests in this
    process must not see it."""
    def run(*args):
        try:
            return test(*args)
        finally:
            topbar.CELL[0] = None
            adc_twin.set_board(None)
            adc_twin.cell_mv = _CELL_MV   # a later test's Heltec reads a full cell again
    return run


def _unit(board, cell_mv):
    machine.reset_twins()
    esp32.set_chip("esp32s3")
    adc_twin.cell_mv = lambda: cell_mv[0]
    topbar.CELL[0] = None
    h = hw.build(_ROOT + "/boards/" + board + ".json", "/tmp/fathom-test-cell-" + board)
    adc_twin.set_board(h.profile.get("battery"))   # the board the twin stands in for
    app = App(h)
    app.settings.values["link"] = "uart"
    app.push(home_menu(app))
    return app


def test_the_curve_runs_from_full_to_empty():
    assert percent(4200) == 100 and percent(3300) == 0 and percent(3000) == 0
    last = 101
    for mv in range(4200, 3250, -25):
        assert percent(mv) <= last
        last = percent(mv)


@_clean
def test_the_top_bar_shows_the_charge_read_through_the_switched_divider():
    cell = [4150]
    app = _unit("heltec_wifi_kit_32_v3", cell)
    app.step(1000)
    assert topbar.CELL[0] == 100
    en = machine.PINS[37]
    assert en.writes == [1, 0, 1]   # off at start, on for the reading only (V3: on is low)
    assert en.level == 1
    cell[0] = 3800
    app.step(1000 + READ_MS)
    assert topbar.CELL[0] == 55
    assert app.top().title == "fathom"   # not low: no warning


@_clean
def test_a_low_cell_is_told_once_and_an_empty_one_saves_and_turns_off():
    cell = [4000]
    app = _unit("heltec_wifi_kit_32_v3", cell)
    app.step(1000)
    cell[0] = 3550
    app.step(1000 + READ_MS)
    assert 0 < topbar.CELL[0] <= LOW_PCT
    assert app.top().title == "Battery low"
    assert "charge it soon" in " ".join(app.top().lines())
    app.top().key("OK")
    app.step(1000 + 2 * READ_MS)       # still low: not told again
    assert app.top().title == "fathom"
    cell[0] = 3350
    machine.on_deepsleep = _slept
    shown = appmod.CELL_OUT_MS
    appmod.CELL_OUT_MS = 0     # the last sentence's pause: the e2e test waits it out
    try:
        with pytest.raises(Slept):
            app.step(1000 + 3 * READ_MS)
    finally:
        machine.on_deepsleep = None
        appmod.CELL_OUT_MS = shown
    assert topbar.CELL[0] <= CRITICAL_PCT
    assert app.top().title == "Battery empty"
    assert "the game is saved" in " ".join(app.top().lines())
    assert esp32.WAKE == {"ext0": ((0,), 0)}
    assert not machine.PANELS[60].on


@_clean
def test_a_board_on_usb_with_no_cell_fitted_shows_nothing_and_stays_on():
    # the divider then reads about 0 V: read as an empty cell, the unit would turn off at boot
    cell = [0]
    app = _unit("heltec_wifi_kit_32_v3", cell)
    app.step(1000)
    app.step(1000 + READ_MS)
    assert app.cell is not None and topbar.CELL[0] is None
    assert app.top().title == "fathom"
    cell[0] = 3900   # a cell fitted while it runs: the next reading shows it
    app.step(1000 + 2 * READ_MS)
    assert topbar.CELL[0] == 72


@_clean
def test_a_board_without_a_gauge_shows_nothing():
    app = _unit("esp32_devkit_ssd1306", [3350])
    app.step(1000)
    app.step(1000 + 2 * READ_MS)
    assert app.cell is None and topbar.CELL[0] is None
    assert app.top().title == "fathom"


def _heltec():
    with open(_ROOT + "/boards/heltec_wifi_kit_32_v3.json") as f:
        return json.load(f)


@pytest.mark.parametrize("change,field", [
    ({"ratio": 0.5}, "battery.ratio"), ({"ratio": True}, "battery.ratio"),
    ({"adc": 0}, "battery.adc"), ({"enable_on": 2}, "battery.enable_on")])
def test_a_gauge_the_profile_gets_wrong_is_named(change, field):
    p = _heltec()
    p["battery"].update(change)
    with pytest.raises(ProfileError) as e:
        load_profile(p)
    assert field in str(e.value)


def test_a_gauge_needs_a_wake_button():
    p = _heltec()
    del p["wake"]
    with pytest.raises(ProfileError) as e:
        load_profile(p)
    assert "wake" in str(e.value)
