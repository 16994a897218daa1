# A unit whose record of the game's link is damaged (a bad flash cell in its `link` file: the
# channel's keys and counters) cannot speak on that link any more. Through the keys of emulated
# units over the ether's ESP-NOW: it says so on its own screen and ends the game void, and its
# notice, tagged under the game's secrets (link/lost.py), ends the game on the partner in the
# same words, never "vanished" and never a wait without end. A bystander's notice, tagged
# without those secrets, changes nothing on the partner (tests/link/test_link_lost.py).
import pytest

from fathom_host.emulator.drive import pair, player_env
from fathom_host.emulator.units import Emulator

from kit.e2e import ether_fixture

pytestmark = pytest.mark.slow

ether = ether_fixture(5)
LOST = "P%d lost its link to this game (its saved keys were damaged): the game is void"


def stopped(c):
    return c.ux is not None


def damage_link(u):
    path = u.dir / "data" / "link"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # inside the channel's record: its checksum fails
    path.write_bytes(bytes(data))


def said(u):
    return " ".join(u.text)


@pytest.mark.parametrize("who", [0, 1])
def test_a_unit_whose_link_record_is_damaged_ends_the_game_in_words_on_both_units(tmp_path,
                                                                                ether, who):
    emu = Emulator(2, workdir=tmp_path, ether=ether, env={"FATHOM_LINK": "espnow"})
    a, b = emu.units
    hurt, other = emu.units[who], emu.units[1 - who]
    hurt.extra_env.update(player_env(moves=4))
    other.extra_env.update(player_env())
    with emu:
        pair([a, b], "Lake Ashtapada")
        assert hurt.wait(stopped, 120, "four choices").ux.get("error") is None
        hurt.kill()
        hurt.extra_env.pop("FATHOM_UXPLAYER")
        damage_link(hurt)
        hurt.start()
        hurt.wait(lambda c: c.text[:1] == ["Link lost"], 30, "the damaged unit's notice")
        assert "could not be read" in said(hurt) and "void" in said(hurt), hurt.text
        assert (hurt.dir / "data" / "link.bad").exists()
        other.wait(lambda c: c.text[:1] == ["Result"] and "Game void" in c.text, 60,
                   "the partner's void game")
        sentence = [l for l in other.text if "lost its link" in l]
        assert sentence and sentence[0] in (LOST % 1, LOST % 2), other.text
        assert "vanished" not in said(other) and "not answering" not in said(other)
        hurt.press("OK")  # the notice read: the void game's result under it
        hurt.wait(lambda c: c.text[:1] == ["Result"] and "Game void" in c.text, 30, "result")
        assert [l for l in hurt.text if "lost its link" in l] == sentence
        # every partner answered: OK goes home on both, the game gone from both flashes
        for u in (hurt, other):
            u.press("OK")
            u.wait(lambda c: c.text[:1] == ["fathom"], 30, "home")
            assert not (u.dir / "data" / "game").exists()
            assert "Traceback" not in u.console(), u.console()[-3000:]


def test_a_unit_whose_save_and_link_record_are_both_damaged_still_tells_its_partner(tmp_path,
                                                                                   ether):
    # Its journal is damaged after the header (set aside as game.bad) and its link record too:
    # no channel is left to say ["void"] on, but the header still holds the seed, so the
    # notice of a save set aside reaches the partner, which ends the game in the save's words.
    from fathom.hal.records import scan_records
    emu = Emulator(2, workdir=tmp_path, ether=ether, env={"FATHOM_LINK": "espnow"})
    a, b = emu.units
    a.extra_env.update(player_env())
    b.extra_env.update(player_env(moves=4))
    with emu:
        pair([a, b], "Lake Ashtapada")
        assert b.wait(stopped, 120, "four choices").ux.get("error") is None
        b.kill()
        b.extra_env.pop("FATHOM_UXPLAYER")
        damage_link(b)
        path = b.dir / "data" / "game"
        with open(str(path), "rb") as f:
            recs = [pos for pos, _end, _body in scan_records(f)]
        assert len(recs) >= 3, recs
        data = bytearray(path.read_bytes())
        data[recs[1] + 9] ^= 0xFF  # the second record's body: the header stays readable
        path.write_bytes(bytes(data))
        b.start()
        b.wait(lambda c: any("could not be read" in l for l in c.text), 30, "the notice")
        assert (b.dir / "data" / "game.bad").exists()
        a.wait(lambda c: c.text[:1] == ["Result"] and "Game void" in c.text, 60,
               "the partner's void game")
        assert any("save was damaged: this game cannot be checked and is void" in l
                   for l in a.text), a.text
        assert "vanished" not in said(a)
        for u in (a, b):
            assert "Traceback" not in u.console(), u.console()[-3000:]
