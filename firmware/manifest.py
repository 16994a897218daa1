# Freezing manifest: build a MicroPython firmware with fathom inside it, so its bytecode runs
# from flash and the heap holds only data (see docs/ARCHITECTURE.md, Budgets). With a
# MicroPython source tree and ESP-IDF:
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/fathom/firmware/manifest.py
# then `fathom flash --firmware build-ESP32_GENERIC/firmware.bin` and `fathom deploy`, which
# still writes main.py, board.json and the data files (Pinned Down's decks) to the filesystem.
# Not yet done on hardware: the deck loader finds its files through __file__, which a frozen
# module does not have on the filesystem; it must look in /fathom/games/pinned_down/decks.
include("$(PORT_DIR)/boards/manifest.py")
metadata(description="fathom handheld games", version="0.1.0")
package("fathom", base_path=".", opt=3)
