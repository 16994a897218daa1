# Linked games on the device's object sizes (the "frozen" runtime: fathom frozen into a 32-bit
# MicroPython 1.28 image), through the real app: units paired over the emulated ESP-NOW through
# their keys and played by their scripted players, `fathom bench device --link`'s own machinery.
# The budget (docs/ARCHITECTURE.md): every game completes under -X heapsize=96k. The figures
# (peak live heap per unit, largest allocation) are the benchmark's to print. The twins and the
# scripted players keep their objects in a heap area of their own (docs/ARCHITECTURE.md, "The
# emulator and the twins"), so the 96 KB are the firmware's alone, as on a board.
import pytest

from fathom_host.bench import device_link
from fathom_host.bench.heaps import BUDGET_HEAP

pytestmark = pytest.mark.bench  # whole linked games, twice each: minutes


@pytest.mark.parametrize("name", list(device_link.cases()))
def test_linked_game_completes_under_96k(name, tmp_path):
    gid, n, options = device_link.cases()[name]
    rows, _took = device_link.play_case(gid, n, options, BUDGET_HEAP, False, "frozen", tmp_path)
    assert all(r["verified"] for r in rows), rows


def test_linked_figures_are_measured():
    """The benchmark's watch run reports a peak and a largest allocation for every unit role,
    and the game it watched ends verified: the figures come from a whole game."""
    out = device_link.bench_case(device_link.cheapest())
    assert out["verified"], out
    for role in ("proposer", "other"):
        assert 20 * 1024 < out[role]["peak_heap"] < 96 * 1024, out
        assert 0 < out[role]["max_alloc"] <= 4 * 1024, out
