# For tests that build a board's hardware over the host twins (hal.hw.build): firmware/twins
# first on sys.path, so `import machine` finds the twin, and framebuf's CPython shim where the
# runtime has no framebuf. Import it before machine, esp32 or fathom.hal.hw.
import sys

import fathom

FW = fathom.__file__.rsplit("/", 2)[0]
ROOT = FW.rsplit("/", 1)[0]
if FW + "/twins" not in sys.path:
    sys.path.insert(0, FW + "/twins")
try:
    import framebuf  # noqa: F401
except ImportError:
    sys.path.insert(0, ROOT + "/tests/cpython_shims")
