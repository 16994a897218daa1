# `fathom emu`'s keyboard and layout: every key byte of a read is a key (escape sequences too,
# even cut across reads), and a unit that is off or booting keeps its place in the frame.
import types

import pytest

from fathom_host.emu import apply_keys, decode_keys, key_bar, layout, typed
from fathom_host.emulator.units import Emulator, Screen


def test_two_keys_in_one_read_are_two_presses():
    assert decode_keys(b"kk", 2) == ([("press", 1, "DOWN", False)] * 2, b"")


def test_a_key_then_quit_presses_then_quits():
    events, rest = decode_keys(b"rqww", 2)
    assert events == [("press", 0, "BACK", False), ("quit",)]
    assert rest == b""


def test_capitals_are_long_and_controls_map():
    events, _ = decode_keys(b"Ke\t2\n\x7f9?", 2)
    assert events == [("press", 1, "DOWN", True), ("press", 0, "OK", False), ("focus",),
                      ("reboot", 1), ("press", None, "OK", False),
                      ("press", None, "BACK", False),  # 9: no ninth unit, nothing
                      ("press", None, "BACK", True)]   # ?: the focused unit's HELP


def test_a_third_unit_has_its_own_keys_and_a_long_press():
    events, _ = decode_keys(b"tgfhyuU", 3)
    assert events == [("press", 2, k, False) for k in
                      ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")] + [("press", 2, "BACK", True)]
    assert decode_keys(b"U", 2) == ([], b"")   # no third unit: nothing
    assert "unit3 tfgh y=OK u=BACK U=HELP" in " ".join(key_bar("host", 3, 200))


def test_the_key_bar_follows_the_board():
    # the 72x40 profile has no OK button: OK is a long DOWN, and e types it so
    assert typed("esp32c3_oled_72x40", "OK", False) == ("DOWN", True)
    assert typed("esp32c3_oled_72x40", "BACK", True) == ("BACK", True)
    assert typed("host", "OK", False) == ("OK", False)
    bar = " ".join(key_bar("esp32c3_oled_72x40", 2, 100))
    assert "OK is a long DOWN" in bar and "CAPITAL = a long press" in bar
    assert "OK is a long" not in " ".join(key_bar("host", 2, 100))
    assert all(len(line) <= 60 for line in key_bar("host", 3, 60))  # wrapped, never cut


def test_arrows_among_plain_keys():
    events, rest = decode_keys(b"\x1b[Ai\x1b[B\x1bOC\x1b[1;5D\x1b[2~s", 2)
    assert events == [("press", None, "UP", False), ("press", 1, "UP", False),
                      ("press", None, "DOWN", False), ("press", None, "RIGHT", False),
                      ("press", None, "LEFT", False), ("press", 0, "DOWN", False)]
    assert rest == b""


def test_an_arrow_split_across_reads():
    for cut in (1, 2):
        seq = b"w\x1b[C"
        events, rest = decode_keys(seq[:cut + 1], 2)
        assert events == [("press", 0, "UP", False)] and rest == seq[1:cut + 1]
        events, rest = decode_keys(rest + seq[cut + 1:] + b"k", 2)
        assert events == [("press", None, "RIGHT", False), ("press", 1, "DOWN", False)]
        assert rest == b""


def test_a_lone_esc():
    events, rest = decode_keys(b"k\x1b", 2)
    assert events == [("press", 1, "DOWN", False)] and rest == b"\x1b"
    assert decode_keys(rest, 2, flush=True) == ([], b"")  # nothing more came: the Esc key
    # ESC followed by a plain key (Esc pressed, then k): the key still counts
    assert decode_keys(b"\x1bk", 2) == ([("press", 1, "DOWN", False)], b"")


class _Unit:
    """What layout reads of a unit: its index, board, panel and whether it runs."""

    def __init__(self, index, screen, alive):
        self.index, self.board, self.screen, self._alive = index, "host", screen, alive

    def alive(self):
        return self._alive


def _lit_panel():
    return Screen(128, 64, bytes([0xFF]) * (128 * 64 // 8))


def test_a_booting_unit_keeps_its_place():
    for cols in (300, 100):  # side by side with half blocks; braille, stacked
        full = layout(types.SimpleNamespace(units=[_Unit(0, _lit_panel(), True),
                                                   _Unit(1, _lit_panel(), True)]), 0, cols)
        boot = layout(types.SimpleNamespace(units=[_Unit(0, _lit_panel(), True),
                                                   _Unit(1, None, True)]), 0, cols)
        off = layout(types.SimpleNamespace(units=[_Unit(0, None, False),
                                                  _Unit(1, _lit_panel(), True)]), 1, cols)
        assert len(boot) == len(full) == len(off)
        assert [len(line) for line in boot] == [len(line) for line in full]
        assert [len(line) for line in off] == [len(line) for line in full]
        assert any("unit 2: booting" in line for line in boot)
        assert any("unit 1: off" in line for line in off)
        assert not any("booting" in line or ": off" in line for line in full)


def test_units_not_started_are_drawn_off(tmp_path):
    emu = Emulator(2, workdir=tmp_path)
    try:
        frame = layout(emu, 0, 300)
    finally:
        emu.close()
    assert any("unit 1: off" in line and "unit 2: off" in line for line in frame)
    # title, top, 64 pixel rows as 32, bottom, the key bar
    assert len(frame) == 1 + 1 + 32 + 1 + len(key_bar("host", 2, 300))


@pytest.mark.slow
def test_ok_typed_on_a_72x40_unit_opens_a_game(tmp_path):
    emu = Emulator(1, workdir=tmp_path, board="esp32c3_oled_72x40")
    try:
        u = emu.units[0]
        u.start()
        title = u.text[0]
        events, _ = decode_keys(b"e", 1)
        n = u.keys_sent
        apply_keys(emu, events, 0)
        u.wait(lambda c: c.keys >= n + 1, 30, "the OK handled")
        u.wait(lambda c: c.text and c.text[0] != title, 30, "a game's menu")
    finally:
        emu.close()
