# Where the tree's parts are, for tests that read files or start processes (CPython only: the
# tests marked `micropython` find firmware files through fathom.__file__ instead).
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
FIRMWARE = ROOT / "firmware"
HOST_TOOLS = ROOT / "host_tools"
DOCS = ROOT / "docs"
