# `fathom bench device`: what a unit spends on an ESP32-sized runtime, measured in the real app.
# Each game is started by the firmware's own peers.vs_bots (seeded, with this unit's seat played
# by the app's AutoPlayer at the sharp level), saved, and the unit booted on it: App resumes it
# through the save/resume path a rebooted board takes and plays it to its end against the
# in-unit sharp bot, journalling every event, then goes home (and one more game with the hard
# bot in both seats where the game offers it: `<game>_hard`). The hub twin samples the live heap
# after gc every loop (FATHOM_HEAPWATCH) and the runtime's probe counts the largest allocation
# and the C stack peak; the same game is played again under -X heapsize=96k to see it complete.
# max_alloc and stack_peak cover the whole run; play_max_alloc and play_stack_peak only the app's
# loops after the first, i.e. without boot and the resumed game's modules loading. On stock the
# difference in max_alloc is MicroPython's qstr pool: each .mpy interns its names into a table
# that grows by doubling (4,504 B at 640 entries, 8,984 B at 1,280) and is never freed.
import hashlib
import os
import shutil

from fathom_host import FathomError, use_firmware
from fathom_host.bench import FAST_GAMES
from fathom_host.bench.heaps import BUDGET_HEAP, FAST, MEASURE_HEAP, WATCH
from fathom_host.bench.metrics import int_metrics as metrics
from fathom_host.emulator.units import Emulator, micropython_exe

LEVEL = "sharp"
REPLAY = "RIGHT: Replay"   # the result screen's line (flow/gameend.REPLAY)
REPLAY_PRESSES = 2000      # turns stepped at most: a replay that never ends is a finding
GAME_TIMEOUT_S = int(os.environ.get("FATHOM_BENCH_GAME_S", "600"))


def long_level(gid):
    """The long tail: where sharp bots end a game in tens of moves, its declaration names the
    bots (LONG_BOTS) that play both seats of one more, long game; None for the others."""
    use_firmware()
    from fathom import games
    return getattr(games.declaration(gid), "LONG_BOTS", None)


def all_games():
    use_firmware()
    from fathom import games
    return tuple(games.IDS)


def offers_hard(gid):
    """The game's menus offer its hard bot (games.bots.levels): then a unit may play it."""
    use_firmware()
    from fathom.games.bots import levels
    return "hard" in levels(gid)


def game_seed(gid, k):
    return hashlib.sha256(b"fathom bench device %s %d" % (gid.encode(), k)).digest()[:16]


def write_game(datadir, gid, k, level=LEVEL):
    """Start game k of `gid` vs the sharp bot into the unit's storage, as the game menu's
    "vs bot: sharp" (or "with bot: sharp") would, with seeded salts and the app's AutoPlayer
    playing this unit's seat."""
    use_firmware()
    from fathom import games, peers
    from fathom.hal.storage import Storage
    from fathom.runner import Runner
    decl = games.declaration(gid)
    n = 2 if decl.PLAYERS[0] == 1 else decl.PLAYERS[0]
    seed = game_seed(gid, k)
    counter = [0]

    def urandom(nbytes):  # seeded salts: the same game every run
        counter[0] += 1
        return hashlib.sha256(seed + bytes([counter[0]])).digest()[:nbytes]

    class Autoplayed(Runner):
        def __init__(self, seat, peers, storage=None, gid="", meta=None, *a, **kw):
            if meta is not None and seat.player == 0:
                meta = dict(meta, autoplay=level)
            Runner.__init__(self, seat, peers, storage, gid, meta, *a, **kw)

    saved = os.urandom
    os.urandom = urandom
    try:
        peers.vs_bots(Autoplayed, Storage(str(datadir)), gid, games.options(gid), level, seed, n)
    finally:
        os.urandom = saved
    games.unload(gid)


def game_events(datadir):
    use_firmware()
    from fathom import games
    from fathom.hal.storage import Storage
    from fathom.runner import load
    r = load(Storage(str(datadir)), games.engine)
    return len(r.seat.log) if r is not None else None


def _finished(c):
    return c.text and c.text[0] == "Result" and any(
        "verified" in line or "fails" in line for line in c.text)


def _stopped(c):
    """The result, or a screen that ends the game early (a save it could not resume)."""
    return _finished(c) or (c.text and c.text[0] in ("Saved game", "DESYNC"))


def _fresh(unit):
    unit.kill()
    shutil.rmtree(unit.dir / "data", ignore_errors=True)
    (unit.dir / "data").mkdir(parents=True)


