# `fathom bench bots`: each game's easy and sharp bot, median and worst decision time under the
# unix port (bench/mp/botbench.py runs the games inside one MicroPython process).
import json
import os
import pathlib
import subprocess

from fathom_host import FIRMWARE, use_firmware
from fathom_host.bench import FAST_GAMES
from fathom_host.emulator.units import micropython_exe

BUDGET_S = 240        # a level stops timing after this (Periplus's 20 games take 6 minutes a
                      # level on a busy machine; the process has 900 s)
FAST_BUDGET_S = 5
DRIVER = pathlib.Path(__file__).parent / "mp" / "botbench.py"


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--games", type=int, default=None, help="games per game (default 20)")
    runtime_option(p)


def collect(args):
    """Each game's easy and sharp bot: median and worst decision time under the unix port."""
    use_firmware()
    from fathom import games
    gids = [g for g in games.IDS if games.has(g, "bot")]
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), ".frozen"]))
    out = {}
    for gid in gids:
        try:
            proc = subprocess.run([micropython_exe(), "-X", "heapsize=8m",
                                   str(DRIVER),
                                   gid, str(FAST_GAMES if getattr(args, "fast", False)
                                            else args.games),
                                   str(FAST_BUDGET_S if getattr(args, "fast", False)
                                       else BUDGET_S)],
                                  capture_output=True, text=True, env=env, timeout=900)
        except subprocess.TimeoutExpired:
            out[gid] = {"error": "timed out"}
            continue
        rows = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")]
        if not rows:
            out[gid] = {"error": (proc.stderr or proc.stdout)[-300:]}
        for r in rows:
            out["%s_%s" % (r["game"], r["level"])] = {
                "median_ms": r["median_ms"], "worst_ms": r["worst_ms"], "moves": r["moves"],
                "games": r["games"]}
    return out
