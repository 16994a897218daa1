# `fathom sim --link espnow|uart`: real unit processes pair over the ether (with its fault
# knobs) and play bot games headlessly; each reports one JSON line per game and this tallies.
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

from fathom_host import BOARDS, FathomError
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import boot_script, default_runtime, micropython_exe, runtime_env


def unit_env(args, i, ether, gid, opts, level, workdir):
    e = dict(os.environ)
    e.update({
        "FATHOM_UNIT": str(i), "FATHOM_DIR": os.path.join(workdir, "unit%d" % i),
        "FATHOM_BOARD": str(BOARDS / "host.json"), "FATHOM_ETHER": "127.0.0.1:%d" % ether.port,
        "FATHOM_SIM": gid, "FATHOM_SIM_GAMES": str(args.games), "FATHOM_SIM_BOT": level,
        "FATHOM_SIM_LEAD": "1" if i == 0 else "0", "FATHOM_SIM_OPTS": json.dumps(opts),
        "FATHOM_SIM_TIMEOUT_MS": str(int(args.timeout * 1000)), "FATHOM_LINK": args.link,
    })
    if getattr(args, "lent", False):
        e["FATHOM_SIM_LENT"] = "1"
    if getattr(args, "peak_heap", False):
        e["FATHOM_SIM_HEAP"] = "1"
    e.update(runtime_env(default_runtime()))
    e.pop("FATHOM_HUB", None)
    return e


