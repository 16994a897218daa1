# Storage for tests: the real Storage (whole files and record files) in fresh folders under one
# scratch folder per test process, so a "reboot" rebuilds everything from the bytes on disk, as
# from flash. Runs under CPython and MicroPython; the scratch folder goes when the process ends.
import os
import sys

from fathom.hal.storage import Storage

_BASE = "/tmp/fathom-test-" + "".join("%02x" % b for b in os.urandom(6))


def rmtree(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return
    for e in entries:
        p = path + "/" + e
        if os.stat(p)[0] & 0x4000:
            rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def fresh(tag):
    """An empty folder's path, unique to `tag` in this process."""
    root = _BASE + "/" + tag
    rmtree(root)
    return root


def _cleanup():
    rmtree(_BASE)


try:
    import atexit
    atexit.register(_cleanup)
except ImportError:  # MicroPython
    sys.atexit(_cleanup)

_n = [0]


class MemStorage(Storage):
    def __init__(self):
        _n[0] += 1
        Storage.__init__(self, fresh("mem%d" % _n[0]))
