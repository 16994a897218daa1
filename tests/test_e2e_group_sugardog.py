# Sugar Dog groups end to end through the keys, over the ether's ESP-NOW: the host chooses the
# group's size in its Players menu, the partners "Join a group" or are lent as the bot opponent
# ("Play as bot": it joins whoever hails it, a group's host too), every unit ends on a verified
# result, and all hold one log with one chain of hashes. Three units (one lent) in the normal
# tier; the full eight (the largest group: the host relays to seven partners) on `make bench`.
import time

import pytest

from e2e_driver import finished, play_out, player_env
from e2ekit import chain
from fathom_host.drive import pair_group
from fathom_host.ether import Ether
from fathom_host.units import Emulator

pytestmark = pytest.mark.slow

TITLE = "Sugar Dog"
GROUP_HEAP = "768k"     # a partner audits every other player at the end


def calm(value):
    """The host's game menu: 'Calm rounds' cycled to `value` (a shorter game)."""
    def set_it(u):
        for _ in range(12):
            sel = u.selected() or ""
            if sel.startswith("Calm rounds") and sel.endswith(": %d" % value):
                return
            u.choose("Calm rounds")
        raise AssertionError("could not set calm on unit %d: %r" % (u.index, u.text))
    return set_it


def lend(u):
    u.choose("Settings")
    u.choose("Opponent")   # off -> easy: the home menu offers "Play as bot"
    assert any("Opponent: easy" in l for l in u.text), u.text
    u.press("BACK")


def verified(lines):
    return lines[:1] == ["Result"] and "verified" in lines


def run_group(tmp_path, n, seed, lent=(), calm_rounds=10, timeout=600):
    ether = Ether(seed=seed)
    ether.start()
    emu = Emulator(n, workdir=tmp_path, ether=ether)
    played = [u for u in emu.units if u.index not in lent]
    for u in played:  # one sharp player, the others easy: the game ends in a few rounds
        u.extra_env.update(player_env("sharp" if u.index == 0 else "easy"))
    t0 = time.monotonic()
    try:
        for u in emu.units:
            u.start(heap=GROUP_HEAP, wait=False)
        for u in emu.units:
            u.wait(lambda c: c.text and c.screen is not None, 60, "boot")
        for i in lent:
            lend(emu.units[i])
        pair_group(emu.units, TITLE, lent=lent, options=calm(calm_rounds))
        for u in emu.units:
            u.wait(lambda c: c.text and c.text[0].startswith(TITLE), 120, "the game screen")
        paired = time.monotonic() - t0
        results, reports = play_out(played, timeout=timeout)
        for i in lent:  # its own bot played it (AutoPlayer): a verified end all the same
            emu.units[i].wait(lambda c: verified(c.text), 60, "the lent unit's verified result")
        for u in emu.units:
            assert finished(u) and verified(u.text), (u.index, u.text)
        heads = [u.text[1] for u in emu.units]
        assert heads.count("You win") <= 1 and heads.count("Draw") in (0, n), heads
        chains = [chain(u) for u in emu.units]
        assert all(c == chains[0] for c in chains), [len(c) for c in chains]
        print("sugardog %d units (lent %s): paired in %.1f s, %d events, %.1f s total" % (
            n, list(lent), paired, len(chains[0]), time.monotonic() - t0))
        return heads
    finally:
        emu.close()
        ether.stop()


def test_three_units_one_lent_as_a_bot_play_sugar_dog_as_a_group(tmp_path):
    run_group(tmp_path, 3, 31, lent=(2,))


@pytest.mark.bench
def test_eight_units_play_sugar_dog_to_a_verified_end(tmp_path):
    run_group(tmp_path, 8, 37, timeout=1500)
