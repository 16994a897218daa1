# `fathom bench`: measured figures, printed (as JSON with --json). Budgets live in DESIGN.md;
# benchmarks report, tests only assert budgets with generous headroom.
import json
import statistics
import time

from fathom_host import FathomError
from fathom_host.units import Emulator

BENCHES = ("boot", "link", "turn", "bots", "soak")


def add_arguments(p):
    p.add_argument("what", choices=BENCHES + ("all",))
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--game", default="ashtapada")
    p.add_argument("--presses", type=int, default=30)
    p.add_argument("--games", type=int, default=20, help="games per soak run")


def metrics(unit):
    """Ask a unit for heap, I2C and key timing figures (gc.collect() first)."""
    c = unit.wait(lambda c: True, 10, "connection")
    c.metrics = None
    c.send(b"M")
    c = unit.wait(lambda c: c.metrics is not None, 10, "metrics")
    return dict(kv.split("=") for kv in c.metrics.split())


def bench_boot(args):
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
        for i in range(args.presses):
            before = int(metrics(u)["i2c"])
            u.press("DOWN" if i % 8 < 4 else "UP")
            after = metrics(u)
            i2c.append(int(after["i2c"]) - before)
            key_us.append(int(after["key_us"]))
    return {
        "board": "host",
        "boot_s": round(boot_s, 3),
        "heap_bytes": heap,
        "heap_twins_bytes": int(m["twins"]),
        "key_to_panel_ms_median": round(statistics.median(key_us) / 1000, 3),
        "key_to_panel_ms_max": round(max(key_us) / 1000, 3),
        "i2c_bytes_cursor_move": int(statistics.median(i2c)),
        "i2c_bytes_full_frame": 1024,
    }


def run(args):
    names = BENCHES if args.what == "all" else (args.what,)
    out = {}
    for name in names:
        fn = globals().get("bench_" + name)
        if fn is None:
            raise FathomError("bench %s is not available" % name)
        out[name] = fn(args)
    result = out if len(out) > 1 else out[names[0]]
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for k, v in sorted(result.items()):
            print("%s: %s" % (k, v))
    return 0
