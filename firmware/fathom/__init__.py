# fathom firmware: shared by the device (MicroPython) and the host (CPython tests and tools).
VERSION = "0.1.0"
PROTOCOL = 1
