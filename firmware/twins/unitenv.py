# Which emulated unit this process is, read from its environment: shared by the ether wires of
# the unix-port emulator (twins/etherwire.py, over a socket) and of the web page
# (web/py/etherwire.py, which has no socket module).
import os


def env(name, default=None):
    v = os.getenv(name)
    return default if v is None or v == "" else v


def unit_index():
    return int(env("FATHOM_UNIT", "0"))


def mac_for_unit(unit):
    return b"\x02\x00\x00\x00\x00" + bytes([unit + 1])