def play_one(measure, budget, gid, k, level=LEVEL):
    """Game k on both units at once: `measure` with a roomy heap and the heap watch, `budget`
    under 96 KB. Returns the figures."""
    for u, heap, env in ((measure, MEASURE_HEAP, WATCH), (budget, BUDGET_HEAP, FAST)):
        _fresh(u)
        write_game(u.dir / "data", gid, k, level)
        u.extra_env.update(env)
        u.start(heap=heap, wait=False)
    out = {}
    try:
        c = measure.wait(_stopped, GAME_TIMEOUT_S, "the game's result")
        if not _finished(c):
            raise FathomError(" / ".join(c.text))
        out["verdict"] = [l for l in c.text if "verified" in l or "fails" in l][-1]
        out["events"] = game_events(measure.dir / "data")
        m = metrics(measure)
        out.update(peak_heap=m["peak"], max_alloc=m["max_alloc"], stack_peak=m["stack_peak"],
                   play_max_alloc=m["play_max_alloc"], play_stack_peak=m["play_stack_peak"])
        out.update(replay(measure))
        out["heap_after_game"] = back_home(measure)
    except FathomError as e:
        out["error"] = str(e).splitlines()[0][:300]
    try:
        c = budget.wait(_stopped, GAME_TIMEOUT_S, "the game's result under 96k")
        out["under_96k"] = _finished(c)
        if not out["under_96k"]:
            out["under_96k_error"] = " / ".join(c.text)[:200]
        elif replay(budget):  # the replay opened, stepped to its end and closed in 96 KB
            out["replay_under_96k"] = True
    except FathomError as e:
        out["under_96k"] = False
        tail = [l for l in budget.console().splitlines() if l.strip() and l != "fathom: home"]
        out["under_96k_error"] = (tail[-1] if tail else str(e).splitlines()[0])[:200]
    return out


def replay(unit):
    """The replay after the audit (RIGHT on the result): stepped to the end a turn at a time,
    back a turn and an event (each a run from the start), closed. Its own peaks: the heap watch
    and the probe's are reset as it opens. {} where the result offers none."""
    c = unit.wait(lambda c: True, 10, "connection")
    if not any(REPLAY in line for line in c.text):
        return {}
    c.send(b"P")  # forget the game's peaks: what follows is the replay's alone
    unit.press("RIGHT")
    unit.wait(lambda c: c.text and c.text[0].startswith("Replay "), 30, "the replay")
    steps = 0
    while True:
        at, end = unit.wait(lambda c: True, 10, "the replay").text[0].split()[1].split("/")
        if at == end or steps > REPLAY_PRESSES:
            break
        unit.press("DOWN")
        steps += 1
    unit.press("UP")
    unit.press("LEFT")
    m = metrics(unit)
    unit.press("BACK")
    unit.wait(lambda c: c.text and c.text[0] == "Result", 30, "the result after the replay")
    return {"replay_peak_heap": m["peak"], "replay_max_alloc": m["max_alloc"],
            "replay_stack_peak": m["stack_peak"], "replay_turns": steps}


def back_home(unit):
    """OK on the result screen: the home menu again, and the live heap there after gc."""
    unit.press("OK")
    unit.wait(lambda c: c.text and c.text[0] == "fathom", 30, "home after the game")
    return metrics(unit)["heap"]


def loaded_modules(unit):
    """The unit's sys.modules, sorted: what its heap is spent on."""
    c = unit.wait(lambda c: True, 10, "connection")
    c.modules = None
    c.send(b"L")
    return unit.wait(lambda c: c.modules is not None, 10, "the module list").modules


def settle(runtime, games=None, k=0):
    """What a game leaves behind: the live heap at the home menu after boot, then after each
    game (game k vs the sharp bot, resumed, played to its end, OK) back at the home menu, with
    the fathom modules loaded there that were not at boot. One unit, no 96k run."""
    games = games or all_games()
    micropython_exe(runtime)  # built (or rebuilt) before the unit's boot timeout runs
    emu = Emulator(1, runtime=runtime)
    try:
        u = emu.units[0]
        _fresh(u)
        u.extra_env.update(FAST)
        u.start(heap=MEASURE_HEAP)
        u.wait_text("Settings", 30)
        out = {"runtime": runtime, "home_heap": metrics(u)["heap"], "games": {}}
        at_boot = set(loaded_modules(u))
        for gid in games:
            _fresh(u)
            write_game(u.dir / "data", gid, k)
            u.start(heap=MEASURE_HEAP, wait=False)
            c = u.wait(_stopped, GAME_TIMEOUT_S, "the result of %s" % gid)
            if not _finished(c):
                raise FathomError("%s: %s" % (gid, " / ".join(c.text)))
            heap = back_home(u)
            extra = sorted(m for m in loaded_modules(u)
                           if m.startswith("fathom") and m not in at_boot)
            out["games"][gid] = {"heap_after_game": heap, "modules_left": extra}
        return out
    finally:
        emu.close()


