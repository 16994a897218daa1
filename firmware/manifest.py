# Freezing manifest: build a MicroPython firmware with fathom inside it, so its bytecode and
# constant tables run from flash and the heap holds only live data (docs/ARCHITECTURE.md,
# Budgets). With a MicroPython source tree and ESP-IDF:
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/fathom/firmware/manifest.py
# then `fathom flash --firmware build-ESP32_GENERIC/firmware.bin` and `fathom deploy`, which
# sees the frozen package on the unit and writes only main.py, /board.json and the data files
# (under /fathom_data, where fathom.res finds them when fathom is frozen), and removes a /fathom
# folder left by a stock deploy: on a board sys.path is ['', '.frozen', '/lib'], so /fathom
# would shadow the frozen package.
#
# What is frozen is exactly what a board runs: the fathom package. Host-only code lives outside
# it (firmware/twins, firmware/hostmodes), and package() takes only .py files, so the data files
# (*.txt) stay out and travel with deploy. main.py is not frozen: deploy writes it, and a board
# runs /main.py from its filesystem.
#
# A unix-port build for measuring (32-bit, like an ESP32) includes this file with
# port_modules=False, as the unix port has no boards/manifest.py:
#   include("/path/to/fathom/firmware/manifest.py", port_modules=False)
options.defaults(port_modules=True)
if options.port_modules:
    include("$(PORT_DIR)/boards/manifest.py")
metadata(description="fathom handheld games", version="0.1.0")
package("fathom", base_path=".", opt=3)
