# `fathom bench power`: what a unit's loop costs at rest and what its cell gives for it. Emulated
# units (the real firmware over the twins) report the loop's own time (App.turn, the hub's work
# excluded: twins/hub.py work()) and how many of its loops took a step; the CPU duty on an ESP32
# is that time scaled to the reference pace and by the factor `fathom bench path` uses (FACTOR,
# docs/ARCHITECTURE.md), and the current and hours on a 1,000 mAh cell come from the datasheet
# figures below, per board profile and state.
import json
import pathlib
import time

from fathom_host import use_firmware
from fathom_host.bench.metrics import int_metrics
from fathom_host.bench.path import FACTOR, FACTOR_MHZ, I2C, PRESS

WINDOW_S = 6          # each state is watched this long
FAST_WINDOW_S = 2
CELL_MAH = 1000
BOARDS = pathlib.Path(__file__).resolve().parents[3] / "boards"

# Datasheet currents, mA (docs/ARCHITECTURE.md, "Power", cites each):
# chip: CPU running (Wi-Fi/radio off), modem-sleep idle (CPU idle, radio off) at the clock a lit
# unit runs at (its profile's cpu_mhz, set at boot: 240 MHz on the ESP32 and ESP32-S3, 160 on
# the C3), the same two at the 80 MHz a resting unit runs at (hal/speed.py), radio listening
# (RX, on top of the CPU), deep sleep. Where no datasheet figure for 80 MHz was taken (None),
# the resting states are counted at the lit clock: no saving.
CHIP_MA = {
    "esp32":   {"active": 68.0, "idle": 30.0, "active_slow": 31.0, "idle_slow": 20.0,
                "rx": 95.0, "deep": 0.01},
    "esp32s3": {"active": 40.0, "idle": 13.2, "active_slow": None, "idle_slow": None,
                "rx": 88.0, "deep": 0.008},
    "esp32c3": {"active": 20.0, "idle": 15.0, "active_slow": None, "idle_slow": None,
                "rx": 82.0, "deep": 0.005},
}
SLOW_MHZ = 80
# The CPU duty's factor is for FACTOR_MHZ (bench path): at a slower clock the same work takes at
# most that many times as long (code run through the flash cache scales less with the clock),
# 1.5x at 160 MHz, 3x at 80.
# machine.freq() on an ESP32 returns once the new clock runs, waiting a FreeRTOS tick at most:
# what waking from the slower clock adds to the key that wakes the panel, ms.
FREQ_SWITCH_MS = 10
# SSD1306 panel: about half the pixels lit at full contrast, dimmed (contrast 0), display off
# (the controller's sleep current). Scaled by area for the 72x40 glass.
PANEL_MA = {"on": 12.0, "dim": 4.0, "off": 0.01}
# The loop's counted work on the 32-bit runtime: the pace it ran at (pystones) is read as
# `fathom bench path` reads it, by its kernel; REF_PYSTONES is the factor's anchor.
REF_PYSTONES = 124000
# A resting loop sleeps in select.poll (firmware/fathom/hal/rest.py), which on an ESP32 wakes
# at every FreeRTOS tick (100 Hz in MicroPython's build) and asks the wake flag, a Python
# ioctl, whether an interrupt ran: that check is the rest's own work, measured on the runtime
# (TICK_SCRIPT) and counted TICK_HZ times a second on top of the loop's steps. (The unix port
# asks every ms inside its own poll, which the loop's counted time leaves out.)
TICK_HZ = 100
TICK_SCRIPT = """
import time
from fathom.hal import rest
f = rest._Flag()
n = 20000
t0 = time.ticks_us()
for _ in range(n):
    f.ioctl(3, 1)
t1 = time.ticks_us()
for _ in range(n):
    pass
t2 = time.ticks_us()
print((time.ticks_diff(t1, t0) - time.ticks_diff(t2, t1)) / n)
"""


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--window", type=float, default=None,
                   help="seconds each state is watched (default %d)" % WINDOW_S)
    runtime_option(p)


def _watch(units, window):
    """{unit index: (loops, steps, work_us, seconds)} over `window` seconds of each unit."""
    before = {u.index: int_metrics(u) for u in units}
    t0 = time.monotonic()
    time.sleep(window)
    dt = time.monotonic() - t0
    out = {}
    for u in units:
        a, b = before[u.index], int_metrics(u)
        out[u.index] = (b["loops"] - a["loops"], b["steps"] - a["steps"],
                        b["work_us"] - a["work_us"], dt)
    return out


def _cpu(row, pace, tick_us=0.0):
    loops, steps, work_us, dt = row
    work = work_us / dt + TICK_HZ * tick_us          # us of the runtime's time per second
    duty = work / 1e6 * pace * FACTOR[0]   # the ESP32's share of its time busy
    return {"loops_per_s": round(loops / dt, 1), "steps_per_s": round(steps / dt, 1),
            "work_ms_per_s": round(work_us / dt / 1000, 2),
            "rest_check_ms_per_s": round(TICK_HZ * tick_us / 1000, 2),
            "esp32_cpu_duty_pct": round(min(100.0, duty * 100), 1)}


def _tick_us():
    """us of the runtime's time one check of the resting loop's wake flag takes."""
    import os
    import subprocess
    from fathom_host import FIRMWARE
    from fathom_host.emulator.units import micropython_exe, micropython_path
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(micropython_path("frozen")),
               FATHOM_DATA=str(FIRMWARE / "fathom"))
    proc = subprocess.run([micropython_exe("frozen"), "-c", TICK_SCRIPT], capture_output=True,
                          text=True, env=env, timeout=120)
    return max(0.0, float(proc.stdout.split()[-1]))


