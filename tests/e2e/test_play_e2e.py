# Whole games through the keys of emulated units: solo against the in-unit bot for every game,
# the cooperative game alone, and a unit lent as the bot opponent over the radio (a unit that
# loses power in a game: test_reboot_e2e.py). The games are played by each unit's own scripted
# player (hostmodes/uxplayer: a bot decides, the screen's keys_for says which keys, the Pin
# twin presses them); menus by the test.
import pytest

from fathom import games
from fathom_host.emulator.drive import play_out, player_env
from fathom_host.emulator.units import Emulator

from kit.e2e import ether_fixture, lend, propose, verified

pytestmark = pytest.mark.slow

# Lake Ashtapada plays whole games through the keys in test_ashtapada_e2e.py: here, make bench
TWO_PLAYER = [pytest.param(gid, games.declaration(gid).TITLE,
                           marks=[pytest.mark.bench] if gid == "ashtapada" else [])
              for gid in games.IDS if games.declaration(gid).PLAYERS[0] == 2]

ether = ether_fixture(3)


def test_every_game_is_listed_and_startable(tmp_path):
    """The home menu offers each playable game and its menu offers a way to play it."""
    with Emulator(1, workdir=tmp_path) as emu:
        u = emu.units[0]
        for gid in games.IDS:
            title = games.declaration(gid).TITLE
            assert any(l[1:].startswith(title) for l in u.text), title
            u.choose(title)
            assert u.text[0] == title
            assert any("unit" in l for l in u.text)
            u.press("BACK")


@pytest.mark.parametrize("gid,title", TWO_PLAYER)
def test_solo_game_against_the_sharp_bot(tmp_path, gid, title):
    with Emulator(1, workdir=tmp_path, env=player_env()) as emu:
        u = emu.units[0]
        u.choose(title)
        u.choose("vs bot: sharp")
        results, reports = play_out([u], timeout=240)
        assert verified(results[0]), results[0]
        assert reports[0]["game"] == gid and reports[0]["presses"], reports
        u.press("OK")  # leave the result: the save is cleared, home again
        u.wait_text("Companion")
        assert not (tmp_path / "unit0" / "data" / "game").exists()


def test_solo_cooperative_game(tmp_path):
    with Emulator(1, workdir=tmp_path, env=player_env()) as emu:
        u = emu.units[0]
        u.choose("Pinned Down")
        u.choose("Solo")
        results, reports = play_out([u], timeout=300)
        assert results[0][0] == "Result" and results[0][1] in ("Fleet wins", "Fleet lost")
        assert len(reports[0]["presses"]) >= 3  # a short loss is a game played through the keys


def test_a_unit_lent_as_the_bot_opponent(tmp_path, ether):
    emu = Emulator(2, workdir=tmp_path, ether=ether)
    me, lent = emu.units
    me.extra_env.update(player_env())  # the lent unit's own bot plays its side
    with emu:
        lend(lent)
        lent.choose("Play as bot")
        propose(me, "Lake Ashtapada")
        me.wait_text("OK yes", 60)
        me.press("OK")
        # a unit lent as the bot still shows a new partner's code for its owner to confirm once
        lent.wait_text("OK yes", 30)
        lent.press("OK")
        results, _ = play_out([me], timeout=240)
        assert verified(results[0]), results[0]
        lent.wait(lambda c: c.text and c.text[0] == "Result" and "verified" in c.text, 30,
                  "the lent unit's verified result")
