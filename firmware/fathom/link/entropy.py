# The one source of secret random bytes (pairing nonces and Diffie-Hellman secrets, seed
# nonces, a seat's salt). The ESP32's hardware generator (os.urandom is esp_random()) is only
# truly random while Wi-Fi or Bluetooth runs, so on a board the station interface is switched on
# for the draw when it was off (a cable game, the home menu) and off again after. On the host
# the twin has the OS's generator. See docs/PROTOCOL.md 'Entropy'.
import os
import sys


def token(n):
    """n secret random bytes."""
    if sys.platform != "esp32":
        return os.urandom(n)
    import network  # a board firmware without it cannot make the generator true: fail loudly
    return draw_with_radio(n, network.WLAN(network.STA_IF), os.urandom)


def draw_with_radio(n, wlan, urandom):
    """urandom(n) drawn while `wlan` is active; the interface is left as it was found."""
    was = wlan.active()
    if not was:
        wlan.active(True)
    try:
        if not wlan.active():
            raise OSError("the radio did not start: the random generator would not be true")
        return urandom(n)
    finally:
        if not was:
            wlan.active(False)
