# The emulator's parts: units.py (emulated units: real MicroPython processes, each on its hub
# connection), ether.py (the radio and cable between them, with seeded faults), drive.py (driving
# units through their keys as a person would: pairing, groups, playing out a game).
