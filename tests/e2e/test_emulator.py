# End to end with real unit processes: two emulated units boot to the home menu, respond to
# keys through the Pin twins, keep a setting across a reboot, and show the same panel image the
# semantic text describes.
import pytest

from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow


@pytest.fixture
def emu(tmp_path):
    e = Emulator(2, workdir=tmp_path)
    e.start()
    yield e
    e.close()


def test_two_units_boot_to_the_home_menu(emu):
    for u in emu.units:
        u.wait_text("Settings")
        assert u.text[0] == "fathom"
        assert u.selected().startswith("PING")
        assert "fathom: home" in u.console()
        assert u.screen.lit() > 200  # something is drawn on the panel itself


def test_keys_move_the_cursor_on_one_unit_only(emu):
    a, b = emu.units
    a.press("DOWN")
    assert a.selected().startswith("Lake Ashtapada")
    assert b.selected().startswith("PING")
    shot_a, shot_b = a.screen, b.screen
    assert shot_a.data != shot_b.data  # the panel twins show different highlighted rows


def test_a_setting_survives_a_reboot(emu):
    u = emu.units[0]
    u.choose("Settings")
    u.wait_text("Contrast")
    u.choose("Link")
    assert any(line.startswith(">Link: UART") for line in u.text)
    u.reboot()
    u.wait_text("Settings")
    u.choose("Settings")
    assert any(line.startswith(" Link: UART") for line in u.text)
    other = emu.units[1]
    other.choose("Settings")
    assert any(line.startswith(" Link: ESP-NOW") for line in other.text)


def test_the_unit_name_is_its_radio_name_until_entered_with_the_arrows(emu):
    from fathom_host.emulator.drive import unit_label
    u = emu.units[0]
    u.choose("Settings")
    first = unit_label(0)                  # 'UNIT' and the end of its address, not PLAYER
    u.wait_text("Name: " + first)
    u.choose("Name")
    u.wait_text("Unit name")
    for _ in range(4):
        u.press("RIGHT")
    u.keys("UP", "UP")  # the fifth character: space -> A -> B
    u.press("OK")
    named = first[:4] + "B" + first[5:]
    u.wait_text("Name: " + named)
    u.reboot()
    u.choose("Settings")
    u.wait_text("Name: " + named)


def test_about_shows_version_board_and_memory(emu):
    u = emu.units[1]
    u.choose("About")
    text = "\n".join(u.text)
    assert "fathom 0." in text and "board host" in text and "free" in text


def test_screenshot_png(tmp_path, emu):
    path = emu.units[0].screen.png(tmp_path / "home.png")
    from PIL import Image
    img = Image.open(path)
    assert img.size == (512, 256)
