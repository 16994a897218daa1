# `fathom bench device --link`: linked games on an ESP32-sized runtime, through the real app.
# Units on the ether's ESP-NOW are paired through their keys (the game menu, the partner list,
# the code; a group through the Players menu and Join a group) and each plays through its keys
# with its own scripted player (hostmodes/uxplayer), so the heap holds what a linked board's
# holds: the app, the game's screen, the runner, the session, the link and its peers. Every case
# is played twice: once with a roomy heap and the hub's heap watch (the live heap after gc
# every loop, FATHOM_HEAPWATCH; the probe's largest allocation) for the figures, once under
# -X heapsize=96k without the watch (its gc every loop would hide fragmentation) to see every
# unit complete. The deals differ between the two runs: the joint seed comes from both units'
# nonces. The scripted player and its bot sit in the unit's heap too (a person's thumbs do
# not), so the figures are a little above a board's.
import pathlib
import shutil
import tempfile
import time

from fathom_host import FathomError, use_firmware
from fathom_host.bench.heaps import BUDGET_HEAP, FAST, MEASURE_HEAP, WATCH
from fathom_host.bench.metrics import int_metrics as metrics
from fathom_host.emulator.drive import pair, pair_group, play_out, player_env
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import BOOT_TIMEOUT_S, Emulator, micropython_exe

GROUPS = (4,)            # group sizes played besides the largest a game takes
GAME_TIMEOUT_S = 900     # one linked game, the eight-unit group on a loaded machine included


def cases():
    """name -> (game, units, game-menu options as (label, value)), read from the registry: every
    game on 2 units, and in groups of 4 and of the most it takes. Two units keep the game's
    default options (the sealed deal is on for PING and Periplus linked); a group plays those
    its declaration names QUICK (Sugar Dog's 10 calm rounds, as the group tests), to end in
    minutes."""
    use_firmware()
    from fathom import games
    out = {}
    for gid in games.IDS:
        d = games.declaration(gid)
        lo, hi = max(d.PLAYERS[0], 2), d.PLAYERS[1]
        for n in sorted(set(x for x in (2,) + GROUPS + (hi,) if lo <= x <= hi)):
            name = gid if n == 2 else "%s_%d" % (gid, n)
            out[name] = (gid, n, () if n == 2 else quick_options(d))
    return out


def quick_options(decl):
    """The declaration's QUICK options as the game menu shows them: (label, value)."""
    specs = dict((o[0], o) for o in decl.OPTIONS)
    out = []
    for key, value in getattr(decl, "QUICK", ()):
        spec = specs.get(key)
        if spec is None or value not in spec[2]:
            raise FathomError("%s declares QUICK %s=%r: not one of its options" % (
                decl.ID, key, value))
        shown = spec[4][spec[2].index(value)] if len(spec) > 4 else str(value)
        out.append((spec[1], shown))
    return tuple(out)


def cheapest():
    """The quickest case: the first game in menu order on two units (PING: ~20 s a game)."""
    return next(n for n, c in cases().items() if c[1] == 2)


def title(gid):
    use_firmware()
    from fathom import games
    return games.declaration(gid).TITLE


def levels(gid, n):
    """Every player sharp, except a large group's partners: easy players end Sugar Dog in a few
    rounds, as in the group tests."""
    return ["sharp" if i == 0 or n <= 4 else "easy" for i in range(n)]


def set_options(options):
    """The host's game menu: each (label, value) cycled until the item shows that value."""
    def on_menu(u):
        for label, value in options:
            for _ in range(12):
                sel = u.selected() or ""
                if sel.startswith(label) and sel.endswith(": " + value):
                    break
                u.choose(label)
            else:
                raise FathomError("unit %d: could not set %s to %s: %r" % (
                    u.index, label, value, u.text))
    return on_menu


