# Data files that ship with fathom (Pinned Down's decks and card texts), opened by their path
# inside the package, e.g. "games/pinned_down/decks/red.txt", wherever fathom runs from.
# Run from a filesystem (the host; a stock deploy's /fathom/*.mpy, whose __file__ is the
# relative "fathom/res.mpy" as '' leads sys.path) a data file sits beside the modules. Frozen
# into the firmware the package has no folder: its __file__ is relative ("fathom/res.py") or
# starts with ".frozen", and nothing is there. Then `fathom deploy` writes the data under
# DATA_ROOT, a folder named unlike the package: a /fathom folder would shadow the frozen
# package (sys.path is ['', '.frozen', '/lib'] on a board).
import os

DATA_ROOT = "/fathom_data"

_base = None


class MissingData(OSError):
    """A data file is not where fathom looks for it; the message names the path."""


# The first open_data() runs at the bottom of a game's start (engine -> deck -> here), so the
# chain below it is kept short: open_data -> root -> frozen, no further helpers (each level is
# a frame on the ESP32's 16 KB C stack).
def frozen():
    """True when the package runs from the firmware image rather than from files."""
    f = __file__
    if f.startswith(".frozen"):
        return True
    try:
        os.stat(f)
        return False
    except OSError:
        return True


def root():
    """The folder data paths are relative to: the package's own, or DATA_ROOT when frozen."""
    global _base
    if _base is None:
        if frozen():
            # the emulator names the firmware tree (a board has no environment)
            env = os.getenv("FATHOM_DATA") if hasattr(os, "getenv") else None
            _base = env or DATA_ROOT
        else:
            f = __file__
            i = max(f.rfind("/"), f.rfind("\\"))
            _base = f[:i] if i >= 0 else "."
            if _base[:1] not in "/\\" and ":" not in _base:
                # Imported through sys.path's '' (a board: "fathom/res.mpy"): pin it to the
                # folder it was found in, so a later chdir cannot lose the data.
                cwd = os.getcwd()
                _base = (cwd if cwd != "/" else "") + "/" + _base
    return _base


def path(rel):
    return root() + "/" + rel


def open_data(rel, mode="r"):
    """The data file `rel` opened for reading ("r" text, "rb" bytes). Read it line by line or
    seek: a file read whole costs a heap block as big as the file."""
    p = root() + "/" + rel
    try:
        return open(p, mode)
    except OSError:
        raise MissingData("missing data file %s (fathom deploy writes it)" % p)
