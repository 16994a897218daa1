# Power off: the unit in deep sleep, the panel off, woken by the button its board profile names
# ("wake", validated per chip by hal/board.py). Waking is a reset: the unit boots again, and a
# saved game resumes as after any reboot. Loaded only when the unit powers off.
import machine

from fathom.hal import clock


def power_off(app):
    hw = app.hw
    p = hw.profile
    n = p.get("wake")
    if n is None:
        raise ValueError("this board's profile names no wake button")
    low = p["active_low"]
    if app.invite is not None:
        app.invite.close()  # the radio off before the chip stops
    hw.display.poweroff()
    import esp32
    pin = machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP if low else machine.Pin.PULL_DOWN)
    # the button that chose Power off may still be held: sleeping on its level would wake at once
    while pin.value() == (0 if low else 1):
        clock.sleep_ms(10)
    level = esp32.WAKEUP_ALL_LOW if low else esp32.WAKEUP_ANY_HIGH
    if p.get("chip") == "esp32c3":
        esp32.wake_on_gpio((pin,), level)   # the C3 has no ext0
    else:
        esp32.wake_on_ext0(pin, level)
    machine.deepsleep()
