# Freezing manifest for the host's 32-bit "stock" runtime (fathom_host/runtime.py): the host
# twins frozen as top-level modules, because they stand for C modules (machine, espnow,
# network) that take no Python heap on a board. fathom itself stays on the filesystem, as on
# stock firmware where `fathom deploy` copies it. Relative paths resolve from this file.
import os

TWINS = "../../firmware/twins"

for _name in sorted(os.listdir(TWINS)):
    if _name.endswith(".py"):
        module(_name, base_path=TWINS)

# A board's stock firmware freezes asyncio (ports/esp32/boards/manifest.py), and with it
# aioespnow, whose twin is in firmware/twins.
include("$(MPY_DIR)/extmod/asyncio")
