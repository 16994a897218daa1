# fathom firmware: shared by the device (MicroPython) and the host (CPython tests and tools).
VERSION = "0.1.0"
PROTOCOL = 1


def forget(name):
    """Drop a module so its code can leave the heap: from sys.modules and from its package,
    which keeps each imported submodule as an attribute. Live objects keep what they use."""
    import sys
    sys.modules.pop(name, None)
    pkg, _, attr = name.rpartition(".")
    try:
        delattr(sys.modules[pkg], attr)
    except (KeyError, AttributeError):
        pass
