# `fathom bench soak`: a larger soak per game with faults on the emulated links, through
# `fathom sim`; any failure carries the seed (`fathom sim --replay SEED`) or the linked game's
# record.
import argparse
import contextlib
import io
import json

from fathom_host import sim, use_firmware
from fathom_host.bench import FAST_GAMES

LOSS = 0.3


def soak_plan():
    """(game, players, link) for every registered game: three units where the game takes more
    than two (a group, over ESP-NOW), else two over ESP-NOW and UART by turns."""
    use_firmware()
    from fathom import games
    plan = []
    for i, gid in enumerate(games.IDS):
        top = games.declaration(gid).PLAYERS[1]
        if top > 2:
            plan.append((gid, 3, "espnow"))
        else:
            plan.append((gid, 2, ("espnow", "uart")[i % 2]))
    return plan


def fast_plan():
    """--fast: the first game of the plan only."""
    return soak_plan()[:1]


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--games", type=int, default=None, help="games per soak run (default 20)")
    runtime_option(p)


def collect(args):
    """A larger soak per game with faults on the emulated links; any failure carries the seed
    (`fathom sim --replay SEED`) or the linked game's record."""
    out = {}
    loss = LOSS
    fast = getattr(args, "fast", False)
    for gid, players, link in fast_plan() if fast else soak_plan():
        a = argparse.Namespace(game=gid, games=FAST_GAMES if fast else args.games,
                               units=players, seed=7, link=link, bot="random", bots="sharp," + ",".join(["random"] * (players - 1)),
                               option=[], loss=loss, dup=0.05 if loss else 0.0,
                               corrupt=0.05 if loss else 0.0, replay=None, timeout=300.0)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            sim.run(a)
        out["%s_%s" % (gid, link)] = json.loads(buf.getvalue())
    return out
