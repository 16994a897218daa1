# No fault strands a group, end to end through the keys: three emulated units pair as a Sugar
# Dog group over the ether's ESP-NOW. A partner that leaves with Leave (keep) during P2's turn
# and resumes is taken back by the host and by P2 with no key pressed there (their "Partner
# left" overlays close by themselves). A host on a modified firmware (kit/cheat_firmware.py,
# the gap in firmware/hostmodes/cheat.py) that never sends P3 one of P2's events, and relays
# every later one, is named on P3's screen once the limit (lowered here, FATHOM_GAP_MS) is up.
import re

import pytest

from kit.cheat_firmware import gap_env, modified_firmware
from fathom_host.emulator.drive import catch_up, player_env
from kit.e2e import chain
from test_group_cheat_e2e import close, form, journal_when

pytestmark = pytest.mark.slow

GAP_MS = 10000


def on_game(c):
    return bool(c.text) and c.text[0].startswith("Sugar Dog")


def test_a_partner_that_leaves_and_resumes_is_taken_back_without_a_key(tmp_path):
    # P2's player chooses its start and stops: the game then waits on P2's first move
    ether, emu = form(tmp_path, 53, partner_env=lambda u: player_env("easy", moves=1)
                      if u.index == 1 else {})
    host, p2, p3 = emu.units
    try:
        # failure 1: P2 to move, and every set-up in, so P3's own player has no key to press
        p3.wait(lambda c: on_game(c) and "P2 to move" in c.text[0] and len(chain(p3)) >= 3,
                120, "P2 to move")
        catch_up(p3)  # its player pressed keys: count from there
        p3.press("BACK")
        p3.wait(lambda c: c.text[:1] == ["Paused"], 10, "the pause menu")
        p3.choose("Leave (keep)")  # DOWN, DOWN, OK
        p3.wait(lambda c: c.text[:1] == ["Leave the group?"], 10, "the question")
        p3.choose("Leave")         # it asks once, the cursor on Stay
        for u in (host, p2):
            u.wait(lambda c: c.text[:1] == ["Partner left"], 30, "Partner left")
            assert any("P3 left the game" in l for l in u.text), u.text
        p3.wait(lambda c: c.text[:1] == ["fathom"], 30, "the home menu")
        p3.press("OK")  # the game just played
        p3.choose("Resume game")
        p3.wait(on_game, 60, "the game resumed")
        for u in (host, p2):  # no key pressed on either
            u.wait(on_game, 30, "unit %d back on the game" % u.index)
        for u in emu.units:
            assert "Traceback" not in u.console(), (u.index, u.console()[-3000:])
    finally:
        close(ether, emu)


def test_a_host_that_keeps_one_relayed_event_is_named_by_the_partner(tmp_path):
    fw = modified_firmware(tmp_path / "modified")
    limit = {"FATHOM_GAP_MS": str(GAP_MS)}

    def host_env(u):
        return dict(gap_env(u, fw, 1, 2, 3), **limit)
    ether, emu = form(tmp_path / "game", 59, host_env, partner_env=lambda u: limit)
    host, p2, p3 = emu.units
    try:
        c = p3.wait(lambda c: any("did not send this unit event" in l for l in c.text), 300,
                    "P3 naming the host")
        kept = int(re.search(r"cheat: event (\d+) kept from P3", host.console()).group(1))
        said = "the host (P1) did not send this unit event %d in %d s" % (kept, GAP_MS // 1000)
        assert any(said in l for l in c.text), c.text
        assert c.text[0] == "DESYNC", c.text
        recs = journal_when(p3, lambda recs: any(r[0] == "x" for r in recs), "the journalled stop")
        assert ["x", kept] == [r[:2] for r in recs if r[0] == "x"][0]
        assert p2.text[0] != "DESYNC"  # P2 got every event: only P3 can name the host
        for u in emu.units:
            assert "Traceback" not in u.console(), (u.index, u.console()[-3000:])
    finally:
        close(ether, emu)
