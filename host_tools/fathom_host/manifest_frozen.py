# Freezing manifest for the host's 32-bit "frozen" runtime: the twins (as in the stock runtime)
# plus fathom frozen by firmware/manifest.py itself, as for an ESP32, so its bytecode is not on
# the heap. Only .py files are frozen: data files
# (Pinned Down's decks) stay on the filesystem, as `fathom deploy` leaves them on a board.
include("manifest_stock.py")

FIRMWARE = "../../firmware"

# what a board freezes, decided in one place
include(FIRMWARE + "/manifest.py", port_modules=False)

# Host-only packages (headless modes for `fathom sim` and the link soak): never on a board,
# frozen so that they cost the emulated unit no heap either. One list to adjust.
HOST_ONLY = ("hostmodes",)
for _pkg in HOST_ONLY:
    package(_pkg, base_path=FIRMWARE)
