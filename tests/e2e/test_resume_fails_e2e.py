# A link game whose game flow fails at the resume: a module of it that cannot be imported (a
# game's screen, the resume's own module, the game flow's), through the keys of emulated units on the ether's
# ESP-NOW. The unit sets its save aside and says so; its partner is told over the game's link
# and ends the game void in words, instead of waiting for a unit that will never come back to
# the game (and then finding it "vanished").
import pytest

from kit.broken_firmware import broken_env, broken_firmware
from kit.e2e import ends_void, ether_fixture, four_choices_then_off, lake_pair

pytestmark = pytest.mark.slow

ether = ether_fixture(7)
VOID = "save was damaged: this game cannot be checked and is void"


@pytest.mark.parametrize("rel", ["games/ashtapada/screen.py", "flow/resume.py", "flow/play.py"])
def test_a_game_flow_that_fails_to_load_at_the_resume_ends_the_game_void_on_the_partner(
        tmp_path, ether, rel):
    fw = broken_firmware(tmp_path / "broken", rel,
                         "raise ImportError('a module left half-written')\n")
    emu = lake_pair(tmp_path / "game", ether)
    a = emu.units[0]
    with emu:
        b = four_choices_then_off(emu)
        b.extra_env.update(broken_env(b, fw))
        b.start()
        b.wait(lambda c: any("could not be read" in l for l in c.text), 30, "the notice")
        assert any("half-written" in l for l in b.text), b.text
        assert (b.dir / "data" / "game.bad").exists()
        ends_void(a, VOID)
        a.press("OK")
        a.wait(lambda c: c.text[:1] == ["fathom"], 30, "home")
        for u in (a, b):
            assert "Traceback" not in u.console(), u.console()[-3000:]


def test_a_partner_switched_off_while_told_is_told_when_it_comes_back(tmp_path, ether):
    # unit 1 is off while unit 2 sets its save aside and tells; unit 2 reboots and rests at
    # home. Before, the telling ended after a minute and unit 1, back in its game, found unit 2
    # silent for good; now unit 2 owes the notice (data/owed) and its home menu says it again
    fw = broken_firmware(tmp_path / "broken", "flow/resume.py",
                         "raise ImportError('a module left half-written')\n")
    emu = lake_pair(tmp_path / "game", ether)
    a, b = emu.units
    owed = b.dir / "data" / "owed"
    with emu:
        four_choices_then_off(emu)
        a.kill()
        plain = dict(b.extra_env)
        b.extra_env.update(broken_env(b, fw))
        b.start()
        b.wait(lambda c: any("could not be read" in l for l in c.text), 30, "the notice")
        assert owed.exists()
        b.kill()                        # a reboot before anyone answered: the duty stays
        b.extra_env = plain
        b.start()
        b.wait(lambda c: c.text[:1] == ["fathom"], 30, "home")
        a.extra_env.pop("FATHOM_UXPLAYER")
        a.start()
        ends_void(a, VOID)
        b.wait(lambda c: not owed.exists(), 30, "the receipt")
        for u in (a, b):
            assert "Traceback" not in u.console(), u.console()[-3000:]

