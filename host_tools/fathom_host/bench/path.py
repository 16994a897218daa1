# `fathom bench path`: the Python of a move's path between two units on the frozen 32-bit runtime
# (bench/mp/pathrun.py), and from it the press-to-partner's-panel estimate for an ESP32 that
# docs/ARCHITECTURE.md ("A press to the partner's panel") explains part by part: CPU scaled by
# the pystone-anchored factor (the partner's redraw too, timed on its game's own screen), the
# flash writes counted, the radio, the loop waits and the I2C bytes.
import json
import os
import pathlib
import subprocess
import tempfile

from fathom_host import FIRMWARE, FathomError, use_firmware
from fathom_host.emulator.units import micropython_exe, micropython_path

DRIVER = pathlib.Path(__file__).parent / "mp" / "pathrun.py"
MOVES = 60            # timed moves per game, over as many seeds as that takes (pathrun.GAMES)
FAST_MOVES = 8
RUNS = 3              # the same game again; each time the middle run's figure is kept (each
                      # run's are already at the reference pace: bench/mp/pathrun.py)
TIMES = ("a_us", "b_answer_us", "b_move_us", "late_us", "redraw_answer_us", "redraw_move_us",
         "redraw_answer_p90_us", "redraw_move_p90_us")

# The ESP32 estimate, ms: (typical, bad case). docs/ARCHITECTURE.md gives the sources.
FACTOR = (60, 92)                 # the 32-bit runtime's CPU time at 124k pystones/s times this
FACTOR_MHZ = 240                  # the clock FACTOR is for: an ESP32's top one, which a lit unit
                                  # runs at (its profile's cpu_mhz, set at boot by hal/hw.py)
PRESS = (2, 12)                   # the press confirmed 2 ms after its edge woke the loop
                                  # (PRESS_CONFIRM_MS, which hal/rest.py sleeps to the ms); bad:
                                  # the loop was in a step (up to 10 ms) when the edge came
RADIO = (2, 7)                    # ESP-NOW one way
LOOP = (5, 10)                    # the partner's loop wait
APPEND = (3, 25)                  # a journal append (bad: a 4 KB sector erased first)
SAVE = (7, 25)                    # a channel save: a small file written and renamed
# The partner's redraw is timed per move on its game's screen (pathrun: the screen's tick,
# fill, draw and show), typical its median, bad its 90th percentile. It was a constant, 400 /
# 700 us, a home menu's cursor move (bench boot); a game's screen after a move works out what
# the move changed (its legal actions, the words of what happened, wrapped) and took 0.4-2.4 ms.
I2C = (12, 23)                    # the changed pages at 400 kHz (a whole frame: 23 ms)


def _flash(files, k):
    """ms of flash for (opens, renames): each rename is a save, the other opens appends."""
    opens, renames = files
    return renames * SAVE[k] + (opens - renames) * APPEND[k]


def estimate(row):
    """The ESP32 press-to-partner's-panel ms, typical and bad, for a move the partner answers
    and one it does not (None where the game had no such move)."""
    out = {}
    for kind, b_us, b_files, redraw in (
            ("answered", row["b_answer_us"], row["files_b_answer"],
             (row["redraw_answer_us"], row["redraw_answer_p90_us"])),
            ("unanswered", row["b_move_us"], row["files_b_move"],
             (row["redraw_move_us"], row["redraw_move_p90_us"]))):
        if b_us is None:
            continue
        for k, name in ((0, "typical"), (1, "bad")):
            ms = (PRESS[k] + row["a_us"] * FACTOR[k] / 1000 + _flash(row["files_a"], k)
                  + RADIO[k] + LOOP[k] + b_us * FACTOR[k] / 1000 + _flash(b_files, k)
                  + redraw[k] * FACTOR[k] / 1000 + I2C[k])
            out["esp32_%s_%s_ms" % (kind, name)] = round(ms)
    return out


def add_arguments(p):
    p.add_argument("--game", default=None, help="only this game (default every game two units "
                                                "play)")


def collect(args):
    from fathom_host.bench.turn import two_player_games
    use_firmware()
    gids = [args.game] if args.game else two_player_games()
    fast = getattr(args, "fast", False)
    moves = FAST_MOVES if fast else MOVES
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(micropython_path("frozen")),
               FATHOM_DATA=str(FIRMWARE / "fathom"))  # Pinned Down's decks, as in the emulator
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None  # RAM: the interpreter, not a disk
    out = {}
    for gid in gids:
        runs = [_run(gid, moves, env, shm) for _ in range(1 if fast else RUNS)]
        row = runs[0]
        for k in TIMES + ("pystones",):
            if row[k] is not None:
                row[k] = sorted(r[k] for r in runs)[len(runs) // 2]
        row.update(estimate(row))
        del row["game"]
        out[gid] = row
    return out


def _run(gid, moves, env, shm):
    with tempfile.TemporaryDirectory(dir=shm) as root:
        proc = subprocess.run([micropython_exe("frozen"), "-X", "heapsize=4m", str(DRIVER),
                               gid, root, str(moves)],
                              capture_output=True, text=True, env=env, timeout=600)
    rows = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    if not rows:
        raise FathomError("bench path: %s: %s" % (gid, (proc.stderr or proc.stdout)[-400:]))
    return rows[0]
