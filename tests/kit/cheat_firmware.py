# A modified firmware for one emulated unit: a copy of firmware/fathom whose runner is patched
# by firmware/hostmodes/cheat.py (a group host rewriting one relayed event), and the environment
# that boots a Unit on it. The copy must come before firmware/ on the unit's sys.path, but
# MicroPython puts the boot script's folder (firmware/, main.py's) in front of MICROPYPATH, and a
# Unit has no firmware path of its own: so the copy's folder also holds a stand-in for the hub
# twin, the first module main.py imports, which moves the copy to the front and then runs the
# real twin's code as itself (so the hub's state stays in the one module the app talks to).
import os
import shutil

from fathom_host import FIRMWARE
from fathom_host.emulator import units

PATCH = """

# ---- patched by tests/kit/cheat_firmware.py: this is a modified host's firmware ----
from hostmodes import cheat  # noqa: E402
cheat.install(Runner)
"""

SHIM = """\
# Written by tests/kit/cheat_firmware.py: boots this unit on the modified firmware beside this file.
import sys
sys.path.insert(0, %(here)r)
exec(open(%(twin)r).read())
"""


def modified_firmware(dest):
    """Build the modified firmware in `dest` (a new folder); returns it."""
    shutil.copytree(FIRMWARE / "fathom", dest / "fathom",
                    ignore=shutil.ignore_patterns("__pycache__"))
    runner = dest / "fathom" / "runner.py"
    src = runner.read_text()
    if "\nclass Runner" not in src or "def _broadcast(self, msg" not in src or \
            "def _queue(self, peer, job)" not in src:
        raise AssertionError("firmware/fathom/runner.py no longer has Runner._broadcast "
                             "or Runner._queue: update hostmodes/cheat.py")
    runner.write_text(src + PATCH)
    (dest / "hub.py").write_text(SHIM % {"here": str(dest),
                                         "twin": str(units.TWINS / "hub.py")})
    return dest


def _env(unit, fw, spec):
    path = [str(fw)] + units.micropython_path(unit.runtime)
    return {"MICROPYPATH": os.pathsep.join(path), "FATHOM_CHEAT": spec}


def cheat_env(unit, fw, author, to, at):
    """extra_env for `unit` to run the firmware in `fw` as a group host that relays player
    `author`'s first move from log index `at` on to player `to` rewritten (hostmodes/cheat.py)."""
    return _env(unit, fw, "author=%d,to=%d,at=%d" % (author, to, at))


def withhold_env(unit, fw, author, to):
    """extra_env for `unit` to run the firmware in `fw` as a group host that never relays
    player `author`'s reveal to player `to` (hostmodes/cheat.py)."""
    return _env(unit, fw, "withhold=%d,to=%d" % (author, to))


def gap_env(unit, fw, author, to, at):
    """extra_env for `unit` to run the firmware in `fw` as a group host that never sends
    player `to` the first event player `author` authors from log index `at`, and relays every
    later one (hostmodes/cheat.py)."""
    return _env(unit, fw, "gap=%d,to=%d,at=%d" % (author, to, at))
