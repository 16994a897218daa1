# The real SSD1306/SH1106 driver against the machine.I2C twin: what the glass shows must equal what
# was drawn, for every supported panel geometry, and show() must send only what changed.
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
_TESTS = _FW.rsplit("/", 1)[0] + "/tests"
if _FW + "/twins" not in sys.path:
    sys.path.insert(0, _FW + "/twins")
try:
    import framebuf
except ImportError:  # CPython: the pure-Python stand-in (MicroPython has the real one)
    sys.path.insert(0, _TESTS + "/cpython_shims")
    import framebuf

import machine  # noqa: E402  (the twin, from firmware/twins)
from fathom.hal.display import SH1106, SSD1306, make_display  # noqa: E402

pytestmark = pytest.mark.micropython

ADDR = 0x3C

# kind, width, height, col_offset, row_offset, flip (the profile) == mounted_flip (the glass)
GEOMETRIES = [
    ("ssd1306", 128, 64, 0, 0, False),     # generic 0.96"
    ("sh1106", 128, 64, 2, 0, False),      # 1.3" SH1106: 132-column RAM
    ("ssd1306", 128, 64, 0, 0, True),      # LOLIN32 OLED, glass upside down
    ("sh1106", 128, 64, 2, 0, True),
    ("ssd1306", 72, 40, 28, 0, False),     # ESP32-C3 0.42"
    ("ssd1306", 72, 40, 30, 12, False),    # another batch of the same
    ("ssd1306", 72, 40, 30, 12, True),
    ("ssd1306", 128, 32, 0, 0, False),
]


def _setup(kind, w, h, col, row, flip, glass_col=None, glass_row=None, mounted=None):
    machine.reset_twins()
    panel = machine.add_panel(ADDR, kind, w, h, col if glass_col is None else glass_col,
                              row if glass_row is None else glass_row,
                              flip if mounted is None else mounted)
    i2c = machine.I2C(0, scl=machine.Pin(22), sda=machine.Pin(21), freq=400000)
    cls = SH1106 if kind == "sh1106" else SSD1306
    return panel, cls(i2c, w, h, ADDR, col, row, flip)


def _scene(d):
    # corners and asymmetric shapes, so any mirror, shift or row swap shows up
    w, h = d.width, d.height
    d.fill(0)
    d.pixel(0, 0, 1)
    d.pixel(w - 1, 0, 1)
    d.pixel(0, h - 1, 1)
    d.hline(w - 6, h - 1, 6, 1)
    d.text("Fa", 3, 2, 1)
    d.line(0, h - 2, w // 2, 10, 1)
    d.rect(w - 20, 12, 15, 9, 1)
    d.fill_rect(w - 17, 14, 3, 3, 1)


def _diff(panel, d):
    got = panel.rows()
    want = []
    for y in range(d.height):
        want.append("".join("#" if d.pixel(x, y) else "." for x in range(d.width)))
    for y in range(d.height):
        if got[y] != want[y]:
            return "first differing row %d\n glass: %s\n drawn: %s" % (y, got[y], want[y])
    return ""


def test_init_sequence_turns_the_panel_on_blank():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    assert panel.on and panel.pump
    assert panel.mux == 64 and panel.seg_remap and panel.com_reversed
    assert panel.contrast == 0xCF
    assert panel.unknown == []
    assert panel.visible() == bytes(1024)
    assert machine.I2C(0).scan() == [ADDR]


def test_sh1106_init_uses_only_its_own_commands():
    panel, d = _setup("sh1106", 128, 64, 2, 0, False)
    assert panel.on and panel.unknown == []


@pytest.mark.parametrize("geom", GEOMETRIES)
def test_glass_shows_what_was_drawn(geom):
    panel, d = _setup(*geom)
    _scene(d)
    d.show()
    msg = _diff(panel, d)
    assert not msg, "%r: %s" % (geom, msg)
    assert panel.visible() == bytes(d.buffer)


def test_wrong_column_offset_is_visible_on_the_twin():
    panel, d = _setup("sh1106", 128, 64, 0, 0, False, glass_col=2)  # SH1106 treated as offset 0
    _scene(d)
    d.show()
    assert panel.visible() != bytes(d.buffer)
    # the image lands two columns left: the top-right dot at x=125, RAM 128..129 on the edge
    assert panel.pixel(125, 0) == 1 and panel.pixel(127, 0) == 0


def test_missing_flip_shows_the_image_upside_down():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False, mounted=True)
    _scene(d)
    d.show()
    for x, y in ((0, 0), (127, 0), (0, 63), (40, 30)):
        assert panel.pixel(127 - x, 63 - y) == (d.pixel(x, y) or 0)


