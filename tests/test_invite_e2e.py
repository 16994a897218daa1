# Issue 17 item 4, end to end on two emulated units over the emulated radio: unit 0 looks for a
# partner for PING, unit 1 sits on its home menu and shows the invitation; OK there opens the
# pairing with unit 0 already chosen, both players confirm the code and the game starts on both.
import pytest

from fathom_host.drive import confirm_code, open_link
from fathom_host.units import Emulator

from e2ekit import ether_fixture

pytestmark = pytest.mark.slow

ether = ether_fixture(23)


def test_an_idle_unit_is_invited_and_joins_with_one_key(tmp_path, ether):
    with Emulator(2, workdir=tmp_path, ether=ether) as emu:
        host, idle = emu.units
        open_link(host, "PING")
        idle.wait_text("wants to play PING", 30)
        assert idle.text[0] == "fathom", idle.text  # over the home menu
        idle.wait_text("OK: join", 5)    # the keys answer it once it could be read
        idle.press("OK")
        # the invited player presses nothing more: the inviting unit is chosen for it
        idle.wait(lambda c: c.text and c.text[0] == "Link", 10, "the pairing")
        host.wait(lambda c: any(l.startswith(">PLAYER") for l in c.text), 30, "the idle unit")
        host.press("OK")  # the one unit listed: the invited one
        confirm_code(host, idle)
        for u in (host, idle):
            u.wait(lambda c: c.text and c.text[0].startswith("PING"), 60, "the game screen")
