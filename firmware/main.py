# Boot: read the board profile, build the hardware layer, run the app.
# On a board the profile is /board.json (written by `fathom deploy`); in the emulator the host
# names it with FATHOM_BOARD and the twins (firmware/twins) stand in for machine/espnow/network.
import os
import sys


def _profile_path():
    p = os.getenv("FATHOM_BOARD") if hasattr(os, "getenv") else None
    return p or "/board.json"


def _storage_root():
    p = os.getenv("FATHOM_DIR") if hasattr(os, "getenv") else None
    return p or "/data"


def main():
    from fathom.hal.board import load_profile
    from fathom.hal.hw import build
    from fathom.app import App
    profile = load_profile(_profile_path())
    hw = build(profile, _storage_root())
    hub = None
    if sys.platform != "esp32":
        try:
            import hub as _hub  # host twin only; absent on a board
            if _hub.connect(profile):
                hub = _hub
        except ImportError:
            pass
    App(hw, hub).run()


main()
