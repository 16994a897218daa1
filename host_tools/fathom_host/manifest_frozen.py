# Freezing manifest for the host's 32-bit "frozen" runtime: the twins (as in the stock runtime)
# plus fathom frozen the way firmware/manifest.py freezes it for an ESP32 (same package, same
# opt level), so its bytecode is not on the heap. Only .py files are frozen: data files
# (Pinned Down's decks) stay on the filesystem, as `fathom deploy` leaves them on a board.
include("manifest_stock.py")

FIRMWARE = "../../firmware"

package("fathom", base_path=FIRMWARE, opt=3)

# Host-only packages (headless modes for `fathom sim` and the link soak): never on a board,
# frozen so that they cost the emulated unit no heap either. One list to adjust.
HOST_ONLY = ("hostmodes",)
for _pkg in HOST_ONLY:
    package(_pkg, base_path=FIRMWARE)
