# kill -9 at random moments of a group game, end to end: three emulated units pair as a Sugar
# Dog group over the ether's ESP-NOW and play through their keys (their scripted players), and
# the real MicroPython process of the host, then of each partner in turn, is killed (SIGKILL of
# its process group: nothing after it runs) at a seeded random moment, counted in the screen
# changes it shows, and started again on the same storage. Each comes back into the same game
# with the log and hash chain it had journalled, and the game reaches its verified end with one
# log and one chain of hashes on every unit. Three kills in the normal tier (slow), twenty-one
# on `make bench`.
import random
import time

import pytest

from e2e_driver import play_out, player_env
from e2ekit import GROUP_HEAP, chain, fleet, one_verified_end, set_calm, start_group

TITLE = "Sugar Dog"


def on_screen(u):
    """The unit shows its game (or, if it ended while the unit was down, the result)."""
    return u.wait(lambda c: c.text and (c.text[0].startswith(TITLE) or c.text[0] == "Result"),
                  120, "the game after a kill -9")


def changes(n):
    """A condition that holds once the unit's screen text has changed n times."""
    seen = [None, 0]

    def pred(c):
        t = tuple(c.text)
        if t != seen[0]:
            seen[0] = t
            seen[1] += 1
        return seen[1] > n
    return pred


def kill_game(tmp_path, seed, kills, calm_rounds):
    rng = random.Random(seed)
    with fleet(tmp_path, 3, seed) as emu:
        units = emu.units
        for u in units:  # one sharp player, the others easy, as test_e2e_group_sugardog
            u.extra_env.update(player_env("sharp" if u.index == 0 else "easy"))
        t0 = time.monotonic()
        start_group(units, TITLE, options=lambda host: set_calm(host, calm_rounds))
        befores = []
        for k in range(kills):
            u = units[k % len(units)]        # the host, then each partner, in turn
            if u.text and u.text[0] == "Result":
                break                        # the game ended: no moment left to cut
            u.wait(changes(rng.randint(1, 12)), 300, "unit %d's kill moment" % u.index)
            u.kill()
            before = chain(u)                # what its flash holds when the power went
            u.start(heap=GROUP_HEAP)
            on_screen(u)
            assert chain(u)[:len(before)] == before, (k, u.index)
            befores.append(before)
        done = len(befores)
        play_out(units, timeout=900)
        log = one_verified_end(units)
        for before in befores:               # nothing a unit had journalled was lost
            assert log[:len(before)] == before
        print("sugardog 3 units: %d kill -9 (host and partners in turn), %d events, "
              "equal logs and hashes, %.1f s" % (done, len(log), time.monotonic() - t0))
        return done, len(log)


@pytest.mark.slow
def test_three_kills_of_host_and_partners_resume_a_group_game(tmp_path):
    done, _n = kill_game(tmp_path, 41, 3, 10)
    assert done == 3


@pytest.mark.bench
def test_twenty_one_kills_of_host_and_partners_resume_a_group_game(tmp_path):
    done, _n = kill_game(tmp_path, 43, 21, 30)
    assert done == 21
