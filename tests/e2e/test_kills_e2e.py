# kill -9 at random moments of a link game, end to end: emulated units pair through their keys
# and play through them (their scripted players), and the real MicroPython process of each
# unit in turn (a group's host, then each partner) is killed (SIGKILL of its process group:
# nothing after it runs) at a seeded random moment, counted in the screen changes it shows,
# and started again on the same storage. Each comes back into the same game with the log and
# hash chain it had journalled, and the game reaches its verified end with one log and one
# chain of hashes on every unit. A 3-unit Sugar Dog group over the ether's ESP-NOW and a PING
# pair over the emulated cable: three kills each in the normal tier (slow), twenty-one and
# twenty on `make bench`.
import random
import time

import pytest

from fathom_host.emulator.drive import pair_uart, player_env
from kit.e2e import chain, fleet, one_verified_end, set_calm, start_group, verified


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


def ended(c):
    return bool(c.text) and c.text[0] == "Result"


def kill_in_turn(units, title, seed, kills, most=12):
    """kill -9 units[0], units[1], ... in turn, each after a seeded random number (up to
    `most`) of its screen changes, and start it again; returns the chains their flash held at
    the kills."""
    rng = random.Random(seed)
    befores = []
    for k in range(kills):
        u = units[k % len(units)]
        moment = changes(rng.randint(1, most))
        c = u.wait(lambda c: moment(c) or ended(c), 300, "unit %d's kill moment" % u.index)
        if ended(c):
            break                            # the game ended: no moment left to cut
        u.kill()
        before = chain(u)                    # what its flash holds when the power went
        u.start()
        # straight back into the game (or its result, had it ended before the kill)
        u.wait(lambda c: c.text and c.text[0] in (title, "Result") or
               (c.text and c.text[0].startswith(title)), 120, "the game after a kill -9")
        assert chain(u)[:len(before)] == before, (k, u.index)
        befores.append(before)
    return befores


def finish(units, befores, what, t0):
    # a unit restarted on its result screen has no game left for its player to report:
    # wait on every unit's verified result instead of the players' reports
    for u in units:
        u.wait(lambda c: verified(c.text), 900, "unit %d's verified result" % u.index)
    log = one_verified_end(units)
    for before in befores:                   # nothing a unit had journalled was lost
        assert log[:len(before)] == before
    print("%s: %d kill -9, %d events, equal logs and hashes, %.1f s" % (
        what, len(befores), len(log), time.monotonic() - t0))
    return len(befores)


def sugardog_group(tmp_path, seed, kills, calm_rounds, most=12):
    with fleet(tmp_path, 3, seed) as emu:
        for u in emu.units:  # one sharp player, the others easy, as test_e2e_group_sugardog
            u.extra_env.update(player_env("sharp" if u.index == 0 else "easy"))
        t0 = time.monotonic()
        start_group(emu.units, "Sugar Dog", options=lambda host: set_calm(host, calm_rounds))
        befores = kill_in_turn(emu.units, "Sugar Dog", seed, kills, most)
        return finish(emu.units, befores, "sugardog 3 units over the radio", t0)


def ping_pair(tmp_path, seed, kills, most=12, level="sharp"):
    with fleet(tmp_path, 2, seed) as emu:
        for u in emu.units:
            u.extra_env.update({"FATHOM_LINK": "uart"})
            u.extra_env.update(player_env(level))
            u.start()
        t0 = time.monotonic()
        pair_uart(emu.units, "PING")
        for u in emu.units:
            u.wait(lambda c: c.text and c.text[0].startswith("PING"), 120, "the game screen")
        befores = kill_in_turn(emu.units, "PING", seed, kills, most)
        return finish(emu.units, befores, "PING pair over the cable", t0)


@pytest.mark.bench  # kills of real processes: the soak tier (test_cut_save and test_resume_gap cut power in make test)
def test_three_kills_of_host_and_partners_resume_a_group_game(tmp_path):
    assert sugardog_group(tmp_path, 41, 3, 10) == 3


@pytest.mark.bench
def test_three_kills_resume_a_ping_game_over_the_cable(tmp_path):
    assert ping_pair(tmp_path, 47, 3) == 3


@pytest.mark.bench
def test_twenty_one_kills_of_host_and_partners_resume_a_group_game(tmp_path):
    # kills at most 6 screen changes apart: a short game must still hold all 21 before its end
    assert sugardog_group(tmp_path, 43, 21, 50, most=6) == 21


@pytest.mark.bench
def test_twenty_kills_resume_a_ping_game_over_the_cable(tmp_path):
    # easy captains and kills at most 3 screen changes apart: a PING game between sharp ones
    # ends in fewer screen changes than twenty kills need
    assert ping_pair(tmp_path, 53, 20, most=3, level="easy") == 20
