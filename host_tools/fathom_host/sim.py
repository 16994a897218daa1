# `fathom sim`: bot-vs-bot matches for any game, one JSON object of results.
# --link direct runs the engines in this process (each player its own Seat, as on separate
# units); --link espnow|uart runs real emulated units that pair over the ether with faults.
import hashlib
import json
import time
import traceback

from fathom_host import FathomError, use_firmware


def bot_levels():
    """Every level a game's bots may play here: the random bot and games.bots' LEVELS."""
    use_firmware()
    from fathom.games.bots import LEVELS
    return ("random",) + LEVELS


def add_arguments(p):
    p.add_argument("--game", default=None, help="a game id (default: the first in menu order)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--units", type=int, default=None, help="players (default: the game's minimum)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--link", choices=("direct", "espnow", "uart"), default="direct")
    p.add_argument("--bot", default="random",
                   help="every player's bot: random, or a level of the game's bots (easy, ...)")
    p.add_argument("--bots", default=None, help="per player, e.g. sharp,random")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    p.add_argument("--loss", type=float, default=0.0)
    p.add_argument("--dup", type=float, default=0.0)
    p.add_argument("--corrupt", type=float, default=0.0)
    p.add_argument("--replay", type=int, default=None, metavar="SEED",
                   help="replay one direct game from its seed and print its log")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="a linked game fails after this many seconds without progress (no "
                        "event, no message delivered), stretched when the machine is busy")
    p.add_argument("--lent", action="store_true",
                   help="linked units but the first are lent as bot opponents (Play as bot): "
                        "they join whoever hails them, a group's host too")
    p.add_argument("--heap", default="4m", metavar="SIZE",
                   help="linked units' heap (-X heapsize), e.g. 96k on --runtime frozen")
    p.add_argument("--peak-heap", action="store_true",
                   help="linked units journal to files as on a board and report their live "
                        "heap's peak after gc (peak_heap, bytes, per unit; peak_play before the "
                        "result); every linked run also reports max_queued (messages one link "
                        "held unacknowledged), max_write (the largest file written whole) and, "
                        "on --runtime stock|frozen, max_alloc (the largest heap block)")
    p.add_argument("--runtime", choices=("wheel", "stock", "frozen"), default=None,
                   help="the MicroPython that runs linked units (default wheel, or "
                        "FATHOM_RUNTIME); stock|frozen: `fathom runtime build`'s 32-bit builds")


def game_number(seed, i):
    """The number that names game i of a run: `--replay` takes it back."""
    return seed * 1000000 + i


def game_seed(k):
    return hashlib.sha256(b"fathom sim %d" % k).digest()[:16]


def parse_options(engine, pairs):
    given = {}
    for kv in pairs:
        if "=" not in kv:
            raise FathomError("--option takes KEY=VALUE, not %r" % kv)
        k, v = kv.split("=", 1)
        given[k] = int(v) if v.lstrip("-").isdigit() else v
    try:
        return engine.options(given)
    except ValueError as e:
        raise FathomError(str(e))


def make_bot(gid, level, seed, player):
    from fathom.games.bots import make_bot as _make
    return _make(gid, level, seed, player)


def levels_for(args, n):
    if args.bots:
        levels = args.bots.split(",")
        known = bot_levels()
        if len(levels) != n or any(l not in known for l in levels):
            raise FathomError("--bots needs %d of %s, comma-separated" % (n, "/".join(known)))
        return levels
    if args.bot not in bot_levels():   # read here, not in the parser: the registry may refuse
        raise FathomError("--bot is one of %s, not %r" % ("/".join(bot_levels()), args.bot))
    return [args.bot] * n


def load_engine(gid):
    from fathom import games
    try:
        return games.engine(gid)
    except KeyError as e:
        raise FathomError(str(e.args[0]))


def new_stats(args, gid, n):
    return {"game": gid, "games": args.games, "players": n, "link": args.link,
            "bots": None, "completed": 0, "wins": [0] * n, "draws": 0, "desyncs": 0,
            "audit_failures": 0, "crashes": 0, "mean_turns": 0.0, "frames": 0, "bytes": 0,
            "retransmits": 0, "wall_s": 0.0, "failures": []}