def _states(args):
    fast = getattr(args, "fast", False)
    window = args.window or (FAST_WINDOW_S if fast else WINDOW_S)
    from fathom_host.emulator.ether import Ether
    ether = Ether(seed=1)
    ether.start()
    try:
        return _watch_states(ether, window, args.runtime or "frozen")
    finally:
        ether.stop()


def _watch_states(ether, window, runtime):
    from fathom_host.emulator.drive import pair
    from fathom_host.emulator.units import BOOT_TIMEOUT_S, Emulator
    from fathom_host.bench.turn import _report
    out = {}
    with Emulator(2, ether=ether, runtime=runtime,
                  env={"FATHOM_LINK": "espnow",
                       "FATHOM_UXPLAYER": "level=sharp,host"}) as emu:
        for u in emu.units:
            u.start(wait=False)
        for u in emu.units:
            u.wait(lambda c: c.text and c.screen is not None, BOOT_TIMEOUT_S, "boot")
        time.sleep(1)   # the home menu comes up and rests
        out["home_idle"] = _watch(emu.units[:1], window)[0]
        pair(emu.units, _game()[1])
        mine = None
        end = time.monotonic() + 30
        while mine is None and time.monotonic() < end:
            for u in emu.units:
                r = _report(u)
                if r is not None and r.get("ready"):
                    mine = u
            time.sleep(0.1)
        if mine is None:
            return {"error": "no unit's turn came in 30 s"}
        time.sleep(1)   # the pairing's last frames settle
        other = [u for u in emu.units if u is not mine][0]
        got = _watch(emu.units, window)
        out["own_turn"] = got[mine.index]
        out["waiting"] = got[other.index]
    return out


def _game():
    """(id, title) of the game the units play: the first two units play."""
    from fathom import games
    from fathom_host.bench.turn import two_player_games
    gid = two_player_games()[0]
    return gid, games.declaration(gid).TITLE


def _pace(args):
    """The machine's pace now, pystones/s of the runtime, by `fathom bench path`'s kernel."""
    from fathom_host.bench import path
    import os
    import tempfile
    from fathom_host import FIRMWARE
    from fathom_host.emulator.units import micropython_path
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(micropython_path("frozen")),
               FATHOM_DATA=str(FIRMWARE / "fathom"))
    row = path._run(_game()[0], path.FAST_MOVES, env, "/dev/shm" if os.path.isdir("/dev/shm")
                    else tempfile.gettempdir())
    return row["pystones"]


def _board(profile, cpu):
    chip = profile.get("chip", "esp32")
    ma = CHIP_MA.get(chip, CHIP_MA["esp32"])
    lit_mhz = profile.get("cpu_mhz") or FACTOR_MHZ
    area = profile["display"]["width"] * profile["display"]["height"] / (128 * 64)
    rows = {}
    for state, base, panel, radio, slow in (("home_idle", "home_idle", "on", True, False),
                                            ("own_turn", "own_turn", "on", True, False),
                                            ("waiting", "waiting", "on", True, False),
                                            ("panel_dimmed", "waiting", "dim", True, True),
                                            ("panel_off", "waiting", "off", True, True),
                                            ("deep_sleep", None, "off", False, False)):
        slow = slow and ma["idle_slow"] is not None
        mhz = SLOW_MHZ if slow else lit_mhz
        duty = cpu[base]["esp32_cpu_duty_pct"] / 100 if base else 0.0
        duty = min(1.0, duty * FACTOR_MHZ / mhz)
        sfx = "_slow" if slow else ""
        chip_ma = ((ma["active" + sfx] * duty + ma["idle" + sfx] * (1 - duty)) if base
                   else ma["deep"])
        radio_ma = ma["rx"] if radio else 0.0
        panel_ma = PANEL_MA[panel] * area
        total = chip_ma + radio_ma + panel_ma
        rows[state] = {"cpu_duty_pct": round(duty * 100, 1), "ma": round(total, 2),
                       "cpu_mhz": mhz if base else None,
                       "radio_share_pct": round(100 * radio_ma / total),
                       "hours_1000mah": round(CELL_MAH / total, 1)}
    return rows


# A redraw no event changed (the screen drawn again as it was: what a waking key shows), us on
# the 32-bit runtime, typical and bad: a menu's cursor move, `fathom bench boot` (0.47-0.65 ms
# a step that redraws). A move's redraw, which works out what the move changed, is bench path's
# own measure.
WAKE_REDRAW_US = (400, 700)


def wake_ms():
    """The key that wakes a resting panel, press to panel, ms (typical, bad) on an ESP32: the
    press confirmed, the clock given back, the redraw at full clock, the panel's bytes (bench
    path's figures)."""
    return [round(PRESS[k] + FREQ_SWITCH_MS + WAKE_REDRAW_US[k] * FACTOR[k] / 1000 + I2C[k])
            for k in (0, 1)]


def collect(args):
    use_firmware()
    states = _states(args)
    if "error" in states:
        return states
    pace = _pace(args) / REF_PYSTONES
    tick = _tick_us()
    cpu = {k: _cpu(v, pace, tick) for k, v in states.items()}
    out = {"cpu": cpu, "pace_pystones": round(pace * REF_PYSTONES),
           "rest_check_us": round(tick, 2), "wake_key_to_panel_ms": wake_ms()}
    for f in sorted(BOARDS.glob("*.json")):
        p = json.loads(f.read_text())
        if p.get("chip") in CHIP_MA:   # the boards, not the emulator's own
            out[p["name"]] = _board(p, cpu)
    return out