def home(emu):
    u = emu.units[0]
    _fresh(u)
    u.extra_env.update(FAST)
    u.start(heap=MEASURE_HEAP)
    u.wait_text("Settings", 30)
    m = metrics(u)
    u.kill()
    return {"home_heap": m["heap"], "twins_bytes": m["twins"], "twins_live": m["twins_live"],
            "home_max_alloc": m["max_alloc"], "home_stack_peak": m["stack_peak"]}


def bench_runtime(runtime, n_games, games=None):
    games = games or all_games()
    exe = micropython_exe(runtime)  # built (or found stale and rebuilt) before any timing
    emu = Emulator(2, runtime=runtime)
    try:
        out = {"runtime": runtime, "exe": exe, "games_each": n_games}
        out.update(home(emu))
        per = {}
        for gid in games:
            rows = [play_one(emu.units[0], emu.units[1], gid, k) for k in range(n_games)]
            per[gid] = summarise(rows)
            level = long_level(gid)
            if level:
                per[gid + "_long"] = summarise([play_one(emu.units[0], emu.units[1], gid,
                                                         n_games, level)])
            if offers_hard(gid):   # the hard bot, where a unit may play it: one game
                per[gid + "_hard"] = summarise([play_one(emu.units[0], emu.units[1], gid,
                                                         n_games + 1, "hard")])
        out["games"] = per
        return out
    finally:
        emu.close()


def summarise(rows):
    ok = [r for r in rows if "error" not in r]
    s = {"played": len(rows), "measured": len(ok),
         "completed_under_96k": all(r["under_96k"] for r in rows),
         "replay_under_96k": all(r.get("replay_under_96k") for r in rows),
         "completed_under_96k_count": sum(1 for r in rows if r["under_96k"])}
    for key in ("peak_heap", "max_alloc", "stack_peak", "play_max_alloc", "play_stack_peak",
                "heap_after_game", "replay_peak_heap", "replay_max_alloc", "replay_stack_peak"):
        if ok and all(key in r for r in ok):
            s[key] = max(r[key] for r in ok)
    if ok:
        s["longest_game_events"] = max(r["events"] or 0 for r in ok)
        s["verdicts"] = sorted(set(r["verdict"] for r in ok))
    errors = [r["error"] for r in rows if "error" in r]
    errors += [r["under_96k_error"] for r in rows if "under_96k_error" in r]
    if errors:
        s["errors"] = sorted(set(errors))[:3]
    return s


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--game", default=None, help="only this game (default every game)")
    p.add_argument("--games", type=int, default=None, help="seeded games per game (default 5)")
    p.add_argument("--link", action="store_true",
                   help="linked games instead, through the real app on the frozen runtime: "
                        "units paired over the emulated ESP-NOW through their keys, each played "
                        "by its scripted player (every game on 2 units, and in groups of 4 and "
                        "of the most it takes; --game picks one game's cases); each unit's peak "
                        "live heap and largest allocation, and whether the game completes under "
                        "96k")
    runtime_option(p, ("stock", "frozen", "both"), "; stock, frozen or both (the default; "
                                                    "--fast: frozen)")


def collect(args):
    """`fathom bench device`: both 32-bit runtimes (or --runtime), every game (or --game);
    --fast: one game of each on the frozen runtime, what tests/device/test_device_budget.py holds."""
    which = getattr(args, "runtime", None) or ("frozen" if args.fast else "both")
    if which == "wheel":
        raise FathomError("bench device measures the 32-bit runtimes: --runtime stock|frozen|both")
    runtimes = ("stock", "frozen") if which == "both" else (which,)
    if args.fast:
        n = FAST_GAMES
    else:
        n = args.games if args.games_given else 5
    games = (args.game,) if args.game_given else None
    out = {rt: bench_runtime(rt, n, games) for rt in runtimes}
    return out if len(out) > 1 else out[runtimes[0]]
