# fathom host tools: flash, deploy, monitor, emulate, simulate, benchmark.
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"


class FathomError(Exception):
    """An expected failure (bad input, missing port, device refusal): printed as one line."""
