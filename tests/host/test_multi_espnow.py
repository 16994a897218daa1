# The ESP-NOW twins held to MicroPython's own check of its espnow module: v1.28.0's multi_espnow
# suite (../shared/micropython/tests-1.28.0, unchanged), run by MicroPython's own
# run-multitests.py against two emulated units that share one ether, each a 32-bit unix-port
# process (an ESP32's object sizes, the twins frozen as a board's C modules are) started through
# host_tools/fathom_host/emulator/multitest_unit (a board's _boot first). Every test must pass:
# a "skip" fails too, since it would hide a part of the module the twins do not have.
import os
import re
import subprocess
import sys

import pytest

from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import micropython_exe, micropython_path
from kit.paths import HOST_TOOLS, ROOT
from kit.runtimes import runtime

pytestmark = pytest.mark.slow

SUITE = ROOT.parent / "shared" / "micropython" / "tests-1.28.0"
TESTS = SUITE / "tests" / "multi_espnow"
UNIT = HOST_TOOLS / "fathom_host" / "emulator" / "multitest_unit"
HEAP = "111k"  # an ESP32's MicroPython heap
RUN_TIMEOUT_S = 300  # the suite takes ~20 s alone; a wedged unit fails it, not the session


def _runtime():
    """FATHOM_RUNTIME when it is a 32-bit one, else the stock 32-bit runtime (a board's stock
    firmware: the twins and asyncio frozen, the rest on the filesystem)."""
    kind = runtime()
    return kind if kind != "wheel" else "stock"


def test_micropython_multi_espnow_suite_passes_on_the_twins(tmp_path):
    if not TESTS.is_dir():
        pytest.skip("no MicroPython multi_espnow suite at %s (a clone on its own)" % SUITE)
    names = sorted(p.name for p in TESTS.glob("*.py"))
    assert len(names) == 11, names
    kind = _runtime()
    exe = micropython_exe(kind)  # builds the 32-bit runtime when it is stale
    with Ether(seed=45) as ether:
        units = []
        for n in (0, 1):
            units += ["-t", "exec:%s,FATHOM_MICROPYTHON=%s,MICROPYPATH=%s,FATHOM_ETHER=%s,"
                      "FATHOM_UNIT=%d,FATHOM_HEAP=%s"
                      % (UNIT, exe, os.pathsep.join(micropython_path(kind)), ether.address, n,
                         HEAP)]
        proc = subprocess.run(
            [sys.executable, str(SUITE / "tests" / "run-multitests.py"),
             "--result-dir", str(tmp_path / "results")] + units +
            [str(TESTS / name) for name in names],
            cwd=str(SUITE / "tests"), capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    out = proc.stdout + proc.stderr
    verdicts = {os.path.basename(path): verdict for path, verdict in
                re.findall(r"^(\S+\.py) on \S+: (\w+)", out, re.M)}
    not_passed = ["%s: %s" % (n, verdicts.get(n, "no verdict")) for n in names
                  if verdicts.get(n) != "pass"]
    assert not not_passed, "on the %s runtime, not passed: %s\n%s" % (
        kind, ", ".join(not_passed), out[-6000:])
    assert proc.returncode == 0, out[-6000:]
