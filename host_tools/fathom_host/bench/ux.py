# `fathom bench ux`: how many key presses a person needs. One emulated unit per game runs the
# scripted player (hostmodes/uxplayer): from power-on it opens the game from the home menu,
# starts it against the bot the game menu offers first, and plays every choice the way a person with a plan
# would: a bot of the same level picks the action, the screen says which keys author it, and
# those keys go through the Pin twin and the button driver. Reported per game: presses per
# action (median, 90th percentile, max) and presses from power-on to the first choice made,
# and what the player could read (measured from the text the unit drew, hostmodes/uxplayer):
# events_unseen, the events whose words were not all drawn before the player's next action,
# and cut_lines, the distinct drawn lines that end in a cut ('~'). Each game runs on every
# panel size in SIZES: the figures for 128x64 at the game's top level, the others under their
# size.
import shutil
import statistics

from fathom_host import FathomError, use_firmware
from fathom_host.bench import FAST_GAMES, p90
from fathom_host.emulator.units import Emulator

GAME_TIMEOUT_S = 600
AUDIT_TIMEOUT_S = 60
TARGETS = {"median": 4, "p90": 8, "first_move": 10}
GAMES = 4         # games per game and size: fewer left a median resting on a dozen actions
SIZES = (("128x64", "host"), ("72x40", "esp32c3_oled_72x40"))   # (panel, board profile)


def path_for(gid):
    """The menu items a new player opens to play `gid`: the game, then the easiest bot, one
    DOWN below How to play (where a game never started opens its menu). The player's own
    choices are the sharp bot's (the second value): a person with a plan."""
    use_firmware()
    from fathom import games
    from fathom.games.bots import levels
    d = games.declaration(gid)
    verb = "with" if d.PLAYERS[0] == 1 else "vs"
    player = "sharp" if "sharp" in levels(gid) else levels(gid)[0]
    return "%s/%s bot: %s" % (d.TITLE, verb, levels(gid)[0]), player


def play(unit, gid, k):
    """One game of `gid` on `unit` from power-on; the player's report."""
    path, level = path_for(gid)
    unit.kill()
    shutil.rmtree(unit.dir / "data", ignore_errors=True)
    (unit.dir / "data").mkdir(parents=True)
    unit.extra_env.update({"FATHOM_UXPLAYER": "level=%s,path=%s,read" % (level, path),
                           "FATHOM_FAST_BOTS": "1"})
    unit.start()
    c = unit.wait(lambda c: c.ux is not None, GAME_TIMEOUT_S, "the scripted player's report")
    if "error" in c.ux:
        raise FathomError("%s game %d: %s" % (gid, k, c.ux["error"]))
    # a game counts once both sides agree on its end: the audit verified on the unit's screen
    unit.wait(lambda c: c.text and c.text[0] == "Result" and "verified" in c.text,
              AUDIT_TIMEOUT_S, "%s game %d's verified result" % (gid, k))
    return c.ux


def summary(reports):
    presses = [n for r in reports for n in r["presses"]]
    firsts = [r["first_move"] for r in reports]
    out = {"games": len(reports), "actions": len(presses),
           "median": statistics.median(presses), "p90": p90(presses), "max": max(presses),
           "min": min(presses),
           "first_move": max(firsts),
           "events": sum(r["events"] for r in reports),
           "events_unseen": sum(r["events_unseen"] for r in reports),
           "cut_lines": max(r["cut_lines"] for r in reports)}
    out["meets_targets"] = all(out[key] <= v for key, v in TARGETS.items())
    unseen = [x for r in reports for x in r["unseen_examples"]]
    cut = sorted(set(x for r in reports for x in r["cut_examples"]))
    if unseen:
        out["unseen_examples"] = unseen[:5]
    if cut:
        out["cut_examples"] = cut[:8]
    return out


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--game", default=None, help="only this game (default every game)")
    p.add_argument("--games", type=int, default=None, help="games per game (default 4)")
    runtime_option(p)


def collect(args):
    """--fast: one game of the first game in menu order."""
    if getattr(args, "fast", False):
        use_firmware()
        from fathom import games
        args.games, args.games_given = FAST_GAMES, True
        return bench_ux(args, [args.game if args.game_given else games.IDS[0]])
    return bench_ux(args)


def bench_ux(args, gids=None):
    use_firmware()
    from fathom import games
    gids = gids or ([args.game] if getattr(args, "game_given", False) else list(games.IDS))
    n = args.games if getattr(args, "games_given", False) else GAMES
    sizes = getattr(args, "sizes", None) or [s for s, _b in SIZES]
    out = {}
    for size, board in SIZES:
        if size not in sizes:
            continue
        emu = Emulator(1, board=board)
        try:
            u = emu.units[0]
            for gid in gids:
                r = summary([play(u, gid, k) for k in range(n)])
                if size == SIZES[0][0]:
                    out.setdefault(gid, {}).update(r)
                else:
                    out.setdefault(gid, {})[size] = r
        finally:
            emu.close()
    return out
