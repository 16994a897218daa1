# No stall at the end of the line, with real emulated units over the emulated radio: a partner
# that vanishes mid-game (its unit powered off for good) is shown as such after the limit, the
# game screen offers "Wait" and "Claim the game", and claiming ends the game on this unit with a
# result that says it is not verified. The limit is the firmware's own (runner.VANISH_MS), so
# this test takes about a minute and a half.
import pytest

from fathom.runner import VANISH_MS
from fathom_host.drive import pair
from fathom_host.units import Emulator

from e2ekit import ether_fixture

pytestmark = pytest.mark.slow

LOST_S = 10  # the channel calls a silent link "lost" after this (channel.LOST_MS)


ether = ether_fixture(5)


def test_a_vanished_partner_can_be_waited_for_or_claimed(tmp_path, ether):
    with Emulator(2, workdir=tmp_path, ether=ether) as emu:
        a, b = emu.units
        pair([a, b], "Lake Ashtapada")
        a.wait_text("Lake Ashtapada")
        for _ in range(6):  # set up and play a few decisions
            for u in (a, b):
                if u.text and u.selected() is not None and u.text[0] != "Result":
                    u.press("OK")
        assert a.text[0] != "Result"
        b.kill()  # gone for good
        limit = VANISH_MS / 1000 + LOST_S + 30
        a.wait_text("Partner vanished", limit)
        assert a.text[1:] == [">Wait", " Claim the game"], a.text
        a.press("OK")                              # wait: back to the game
        assert "Partner vanished" not in a.text[0] and a.text[0] != "Result", a.text
        a.press("BACK")                            # the pause menu offers the claim too
        a.choose("Claim the game")
        a.wait_text("Game claimed", 10)
        assert any("not verified" in line for line in a.text), a.text
        a.press("OK")                              # the game can be left
        a.wait(lambda c: c.text and c.text[0] != "Result", 10, "leaving the result")
