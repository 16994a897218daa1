# Twins of a board on its serial port, for testing the maker's tools without one: romtwin.py
# (the ESP32 ROM bootloader esptool talks to), serialtwin.py with serialtwin_boot.py (a
# MicroPython REPL on a pty, as mpremote finds a board), ptywire.py (the pty both sit on).
