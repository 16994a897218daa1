# Back at the home menu after a game, the heap is what the home menu had after boot: the app
# sheds every fathom module the home menu did not load (App.shed) and nothing still refers to
# the game (runner, seats, peers, journal, screens). Run on the "frozen" runtime, fathom frozen
# as on a board flashed with firmware/manifest.py: there the residue is the app's own objects,
# not MicroPython's qstr pool (on stock every loaded .mpy's names stay interned for good).
import pytest

from fathom_host.bench import device

pytestmark = pytest.mark.slow  # five whole games on an emulated unit, and maybe a build first

# Measured after the fix: 650-870 B left over, from dicts that never shrink in MicroPython
# (sys.modules, the packages fathom.ui and fathom.games, each grown while a game's modules
# were loaded) and the few names the game interned at run time. A game kept alive (a runner,
# its seats and screens) costs 9-10 KB on this runtime (25 KB home vs 16 KB before the fix).
MARGIN = 4096


def test_each_game_leaves_the_heap_within_a_margin_of_home_and_no_module_behind():
    out = device.settle("frozen")
    home = out["home_heap"]
    assert home > 0
    assert set(out["games"]) == set(device.all_games())
    for gid, g in out["games"].items():
        assert g["modules_left"] == [], (gid, g)
        assert g["heap_after_game"] - home <= MARGIN, (gid, home, g)
