# `fathom bench bots`: per game, how the bot levels play against each other and how long each
# takes to decide. Win rates: each level pair (easy/sharp, sharp/hard) plays --games games
# (default 200) in this process through the engines, as `fathom sim --link direct` does, the
# seats alternating game by game; the rate is the stronger level's share of the decided games.
# Pinned Down, cooperative: each level's goal rate as the partner of a sharp player.
# Decision times: bench/mp/botbench.py plays each level against sharp bots on the frozen 32-bit
# runtime (the code a board runs); median and worst here, and the ESP32 estimate: the times at
# the reference pace (bench/mp/pace.py) times bench path's factor, the typical one for the
# median and the bad one for the worst.
import json
import os
import pathlib
import subprocess
import time

from fathom_host import FIRMWARE, use_firmware
from fathom_host.bench import FAST_GAMES
from fathom_host.bench.path import FACTOR
from fathom_host.emulator.units import micropython_exe, micropython_path

GAMES = 200           # games per level pair
TIMED_GAMES = 20      # games per level timed on the frozen runtime
BUDGET_S = 240        # a level stops timing after this (Periplus's 20 games take minutes a
                      # level on a busy machine; the process has 900 s)
FAST_BUDGET_S = 5
PAIRS = (("sharp", "easy"), ("hard", "sharp"))   # (the level that should win, the other)
DRIVER = pathlib.Path(__file__).parent / "mp" / "botbench.py"


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--games", type=int, default=None,
                   help="games per level pair (default %d)" % GAMES)
    p.add_argument("--first", type=int, default=0,
                   help="the first game's seed number (default 0): a second seed set is "
                   "--first 200")
    p.add_argument("--game", default=None, help="one game id (default every game with bots)")
    p.add_argument("--pairs", default=None,
                   help="level pairs, stronger first: hard/sharp,sharp/easy (default both)")
    p.add_argument("--timed", type=int, default=None,
                   help="games timed per level on the frozen runtime (default %d; 0: none)"
                   % TIMED_GAMES)
    runtime_option(p)


def collect(args):
    use_firmware()
    from fathom import games
    from fathom.games.bots import LEVELS
    fast = getattr(args, "fast", False)
    n_games = 2 * FAST_GAMES if fast else (args.games if getattr(args, "games_given", False)
                                           else GAMES)
    gids = [g for g in games.IDS if games.has(g, "bot")]
    if getattr(args, "game", None):
        if args.game not in gids:
            raise SystemExit("bench bots: no bots in %r (games with bots: %s)"
                             % (args.game, ", ".join(gids)))
        gids = [args.game]
    pairs = PAIRS
    if getattr(args, "pairs", None):
        pairs = tuple(tuple(x.split("/")) for x in args.pairs.split(","))
        for p in pairs:
            if len(p) != 2 or not set(p) <= set(LEVELS):
                raise SystemExit("bench bots: a pair is two of %s, as hard/sharp"
                                 % "/".join(LEVELS))
    first = getattr(args, "first", 0) or 0
    out = {}
    for gid in gids:
        row = {"games": n_games}
        if first:
            row["first_seed"] = first
        if games.engine(gid).COOPERATIVE:
            row["partner"] = {lv: goal_rate(gid, lv, n_games, first)
                              for lv in ("easy", "sharp", "hard")}
        else:
            row["pairs"] = {"%s/%s" % p: win_rate(gid, p, n_games, first) for p in pairs}
        timed = getattr(args, "timed", None)
        if timed != 0:
            row["levels"] = decision_times(gid, fast, timed)
        out[gid] = row
    return out


def _seed(gid, i):
    import hashlib
    return hashlib.sha256(b"bench bots %s %d" % (gid.encode(), i)).digest()[:16]


def win_rate(gid, pair, n_games, first_seed=0):
    """pair[0] against pair[1], pair[0] in seat 0 in even games and seat 1 in odd ones."""
    from fathom import games
    from fathom.games import local
    from fathom.games.bots import make_bot
    eng = games.engine(gid)
    wins, draws, t0 = [0, 0], 0, time.monotonic()
    for i in range(first_seed, first_seed + n_games):
        seed = _seed(gid, i)
        first = i % 2
        bots = [make_bot(gid, pair[(p + first) % 2], seed, p) for p in range(2)]
        winners = local.play(eng, eng.options(), 2, seed, bots)["result"][0]
        if len(winners) != 1:
            draws += 1
        else:
            wins[(winners[0] + first) % 2] += 1
    decided = wins[0] + wins[1]
    return {"games": n_games, "wins": wins, "draws": draws,
            "win_rate": round(wins[0] / decided, 3) if decided else None,
            "wall_s": round(time.monotonic() - t0, 1)}


def goal_rate(gid, level, n_games, first_seed=0):
    """A two-player team, `level` the partner of a sharp player (seats alternating): how often
    it reaches the goal."""
    from fathom import games
    from fathom.games import local
    from fathom.games.bots import make_bot
    eng = games.engine(gid)
    won = 0
    for i in range(first_seed, first_seed + n_games):
        seed = _seed(gid, i)
        bots = [make_bot(gid, level if p == i % 2 else "sharp", seed, p) for p in range(2)]
        won += 1 if local.play(eng, eng.options(), 2, seed, bots)["result"][0] else 0
    return {"games": n_games, "goals": won, "goal_rate": round(won / n_games, 3)}


def decision_times(gid, fast, timed=None):
    """Each level's decisions timed on the frozen runtime, with the ESP32 estimate."""
    from fathom_host.bench.mp import pace   # (it imports the firmware's fathom)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(micropython_path("frozen")),
               FATHOM_DATA=str(FIRMWARE / "fathom"))  # Pinned Down's decks, as in the emulator
    try:
        proc = subprocess.run([micropython_exe("frozen"), "-X", "heapsize=8m", str(DRIVER), gid,
                               str(FAST_GAMES if fast else timed or TIMED_GAMES),
                               str(FAST_BUDGET_S if fast else BUDGET_S)],
                              capture_output=True, text=True, env=env, timeout=900)
    except subprocess.TimeoutExpired:
        return {"error": "timed out"}
    rows = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    if not rows:
        return {"error": (proc.stderr or proc.stdout)[-300:]}
    out = {}
    for r in rows:
        scale = pace.REF_US / r["kernel_us"] if r["kernel_us"] else 1.0
        out[r["level"]] = {
            "games": r["games"], "moves": r["moves"],
            "median_ms": r["median_ms"], "worst_ms": r["worst_ms"],
            "esp32_median_ms": round(r["median_ms"] * scale * FACTOR[0], 1),
            "esp32_worst_ms": round(r["worst_ms"] * scale * FACTOR[1], 1)}
    return out