def test_ssd1306_driver_on_an_sh1106_glass_is_garbled():
    machine.reset_twins()
    panel = machine.add_panel(ADDR, "sh1106", 128, 64, 2, 0, False)
    d = SSD1306(machine.I2C(0), 128, 64, ADDR)
    _scene(d)
    d.show()
    assert 0x8D in panel.unknown   # the SSD1306 charge pump means nothing to an SH1106
    assert panel.visible() != bytes(d.buffer)


def test_unchanged_frame_sends_nothing():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    _scene(d)
    d.show()
    before = panel.bytes_written
    assert d.show() == 0
    assert panel.bytes_written == before


def test_one_line_change_sends_only_the_touched_page():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    _scene(d)
    d.show()
    b0, d0 = panel.bytes_written, panel.data_bytes
    old = bytes(d.buffer)
    d.text("cursor", 20, 40, 1)     # page 5 only
    changed = [i for i in range(1024) if d.buffer[i] != old[i]]
    assert changed[0] // 128 == changed[-1] // 128 == 5
    d.show()
    sent, data = panel.bytes_written - b0, panel.data_bytes - d0
    assert data <= 128 and sent < 150, (sent, data)
    assert data == changed[-1] - changed[0] + 1   # trimmed to the columns that changed
    assert panel.visible() == bytes(d.buffer)


def test_cursor_move_resends_two_pages_not_the_frame():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    _scene(d)
    d.rect(10, 17, 30, 6, 1)        # cursor in page 2
    d.show()
    b0 = panel.bytes_written
    d.rect(10, 17, 30, 6, 0)
    d.rect(10, 25, 30, 6, 1)        # moved down into page 3
    d.show()
    assert panel.bytes_written - b0 <= 2 * (5 + 30 + 1)
    assert panel.visible() == bytes(d.buffer)


def test_full_redraw_after_invalidate():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    d.invalidate()
    d0 = panel.data_bytes
    d.show()
    assert panel.data_bytes - d0 == 1024


def test_controls_reach_the_glass():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    _scene(d)
    d.show()
    image = panel.visible()
    d.contrast(300)
    assert panel.contrast == 255
    d.contrast(10)
    assert panel.contrast == 10
    d.invert(True)
    assert panel.visible() == bytes(b ^ 0xFF for b in image)
    d.invert(False)
    d.poweroff()
    assert not panel.on and panel.visible() == bytes(1024)
    d.poweron()
    assert panel.visible() == image


def test_set_flip_at_run_time():
    panel, d = _setup("ssd1306", 72, 40, 30, 12, False, mounted=True)
    _scene(d)
    d.show()
    assert panel.visible() != bytes(d.buffer)
    d.set_flip(True)
    assert panel.visible() == bytes(d.buffer)


def test_make_display_follows_the_profile():
    machine.reset_twins()
    machine.add_panel(ADDR, "sh1106", 128, 64, 2)
    d = make_display({"driver": "sh1106", "width": 128, "height": 64, "addr": ADDR,
                      "col_offset": 2, "row_offset": 0, "flip": False}, machine.I2C(0))
    assert isinstance(d, SH1106)
    with pytest.raises(ValueError, match="display.driver"):
        make_display({"driver": "st7735", "width": 128, "height": 64, "addr": ADDR},
                     machine.I2C(0))


def test_missing_device_raises_oserror():
    machine.reset_twins()
    with pytest.raises(OSError):
        SSD1306(machine.I2C(0), 128, 64, ADDR)


