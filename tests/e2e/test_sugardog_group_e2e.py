# Sugar Dog groups end to end through the keys, over the ether's ESP-NOW: the host chooses the
# group's size in its Players menu, the partners "Join a group" or are lent as the bot opponent
# ("Play as bot": it joins whoever hails it, a group's host too), every unit ends on a verified
# result, and all hold one log with one chain of hashes. Three units (one lent) in the normal
# tier; the full eight (the largest group: the host relays to seven partners) on `make bench`.
import time

import pytest

from fathom_host.emulator.drive import play_out, player_env
from kit.e2e import fleet, one_verified_end, set_calm, start_group, verified

pytestmark = pytest.mark.slow

TITLE = "Sugar Dog"


def run_group(tmp_path, n, seed, lent=(), calm_rounds=10, timeout=600):
    with fleet(tmp_path, n, seed) as emu:
        played = [u for u in emu.units if u.index not in lent]
        for u in played:  # one sharp player, the others easy: the game ends in a few rounds
            u.extra_env.update(player_env("sharp" if u.index == 0 else "easy"))
        t0 = time.monotonic()
        start_group(emu.units, TITLE, lent=lent,
                    options=lambda host: set_calm(host, calm_rounds))
        paired = time.monotonic() - t0
        play_out(played, timeout=timeout)
        for i in lent:  # its own bot played it (AutoPlayer): a verified end all the same
            emu.units[i].wait(lambda c: verified(c.text), 60, "the lent unit's verified result")
        log = one_verified_end(emu.units)
        heads = [u.text[1] for u in emu.units]
        assert heads.count("You win") <= 1 and heads.count("Draw") in (0, n), heads
        print("sugardog %d units (lent %s): paired in %.1f s, %d events, %.1f s total" % (
            n, list(lent), paired, len(log), time.monotonic() - t0))
        return heads


def test_three_units_one_lent_as_a_bot_play_sugar_dog_as_a_group(tmp_path):
    run_group(tmp_path, 3, 31, lent=(2,))


@pytest.mark.bench
def test_eight_units_play_sugar_dog_to_a_verified_end(tmp_path):
    run_group(tmp_path, 8, 37, timeout=1500)
