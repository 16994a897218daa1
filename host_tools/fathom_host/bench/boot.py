# `fathom bench boot`: one emulated unit from power-on to the home menu, its heap there and with a
# game in progress, and the time from a key press to its panel with the I2C bytes it cost.
import statistics
import time

from fathom_host.bench.metrics import metrics
from fathom_host.emulator.units import Emulator

FAST_PRESSES = 4      # --fast: key presses timed


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--presses", type=int, default=30, help="key presses timed (default 30)")
    runtime_option(p)


def collect(args):
    with Emulator(1) as emu:
        u = emu.units[0]
        u.kill()
        t0 = time.monotonic()
        u.start()
        u.wait_text("Settings", 30)
        boot_s = time.monotonic() - t0
        m = metrics(u)
        heap = int(m["heap"])
        key_us = []
        i2c = []
        for i in range(FAST_PRESSES if getattr(args, "fast", False) else args.presses):
            before = int(metrics(u)["i2c"])
            u.press("DOWN" if i % 8 < 4 else "UP")
            after = metrics(u)
            i2c.append(int(after["i2c"]) - before)
            key_us.append(int(after["key_us"]))
        # one game in progress: Lake Ashtapada against the in-unit bot, set up and a few moves
        while u.selected() is not None and not u.selected().startswith("PING"):
            u.press("UP")
        u.choose("Lake Ashtapada")
        u.choose("vs bot: sharp")
        for _ in range(12):
            if u.selected() is not None:
                u.press("OK")
        game = metrics(u)
    return {
        "heap_game_bytes": int(game["heap"]),
        "board": "host",
        "boot_s": round(boot_s, 3),
        "heap_bytes": heap,
        "heap_twins_bytes": int(m["twins"]),
        "key_to_panel_ms_median": round(statistics.median(key_us) / 1000, 3),
        "key_to_panel_ms_max": round(max(key_us) / 1000, 3),
        "i2c_bytes_cursor_move": int(statistics.median(i2c)),
        "i2c_bytes_full_frame": 1024,
    }