def test_update_listener_fires_on_drawing_only():
    panel, d = _setup("ssd1306", 128, 64, 0, 0, False)
    seen = []
    machine.on_panel_update(lambda addr, p: seen.append(addr))
    d.show()
    assert seen == []
    d.pixel(5, 5, 1)
    d.show()
    assert seen and seen[-1] == ADDR


def test_twin_horizontal_and_vertical_addressing():
    machine.reset_twins()
    panel = machine.add_panel(ADDR, "ssd1306")
    i2c = machine.I2C(0)
    i2c.writeto(ADDR, bytes([0x00, 0x8D, 0x14, 0xAF, 0xA1, 0xC8, 0x20, 0x00, 0x21, 120, 127,
                             0x22, 6, 7]))
    i2c.writeto(ADDR, b"\x40" + bytes(range(1, 17)) + b"\xAA")   # 16 fill the window, 1 wraps
    assert panel.ram[6 * 128 + 127] == 8 and panel.ram[7 * 128 + 120] == 9
    assert panel.ram[7 * 128 + 127] == 16
    assert panel.ram[6 * 128 + 120] == 0xAA and panel.col == 121 and panel.page == 6
    i2c.writeto(ADDR, bytes([0x00, 0x20, 0x01, 0x21, 0, 1, 0x22, 0, 1]))
    i2c.writeto(ADDR, bytes([0x40, 9, 8, 7, 6]))                  # down a column, then right
    assert (panel.ram[0], panel.ram[128], panel.ram[1], panel.ram[129]) == (9, 8, 7, 6)
    # Co=1 control bytes: one command per control byte, as micropython-lib's driver sends them
    i2c.writeto(ADDR, bytes([0x80, 0x81]))
    i2c.writeto(ADDR, bytes([0x80, 0x42]))
    assert panel.contrast == 0x42


def test_twin_sh1106_page_mode_stops_at_last_column():
    machine.reset_twins()
    panel = machine.add_panel(ADDR, "sh1106")
    i2c = machine.I2C(0)
    i2c.writeto(ADDR, bytes([0x00, 0xB3, 0x02, 0x18]))   # page 3, column 0x82 = 130
    i2c.writeto(ADDR, bytes([0x40, 1, 2, 3, 4]))
    assert panel.ram[3 * 132 + 130] == 1 and panel.ram[3 * 132 + 131] == 2
    assert panel.ram[3 * 132] == 0 and panel.ram[4 * 132] == 0


def test_cpython_shim_matches_real_framebuf():
    if sys.implementation.name == "micropython":
        pytest.skip("the shim is for CPython")
    import os
    import subprocess
    sys.path.insert(0, _TESTS)
    from kit.runtimes import micropython_exe
    script = ("import framebuf, binascii\n"
              "b = bytearray(1024)\n"
              "f = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)\n" + _DRAW +
              "print(binascii.hexlify(b).decode())\n")
    out = subprocess.run([micropython_exe(), "-c", script], capture_output=True, text=True,
                         env=dict(os.environ, MICROPYPATH=""), timeout=60)
    b = bytearray(1024)
    f = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)
    exec(_DRAW, {"f": f, "framebuf": framebuf})
    assert out.stdout.strip() == b.hex(), out.stderr


_DRAW = """
f.fill(0)
f.text("Hello, 0123 ~{}", -3, 2, 1)
f.text("\\xe9x", 100, 60, 1)
for i in range(0, 128, 9):
    f.line(i, 0, 127 - i, 63, 1)
    f.line(64, 32, i, (i * 7) % 80 - 8, 1)
f.rect(5, 40, 30, 20, 1)
f.rect(-4, 50, 20, 30, 1, True)
f.fill_rect(100, 10, 40, 8, 0)
f.hline(-5, 20, 300, 1)
f.vline(70, -5, 40, 0)
f.pixel(127, 63, 1)
f.scroll(3, -2)
s = bytearray(8)
g = framebuf.FrameBuffer(s, 8, 8, framebuf.MONO_HLSB)
g.line(0, 0, 7, 5, 1)
f.blit(g, 120, 58)
f.blit(g, 10, 10, 0)
"""
