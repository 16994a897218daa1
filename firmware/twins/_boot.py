# Host twin of the ESP32 port's frozen _boot.py, which a board runs in the REPL's namespace
# before anything else: it imports gc (left there for the user, as MicroPython's own tests
# expect) and collects. A board's _boot also mounts the flash; an emulated unit's files are the
# host's. The unix port runs no _boot of its own: host_tools/fathom_host/emulator/multitest_unit
# runs it for MicroPython's two-board tests (from _boot import *).
import gc

gc.collect()
