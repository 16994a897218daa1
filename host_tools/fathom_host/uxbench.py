# `fathom bench ux`: how many key presses a person needs. One emulated unit per game runs the
# scripted player (hostmodes/uxplayer): from power-on it opens the game from the home menu,
# starts it against the bot the game menu offers first, and plays every choice the way a person with a plan
# would: a bot of the same level picks the action, the screen says which keys author it, and
# those keys go through the Pin twin and the button driver. Reported per game: presses per
# action (median, 90th percentile, max) and presses from power-on to the first choice made.
import shutil
import statistics

from fathom_host import FathomError, use_firmware
from fathom_host.units import Emulator

GAME_TIMEOUT_S = 600
AUDIT_TIMEOUT_S = 60
TARGETS = {"median": 4, "p90": 8, "first_move": 10}   # issue 17


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


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, (len(xs) * 9) // 10)]


def play(unit, gid, k):
    """One game of `gid` on `unit` from power-on; the player's report."""
    path, level = path_for(gid)
    unit.kill()
    shutil.rmtree(unit.dir / "data", ignore_errors=True)
    (unit.dir / "data").mkdir(parents=True)
    unit.extra_env.update({"FATHOM_UXPLAYER": "level=%s,path=%s" % (level, path),
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
    return {"games": len(reports), "actions": len(presses),
            "median": statistics.median(presses), "p90": p90(presses), "max": max(presses),
            "min": min(presses),
            "first_move": max(firsts)}


def bench_ux(args, gids=None):
    use_firmware()
    from fathom import games
    gids = gids or ([args.game] if getattr(args, "game_given", False) else list(games.IDS))
    n = args.games if getattr(args, "games_given", False) else 2
    out = {}
    emu = Emulator(1)
    try:
        u = emu.units[0]
        for gid in gids:
            out[gid] = summary([play(u, gid, k) for k in range(n)])
            out[gid]["meets_targets"] = all(out[gid][key] <= v for key, v in TARGETS.items())
    finally:
        emu.close()
    return out
