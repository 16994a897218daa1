# `fathom bench`: measured figures, printed (as JSON with --json). Budgets live in DESIGN.md;
# benchmarks report, tests only assert budgets with generous headroom.
import contextlib
import io
import json
import os
import pathlib
import statistics
import time

from fathom_host import FIRMWARE, FathomError
from fathom_host.units import Emulator

BENCHES = ("boot", "link", "turn", "bots", "soak")
SOAK_LOSS = 0.3
FAST_PRESSES = 4      # bench boot --fast
FAST_GAMES = 1        # bench bots and soak --fast: games per game
FAST_SOAK_GAME = "ashtapada"   # bench soak --fast: the one game soaked (the quickest linked)
BOTS_BUDGET_S = 240   # bench bots: a level stops timing after this (Periplus's 20 games take
                      # 6 minutes a level on a busy machine; the process has 900 s)
FAST_BOTS_BUDGET_S = 5
FAST_UX_GAME = "sugardog"      # bench ux --fast: one game of it, as tests/test_e2e_uxbench.py


def soak_plan():
    """(game, players, link) for every registered game: three units where the game takes more
    than two (a group, over ESP-NOW), else two over ESP-NOW and UART by turns."""
    from fathom import games
    plan = []
    for i, gid in enumerate(games.IDS):
        top = games.declaration(gid).PLAYERS[1]
        if top > 2:
            plan.append((gid, 3, "espnow"))
        else:
            plan.append((gid, 2, ("espnow", "uart")[i % 2]))
    return plan


def add_arguments(p):
    p.add_argument("what", choices=BENCHES + ("device", "deal", "ux", "all"),
                   help="device: memory and stack on the 32-bit runtimes, every game played "
                        "to its end vs the sharp bot; deal: the sealed deal's exponentiations "
                        "and time per unit on the 64-bit and 32-bit runtimes, with the ESP32 "
                        "estimate; ux: key presses per action and from power-on to the first "
                        "move, whole games played through the keys by a scripted player (none "
                        "of these is part of `all`: they take minutes)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--game", default=None, help="turn: only this game (default every game two "
                                                 "units play; sugardog for a group); device: "
                                                 "only this game (default all five)")
    p.add_argument("--presses", type=int, default=30,
                   help="boot: key presses timed; turn: moves timed per game and link")
    p.add_argument("--units", type=int, default=None,
                   help="turn: N units (a group of N over ESP-NOW, the game's Players menu, "
                        "when N > 2), the press on one unit to the last other unit's panel")
    p.add_argument("--games", type=int, default=None,
                   help="games per soak run (default 20), seeded games per game for device "
                        "(default 5), games per game for ux (default 2)")
    p.add_argument("--link", action="store_true",
                   help="device: linked games instead, through the real app on the frozen "
                        "runtime: units paired over the emulated ESP-NOW through their keys, "
                        "each played by its scripted player (PING, Periplus, Lake Ashtapada, "
                        "Pinned Down on 2 units, Sugar Dog on 8, Pinned Down on 4; --game "
                        "picks one game's cases); each unit's peak live heap and largest "
                        "allocation, and whether the game completes under 96k")
    p.add_argument("--loss", default=None,
                   help="turn: the ether's loss once the units are paired, 0..1, or 'all' for "
                        "0, 0.1 and 0.3 (default 0)")
    p.add_argument("--fast", action="store_true",
                   help="a short run of the same bench, for the test suite: fewer presses, "
                        "messages, turns and games (its figures are noisier); device: one game "
                        "of each on the frozen runtime; deal: one run; ux: one Sugar Dog game")
    p.add_argument("--runtime", choices=("wheel", "stock", "frozen", "both"), default=None,
                   help="the MicroPython the units run (default wheel, or FATHOM_RUNTIME); "
                        "device: stock, frozen or both (default)")


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


def bench_bots(args):
    """Each game's easy and sharp bot: median and worst decision time under the unix port."""
    import subprocess
    from fathom import games
    from fathom_host.units import micropython_exe
    gids = [g for g in games.IDS if games.has(g, "bot")]
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), ".frozen"]))
    out = {}
    for gid in gids:
        try:
            proc = subprocess.run([micropython_exe(), "-X", "heapsize=8m",
                                   str(pathlib.Path(__file__).parent / "mp" / "botbench.py"),
                                   gid, str(FAST_GAMES if getattr(args, "fast", False)
                                            else args.games),
                                   str(FAST_BOTS_BUDGET_S if getattr(args, "fast", False)
                                       else BOTS_BUDGET_S)],
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


def bench_link(args):
    from fathom_host.linkbench import bench_link as run_link
    return run_link(args)


def bench_turn(args):
    from fathom_host.turnbench import bench_turn as run_turn
    return run_turn(args)


def bench_soak(args):
    """A larger soak per game with faults on the emulated links; any failure carries the seed
    (`fathom sim --replay SEED`) or the linked game's record."""
    import argparse
    from fathom_host import sim
    out = {}
    loss = SOAK_LOSS
    fast = getattr(args, "fast", False)
    for gid, players, link in soak_plan():
        if fast and gid != FAST_SOAK_GAME:
            continue
        a = argparse.Namespace(game=gid, games=FAST_GAMES if fast else args.games, units=players, seed=7, link=link,
                               bot="random", bots="sharp," + ",".join(["random"] * (players - 1)),
                               option=[], loss=loss, dup=0.05 if loss else 0.0,
                               corrupt=0.05 if loss else 0.0, replay=None, timeout=300.0)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            sim.run(a)
        out["%s_%s" % (gid, link)] = json.loads(buf.getvalue())
    return out


def bench_device(args):
    from fathom_host import devbench
    if getattr(args, "fast", False) and not args.link:
        # one game of each on the frozen runtime: what tests/test_device_budget.py holds
        return devbench.bench_runtime(args.runtime or "frozen", FAST_GAMES,
                                      (args.game,) if args.game_given else None)
    return devbench.bench_device(args)


def bench_deal(args):
    from fathom_host.dealbench import bench_deal as run_deal
    return run_deal(runs=1) if getattr(args, "fast", False) else run_deal()


def bench_ux(args):
    from fathom_host.uxbench import bench_ux as run_ux
    if getattr(args, "fast", False):
        args.games, args.games_given = FAST_GAMES, True
        return run_ux(args, [args.game if args.game_given else FAST_UX_GAME])
    return run_ux(args)


def collect(args):
    """The bench's figures as one dict (the `all` bench: one entry per bench)."""
    args.game_given, args.games_given = args.game is not None, args.games is not None
    args.game = args.game or "ashtapada"
    if args.loss is not None and args.what != "turn":
        raise FathomError("--loss is for `bench turn` (`bench link` measures 0, 10 and 30 %)")
    args.games = args.games if args.games is not None else 20
    if args.what == "deal" and args.runtime:
        raise FathomError("bench deal runs on the wheel and the stock runtime, both")
    if args.link and args.what != "device":
        raise FathomError("--link is for `bench device`")
    if args.what != "device" and args.runtime == "both":
        raise FathomError("--runtime both is for `bench device`")
    if args.what != "device" and args.runtime:
        os.environ["FATHOM_RUNTIME"] = args.runtime  # every unit this bench starts
    names = BENCHES if args.what == "all" else (args.what,)
    out = {}
    for name in names:
        fn = globals().get("bench_" + name)
        if fn is None:
            raise FathomError("bench %s is not available" % name)
        out[name] = fn(args)
    return out if len(out) > 1 else out[names[0]]


def run(args):
    result = collect(args)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for k, v in sorted(result.items()):
            print("%s: %s" % (k, v))
    return 0
