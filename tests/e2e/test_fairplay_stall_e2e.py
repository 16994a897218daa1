# No stall at the end of the line, with real emulated units over the emulated radio: a partner
# that vanishes mid-game (its unit powered off for good) is shown as such after the limit, the
# game screen offers "Wait" and "Claim the game", and claiming ends the game on this unit with a
# result that says it is not verified. The units run with the limit lowered from the firmware's
# minute (runner.VANISH_MS) to VANISH_S, so the test is not a minute of waiting; the screen
# must not offer the claim before it.
import time

import pytest

from fathom_host.emulator.drive import pair
from fathom_host.emulator.units import Emulator

from kit.e2e import ether_fixture

pytestmark = pytest.mark.slow

LOST_S = 10  # the channel calls a silent link "lost" after this (channel.LOST_MS)
VANISH_S = 15  # longer than LOST_S: both count from the last frame heard


ether = ether_fixture(5)


def test_a_vanished_partner_can_be_waited_for_or_claimed(tmp_path, ether):
    env = {"FATHOM_VANISH_MS": str(VANISH_S * 1000)}
    with Emulator(2, workdir=tmp_path, ether=ether, env=env) as emu:
        a, b = emu.units
        pair([a, b], "Lake Ashtapada")
        a.wait_text("Lake Ashtapada")
        for _ in range(6):  # set up and play a few decisions
            for u in (a, b):
                if u.text and u.selected() is not None and u.text[0] != "Result":
                    u.press("OK")
        assert a.text[0] != "Result"
        b.kill()  # gone for good
        t0 = time.monotonic()
        a.wait_text("Partner vanished", VANISH_S + 30)
        assert time.monotonic() - t0 >= VANISH_S - 2  # not before its limit (a heartbeat early)
        assert a.text[1:] == [">Wait", " Claim the game"], a.text
        a.press("OK")                              # wait: back to the game
        assert "Partner vanished" not in a.text[0] and a.text[0] != "Result", a.text
        a.press("BACK")                            # the pause menu offers the claim too
        a.choose("Claim the game")
        a.wait_text("Game claimed", 10)
        assert any("not verified" in line for line in a.text), a.text
        a.press("OK")                              # the game can be left
        a.wait(lambda c: c.text and c.text[0] != "Result", 10, "leaving the result")
