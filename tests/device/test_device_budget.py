# The device budgets (docs/ARCHITECTURE.md) on the "frozen" runtime: fathom frozen into a 32-bit
# MicroPython 1.28 image as firmware/manifest.py freezes it for a board, an ESP32's object sizes.
# One seeded game of every game against the sharp bot, one with the hard bot, plus the long tail (a game played out by
# the bots each game's LONG_BOTS names: PING's and Periplus's random bots), through the real
# app: `fathom bench device`'s own machinery. After each game its replay is opened and stepped
# to the end: the replay's own peaks are held to the same budgets.
# The stock runtime (fathom as .mpy files) misses the heap budgets by design of MicroPython (its
# bytecode and interned names live on the heap); its figures are the benchmark's to print.
import pytest

from fathom_host.bench import device

pytestmark = pytest.mark.slow  # twelve whole games on emulated units, and maybe a build first

HOME_MAX = 32 * 1024    # live heap at the home menu
GAME_MAX = 64 * 1024    # live heap at any point of a game, after gc
ALLOC_MAX = 1024        # the largest single block requested during play
STACK_MAX = 8 * 1024    # C stack peak (measured ~5.3 KB: an ESP32 frame is ~1.2x this build's)


def test_every_game_fits_the_device_budgets_when_frozen():
    out = device.bench_runtime("frozen", 1)
    assert 0 < out["home_heap"] <= HOME_MAX, out
    games = out["games"]
    assert set(device.all_games()) <= set(games)
    assert set(g + "_hard" for g in device.all_games() if device.offers_hard(g)) <= set(games)
    for gid, g in games.items():
        assert g["verdicts"] == ["verified"], (gid, g)
        assert g["completed_under_96k"], (gid, g)
        assert g["peak_heap"] <= GAME_MAX, (gid, g)
        assert g["play_max_alloc"] <= ALLOC_MAX, (gid, g)
        assert g["stack_peak"] <= STACK_MAX, (gid, g)
        # the replay after the audit, opened and stepped to the end on the result screen
        assert g["replay_under_96k"], (gid, g)
        assert g["replay_peak_heap"] <= GAME_MAX, (gid, g)
        assert g["replay_max_alloc"] <= ALLOC_MAX, (gid, g)
        assert g["replay_stack_peak"] <= STACK_MAX, (gid, g)
    # the long tail really is long: several times a sharp game. PING's random game here (one
    # seed) fell from over 300 events to 213 when a turn could stay open for a late report
    # (rules §8); over 200 seeds the random games' median went from 437 events to 409.
    assert games["ping_long"]["longest_game_events"] >= 200, games["ping_long"]
    assert games["periplus_long"]["longest_game_events"] >= 100, games["periplus_long"]
