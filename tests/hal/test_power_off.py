# Power off (firmware/fathom/hal/power.py) on the twins: the panel off, the wake button the
# profile names set as each chip's deep-sleep wake source (the ESP32's and S3's ext0, the C3's
# GPIO wake; the esp32 twin has only what each chip has), then machine.deepsleep, whose twin
# ends the unit as the chip stops. A profile's wake pin is checked per chip (hal/board.py).
import json

import pytest

from kit.twins import ROOT as _ROOT

import adc_twin  # noqa: E402  (the twin)
import esp32  # noqa: E402
import machine  # noqa: E402
from fathom.app import App, home_menu  # noqa: E402
from fathom.hal import hw  # noqa: E402
from fathom.hal.board import ProfileError, load_profile  # noqa: E402
from fathom.hal.power import power_off  # noqa: E402
from fathom.ui import topbar  # noqa: E402

pytestmark = pytest.mark.micropython


class Slept(Exception):
    pass


def _slept():
    raise Slept


def _profile(board):
    with open(_ROOT + "/boards/" + board + ".json") as f:
        return json.load(f)


def _off(board, chip, held=None):
    machine.reset_twins()
    esp32.set_chip(chip)
    machine.set_ticks(None)   # the real clock: a held button is let go in real time
    h = hw.build(_ROOT + "/boards/" + board + ".json", "/tmp/fathom-test-off-" + board)
    adc_twin.set_board(h.profile.get("battery"))   # a full cell where the board has a gauge
    app = App(h)
    app.settings.values["link"] = "uart"
    app.push(home_menu(app))
    app.step(1000)
    panel = machine.PANELS[60]
    assert panel.on
    if held is not None:   # the button that chose Power off, still down for `held` ms
        machine.pin_script(held, [(0, 300), (1, 0)])
    machine.on_deepsleep = _slept
    try:
        with pytest.raises(Slept):
            power_off(app)
    finally:
        machine.on_deepsleep = None
        topbar.CELL[0] = None   # the gauge's charge stays out of other tests' top bars
        adc_twin.set_board(None)
    assert not panel.on
    return dict(esp32.WAKE)


def test_an_esp32_sleeps_woken_by_its_wake_button_on_ext0():
    assert _off("esp32_devkit_ssd1306", "esp32") == {"ext0": ((27,), 0)}


def test_an_s3_sleeps_woken_by_prg_on_ext0():
    assert _off("heltec_wifi_kit_32_v3", "esp32s3") == {"ext0": ((0,), 0)}


def test_a_c3_has_no_ext0_and_sleeps_woken_by_gpio_wake():
    esp32.set_chip("esp32c3")
    with pytest.raises(AttributeError):
        esp32.wake_on_ext0(machine.Pin(2), esp32.WAKEUP_ALL_LOW)
    assert _off("esp32c3_oled_72x40", "esp32c3") == {"gpio": ((2,), 0)}


def test_a_held_button_is_let_go_before_the_chip_sleeps():
    assert _off("esp32_devkit_ssd1306", "esp32", held=27) == {"ext0": ((27,), 0)}


def test_deep_sleep_with_no_wake_source_is_refused():
    esp32.set_chip("esp32")
    machine.on_deepsleep = _slept
    try:
        with pytest.raises(ValueError):
            machine.deepsleep()
    finally:
        machine.on_deepsleep = None


@pytest.mark.parametrize("board,pin", [("esp32_devkit_ssd1306", 33), ("esp32_devkit_ssd1306", 5),
                                       ("esp32c3_oled_72x40", 9), ("heltec_wifi_kit_32_v3", 4)])
def test_a_wake_pin_is_a_button_the_chip_can_wake_on(board, pin):
    p = _profile(board)
    p["wake"] = pin
    ok = (board, pin) in (("esp32_devkit_ssd1306", 33), ("heltec_wifi_kit_32_v3", 4))
    if ok:
        assert load_profile(p)["wake"] == pin
    else:
        with pytest.raises(ProfileError) as e:
            load_profile(p)
        assert "wake" in str(e.value)
