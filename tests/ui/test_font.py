# The 3x5 font draws through blit() from column bytes (font._COLS) instead of a pixel() call per
# dot: the same pixels as the bitmaps it is written from (_TINY, _SIGN), lit on dark and dark on
# lit, clipped at every edge of the panel.
import pytest

from kit.panel import Panel
from fathom.ui import font

pytestmark = pytest.mark.micropython

CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" + font._SIGNS + "a z@"


def bitmap(ch):
    """The 15-bit glyph a character shows, read from the bitmaps (the block when unknown)."""
    o = ord(ch.upper())
    if ch == " ":
        return 0
    if 48 <= o <= 57:
        return font._TINY[o - 48]
    if 65 <= o <= 90:
        return font._TINY[o - 55]
    i = font._SIGNS.find(ch)
    return font._SIGN[i] if i >= 0 else 0x7FFF


def by_pixels(d, text, x, y, c):
    for ch in text:
        g = bitmap(ch)
        for r in range(5):
            for j in range(3):
                if (g >> (12 - 3 * r)) & (4 >> j):
                    d.pixel(x + j, y + r, c)
        x += font.TW


def panels(w, h, ground):
    a, b = Panel(w, h), Panel(w, h)
    a.fill(ground)
    b.fill(ground)
    return a, b


@pytest.mark.parametrize("c", [1, 0])
def test_every_glyph_draws_its_bitmap_anywhere_on_the_panel_and_past_its_edges(c):
    w, h = 24, 16
    for ch in CHARS:
        for x, y in ((0, 0), (5, 3), (w - 2, 0), (0, h - 3), (-1, -2), (w - 3, h - 5), (3, 6)):
            a, b = panels(w, h, 1 - c)
            by_pixels(a, ch, x, y, c)
            assert font.tiny(b, ch, x, y, c) == x + font.TW
            assert bytes(a.buf) == bytes(b.buf), (ch, x, y, c)


def test_a_line_of_text_is_its_glyphs_side_by_side():
    a, b = panels(64, 8, 0)
    by_pixels(a, "P2 HIT 3/4!", 1, 2, 1)
    font.tiny(b, "P2 HIT 3/4!", 1, 2, 1)
    assert bytes(a.buf) == bytes(b.buf)
