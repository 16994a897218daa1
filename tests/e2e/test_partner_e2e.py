# The partner's side, with real emulated units over the emulated radio: a declined offer is
# said on the proposer's screen within seconds (its decline really crosses the radio before the
# decliner closes its link), and a unit alone on "vs other unit" is told what to check.
import time

import pytest

from fathom.flow.pairing import HINT_MS
from fathom_host.emulator.drive import open_link
from fathom_host.emulator.units import Emulator

from kit.e2e import ether_fixture

pytestmark = pytest.mark.slow

TOLD_S = 5  # a declined offer reaches the proposer's screen within this (a few frames)


ether = ether_fixture(17)


def test_a_declined_offer_is_said_on_the_proposers_screen(tmp_path, ether):
    with Emulator(2, workdir=tmp_path, ether=ether) as emu:
        a, b = emu.units
        open_link(a, "PING")
        open_link(b, "Lake Ashtapada")  # another game: one unit is offered the other's
        for u in (a, b):
            u.wait_text("Choose a unit", 30)
        for u in (a, b):
            u.press("OK")
        for u in (a, b):
            u.wait_text("OK yes", 60)   # the code's keys, a second after it shows
        for u in (a, b):
            u.press("OK")
        a.wait(lambda c: any(" offers" in line for line in a.text + b.text), 30, "an offer")
        offered, proposer = (a, b) if any(" offers" in line for line in a.text) else (b, a)
        assert any(line.startswith("Game offered") for line in proposer.text), proposer.text
        offered.press("BACK")  # no, thanks
        t0 = time.monotonic()
        proposer.wait_text("declined", TOLD_S)
        assert time.monotonic() - t0 <= TOLD_S
        assert proposer.text[-3:] == [">Change options", " Other game", " Look again"]
        offered.wait(lambda c: c.text and c.text[0] != "Link", 10, "the decliner's menu")
        proposer.press("OK")  # change options: back on the game's menu
        proposer.wait(lambda c: c.text and c.text[0] != "Link", 10, "the game's menu")
        assert any("vs other unit" in line for line in proposer.text), proposer.text


def test_a_unit_alone_on_the_radio_is_told_what_to_check(tmp_path, ether):
    with Emulator(1, workdir=tmp_path, ether=ether) as emu:
        (a,) = emu.units
        open_link(a, "PING")
        a.wait_text("Looking for", 30)
        a.wait_text("No unit found yet", HINT_MS / 1000 + 10)
        assert any("ESP-NOW" in line for line in a.text), a.text
        a.press("BACK")  # and a way back
        a.wait(lambda c: any("vs other unit" in line for line in c.text), 10, "the game menu")