def play_case(gid, n, options, heap, watch, runtime, workdir, seed=1):
    """One linked game of `gid` on n units (units[0] proposes, or hosts the group), each
    started with `heap`; the heap watch on when `watch`. Returns per-unit rows."""
    with Ether(seed=seed) as ether:
        emu = Emulator(n, workdir=workdir, ether=ether, runtime=runtime,
                       env={"FATHOM_LINK": "espnow"})
        try:
            for u, level in zip(emu.units, levels(gid, n)):
                u.extra_env.update(player_env(level))
                u.extra_env.update(WATCH if watch else FAST)
                u.start(heap=heap, wait=False)
            for u in emu.units:
                u.wait(lambda c: c.text and c.screen is not None, BOOT_TIMEOUT_S, "boot")
            t0 = time.monotonic()
            if n == 2:
                pair(emu.units, title(gid))
            else:
                pair_group(emu.units, title(gid), options=set_options(options))
            results, _reports = play_out(emu.units, timeout=GAME_TIMEOUT_S)
            took = time.monotonic() - t0
            rows = []
            for u, lines in zip(emu.units, results):
                row = {"verified": "verified" in lines, "result": lines[1:2]}
                if watch:
                    m = metrics(u)
                    row.update(peak_heap=m["peak"], max_alloc=m["max_alloc"],
                               play_max_alloc=m["play_max_alloc"], stack_peak=m["stack_peak"])
                rows.append(row)
            return rows, took
        finally:
            emu.close()


def _failure(e, workdir, n):
    """The first line of the error, the screen a unit timed out on, the player's report, and
    the end of any traceback a unit printed (where a MemoryError struck)."""
    text = str(e).splitlines()
    out = {"error": text[0][:300]}
    if text[0].endswith("screen:"):  # a wait's timeout: the unit's text follows, then its console
        out["screen"] = [l[:60] for l in text[1:9]]
    said = [l for l in text if "'error'" in l]  # a scripted player's own report
    if said:
        out["player"] = said[0][:300]
    tails = {}
    for i in range(n):
        log = workdir / ("unit%d" % i) / "console.log"
        lines = [l for l in log.read_text(errors="replace").splitlines()
                 if l.strip() and l != "fathom: home"] if log.exists() else []
        if any(l.startswith("Traceback") for l in lines[-16:]):
            at = max(k for k, l in enumerate(lines) if l.startswith("Traceback"))
            tails[i] = [l.strip()[:160] for l in lines[at + 1:]][-8:]
    if tails:
        out["unit_errors"] = tails
    return out


def _roles(rows, n):
    """Two units: the proposer and the other; a group: the host and its partners (the worst)."""
    names = ("proposer", "other") if n == 2 else ("host", "partners")
    keys = ("peak_heap", "max_alloc", "play_max_alloc", "stack_peak")
    out = {names[0]: {k: rows[0][k] for k in keys}}
    out[names[1]] = {k: max(r[k] for r in rows[1:]) for k in keys}
    return out


def bench_case(name, runtime="frozen"):
    gid, n, options = cases()[name]
    out = {"game": gid, "units": n, "options": dict(options)}
    base = pathlib.Path(tempfile.mkdtemp(prefix="fathom-devlink-"))
    try:
        try:
            rows, took = play_case(gid, n, options, MEASURE_HEAP, True, runtime, base / "watch")
            out.update(_roles(rows, n))
            out["verified"] = all(r["verified"] for r in rows)
            out["peak_heap"] = max(r["peak_heap"] for r in rows)
            out["measure_s"] = round(took, 1)
        except FathomError as e:
            out.update(_failure(e, base / "watch", n))
        try:
            rows, took = play_case(gid, n, options, BUDGET_HEAP, False, runtime, base / "96k")
            out["under_96k"] = all(r["verified"] for r in rows)
            out["under_96k_s"] = round(took, 1)
        except FathomError as e:
            out["under_96k"] = False
            out["under_96k_error"] = _failure(e, base / "96k", n)
    finally:
        shutil.rmtree(str(base), ignore_errors=True)
    return out


def bench_link_device(runtime, names=None):
    planned = cases()
    names = names or tuple(planned)
    for nm in names:
        if nm not in planned:
            raise FathomError("no linked case %r: choose from %s" % (nm, ", ".join(planned)))
    micropython_exe(runtime)  # built (or found stale and rebuilt) before any unit's boot wait
    return {"runtime": runtime, "cases": {nm: bench_case(nm, runtime) for nm in names}}


def plan(args):
    """The cases `fathom bench device --link` plays: every case, or --game's."""
    if getattr(args, "runtime", None) not in (None, "frozen"):
        raise FathomError("bench device --link measures the frozen runtime only (stock "
                          "misses the budgets alone: its bytecode sits on the heap)")
    planned = cases()
    if not getattr(args, "game_given", False):
        return tuple(planned)
    names = tuple(k for k, c in planned.items() if c[0] == args.game)
    if not names:
        raise FathomError("no linked case plays %s: the games are %s" % (
            args.game, ", ".join(sorted(set(c[0] for c in planned.values())))))
    return names


def collect(args):
    return bench_link_device("frozen", plan(args))
