# Storage for framework tests: the real Storage (whole files and record files) in a fresh
# folder under /tmp, so a "reboot" rebuilds everything from the bytes on disk, as from flash.
import os

from fathom.hal.storage import Storage

_BASE = "/tmp/fathom-memstore-"


def _rmtree(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return
    for e in entries:
        os.remove(path + "/" + e)
    os.rmdir(path)


class MemStorage(Storage):
    def __init__(self):
        root = _BASE + "".join("%02x" % b for b in os.urandom(6))
        _rmtree(root)
        Storage.__init__(self, root)
