# The 32-bit runtimes of `fathom runtime build`: built from the MicroPython 1.28 source, 32-bit,
# the probe counting what it claims, the twins frozen in both, fathom frozen only in "frozen"
# (and imported from there, not from a filesystem copy), and a unit booting home on each.
import os
import subprocess

import pytest

from fathom_host import FIRMWARE, runtime
from fathom_host.emulator.units import Emulator, micropython_path

pytestmark = pytest.mark.slow  # the first call builds both (about a minute on two cores)

KINDS = ("stock", "frozen")


@pytest.fixture(scope="module")
def exes():
    return {k: str(runtime.ensure(k)) for k in KINDS}


def run_code(exe, code, path, tmp_path, heap="256k"):
    script = tmp_path / "probe_script.py"
    script.write_text(code)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(path))
    proc = subprocess.run([exe, "-X", "heapsize=" + heap, str(script)], capture_output=True,
                          text=True, env=env, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.split()


def test_both_binaries_are_built_and_cached(exes):
    for k in KINDS:
        assert os.access(exes[k], os.X_OK)
        with open(exes[k], "rb") as fh:
            head = fh.read(5)
        assert head[:4] == b"\x7fELF" and head[4] == 1  # ELFCLASS32
    before = {k: os.stat(exes[k]).st_mtime_ns for k in KINDS}
    assert {k: os.stat(str(runtime.ensure(k))).st_mtime_ns for k in KINDS} == before


@pytest.mark.parametrize("kind", KINDS)
def test_a_small_int_and_a_pointer_are_32_bit(exes, kind, tmp_path):
    out = run_code(exes[kind], "import sys\nprint(sys.maxsize)\n", [".frozen"], tmp_path)
    assert out == [str(2 ** 31 - 1)]


@pytest.mark.parametrize("kind", KINDS)
def test_the_probe_counts_the_largest_allocation_and_the_stack_peak(exes, kind, tmp_path):
    code = (
        "import fathomprobe\n"
        "def deep(n):\n"
        "    return 0 if n == 0 else 1 + deep(n - 1)\n"
        "fathomprobe.reset()\n"
        "a = fathomprobe.max_alloc()\n"
        "b = bytearray(5000)\n"
        "print(a, fathomprobe.max_alloc())\n"
        "s0 = fathomprobe.stack_peak()\n"
        "deep(5)\n"
        "s1 = fathomprobe.stack_peak()\n"
        "deep(60)\n"
        "print(s1, fathomprobe.stack_peak())\n"
        "fathomprobe.reset()\n"
        "fathomprobe.hold(1)\n"
        "c = bytearray(7000)\n"
        "fathomprobe.hold(0)\n"
        "print(fathomprobe.max_alloc() < 7000)\n")
    a, b, s1, s2, held = run_code(exes[kind], code, [".frozen"], tmp_path)
    assert int(a) < 5000 <= int(b)
    assert int(s2) > int(s1) > 0 and int(s2) - int(s1) > 55 * 40  # each Python call's C frame
    assert held == "True"  # what the twins do while holding is not counted


@pytest.mark.parametrize("kind", KINDS)
def test_the_twins_are_frozen_in_both(exes, kind, tmp_path):
    code = "import hub, machine, espnow, network, etherwire\nprint(hub.__file__, machine.__file__)\n"
    out = run_code(exes[kind], code, micropython_path(kind), tmp_path)
    assert out == ["hub.py", "machine.py"]  # a frozen module's name, not a filesystem path


def test_frozen_imports_fathom_from_the_image_and_stock_from_the_filesystem(exes, tmp_path):
    code = "import sys, fathom.app\nprint(fathom.app.__file__)\n"
    frozen = run_code(exes["frozen"], code, micropython_path("frozen"), tmp_path)
    assert frozen == ["fathom/app.py"]
    # a stock unit runs main.py beside fathom compiled as `fathom deploy` compiles it
    fs = runtime.stock_files()
    stock = run_code(exes["stock"], code, [str(fs)] + micropython_path("stock"), tmp_path)
    assert stock == [str(fs / "fathom" / "app.mpy")]
    # and a firmware/ ahead of .frozen would have shadowed the frozen copy: the reason the
    # frozen unit's path holds nothing but .frozen
    shadowed = run_code(exes["frozen"], code, [str(FIRMWARE), ".frozen"], tmp_path)
    assert shadowed == [str(FIRMWARE / "fathom" / "app.py")]


@pytest.mark.parametrize("kind", KINDS)
def test_a_unit_boots_to_its_home_menu(kind, tmp_path):
    from fathom_host.bench.metrics import int_metrics
    with Emulator(1, workdir=tmp_path, runtime=kind) as emu:
        u = emu.units[0]
        u.wait_text("Settings", 30)
        assert u.text[0] == "fathom"
        m = int_metrics(u)
        # the probe answers through the hub, and the frozen unit's code is off the heap
        assert m["heap"] > 0 and m["stack_peak"] > 0 and 0 < m["max_alloc"] < 4096
