# A unit that loses power in a game: back in it where it was, solo and over a link, through the
# keys of emulated units; a save that cannot be resumed (a bad flash cell, a replay the game
# refuses, another journal version) is set aside, explained, and never loops the unit.
import pytest

from fathom.codec import encode
from fathom.hal.storage import Storage
from fathom_host.emulator.drive import pair, play_out, player_env
from fathom_host.emulator.units import Emulator

from kit.e2e import ether_fixture, verified

pytestmark = pytest.mark.slow

ether = ether_fixture(3)


def stopped(c):
    """The scripted player's report is in (it stopped after its `moves`, or failed)."""
    return c.ux is not None


def check_report(c):
    assert "error" not in c.ux, c.ux
    return c.ux


def test_solo_game_survives_a_reboot(tmp_path):
    with Emulator(1, workdir=tmp_path, env=player_env("easy", moves=10)) as emu:
        u = emu.units[0]
        u.choose("Lake Ashtapada")
        u.choose("vs bot: easy")
        # set up, and a few moves, then the player stops
        played = check_report(u.wait(stopped, 60, "ten choices"))["presses"]
        assert len(played) == 10, played
        u.wait_text("your move", 30)
        before = [l for l in u.text if l.startswith("| ")]
        assert before, u.text
        u.kill()
        u.extra_env.update(player_env("easy"))  # the rest of the game: played to its end
        u.start()
        u.wait_text("your move", 30)  # back in the game, the bot with it
        assert [l for l in u.text if l.startswith("| ")] == before
        results, _ = play_out([u], timeout=240)
        assert verified(results[0]), results[0]


def test_link_game_survives_a_reboot(tmp_path, ether):
    emu = Emulator(2, workdir=tmp_path, ether=ether)
    a, b = emu.units
    a.extra_env.update(player_env())
    b.extra_env.update(player_env(moves=6))  # six choices, then pull its power
    with emu:
        pair([a, b], "Lake Ashtapada")
        a.wait_text("Lake Ashtapada")
        # set up and play a few decisions, then pull the power on unit b
        played = check_report(b.wait(stopped, 120, "b's six choices"))["presses"]
        assert len(played) == 6, played
        b.kill()
        b.extra_env.update(player_env())
        b.start()
        b.wait_text("Lake Ashtapada", 30)  # straight back into the game, no menu
        results, _ = play_out([a, b], timeout=240)
        assert verified(results[0]) and verified(results[1])
        assert results[0][1:3] != results[1][1:3] or "Draw" in results[0]  # one won, one lost


def test_a_corrupt_save_is_explained_and_kept(tmp_path):
    with Emulator(1, workdir=tmp_path) as emu:
        u = emu.units[0]
        u.choose("Lake Ashtapada")
        u.choose("vs bot: easy")
        u.press("OK")
        u.kill()
        path = tmp_path / "unit0" / "data" / "game"
        data = bytearray(path.read_bytes())
        data[20] ^= 0xFF  # a flash cell gone bad, in the journal's first record
        path.write_bytes(bytes(data))
        u.start()
        u.wait_text("could not be read", 30)
        assert (tmp_path / "unit0" / "data" / "game.bad").read_bytes() == bytes(data)
        u.press("OK")
        u.wait_text("Companion")  # home, and everything else still works
        u.choose("Settings")
        u.wait_text("Contrast")


def _reaches_home(u):
    u.wait_text("Companion", 30)
    assert u.text[0] == "fathom"


def test_a_save_whose_replay_fails_never_loops_the_unit(tmp_path):
    """The field report: every boot died resuming the same save. A save that is readable but
    does not replay (here an event its game refuses, as after a rules change) is set aside,
    explained, and the unit reaches its home menu on this boot and every boot after."""
    with Emulator(1, workdir=tmp_path) as emu:
        u = emu.units[0]
        u.choose("PING")
        u.choose("vs bot: easy")
        for _ in range(4):
            c = u.wait(lambda c: c.text and ("your move" in c.text[0] or "set up" in c.text[0]
                                             or c.text[0].startswith(("Start at", "Report "))),
                       30, "our turn")
            if c.text[0].startswith("Start at"):   # the start square asks once
                u.choose("Start")
            elif c.text[0].startswith("Report "):  # a turn begun on an objective asks too
                u.choose("Report")
            else:
                u.press("OK")
        u.kill()
        data = tmp_path / "unit0" / "data"
        Storage(str(data)).append_record("game", encode(["e", 1, ["nonsense"], bytes(8),
                                                         bytes(8)]))
        kept = (data / "game").read_bytes()
        u.start()
        u.wait_text("could not be read", 30)
        assert any("IllegalAction" in l for l in u.text), u.text
        assert (data / "game.bad").read_bytes() == kept and not (data / "game").exists()
        u.kill()                       # a reboot before anyone pressed OK
        u.start()
        _reaches_home(u)
        assert (data / "game.bad").read_bytes() == kept
        u.choose("Settings")           # and the unit still works
        u.wait_text("Contrast")
        u.press("BACK")
        u.kill()
        u.start()                      # and once more
        _reaches_home(u)


def test_a_save_from_another_journal_version_is_set_aside(tmp_path):
    with Emulator(1, workdir=tmp_path) as emu:
        u = emu.units[0]
        u.kill()
        data = tmp_path / "unit0" / "data"
        Storage(str(data)).new_records("game", encode(["h", 99, {"gid": "ping"}]))
        u.start()
        u.wait_text("could not be read", 30)
        assert any("version" in l for l in u.text), u.text
        u.press("OK")
        _reaches_home(u)
        assert (data / "game.bad").exists() and not (data / "game").exists()


def test_a_link_game_whose_save_is_set_aside_ends_void_on_the_partner(tmp_path, ether):
    # The unit's save cannot be read after a reboot (a flash cell gone bad in its header): it is
    # set aside and explained there, and the partner, which would otherwise find the unit
    # "vanished" a minute later and wait for ever before that, is told over the game's link
    # and ends the game in words.
    emu = Emulator(2, workdir=tmp_path, ether=ether)
    a, b = emu.units
    a.extra_env.update(player_env())
    b.extra_env.update(player_env(moves=6))
    with emu:
        pair([a, b], "Lake Ashtapada")
        check_report(b.wait(stopped, 120, "b's six choices"))
        b.kill()
        b.extra_env.pop("FATHOM_UXPLAYER")
        path = tmp_path / "unit1" / "data" / "game"
        data = bytearray(path.read_bytes())
        data[20] ^= 0xFF
        path.write_bytes(bytes(data))
        b.start()
        b.wait_text("could not be read", 30)
        a.wait_text("Game void", 60)
        said = " ".join(a.text)
        assert "save was damaged: this game cannot be checked and is void" in said, a.text
        assert "vanished" not in said
