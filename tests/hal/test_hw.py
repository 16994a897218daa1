# hw.build on the twins: the same start-up a real board runs (Vext, RST pulse, I2C, display,
# buttons, storage), then host-driven pins become keys and drawing reaches the glass.

import pytest

from kit.twins import ROOT as _ROOT

import machine  # noqa: E402
from fathom.hal import hw  # noqa: E402
from fathom.hal.board import ProfileError  # noqa: E402

pytestmark = pytest.mark.micropython


def _build(board, tag):
    machine.reset_twins()
    now = [1000]
    machine.set_ticks(lambda: now[0])
    h = hw.build(_ROOT + "/boards/" + board + ".json", "/tmp/fathom-test-hw-" + tag)
    return h, now


def test_heltec_powers_the_panel_and_pulses_reset():
    h, now = _build("heltec_wifi_kit_32_v3", "heltec")
    assert machine.pin_writes(36) == [0]           # Vext low = OLED powered
    assert machine.pin_writes(21) == [1, 0, 1]     # reset pulse
    panel = machine.PANELS[60]
    assert panel.on and panel.width == 128
    h.display.text("hi", 0, 0, 1)
    h.display.show()
    assert panel.visible() == bytes(h.display.buffer)


def test_one_button_scheme_on_the_twin():
    h, now = _build("heltec_wifi_kit_32_v3", "heltec2")
    machine.pin_script(0, [(0, 100), (1, 0)])     # a short tap of PRG
    got = []
    for _ in range(60):
        got.extend(h.buttons.poll(now[0]))
        now[0] += 10
    assert got == ["DOWN"]
    machine.pin_script(0, [(0, 900), (1, 0)])     # a hold
    got = []
    for _ in range(120):
        got.extend(h.buttons.poll(now[0]))
        now[0] += 10
    assert got == ["OK"]


def test_host_profile_and_storage():
    h, now = _build("host", "host")
    assert h.profile["name"] == "host"
    assert machine.pin_writes(36) == []
    h.storage.write("x", b"1")
    assert h.storage.read("x") == b"1"
    machine.pin_set(5, 0)
    h.buttons.poll(now[0])
    assert h.buttons.poll(now[0] + 30) == ["OK"]


def test_flipped_board_shows_upright():
    h, now = _build("lolin32_oled", "lolin")
    panel = machine.PANELS[60]
    assert panel.mounted_flip
    h.display.pixel(0, 0, 1)
    h.display.show()
    assert panel.pixel(0, 0) == 1 and panel.visible() == bytes(h.display.buffer)


def test_small_panel_board():
    h, now = _build("esp32c3_oled_72x40", "c3")
    assert (h.display.width, h.display.height) == (72, 40)
    h.display.rect(0, 0, 72, 40, 1)
    h.display.show()
    assert machine.PANELS[60].visible() == bytes(h.display.buffer)


def test_bad_profile_is_reported_before_touching_hardware():
    machine.reset_twins()
    with pytest.raises(ProfileError, match="^display: missing"):
        hw.build({"name": "x", "title": "x", "chip": "host", "link": "uart",
                  "active_low": True}, "/tmp/fathom-test-hw-bad")
    assert machine.PINS == {}
