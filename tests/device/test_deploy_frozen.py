# `fathom deploy` onto a unit whose firmware has fathom frozen in (the 32-bit unix port built
# with fathom frozen, behind the serial twin) and onto stock firmware: what lands where, the
# stale /fathom folder that would shadow the frozen package, and the unit booting into its home
# menu and opening Pinned Down's decks and card texts afterwards.
import os
import subprocess
import sys

import pytest

from kit.host import ROOT, fathom
from fathom_host import deploy as D
from fathom_host import runtime
from fathom_host.twins.serialtwin import SerialTwin

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")

# Run on the unit after it booted: a whole 4-player Pinned Down set-up loads all four decks.
PROBE = """
import fathom
from fathom import res
from fathom.prng import Prng
from fathom.games.pinned_down.engine import ENGINE
from fathom.games.pinned_down import cards as C
pub = ENGINE.new_game(ENGINE.options({'deck': 'blue'}), 4, Prng(b'seed', b'game'))
print('FILE', fathom.__file__)
print('ROOT', res.root())
print('DECKS', ' '.join(pub['aff']), ' '.join(str(len(x)) for x in pub['lists']))
print('TEXT', C.text('B1'))
"""


@pytest.fixture(scope="module")
def frozen_exe():
    return str(runtime.ensure("frozen"))


def _deploy(twin, tmp_path):
    return fathom("deploy", "--board", "host", "--port", twin.path,
                  "--build-dir", str(tmp_path / "build"), timeout=180)


def _probe(twin):
    r = subprocess.run([MPREMOTE, "connect", twin.path, "exec", PROBE],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)


def _files(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_data_root_is_the_one_the_firmware_reads():
    from fathom import res
    assert D.DATA_ROOT == res.DATA_ROOT


@pytest.mark.slow   # deploys to and boots a unit: `make test`
def test_frozen_unit_gets_data_not_code_and_loses_a_shadowing_fathom_folder(tmp_path, frozen_exe):
    unit = tmp_path / "unit"
    # What the field saw: a /fathom left holding only the decks is a namespace package that
    # hides the frozen one ("no module named 'fathom.app'"); an old module too.
    (unit / "fathom" / "games" / "pinned_down" / "decks").mkdir(parents=True)
    (unit / "fathom" / "games" / "pinned_down" / "decks" / "red.txt").write_text("old\n")
    (unit / "fathom" / "app.mpy").write_bytes(b"M\x06old")
    with SerialTwin(unit, {"FATHOM_UNIT": "0"}, micropython=frozen_exe) as twin:
        mark = len(twin.transcript)
        r = _deploy(twin, tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "fathom is frozen into this unit's firmware" in r.stdout
        assert "removing /fathom (2 files): it would shadow the frozen fathom package" in r.stdout
        assert not (unit / "fathom").exists()
        files = _files(unit)
        assert not [f for f in files if f.endswith((".mpy", ".py")) and f != "main.py"], files
        assert "main.py" in files and "board.json" in files
        for name in ("purple", "red", "blue", "acarr"):
            shipped = ROOT / "firmware/fathom/games/pinned_down/decks" / (name + ".txt")
            landed = unit / "fathom_data/games/pinned_down/decks" / (name + ".txt")
            assert landed.read_bytes() == shipped.read_bytes()
        assert (unit / "fathom_data/games/pinned_down/texts.txt").exists()
        assert twin.wait_for(b"fathom: home", timeout=30, start=mark), \
            bytes(twin.transcript[-2000:])

        got = _probe(twin)
        assert not got["FILE"].startswith("/")       # the frozen package, not a file
        assert got["ROOT"] == D.DATA_ROOT
        assert got["DECKS"] == "blue acarr purple red 30 31 30 32"
        assert got["TEXT"] == "FLAGSHIP. UPKEEP (1). Once per turn: repair a starship."

        mark = len(twin.transcript)
        r = _deploy(twin, tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "0 files copied" in r.stdout and "removing" not in r.stdout
        assert twin.wait_for(b"fathom: home", timeout=30, start=mark)


@pytest.mark.slow   # deploys to and boots a unit: `make test`
def test_stock_unit_gets_code_with_its_data_beside_it(tmp_path):
    unit = tmp_path / "unit"
    (unit / "fathom_data").mkdir(parents=True)          # left by a frozen firmware
    (unit / "fathom_data" / "stale.txt").write_text("x\n")
    with SerialTwin(unit, {"FATHOM_UNIT": "0"}) as twin:
        mark = len(twin.transcript)
        r = _deploy(twin, tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "frozen" not in r.stdout
        assert "removing stale /fathom_data/stale.txt" in r.stdout
        assert not (unit / "fathom_data").exists()
        assert (unit / "fathom" / "app.mpy").exists()
        assert (unit / "fathom/games/pinned_down/decks/red.txt").exists()
        assert twin.wait_for(b"fathom: home", timeout=30, start=mark), \
            bytes(twin.transcript[-2000:])
        got = _probe(twin)
        assert got["FILE"] == "fathom/__init__.mpy"   # through sys.path's '', as on a board
        assert got["ROOT"] == "/fathom"
        assert got["DECKS"] == "blue acarr purple red 30 31 30 32"
