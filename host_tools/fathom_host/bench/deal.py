# `fathom bench deal`: what the sealed deal costs (docs/SEALED_DEAL.md). The protocol runs between
# two players inside one real MicroPython process (bench/mp/dealrun.py) on the 64-bit wheel and
# on the 32-bit stock runtime (an ESP32's object sizes); each player's work is timed and its
# exponentiations counted apart. The ESP32 estimate scales the 32-bit figure by 30-60x (the
# usual gap between this host and an ESP32 at 240 MHz); the targets are those of
# docs/SEALED_DEAL.md ("Cost, measured"). "games": one whole sealed game of every game that
# offers the sealed deal, through the engines (hostmodes.sealedplay.engine_game):
# exponentiations and engine time per unit, in play and in the final audit.
import argparse
import json
import os
import pathlib
import subprocess

from fathom_host import FIRMWARE, FathomError
from fathom_host.bench import show

RUNTIMES = ("wheel", "stock")
ESP32_FACTORS = (30, 60)
TARGETS_S = {"ping_deal": 5.0, "periplus_setup": 15.0, "draw3": 1.0}
RUN_TIMEOUT_S = 900
DRIVER = pathlib.Path(__file__).parent / "mp" / "dealrun.py"


def exe(kind):
    if kind == "wheel":
        from fathom_host.emulator.units import micropython_exe
        return micropython_exe()
    from fathom_host import runtime as rt
    return str(rt.ensure(kind))


def run_runtime(kind, bits=0, runs=3):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), ".frozen"]))
    try:
        proc = subprocess.run([exe(kind), "-X", "heapsize=4m", str(DRIVER), str(bits), str(runs)],
                              capture_output=True, text=True, env=env, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise FathomError("bench deal: the %s runtime timed out" % kind)
    rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode or not rows:
        raise FathomError("bench deal on %s failed: %s" % (kind, (proc.stderr or proc.stdout)[-400:]))
    return json.loads(rows[-1])


def bench_deal(bits=0, runs=3):
    raw = {k: run_runtime(k, bits, runs) for k in RUNTIMES}
    out = {"bits": raw["stock"]["bits"], "esp32_factor": list(ESP32_FACTORS),
           "deck_kb_32bit": round(raw["stock"]["deck_bytes"] / 1024, 1),
           "tables_kb_32bit": round(raw["stock"]["tables_bytes"] / 1024, 1)}
    for phase in ("ping_deal", "periplus_setup", "draw3", "reshuffle30"):
        row = {"exps_per_unit": [u[1] for u in raw["stock"][phase]]}
        for k in RUNTIMES:
            row["ms_per_unit_" + k] = [round(u[0] / 1000, 1) for u in raw[k][phase]]
        worst_s = max(row["ms_per_unit_stock"]) / 1000
        row["esp32_s"] = [round(worst_s * f, 1) for f in ESP32_FACTORS]
        if phase in TARGETS_S:
            row["target_s"] = TARGETS_S[phase]
            row["meets_target_at"] = [f for f in ESP32_FACTORS if worst_s * f <= TARGETS_S[phase]]
        out[phase] = row
    out["games"] = {gid: game_row(raw, gid) for gid in raw["stock"].get("games", {})}
    return out


def game_row(raw, gid):
    """A whole sealed game through the engines (sharp bots, one seeded game): each unit's
    exponentiations and engine time while playing and in its end-of-game audit."""
    g = raw["stock"]["games"][gid]
    row = {"events": g["events"], "cards_opened": g["cards_opened"], "rounds": g["rounds"]}
    for part in ("play", "audit"):
        row[part + "_exps_per_unit"] = [u[1] for u in g[part]]
        for k in RUNTIMES:
            row[part + "_ms_per_unit_" + k] = [round(u[0] / 1000, 1)
                                               for u in raw[k]["games"][gid][part]]
        worst_s = max(row[part + "_ms_per_unit_stock"]) / 1000
        row[part + "_esp32_s"] = [round(worst_s * f, 1) for f in ESP32_FACTORS]
    return row


def collect(args):
    return bench_deal(runs=1) if getattr(args, "fast", False) else bench_deal()


def main(argv=None):
    p = argparse.ArgumentParser(prog="fathom bench deal")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--bits", type=int, default=0, help="modulus (768 or 1024; default: the games')")
    p.add_argument("--runs", type=int, default=3, help="runs per runtime; the least time counts")
    a = p.parse_args(argv)
    show(bench_deal(a.bits, a.runs), a.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
