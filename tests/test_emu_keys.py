# `fathom emu`'s keyboard and layout: every key byte of a read is a key (escape sequences too,
# even cut across reads), and a unit that is off or booting keeps its place in the frame.
import types

from fathom_host.emu import decode_keys, layout
from fathom_host.units import Emulator, Screen


def test_two_keys_in_one_read_are_two_presses():
    assert decode_keys(b"kk", 2) == ([("press", 1, "DOWN", False)] * 2, b"")


def test_a_key_then_quit_presses_then_quits():
    events, rest = decode_keys(b"rqww", 2)
    assert events == [("press", 0, "BACK", False), ("quit",)]
    assert rest == b""


def test_capitals_are_long_and_controls_map():
    events, _ = decode_keys(b"Ke\t2\n\x7f9", 2)
    assert events == [("press", 1, "DOWN", True), ("press", 0, "OK", False), ("focus",),
                      ("reboot", 1), ("press", None, "OK", False),
                      ("press", None, "BACK", False)]  # 9: no ninth unit, nothing


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
    assert len(frame) == 1 + 1 + 32 + 1 + 1  # title, top, 64 pixel rows as 32, bottom, help
