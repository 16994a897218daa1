# The sealed deal end to end, between two real emulated units: each runs the firmware's headless
# sim mode (hostmodes/simrun: the Connector, channel, runner and engines of a person's game,
# a sharp bot choosing) over the ether's ESP-NOW, pairs and plays one PING or Periplus game.
# Then, from everything one unit holds (the joint seed, its own salt and so its own secrets,
# every keyed message it sent or received, read back from the ether's capture), the attack of
# sealed_attack.py tries to determine the other player's hand after the opening deal. With
# the sealed deal it must find nothing; with the deal off the same attack reads the whole hand.
import json
import os
import subprocess
import tempfile
import threading
import types

import pytest

from kit.capture import keyed_messages
from fathom import games
from fathom.codec import decode
from fathom_host.emulator import units
from fathom_host.emulator.ether import Ether
from fathom_host.simlink import unit_env
from kit.sealed_attack import attack, deal_end, first_drawer, hand_after

pytestmark = pytest.mark.slow

GAME_S = 300


def run_units(gid, sealed, seed):
    """One game between two unit processes; (each unit's dump, the ether's capture)."""
    ether = Ether(seed=seed)
    ether.start()
    args = types.SimpleNamespace(games=1, timeout=GAME_S, link="espnow")
    opts = {"sealed": sealed}
    workdir = tempfile.mkdtemp(prefix="fathom-sealed-")
    procs, lines = [], [[], []]
    try:
        for i in (0, 1):
            d = os.path.join(workdir, "unit%d" % i)
            os.makedirs(d)
            env = unit_env(args, i, ether, gid, opts, "sharp", workdir)
            env["FATHOM_SIM_DUMP"] = "1"
            script, cwd = units.boot_script(units.default_runtime(), d)
            procs.append(subprocess.Popen(
                [units.micropython_exe(), "-X", "heapsize=4m", str(script)], env=env,
                cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        readers = [threading.Thread(target=lambda p=p, out=out: out.extend(
            ln.rstrip("\n") for ln in p.stdout), daemon=True) for p, out in zip(procs, lines)]
        for r in readers:
            r.start()
        for p in procs:
            p.wait(GAME_S + 120)
        for r in readers:
            r.join(5)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        ether.stop()
    dumps, results = [], []
    for i in (0, 1):
        for ln in lines[i]:
            if ln.startswith("fathom-sim-seat "):
                dumps.append(json.loads(ln[len("fathom-sim-seat "):]))
            elif ln.startswith("fathom-sim "):
                results.append(json.loads(ln[len("fathom-sim "):]))
    assert len(dumps) == 2 and len(results) == 2, lines
    for r in results:  # the game itself went right: same result, both audits verified
        assert r["error"] is None and r["desync"] is None, r
        assert [v[1] for v in r["verdicts"]] == [None], r
    assert results[0]["hash"] == results[1]["hash"]
    return dumps, list(ether.capture)


def events_on_air(capture):
    """The game's events as they went over the air: every "ev" message, deduplicated by
    index (a resend carries the same event), in log order."""
    evs = {}
    for _pos, _src, data in keyed_messages(capture):
        try:
            m = decode(data)
        except ValueError:
            continue
        if isinstance(m, list) and m and m[0] == "ev" and len(m) == 6:
            evs.setdefault(m[1], (m[2], m[3]))
    return [evs[i] for i in range(len(evs))]


@pytest.mark.parametrize("gid", ["ping", "periplus"])
def test_a_unit_cannot_read_the_other_hand_only_with_the_deal_off(gid):
    eng = games.engine(gid)
    for sealed in (0, 1):
        dumps, capture = run_units(gid, sealed, 11)
        by_player = {d["player"]: d for d in dumps}
        seed = bytes.fromhex(dumps[0]["seed"])
        opts = eng.options(dumps[0]["opts"])
        assert opts["sealed"] == sealed
        log = deal_end(events_on_air(capture))
        assert log, "no event captured"
        first = first_drawer(gid, opts, seed)
        me = 0 if first is None else 1 - first
        other = by_player[1 - me]
        truth = hand_after(gid, opts, seed, other["player"], bytes.fromhex(other["salt"]), log)
        got = attack(gid, opts, seed, me, bytes.fromhex(by_player[me]["salt"]), log)
        assert len(truth) == 3
        if sealed:
            assert got == [], (gid, truth, got)
        else:
            assert got == truth, (gid, truth, got)
