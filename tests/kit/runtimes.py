# Which MicroPython runs the unix-port tier and the tests that start one (CPython only): the
# emulator's own choice (fathom_host.emulator.units), so a test runs what `fathom emu` would.


def runtime():
    """FATHOM_RUNTIME: wheel (default, the PyPI build), stock or frozen (32-bit builds)."""
    from fathom_host.emulator import units
    return units.default_runtime()


def micropython_exe():
    """The executable's path; None when the wheel's is missing (the caller says so)."""
    from fathom_host import FathomError
    from fathom_host.emulator import units
    kind = runtime()
    if kind != "wheel":
        return units.micropython_exe(kind)   # built on first use
    try:
        return units.micropython_exe(kind)
    except FathomError:
        return None
