# `fathom flash` end to end against the ROM bootloader twin (esptool's real code, no mocks).
import os

import pytest
import serial

from kit.host import fathom
from fathom_host.twins.romtwin import RomTwin


@pytest.fixture
def image(tmp_path):
    # Half compressible, half not, so DEFL blocks carry real work.
    data = (b"\xe9\x03\x02\x20" + bytes(range(60))) * 2000 + os.urandom(40000)
    path = tmp_path / "micropython.bin"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("board,chip,board_offset,baud", [
    ("esp32_devkit_ssd1306", "esp32", 0x1000, 460800),
    ("heltec_wifi_kit_32_v3", "esp32s3", 0x0, 921600),
])
def test_flash_lands_byte_for_byte(image, board, chip, board_offset, baud):
    with RomTwin(chip) as twin:
        port = twin.start_pty()
        r = fathom("flash", "--board", board, "--port", port, "--firmware", str(image))
        assert r.returncode == 0, r.stdout + r.stderr
        data = image.read_bytes()
        assert twin.flash_image(board_offset, len(data)) == data
        assert twin.commands.get(0x11, 0) >= 1          # FLASH_DEFL_DATA: the compressed path
        assert twin.baud == baud                      # the profile's baud was asked for
        assert "100.0%" in r.stdout                     # progress reached the user


def test_flash_over_socket_and_erase(tmp_path, image):
    board = "esp32_devkit_ssd1306"
    with RomTwin("esp32") as twin:
        twin.flash[0x300000:0x300004] = b"junk"
        port = twin.start_socket()
        r = fathom("flash", "--board", board, "--port", port, "--firmware", str(image),
                   "--erase")
        assert r.returncode == 0, r.stdout + r.stderr
        assert twin.flash[0x300000:0x300004] == b"\xff" * 4
        data = image.read_bytes()
        assert twin.flash_image(0x1000, len(data)) == data


def test_wrong_chip_is_a_clear_error(tmp_path, image):
    board = "esp32_devkit_ssd1306"
    with RomTwin("esp32c3") as twin:
        r = fathom("flash", "--board", board, "--port", twin.start_pty(),
                   "--firmware", str(image))
    assert r.returncode == 1
    assert "is an ESP32-C3, but the profile is for an ESP32" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_missing_port_is_a_clear_error(tmp_path, image):
    board = "esp32_devkit_ssd1306"
    r = fathom("flash", "--board", board, "--port", "/dev/ttyNOPE9",
               "--firmware", str(image))
    assert r.returncode == 1
    assert r.stderr.startswith("fathom: no serial port /dev/ttyNOPE9")
    assert "Traceback" not in r.stderr


def test_busy_port_is_a_clear_error(tmp_path, image):
    board = "esp32_devkit_ssd1306"
    with RomTwin("esp32") as twin:
        port = twin.start_pty()
        with serial.Serial(port, exclusive=True):
            r = fathom("flash", "--board", board, "--port", port,
                       "--firmware", str(image))
        assert twin.commands == {}                      # esptool never got to talk
    assert r.returncode == 1
    assert "port %s is busy" % port in r.stderr
    assert "Traceback" not in r.stderr


def test_missing_image_says_where_to_get_one(tmp_path):
    board = "esp32c3_oled_72x40"
    r = fathom("flash", "--board", board, "--port", "/dev/null",
               env={"FATHOM_CACHE": str(tmp_path / "cache")})
    assert r.returncode == 1
    assert str(tmp_path / "cache" / "firmware" / "esp32c3_oled_72x40.bin") in r.stderr
    assert "ESP32_GENERIC_C3" in r.stderr


def test_cached_image_is_used(tmp_path, image):
    board = "esp32_devkit_ssd1306"
    cache = tmp_path / "cache" / "firmware"
    cache.mkdir(parents=True)
    (cache / "esp32_devkit_ssd1306.bin").write_bytes(image.read_bytes())
    with RomTwin("esp32") as twin:
        r = fathom("flash", "--board", board, "--port", twin.start_pty(),
                   env={"FATHOM_CACHE": str(tmp_path / "cache")})
        assert r.returncode == 0, r.stderr
        assert twin.flash_image(0x1000, image.stat().st_size) == image.read_bytes()
