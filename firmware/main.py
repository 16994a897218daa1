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


def _hold(flag):
    """On the 32-bit runtimes what the twins allocate while held goes to a heap area of their
    own, outside the unit's (host_tools/fathom_host/runtime.py)."""
    try:
        from fathomprobe import hold
    except ImportError:
        return
    hold(flag)


def _host_twins():
    """In the emulator: load the twins first and measure them, so the heap figures the
    benchmarks report are the firmware's own (the twins are not on a board)."""
    if sys.platform == "esp32":
        return None
    import gc
    gc.collect()
    before = gc.mem_alloc()
    _hold(1)
    try:
        import hub
        import machine  # noqa: F401  (the twin)
        import network  # noqa: F401  (built into a board's firmware: not its heap)
        import espnow  # noqa: F401
    except ImportError:
        return None
    finally:
        _hold(0)
    gc.collect()
    hub.twins_bytes = gc.mem_alloc() - before
    return hub


def _connect(hub, profile):
    """The emulator's wire: its socket and key map are twin bytes as well, not the firmware's."""
    import gc
    gc.collect()
    before = gc.mem_alloc()
    _hold(1)
    try:
        up = hub.connect(profile)
    finally:
        _hold(0)
    gc.collect()
    hub.twins_bytes += gc.mem_alloc() - before
    return up


def _profile():
    # In a function so nothing keeps the validator alive once it has run (~8 KB of heap).
    from fathom.hal.board import load_profile
    profile = load_profile(_profile_path())
    from fathom import forget
    forget("fathom.hal.board")
    return profile


def main():
    hub = _host_twins()
    from fathom.hal.hw import build
    from fathom.app import App
    profile = _profile()
    if hasattr(os, "getenv") and os.getenv("FATHOM_SIM"):
        from hostmodes import simrun  # headless bot games for `fathom sim` (host only)
        simrun.main(profile, _storage_root())
        return
    if hasattr(os, "getenv") and os.getenv("FATHOM_LINKTEST"):
        from hostmodes import linktest  # the link's soak for its tests and bench (host only)
        linktest.main(profile, _storage_root())
        return
    hw = build(profile, _storage_root(), validated=True)
    build = None
    if hub is not None and not _connect(hub, profile):
        hub = None
    app = App(hw, hub)
    if hub is not None and os.getenv("FATHOM_UXPLAYER"):
        from hostmodes import uxplayer  # a scripted player pressing keys (host only)
        uxplayer.attach(hub, app, os.getenv("FATHOM_UXPLAYER"))
    # Used at boot only: hw built the parts (they keep just their own modules), the codec read
    # the settings. A settings change or a game imports the codec again; home sheds it.
    from fathom import forget
    forget("fathom.hal.hw")
    forget("fathom.codec")
    if hub is not None and getattr(hub, "paced", False):
        app.start()  # the host's timer calls app.turn(): a web page's loop must not block
        hub.app = app
        return
    app.run()


main()