def play_direct(engine, opts, n, seed, levels, on_event=None):
    from fathom.games import local
    bots = [make_bot(engine.NAME, levels[p], seed, p) for p in range(n)]
    return local.play(engine, opts, n, seed, bots, on_event=on_event)


def record(stats, out, seed, rotate):
    """Fold one finished game into the totals; players are counted by bot position."""
    winners, _reason = out["result"]
    stats["completed"] += 1
    if stats.get("cooperative"):
        stats["team_wins"] += 1 if winners else 0
    elif not winners:
        stats["draws"] += 1
    for w in winners:
        stats["wins"][(w - rotate) % len(stats["wins"])] += 1
    bad = [a for a in out["audits"] if a[2] is not None]
    if bad:
        stats["audit_failures"] += 1
        stats["failures"].append({"seed": seed, "kind": "audit", "detail": repr(bad[0])})
    stats["_turns"] += out["turns"]


def run_direct(args, engine, opts, n, levels, stats):
    from fathom.games.local import Desync
    for i in range(args.games):
        k = game_number(args.seed, i)
        rotate = i % n  # bots change seats each game so the first player's edge evens out
        try:
            out = play_direct(engine, opts, n, game_seed(k), seat_levels(levels, rotate))
        except Desync as e:
            stats["desyncs"] += 1
            stats["failures"].append({"seed": k, "kind": "desync", "detail": str(e)})
            continue
        except Exception as e:
            stats["crashes"] += 1
            stats["failures"].append({"seed": k, "kind": "crash", "detail": repr(e),
                                      "trace": traceback.format_exc()[-800:]})
            continue
        out["turns"] = sum(len(s.actions) for s in out["seats"])
        record(stats, out, k, rotate)


def seat_levels(levels, rotate):
    n = len(levels)
    return [levels[(p - rotate) % n] for p in range(n)]


def replay(args, engine, opts, n, levels):
    """One direct game from the number a failure report gave, with its log."""
    from fathom.games import describe
    k = args.replay
    try:
        out = play_direct(engine, opts, n, game_seed(k), seat_levels(levels, (k % 1000000) % n))
        seats, summary = out["seats"], {"result": out["result"],
                                        "audits": [a[2] for a in out["audits"]]}
    except Exception as e:
        seats, summary = getattr(e, "seats", []), {"error": repr(e)}
    if seats:
        s = seats[0]
        for i, (author, event) in enumerate(s.log):
            print("%4d P%d %s   %r" % (i, author + 1, describe(engine, s, author, event), event))
    summary["seed"] = k
    print(json.dumps(summary, default=str))
    return 0 if "error" not in summary else 1


def run(args):
    import os
    if getattr(args, "runtime", None):  # the linked units' launcher reads it from here
        os.environ["FATHOM_RUNTIME"] = args.runtime
    if args.game is None:
        from fathom import games
        args.game = games.IDS[0]
    engine = load_engine(args.game)
    n = args.units or engine.PLAYERS[0]
    if not engine.PLAYERS[0] <= n <= engine.PLAYERS[1]:
        raise FathomError("%s takes %d to %d players" % (engine.TITLE, *engine.PLAYERS))
    opts = parse_options(engine, args.option)
    levels = levels_for(args, n)
    if args.replay is not None:
        return replay(args, engine, opts, n, levels)
    stats = new_stats(args, args.game, n)
    stats["bots"] = levels
    if engine.COOPERATIVE:  # one team: report its win rate, not draws
        stats["cooperative"] = True
        stats["team_wins"] = 0
    stats["_turns"] = 0
    t0 = time.monotonic()
    if args.link == "direct":
        run_direct(args, engine, opts, n, levels, stats)
    else:
        from fathom_host.simlink import run_linked
        run_linked(args, engine, opts, n, levels, stats)
    stats["wall_s"] = round(time.monotonic() - t0, 2)
    done = stats["completed"]
    turns = stats.pop("_turns")
    stats["mean_turns"] = round(turns / done, 1) if done else 0.0
    stats["win_rates"] = [round(w / done, 3) if done else 0.0 for w in stats["wins"]]
    if stats.get("cooperative"):
        stats["team_win_rate"] = round(stats["team_wins"] / done, 3) if done else 0.0
    if not stats["failures"]:
        del stats["failures"]
    print(json.dumps(stats, sort_keys=True))
    return 0 if not (stats["desyncs"] or stats["crashes"] or stats["audit_failures"]) else 1
