# `fathom screenshot --keys`: short and long presses on a real emulated unit, and key names the
# board has no button for refused before any unit boots. `--game`: a game reached mid-play by
# the scripted player, photographed on another board after it resumes there.
import pytest
from PIL import Image

from fathom_host import FathomError, hostboard
from fathom_host.screenshot import (board_keys, long_names, menu_path, parse_keys,
                                    presses_for, press_settled)
from fathom_host.emulator.units import Emulator
from kit.host import fathom

HOST_KEYS = ["BACK", "DOWN", "LEFT", "OK", "RIGHT", "UP"]


def test_the_host_board_keys():
    from fathom_host import hostboard
    assert board_keys(hostboard.load("host")) == HOST_KEYS


def test_keys_parse_with_long_presses():
    assert parse_keys("DOWN, down:long,OK:LONG,,ok", HOST_KEYS) == [
        ("DOWN", False), ("DOWN", True), ("OK", True), ("OK", False)]
    assert parse_keys("", HOST_KEYS) == []


def test_a_bad_key_names_the_valid_ones():
    with pytest.raises(FathomError) as e:
        parse_keys("DOWN,SELECT", HOST_KEYS)
    assert "'SELECT'" in str(e.value)
    assert "BACK, DOWN, LEFT, OK, RIGHT, UP" in str(e.value)
    with pytest.raises(FathomError, match="KEY:long"):
        parse_keys("OK:short", HOST_KEYS)


def test_the_command_refuses_a_bad_key(tmp_path):
    r = fathom("screenshot", "--out", str(tmp_path / "x.png"), "--keys", "OK,JUMP:long")
    assert r.returncode == 1
    assert "unknown key 'JUMP'" in r.stderr and "BACK, DOWN, LEFT, OK, RIGHT, UP" in r.stderr
    assert not (tmp_path / "x.png").exists()


def _cursor(text):
    return [i for i, line in enumerate(text[1:]) if line.startswith(">")][0]


@pytest.mark.slow
def test_a_long_arrow_repeats_and_the_next_press_counts_once(tmp_path):
    # On the host board a held arrow auto-repeats: the home menu cursor moves one row per key
    # the unit handled, several for one long press. The short press after it must move it
    # exactly once more: the long press's repeats are over before it is counted.
    with Emulator(1, workdir=tmp_path) as emu:
        u = emu.units[0]
        assert _cursor(u.text) == 0
        press_settled(u, "DOWN", False)
        assert u.selected() == "Lake Ashtapada"
        press_settled(u, "DOWN", True)
        keys = u.hub.conn(0).keys
        assert keys >= 3  # the short DOWN, and the long one's press plus repeats
        assert _cursor(u.text) == keys
        press_settled(u, "UP", False)
        assert u.hub.conn(0).keys == keys + 1
        assert _cursor(u.text) == keys - 1


@pytest.mark.slow
def test_the_command_presses_long(tmp_path):
    out = tmp_path / "shot.png"
    r = fathom("screenshot", "--out", str(out), "--keys", "DOWN:long", timeout=90)
    assert r.returncode == 0, r.stderr
    assert out.exists()
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith(str(out) + ": fathom |")
    items = line.split(" | ")[1:]
    chosen = [i for i, item in enumerate(items) if item.startswith(">")]
    assert len(chosen) == 1 and chosen[0] >= 2  # more than one row down: the key repeated


def test_long_press_names_press_their_button_long():
    # HELP is a long BACK everywhere; at 72x40 OK has no button of its own: a long DOWN
    assert long_names(hostboard.load("host")) == {"HELP": "BACK"}
    assert presses_for("host", "OK,HELP") == [("OK", False), ("BACK", True)]
    assert presses_for("esp32c3_oled_72x40", "ok,HELP,DOWN") == [
        ("DOWN", True), ("BACK", True), ("DOWN", False)]
    with pytest.raises(FathomError, match="OK = DOWN:long"):
        presses_for("esp32c3_oled_72x40", "SELECT")


def test_the_menu_path_to_each_games_bot():
    assert menu_path("ping", "sharp") == "PING/vs bot: sharp"
    assert menu_path("ashtapada", "easy") == "Lake Ashtapada/vs bot: easy"
    assert menu_path("pinned_down", "sharp") == "Pinned Down/with bot: sharp"  # cooperative
    with pytest.raises(FathomError, match="unknown game 'chess'"):
        menu_path("chess", "sharp")
    with pytest.raises(FathomError, match="no bot level 'godlike'"):
        menu_path("ping", "godlike")


@pytest.mark.slow
def test_a_game_mid_play_at_72x40_with_its_help(tmp_path):
    # The player makes its choices on the host board; the 72x40 unit resumes that game, and
    # HELP (a long BACK) opens the game's help page on the small panel.
    out = tmp_path / "help.png"
    # (Sugar Dog: no question of its own comes up as a turn starts, as PING's report does)
    r = fathom("screenshot", "--game", "sugardog", "--moves", "2", "--board", "esp32c3_oled_72x40",
               "--keys", "HELP", "--scale", "2", "--out", str(out), timeout=180)
    assert r.returncode == 0, r.stderr
    assert Image.open(out).size == (144, 80)
    text = r.stdout.strip().splitlines()[-1].split(" | ")
    assert text[0] == str(out) + ": Sugar Dog help"


@pytest.mark.slow
def test_a_game_mid_play_then_keys_on_its_board(tmp_path):
    # keys after the moves reach the resumed game: HELP opens the help page and BACK closes
    # it, back on the board at the player's choice (whether OK there opens a square menu
    # depends on the dealt position, so the docs' --all checks that, not this test)
    out = tmp_path / "board.png"
    r = fathom("screenshot", "--game", "ping", "--moves", "4", "--keys", "HELP,DOWN,BACK",
               "--out", str(out), timeout=180)
    assert r.returncode == 0, r.stderr
    assert Image.open(out).size == (512, 256)
    text = r.stdout.strip().splitlines()[-1].split(" | ")
    assert text[0].endswith("PING your move"), text
    assert any(line.startswith("# cursor ") for line in text), text


def test_a_game_that_does_not_exist_is_refused_before_booting(tmp_path):
    r = fathom("screenshot", "--game", "chess", "--out", str(tmp_path / "x.png"))
    assert r.returncode == 1
    assert "unknown game 'chess'" in r.stderr and "ping" in r.stderr
