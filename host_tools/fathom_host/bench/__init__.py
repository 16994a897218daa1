# `fathom bench`: measured figures, printed (as JSON with --json). Budgets live in DESIGN.md;
# benchmarks report, tests only assert budgets with generous headroom. One module here per
# subcommand, each with collect(args) -> its figures; a subcommand's module is imported only
# when it runs.
import importlib
import json
import os

from fathom_host import FathomError

BENCHES = ("boot", "link", "turn", "bots", "soak")     # `fathom bench all`
LONG_BENCHES = ("device", "deal", "ux", "path")        # not part of `all`
FAST_GAMES = 1        # --fast: games per game (bots, soak, device, ux)


def p90(xs):
    """The 90th percentile of a list of figures (the nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, (len(xs) * 9) // 10)]


def show(result, as_json):
    """Print a bench's figures: one JSON object, or one `name: value` line each."""
    if as_json:
        print(json.dumps(result, sort_keys=True))
    else:
        for k, v in sorted(result.items()):
            print("%s: %s" % (k, v))


def module(name):
    """The module that measures bench `name` (device_link: `device --link`)."""
    return importlib.import_module("fathom_host.bench." + name)


def add_arguments(p):
    p.add_argument("what", choices=BENCHES + LONG_BENCHES + ("all",),
                   help="device: memory and stack on the 32-bit runtimes, every game played "
                        "to its end vs the sharp bot; deal: the sealed deal's exponentiations "
                        "and time per unit on the 64-bit and 32-bit runtimes, with the ESP32 "
                        "estimate; ux: key presses per action and from power-on to the first "
                        "move, whole games played through the keys by a scripted player; path: "
                        "the Python of a move from one unit's key to the other's screen on the "
                        "frozen runtime, the flash writes counted, and the ESP32 estimate from "
                        "them (none of these is part of `all`: the first three take minutes, "
                        "path needs the frozen runtime)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--game", default=None, help="turn: only this game (default every game two "
                                                 "units play; for a group, the first game that "
                                                 "takes it); device, path: "
                                                 "only this game (default every game)")
    p.add_argument("--presses", type=int, default=30,
                   help="boot: key presses timed; turn: moves timed per game and link")
    p.add_argument("--units", type=int, default=None,
                   help="turn: N units (a group of N over ESP-NOW, the game's Players menu, "
                        "when N > 2), the press on one unit to the last other unit's panel")
    p.add_argument("--games", type=int, default=None,
                   help="games per soak run (default 20), seeded games per game for device "
                        "(default 5), games per game for ux (default 4)")
    p.add_argument("--link", action="store_true",
                   help="device: linked games instead, through the real app on the frozen "
                        "runtime: units paired over the emulated ESP-NOW through their keys, "
                        "each played by its scripted player (every game on 2 units, and in "
                        "groups of 4 and of the most it takes; --game picks one game's cases); each unit's peak live heap and largest "
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


def collect(args):
    """The bench's figures as one dict (the `all` bench: one entry per bench)."""
    args.game_given, args.games_given = args.game is not None, args.games is not None
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
        out[name] = module("device_link" if args.link else name).collect(args)
    return out if len(out) > 1 else out[names[0]]


def run(args):
    show(collect(args), args.json)
    return 0
