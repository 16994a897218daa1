# A unit whose record of the game's link is damaged (a bad flash cell in its `link` file: the
# channel's keys and counters) cannot speak on that link any more. Through the keys of emulated
# units over the ether's ESP-NOW: it says so on its own screen and ends the game void, and its
# notice, tagged under the game's secrets (link/lost.py), ends the game on the partner in the
# same words, never "vanished" and never a wait without end. A bystander's notice, tagged
# without those secrets, changes nothing on the partner (tests/link/test_link_lost.py).
import pytest

from kit.e2e import ends_void, ether_fixture, four_choices_then_off, lake_pair

pytestmark = pytest.mark.slow

ether = ether_fixture(5)
LOST = "P%d lost its link to this game (its saved keys were damaged): the game is void"


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
    emu = lake_pair(tmp_path, ether, who)
    other = emu.units[1 - who]
    with emu:
        hurt = four_choices_then_off(emu, who)
        damage_link(hurt)
        hurt.start()
        hurt.wait(lambda c: c.text[:1] == ["Link lost"], 30, "the damaged unit's notice")
        assert "could not be read" in said(hurt) and "void" in said(hurt), hurt.text
        assert (hurt.dir / "data" / "link.bad").exists()
        ends_void(other, "lost its link to this game")
        sentence = [l for l in other.text if "lost its link" in l]
        assert sentence[0] in (LOST % 1, LOST % 2), other.text
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
    emu = lake_pair(tmp_path, ether)
    a = emu.units[0]
    with emu:
        b = four_choices_then_off(emu)
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
        ends_void(a, "save was damaged: this game cannot be checked and is void")
        for u in (a, b):
            assert "Traceback" not in u.console(), u.console()[-3000:]
