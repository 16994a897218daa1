# Board profiles: every shipped profile validates, and each kind of mistake names its field.
import json
import os

import pytest

import fathom
from fathom.hal.board import KEYS, ProfileError, load_profile

pytestmark = pytest.mark.micropython

BOARDS = fathom.__file__.rsplit("/", 3)[0] + "/boards"
SHIPPED = ["heltec_wifi_kit_32_v3", "lolin32_oled", "esp32_devkit_ssd1306",
           "esp32c3_oled_72x40", "host"]


def _load(name):
    with open(BOARDS + "/" + name + ".json") as f:
        return json.load(f)


def test_every_shipped_profile_validates():
    found = sorted(n[:-5] for n in os.listdir(BOARDS) if n.endswith(".json"))
    for name in SHIPPED:
        assert name in found
    for name in found:
        p = load_profile(BOARDS + "/" + name + ".json")
        assert p["name"] == name


def test_board_facts():
    h = _load("heltec_wifi_kit_32_v3")["display"]
    assert (h["sda"], h["scl"], h["rst"], h["vext"], h["vext_on"]) == (17, 18, 21, 36, 0)
    lolin = _load("lolin32_oled")["display"]
    assert (lolin["sda"], lolin["scl"], lolin["flip"]) == (5, 4, True)
    c3 = _load("esp32c3_oled_72x40")
    assert (c3["display"]["width"], c3["display"]["height"]) == (72, 40)
    assert (c3["display"]["sda"], c3["display"]["scl"]) == (5, 6)
    assert (_load("esp32_devkit_ssd1306")["flash_offset"], c3["flash_offset"]) == (0x1000, 0)


def test_every_profile_reaches_every_key():
    for name in SHIPPED:
        p = _load(name)
        reach = set()
        for b in p["buttons"]:
            reach.add(b["short"])
            if "long" in b:
                reach.add(b["long"])
        for c in p.get("chords", []):
            reach.add(c["key"])
        assert reach == set(KEYS), (name, reach)


def _broken(edit):
    p = _load("esp32_devkit_ssd1306")
    edit(p)
    return p


def _set(path, value):
    def edit(p):
        obj = p
        for k in path[:-1]:
            obj = obj[k]
        if value is _DELETE:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value
    return edit


_DELETE = object()

CASES = [
    (("display", "sda"), _DELETE, "^display.sda: missing"),
    (("name",), _DELETE, "^name: missing"),
    (("uart",), _DELETE, "^uart: missing"),
    (("uart", "baud"), "fast", "^uart.baud: expected an integer"),
    (("display", "width"), "128", "^display.width: expected an integer"),
    (("display", "addr"), True, "^display.addr: expected an integer"),
    (("display", "flip"), 1, "^display.flip: expected bool"),
    (("display", "driver"), "st7789", "^display.driver: 'st7789' is not one of"),
    (("display", "height"), 48, "^display.width: 128x48 is not supported"),
    (("display", "col_offset"), 10, "^display.col_offset: 10 . width 128 exceeds"),
    (("display", "row_offset"), -1, "^display.row_offset: must not be negative"),
    (("display", "vext_on"), 2, "^display.vext_on: must be 0 or 1"),
    (("chip",), "esp8266", "^chip: 'esp8266' is not one of"),
    (("link",), "lora", "^link: 'lora' is not one of"),
    (("active_low",), "yes", "^active_low: expected bool"),
    (("buttons",), [], "^buttons: needs at least one button"),
    (("buttons", 2, "short"), "SELECT", "^buttons.2..short: 'SELECT' is not one of"),
    (("buttons", 0, "long"), "up", "^buttons.0..long: 'up' is not one of"),
    (("buttons", 1, "pin"), 32, "^buttons.1..pin: duplicate pin 32 .already buttons.0..pin"),
    (("buttons", 3, "pin"), 21, "^buttons.3..pin: duplicate pin 21 .already display.sda"),
    (("uart", "rx"), 22, "^uart.rx: duplicate pin 22 .already display.scl"),
    (("buttons", 0), "UP", "^buttons.0.: expected an object"),
    (("chords",), [{"pins": [32, 99], "key": "BACK"}], "^chords.0..pins: pin 99 is not a button"),
    (("chords",), [{"pins": [32, 32], "key": "BACK"}], "^chords.0..pins: needs two different"),
    (("chords",), [{"pins": [32, 33], "key": "HOME"}], "^chords.0..key: 'HOME' is not one of"),
    (("flash_offset",), _DELETE, "^flash_offset: missing"),
    (("firmware", "board"), _DELETE, "^firmware.board: missing"),
    (("cpu_mhz",), 200, "^cpu_mhz: 200 MHz is not a clock the esp32 runs at .80, 160, 240."),
    (("cpu_mhz",), "240", "^cpu_mhz: expected an integer"),
]


@pytest.mark.parametrize("case", CASES)
def test_each_mistake_names_its_field(case):
    path, value, message = case
    with pytest.raises(ProfileError, match=message):
        load_profile(_broken(_set(path, value)))


def test_every_board_runs_lit_at_its_chips_top_clock():
    # the press path's Python is most of a move's time, and bench path's factor is for 240 MHz
    top = {"esp32": 240, "esp32s3": 240, "esp32c3": 160}
    for name in SHIPPED[:-1]:
        p = _load(name)
        assert p["cpu_mhz"] == top[p["chip"]], name
    c3 = _load("esp32c3_oled_72x40")
    c3["cpu_mhz"] = 240
    with pytest.raises(ProfileError, match="^cpu_mhz: 240 MHz is not a clock the esp32c3"):
        load_profile(c3)
    host = _load("host")
    host["cpu_mhz"] = 160
    with pytest.raises(ProfileError, match="^cpu_mhz: 160 MHz is not a clock the host"):
        load_profile(host)


def test_host_profile_needs_no_flash_fields():
    p = _load("host")
    assert "flash_offset" not in p
    assert load_profile(p)["chip"] == "host"


def test_file_errors_are_profile_errors():
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(BOARDS + "/no_such_board.json")
    path = "/tmp/fathom-test-bad-profile.json"
    with open(path, "w") as f:
        f.write("{not json")
    with pytest.raises(ProfileError, match="not valid JSON"):
        load_profile(path)
    with pytest.raises(ProfileError, match="expected an object"):
        load_profile([1, 2])
