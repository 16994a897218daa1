# `fathom screenshot --keys`: short and long presses on a real emulated unit, and key names the
# board has no button for refused before any unit boots.
import pytest

from fathom_host import FathomError
from fathom_host.screenshot import board_keys, parse_keys, press_settled
from fathom_host.units import Emulator
from hosttools_helpers import fathom

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
