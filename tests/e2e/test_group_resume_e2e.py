# A group game survives reboots, end to end through the keys: four emulated units pair as a
# Pinned Down group over the ether's ESP-NOW (the host's Players menu, the others "Join a
# group"), each unit's scripted player plays through its keys, and mid-game the host and then a
# partner lose their power. Each comes back straight into the same game (no menu), with the log
# and hash chain it had journalled, and the game reaches its verified end on every unit with
# one log and one chain of hashes on all four.
import time

import pytest

from fathom_host.emulator.drive import play_out, player_env
from kit.e2e import chain, fleet, one_verified_end, start_group

# a 4-unit game with two reboots, about 2 minutes: make bench
pytestmark = pytest.mark.bench

TITLE = "Pinned Down"
HOST_MOVES = 3          # the host's choices before its power is pulled (set-up included)
PARTNER_MOVES = 7       # the partner's, after the host is back


def stopped(c):
    return c.ux is not None


def reboot(u, moves):
    """Wait for the unit's player to stop after its choices, pull the power, start it again
    with a player that plays to the end; returns the chain journalled before the cut."""
    c = u.wait(stopped, 300, "unit %d's %d choices" % (u.index, moves))
    assert "error" not in c.ux and c.ux["presses"], c.ux
    before = chain(u)
    u.kill()
    u.extra_env.update(player_env())
    u.start()
    # straight back into the game: its screen, not the home menu
    u.wait(lambda c: c.text and c.text[0].startswith(TITLE), 60, "the game after a reboot")
    assert chain(u)[:len(before)] == before
    return before


def test_a_group_survives_its_host_and_a_partner_rebooting(tmp_path):
    with fleet(tmp_path, 4, 29) as emu:
        host, p1, p2, p3 = emu.units
        host.extra_env.update(player_env(moves=HOST_MOVES))
        p2.extra_env.update(player_env(moves=PARTNER_MOVES))
        for u in (p1, p3):
            u.extra_env.update(player_env())
        t0 = time.monotonic()
        start_group(emu.units, TITLE, limit=90)
        paired = time.monotonic() - t0
        host_before = reboot(host, HOST_MOVES)
        partner_before = reboot(p2, PARTNER_MOVES)
        assert len(partner_before) > len(host_before) > 0
        results, reports = play_out(emu.units, timeout=600)
        for u, lines in zip(emu.units, results):
            assert lines[0] == "Result" and "verified" in lines, (u.index, lines)
        assert len(set(r[1] for r in results)) == 1      # one fleet, one result
        log = one_verified_end(emu.units)
        assert log[:len(host_before)] == host_before
        assert log[:len(partner_before)] == partner_before
        print("pinned down 4 units, host and a partner rebooted: %s, paired in %.1f s, "
              "%d events, %.1f s total" % (results[0][1], paired, len(log),
                                           time.monotonic() - t0))
