# Pinned Down end to end through the keys of emulated units: a solo game on one unit (with a
# look at every page on the way), and a two-unit game over the ether's ESP-NOW, paired through
# the Players menu. The test looks at the pages through the keys, then each unit's own scripted
# player (a sharp bot decides, the screen's keys_for says which keys) plays to the end. Every
# unit ends on the fleet's result with the audit verified.
import time

import pytest

from fathom_host.emulator.drive import (choose_each_other, confirm_code, finished, play_out,
                                        player_env, release)
from fathom.games.pinned_down import cards as C
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow

TITLE = "Pinned Down"
HEADS = ("Fleet wins", "Fleet lost")


def look_at_pages(u):
    """RIGHT through the hand (card by card), fleet and table pages and back to the main one:
    each page as it first shows."""
    seen = []
    for _ in range(20):
        u.press("RIGHT")
        if not seen or u.text[0] != seen[-1][0]:
            seen.append(list(u.text))
            if len(seen) == 4:
                return seen
    raise AssertionError("RIGHT did not turn through four pages: %r" % seen)


def hand_names(page):
    """Card names heading the hand page's entries ('# Lancer', '# > Lancer' on the cursor's)."""
    names = set(c[C.NAME] for c in C.CARDS)
    out = []
    for line in page[1:]:
        text = line[2:]
        text = text[2:] if text.startswith("> ") else text
        if text in names:
            out.append(text)
    return out


def check_pages(pages):
    hand, fleet, table, back = pages
    assert hand[0] == TITLE + " hand" and len(hand) > 4, hand
    assert all(l.startswith("# ") for l in hand[1:])
    assert len(hand_names(hand)) >= 4, hand
    assert fleet[0] == TITLE + " fleets", fleet
    assert fleet[1].startswith("# P1 "), fleet
    assert table[0] == TITLE + " table" and table[1].startswith("# Distance "), table
    assert back[0].startswith(TITLE) and any(l.startswith(">") for l in back), back
    assert any(l.startswith("# Distance ") for l in back), back


def first_choice(c):
    return c.text and c.text[0].startswith(TITLE) and any(l.startswith(">") for l in c.text)


def test_solo_game_through_the_keys(tmp_path):
    t0 = time.monotonic()
    with Emulator(1, workdir=tmp_path, env=player_env(hold=True)) as emu:
        u = emu.units[0]
        u.choose(TITLE)
        u.choose("Solo")
        u.wait(first_choice, 30, "the first choice")
        check_pages(look_at_pages(u))
        release([u])
        results, reports = play_out([u], timeout=300)
        lines = results[0]
        assert finished(u) and lines[1] in HEADS and "verified" in lines, lines
        moves = len(reports[0]["presses"])
        assert moves > 10 and min(reports[0]["presses"]) >= 1, reports
        u.press("OK")  # leave the result: the save is cleared, home again
        u.wait_text("Companion")
        assert not (tmp_path / "unit0" / "data" / "game").exists()
    print("pinned down solo: %s, %d choices in %d presses, %.1f s" % (
        lines[1], moves, sum(reports[0]["presses"]), time.monotonic() - t0))


def pair_two(units_):
    """'with other unit' opens the Players menu (Pinned Down takes up to four): two players."""
    for u in units_:
        u.choose(TITLE)
        u.choose("with other unit")
        u.wait_text("Players", 10)
        u.choose("2 players")
    choose_each_other(units_)
    confirm_code(*units_)


def test_two_units_play_over_espnow_through_the_keys(tmp_path):
    ether = Ether(seed=11)
    ether.start()
    t0 = time.monotonic()
    try:
        with Emulator(2, workdir=tmp_path, ether=ether, env=player_env(hold=True)) as emu:
            a, b = emu.units
            pair_two([a, b])
            for u in (a, b):
                u.wait(lambda c: c.text and c.text[0].startswith(TITLE), 60, "game screen")
            paired = time.monotonic() - t0
            # hands stay home: each unit's hand page lists its own deck's cards (red, blue)
            hands = [hand_names(look_at_pages(u)[0]) for u in (a, b)]
            assert len(hands[0]) >= 4 and len(hands[1]) >= 4, hands
            assert not set(hands[0]) & set(hands[1]), hands
            release([a, b])
            results, reports = play_out([a, b], timeout=300)
            for u, lines in zip((a, b), results):
                assert finished(u)
                assert lines[1] in HEADS and "verified" in lines, lines
            assert results[0][1] == results[1][1]  # one fleet: the same result on both
            assert results[0][2] == results[1][2]
            presses = [k for r in reports for k in r["presses"]]
            print("pinned down 2 units: %s, paired in %.1f s, %d choices in %d presses, "
                  "%.1f s total" % (results[0][1], paired, len(presses), sum(presses),
                                    time.monotonic() - t0))
    finally:
        ether.stop()
