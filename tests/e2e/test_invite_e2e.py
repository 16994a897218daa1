# Invitations end to end on two emulated units over the emulated radio: unit 0 looks for a
# partner for PING, unit 1 sits on its home menu and shows the invitation; OK there opens the
# pairing with unit 0 already chosen, and unit 0, still listing, takes the unit that chose it
# (link/connect.py, `hailed`): nobody presses anything more until the code, then OK on both and
# the game starts on both. The next session of the two, which remember each other, is the same
# without a code, and the radio encrypts it from its first frame.
import pytest

from fathom_host.emulator.drive import confirm_code, open_link, unit_label
from fathom_host.emulator.units import Emulator

from kit.e2e import ether_fixture

pytestmark = pytest.mark.slow

ether = ether_fixture(23)


def accept_invitation(host, idle):
    open_link(host, "PING")
    idle.wait_text("wants to play PING", 30)
    assert idle.text[0] == "fathom", idle.text  # over the home menu
    idle.wait_text("OK: join?", 5)   # the keys answer it once it could be read
    keys = host.keys_sent
    idle.press("OK")
    idle.wait_text(" Join", 5)       # asked, the answers once it could be read: Not now first
    idle.press("DOWN")
    idle.press("OK")
    return keys


def in_game(units):
    """The game's own screen on every unit (not the game's menu, also titled PING, that a
    pairing which failed would go back to)."""
    for u in units:
        u.wait(lambda c: c.text and c.text[0].startswith("PING") and any(
            l.startswith("| You are P") for l in c.text), 60, "the game screen")


def home(u):
    """Reboot to the home menu: the game's journal and links removed, settings and pairings
    kept."""
    u.kill()
    for p in (u.dir / "data").iterdir():
        if not p.name.startswith(("settings", "pairings")):
            p.unlink()
    u.start()


def test_an_idle_unit_is_invited_and_both_reach_the_code_with_one_key(tmp_path, ether):
    with Emulator(2, workdir=tmp_path, ether=ether) as emu:
        host, idle = emu.units
        keys = accept_invitation(host, idle)
        # neither player presses anything more: the invited unit chooses the inviter, the
        # inviter, listing, takes it and says who chose it
        for u in (host, idle):
            u.wait_text("Code", 60)
        said = "%s chose this unit." % unit_label(idle.index)   # its name, not PLAYER's
        assert said in host.text, host.text
        assert host.keys_sent == keys
        confirm_code(host, idle)
        in_game((host, idle))


def test_the_next_session_is_taken_without_a_code_and_encrypted(tmp_path, ether):
    with Emulator(2, workdir=tmp_path, ether=ether) as emu:
        host, idle = emu.units
        accept_invitation(host, idle)
        confirm_code(host, idle)
        in_game((host, idle))
        for u in (host, idle):
            home(u)
        ether.clear_capture()
        keys = accept_invitation(host, idle)
        in_game((host, idle))             # no code: the pairing is remembered
        assert host.keys_sent == keys
        between = [f for f in ether.capture if f.link == "espnow" and f.dst != "*"]
        assert len(between) > 4
        assert all(f.enc for f in between), [(f.src, f.dst, f.enc) for f in between[:12]]
