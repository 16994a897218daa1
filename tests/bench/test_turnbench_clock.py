# `fathom bench turn` starts its clock from the unit's own stamp of the pin going down (hub
# message "d": "TICKS MASK"). The stamp must map onto the host's clock to the millisecond, or the
# figure would gain or lose the socket's delay; checked against the real unix port's ticks_ms.
import subprocess
import time

from fathom_host.emulator.units import _unit_time, micropython_exe


def test_a_units_stamp_lands_on_the_hosts_clock():
    before = time.monotonic()
    got = subprocess.run(
        [micropython_exe(), "-c",
         "import time; print('%d %d' % (time.ticks_ms(), time.ticks_add(0, -1)))"],
        capture_output=True, text=True, check=True).stdout.strip()
    after = time.monotonic()
    time.sleep(0.05)  # the stamp is read later than it was made: its age must be taken off
    t = _unit_time(got.encode())
    assert before - 0.002 <= t <= after + 0.001, (before, t, after)


def test_a_stamp_that_wrapped_still_maps():
    mask = (1 << 30) - 1
    now_ms = int(time.monotonic() * 1000)
    t = _unit_time(b"%d %d" % ((now_ms - 30) & mask, mask))
    assert abs(time.monotonic() - 0.030 - t) < 0.005


def test_a_stamp_from_another_clock_falls_back_to_arrival():
    t = _unit_time(b"12345 1073741823")  # ages of days: not this host's monotonic clock
    assert abs(t - time.monotonic()) < 0.01
    assert abs(_unit_time(b"garbage") - time.monotonic()) < 0.01