def run_linked(args, engine, opts, n, levels, stats):
    if n != 2 and args.link == "uart":
        raise FathomError("a cable joins two units; use --link espnow for %d players" % n)
    ether = Ether(seed=args.seed, loss=args.loss, dup=args.dup, corrupt=args.corrupt)
    ether.start()
    workdir = tempfile.mkdtemp(prefix="fathom-sim-")
    procs = []
    lines = [[] for _ in range(n)]
    try:
        for i in range(n):
            os.makedirs(os.path.join(workdir, "unit%d" % i), exist_ok=True)
            env = unit_env(args, i, ether, engine.NAME, opts, levels[i], workdir)
            env["FATHOM_SIM_PLAYERS"] = str(n)
            script, cwd = boot_script(default_runtime(), os.path.join(workdir, "unit%d" % i))
            heap = "heapsize=" + getattr(args, "heap", "4m")
            p = subprocess.Popen(
                [micropython_exe(), "-X", heap, str(script)], env=env, cwd=cwd,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            procs.append(p)
        ended = threading.Event()
        readers = [threading.Thread(target=_read, args=(p, lines[i], ended), daemon=True)
                   for i, p in enumerate(procs)]
        for r in readers:
            r.start()
        _wait_all(procs, ended, lines, quiet_limit(args, n), stats)
        for r in readers:
            r.join(5)
        counters = ether.counters.get(args.link, {})
        stats["ether"] = counters
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        ether.stop()
    tally(stats, lines, procs)
    if stats["failures"]:
        stats["workdir"] = workdir  # the units' files, kept to look at
    else:
        shutil.rmtree(workdir, ignore_errors=True)


def quiet_limit(args, n):
    """Seconds the host waits for any unit's next line: a unit reports every game and, while
    one moves, how far its log got (simrun.PROGRESS_MS), and fails one itself after --timeout
    without progress (its pairing after 60 s a partner), each stretched by how busy it finds
    the machine; this is the backstop for a unit that hangs, not a limit on a long game."""
    return args.timeout + 60 * max(1, n - 1) + 120


def _load():
    """The machine's load per core (1 when idle or unknown): the host's limit stretches by it
    as the units' own limits stretch by their pace."""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


def _games_done(ls):
    return sum(1 for line in ls if line.startswith("fathom-sim "))


def _wait_all(procs, ended, lines, quiet_s, stats):
    """Until every unit exits; a unit that crashed stops the others at once (they would wait
    for it to pair, game after game), and so does a run where no unit said anything for
    quiet_s (stretched by the machine's load): the failure names each unit's game."""
    heard, since = None, time.monotonic()
    while True:
        ended.clear()  # before looking: an exit after this sets it again
        if all(p.poll() is not None for p in procs):
            return
        now = time.monotonic()
        said = sum(len(ls) for ls in lines)
        if said != heard:
            heard, since = said, now
        crashed = [i for i, p in enumerate(procs) if p.returncode not in (None, 0)]
        left = since + quiet_s * _load() - now
        if crashed or left <= 0:
            stopped = [i for i, p in enumerate(procs) if p.poll() is None]
            for i in stopped:
                procs[i].kill()
                procs[i].wait()
            if crashed:
                why = "unit %d crashed in game %d" % (crashed[0], _games_done(lines[crashed[0]]))
            else:
                why = "no unit reported for %d s: %s" % (now - since, ", ".join(
                    "unit %d in game %d" % (i, _games_done(lines[i])) for i in stopped))
            stats["failures"].append({"kind": "stopped", "units": stopped, "detail": why})
            return
        ended.wait(min(left, 5.0))


def _read(proc, out, ended):
    for line in proc.stdout:
        out.append(line.rstrip("\n"))
    proc.wait()
    ended.set()


def tally(stats, lines, procs):
    per_unit = []
    for i, ls in enumerate(lines):
        games = {}
        for line in ls:
            if line.startswith("fathom-sim "):
                d = json.loads(line[len("fathom-sim "):])
                games[d["game"]] = d
        per_unit.append(games)
        if procs[i].returncode not in (0, None):
            stats["failures"].append({"kind": "crash", "unit": i,
                                      "detail": "\n".join(ls[-15:])})
    turns = 0
    peaks = [max([d["peak_heap"] for d in u.values() if "peak_heap" in d] or [0])
             for u in per_unit]
    if any(peaks):
        stats["peak_heap"] = peaks  # per unit (unit 0 hosts a group), the worst game
        # where each unit's peak was: [log length, game over]
        stats["peak_at"] = [max([d for d in u.values() if "peak_heap" in d] or [{}],
                                key=lambda d: d.get("peak_heap", 0)).get("peak_at")
                            for u in per_unit]
    # per unit, the worst game: the live heap's peak before the result; the largest heap block
    # (32-bit runtimes only), messages one link held unacknowledged, and file written whole
    for k in ("peak_play", "max_alloc", "max_queued", "max_write"):
        worst = [max([d[k] for d in u.values() if k in d] or [0]) for u in per_unit]
        if any(worst):
            stats[k] = worst
    for g in range(stats["games"]):
        recs = [u.get(g) for u in per_unit]
        if any(r is None or r.get("error") for r in recs):
            stats["crashes"] += 1
            # which unit failed and why; a unit with no record never reported this game
            why = {i: (r.get("error") if r is not None else "no report (the unit stopped)")
                   for i, r in enumerate(recs) if r is None or r.get("error")}
            stats["failures"].append({"kind": "crash", "game": g, "units": why,
                                      "detail": "; ".join("unit %d: %s" % (i, e)
                                                          for i, e in why.items())})
            continue
        a = recs[0]
        if any(r["desync"] or r["hash"] != a["hash"] or r["winners"] != a["winners"]
               for r in recs):
            stats["desyncs"] += 1
            stats["failures"].append({"kind": "desync", "game": g, "detail": recs})
            continue
        if any(v[1] is not None for r in recs for v in r["verdicts"]):
            stats["audit_failures"] += 1
            stats["failures"].append({"kind": "audit", "game": g, "detail": recs})
        stats["completed"] += 1
        if stats.get("cooperative"):
            stats["team_wins"] += 1 if a["winners"] else 0
        elif not a["winners"]:
            stats["draws"] += 1
        for unit, rec in enumerate(recs):  # count wins by unit (each unit keeps its bot)
            if rec["player"] in a["winners"]:
                stats["wins"][unit] += 1
        for r in recs:
            turns += r["turns"]
            for k in ("frames", "bytes", "retransmits"):
                stats[k] += r[k]
    stats["_turns"] = turns
    # per unit, per link (a group's host has one per partner): [retransmissions, frames sent,
    # messages delivered] summed over the games, so a link that fell behind shows by itself
    links = []
    for u in per_unit:
        tot = []
        for d in u.values():
            for i, row in enumerate(d.get("links") or []):
                if i == len(tot):
                    tot.append([0, 0, 0])
                tot[i] = [a + b for a, b in zip(tot[i], row)]
        links.append(tot)
    if any(links):
        stats["links"] = links
