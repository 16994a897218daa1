# A firmware with one module broken, for one emulated unit: a copy of firmware/fathom in which
# the module at `rel` is replaced by `source` (for instance one that raises on import, as a
# module left half-written by a failed update would), booted as kit/cheat_firmware.py boots its
# modified host (the copy's folder first on the unit's path).
import os
import shutil

from fathom_host import FIRMWARE
from fathom_host.emulator import units

from kit.cheat_firmware import SHIM


def broken_firmware(dest, rel, source):
    """The firmware in `dest` (a new folder) with fathom/`rel` replaced by `source`."""
    shutil.copytree(FIRMWARE / "fathom", dest / "fathom",
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = dest / "fathom" / rel
    assert path.exists(), rel
    path.write_text(source)
    (dest / "hub.py").write_text(SHIM % {"here": str(dest),
                                         "twin": str(units.TWINS / "hub.py")})
    return dest


def broken_env(unit, fw):
    """extra_env that boots `unit` on the firmware in `fw`."""
    return {"MICROPYPATH": os.pathsep.join([str(fw)] + units.micropython_path(unit.runtime))}
