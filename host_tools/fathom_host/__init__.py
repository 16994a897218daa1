# fathom host tools: flash, deploy, monitor, emulate, simulate, benchmark.
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"


def use_firmware():
    """Make the firmware's packages (fathom, hostmodes) importable in this CPython process: the
    one way host tools reach them. The command line calls it before it dispatches; a program
    using a tool as a library calls it once itself."""
    import sys
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))


class FathomError(Exception):
    """An expected failure (bad input, missing port, device refusal): printed as one line."""
