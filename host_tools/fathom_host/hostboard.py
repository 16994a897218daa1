# Board profiles (boards/*.json) as the host tools need them, and the local firmware cache.
import json
import os
import pathlib

from fathom_host import BOARDS, FathomError, use_firmware

CHIP_DEFAULTS = {  # where MicroPython's image goes, and where to get one
    "esp32": {"flash_offset": 0x1000,
              "firmware_hint": "https://micropython.org/download/ESP32_GENERIC/"},
    "esp32s3": {"flash_offset": 0x0,
                "firmware_hint": "https://micropython.org/download/ESP32_GENERIC_S3/"},
    "esp32c3": {"flash_offset": 0x0,
                "firmware_hint": "https://micropython.org/download/ESP32_GENERIC_C3/"},
    "host": {},
}
DEFAULT_FLASH_BAUD = 460800
DEFAULT_FLASH_SIZE = 4 * 1024 * 1024
_HINT_KEYS = ("firmware_hint", "firmware_url", "firmware", "download")


def board_names():
    return sorted(p.stem for p in BOARDS.glob("*.json"))


def load(name, boards_dir=BOARDS):
    """The profile dict for board `name` (or a path to a .json file), checked."""
    path = pathlib.Path(name)
    if path.suffix != ".json":
        path = pathlib.Path(boards_dir) / (name + ".json")
    if not path.exists():
        raise FathomError("no board profile %r (known: %s)" % (name, ", ".join(board_names())))
    try:
        profile = json.loads(path.read_text())
    except ValueError as e:
        raise FathomError("board profile %s is not valid JSON: %s" % (path, e))
    _check_with_firmware(path)
    if not isinstance(profile, dict) or profile.get("chip") not in CHIP_DEFAULTS:
        raise FathomError("board profile %s: chip must be one of %s"
                          % (path, ", ".join(sorted(CHIP_DEFAULTS))))
    profile.setdefault("name", path.stem)
    return profile


def _check_with_firmware(path):
    """Let the firmware's own loader judge the profile too, so a profile that passes here loads
    on a unit."""
    use_firmware()
    from fathom.hal.board import ProfileError, load_profile
    try:
        load_profile(str(path))
    except ProfileError as e:
        raise FathomError("board profile %s: %s" % (path, e))


def _number(value):
    return int(value, 0) if isinstance(value, str) else int(value)


def flash_offset(profile):
    return _number(profile.get("flash_offset", CHIP_DEFAULTS[profile["chip"]]["flash_offset"]))


def flash_baud(profile):
    return _number(profile.get("flash_baud", DEFAULT_FLASH_BAUD))


def flash_size(profile):
    size = profile.get("flash_size", DEFAULT_FLASH_SIZE)
    if isinstance(size, str) and size.upper().endswith("MB"):
        return int(size[:-2]) * 1024 * 1024
    return _number(size)


def firmware_hint(profile):
    for key in _HINT_KEYS:
        hint = profile.get(key)
        if isinstance(hint, dict):  # {"board": "ESP32_GENERIC", "url": "https://..."}
            hint = hint.get("url")
        if isinstance(hint, str):
            return hint
    return CHIP_DEFAULTS[profile["chip"]].get("firmware_hint", "https://micropython.org/download/")


def cache_dir():
    root = os.environ.get("FATHOM_CACHE")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "fathom")
    return pathlib.Path(root)


def cached_firmware(board):
    return cache_dir() / "firmware" / (board + ".bin")
