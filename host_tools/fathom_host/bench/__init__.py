# `fathom bench BENCH`: measured figures, printed (as JSON with --json). Budgets live in
# docs/ARCHITECTURE.md; benchmarks report, tests only assert budgets with generous headroom. One
# module here per bench, each with collect(args) -> its figures and add_arguments(p) for the
# options it takes (so an option means one thing, and a bench refuses another's).
import importlib
import json
import os

BENCHES = ("boot", "link", "turn", "bots", "soak")   # `fathom bench all`
LONG_BENCHES = ("chaos", "device", "deal", "ux", "path", "power")   # not part of `all`
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


# Every bench with its one line for `fathom bench --help`; each bench's own options are declared
# by its module's add_arguments (read only for the bench named on the command line).
HELP = (
    ("boot", "power-on to the home menu, then key presses timed on one emulated unit"),
    ("link", "the reliable channel over the emulated ESP-NOW and UART at 0, 10 and 30 % loss"),
    ("turn", "a press on one unit to the other's panel, per game and link (or a group)"),
    ("bots", "each bot level's decision times and win rates, per game"),
    ("soak", "many bot games per game on emulated links with faults"),
    ("chaos", "whole linked games through the keys under stray keys, leaves, reboots, kill -9, "
              "cut saves and damaged link records at random moments, from a printed seed; "
              "hours at 20 games a case"),
    ("device", "memory and C stack on the 32-bit runtimes, every game played to its end "
               "(--link: linked games through the real app); minutes"),
    ("deal", "the sealed deal's exponentiations and time per unit, with the ESP32 estimate"),
    ("ux", "key presses per action, whole games played through the keys by a scripted player"),
    ("path", "the Python of a move from one unit's key to the other's screen on the frozen "
             "runtime, flash writes counted, with the ESP32 estimate"),
    ("power", "the loop's work at rest on emulated units (home, own turn, waiting), the ESP32 "
              "CPU duty, and current and hours on 1,000 mAh per board and state"),
    ("all", "every bench of `all`: %s, in one JSON object" % ", ".join(BENCHES)),
)
RUNTIMES = ("wheel", "stock", "frozen")


def runtime_option(p, choices=RUNTIMES, extra=""):
    p.add_argument("--runtime", choices=choices, default=None,
                   help="the MicroPython the units run (default wheel, or FATHOM_RUNTIME)" + extra)


def add_arguments(p, argv=None):
    """One subparser per bench; a bench's own options come from its module, imported only
    for the bench `argv` names (every module for `fathom bench --help`)."""
    import sys
    argv = sys.argv[1:] if argv is None else argv
    chosen = next((a for a in argv if a in dict(HELP)), None)
    sub = p.add_subparsers(dest="what", required=True, metavar="BENCH",
                           help="the bench to run (`fathom bench BENCH --help`: its options)")
    for name, text in HELP:
        text = text.replace("%", "%%")   # argparse formats help with %
        s = sub.add_parser(name, help=text, description=text)
        s.add_argument("--json", action="store_true", help="print one JSON object")
        s.add_argument("--fast", action="store_true",
                       help="a short run of the same bench, for the test suite (its figures "
                            "are noisier)")
        if name == "all" or (chosen and name != chosen):
            continue
        m = module(name)
        if hasattr(m, "add_arguments"):
            m.add_arguments(s)


def parse(argv):
    """The arguments `fathom bench ARGV...` gives a bench (what the tests run benches with)."""
    import argparse
    p = argparse.ArgumentParser(prog="fathom bench")
    add_arguments(p, argv)
    return p.parse_args(argv)


def collect(args):
    """The bench's figures as one dict (the `all` bench: one entry per bench)."""
    if args.what == "all":
        tail = ["--fast"] if args.fast else []
        return {name: collect(parse([name] + tail)) for name in BENCHES}
    args.game_given = getattr(args, "game", None) is not None
    args.games_given = getattr(args, "games", None) is not None
    if getattr(args, "games", 0) is None:
        args.games = 20
    runtime = getattr(args, "runtime", None)
    if runtime and runtime != "both" and args.what != "device":
        os.environ["FATHOM_RUNTIME"] = runtime  # every unit this bench starts
    return module("device_link" if getattr(args, "link", False) else args.what).collect(args)


def run(args):
    show(collect(args), args.json)
    return 0
