# Text at two sizes: the display's 8x8 font (CH px cells) and a 3x5 font for labels where 8x8
# letters do not fit (board edges, a counter in the top bar, side panels, a 72x40 panel). Both draw straight
# into the framebuf without building strings, so a redraw that only moves a cursor allocates
# nothing (a string too long for its field is drawn a character at a time, never sliced).
import framebuf

from fathom.compat import const

CH = 8          # 8x8 font cell, pixels
TW = 4          # 3x5 font advance of most glyphs: 3 px glyph + 1 px gap (tiny_adv: a text's)
TH = 6          # 3x5 font line pitch: 5 px glyph + 1 px gap

_SIGNS = "-/+:.?!*#<>(),'%~"
_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")

# The 3x5 glyphs as the panel stores them: per glyph 5 bytes, one per column, the top row in
# bit 0 (framebuf.MONO_VLSB), in the order 0-9, A-Z, _SIGNS, then the block an unknown
# character shows as (visible, never silently dropped). Most glyphs are 3 columns wide; I is 1,
# L, N and O are 4, M and W 5: in 3 columns M read as N and W as H ("IT HAS MOVE 1"). Every two
# letters differ in 3 pixels or more and a digit from any glyph in 2 or more (the rule and the
# pictures: tests/ui/test_font.py). A bytes literal: in flash on a board.
_COLS = (
    b"\x0e\x11\x0e\x00\x00\x12\x1f\x10\x00\x00\x1d\x15\x17\x00\x00\x11\x15\x0a"
    b"\x00\x00\x07\x04\x1f\x00\x00\x17\x15\x09\x00\x00\x1f\x15\x1c\x00\x00\x01"
    b"\x1d\x03\x00\x00\x1b\x15\x1b\x00\x00\x17\x15\x0f\x00\x00\x1e\x09\x1e\x00"
    b"\x00\x1f\x15\x1a\x00\x00\x0e\x11\x11\x00\x00\x1f\x11\x0e\x00\x00\x1f\x15"
    b"\x15\x00\x00\x1f\x05\x01\x00\x00\x0e\x15\x1d\x00\x00\x1f\x04\x1f\x00\x00"
    b"\x1f\x00\x00\x00\x00\x08\x10\x0f\x00\x00\x1f\x0a\x11\x00\x00\x1f\x10\x10"
    b"\x10\x00\x1f\x02\x04\x02\x1f\x1f\x02\x04\x1f\x00\x0e\x11\x11\x0e\x00\x1f"
    b"\x05\x06\x00\x00\x0e\x19\x16\x00\x00\x1f\x0d\x12\x00\x00\x12\x15\x09\x00"
    b"\x00\x01\x1f\x01\x00\x00\x0f\x10\x0f\x00\x00\x07\x18\x07\x00\x00\x0f\x10"
    b"\x0c\x10\x0f\x19\x06\x19\x00\x00\x03\x1c\x03\x00\x00\x19\x15\x13\x00\x00"
    b"\x04\x04\x04\x00\x00\x18\x04\x03\x00\x00\x04\x0e\x04\x00\x00\x00\x0a\x00"
    b"\x00\x00\x00\x10\x00\x00\x00\x01\x15\x02\x00\x00\x00\x17\x00\x00\x00\x0a"
    b"\x04\x0a\x00\x00\x1f\x0a\x1f\x00\x00\x04\x0a\x11\x00\x00\x11\x0a\x04\x00"
    b"\x00\x0e\x11\x00\x00\x00\x00\x11\x0e\x00\x00\x10\x08\x00\x00\x00\x03\x00"
    b"\x00\x00\x00\x19\x04\x13\x00\x00\x04\x06\x02\x00\x00\x1f\x1f\x1f\x00\x00"
)
# Each glyph's advance: its width and the 1-pixel gap after it (TW for most).
_ADV = (
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x02\x04\x04\x05\x06\x05\x05\x04\x04\x04\x04\x04\x04\x04\x06\x04\x04\x04"
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
)
_BLOCK = const(53)
# Per ASCII code, its glyph number (255: a space) and its advance: one lookup a character where
# a chain of comparisons (or a call to _glyph) was most of what measuring and drawing a text
# cost; a wrapped side panel measures every word of what happened (ui/screen.wrap). Made from
# _glyph and _ADV (tests/ui/test_font.py holds them to it). Bytes literals: in flash.
_INDEX = (
    b"\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35"
    b"\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\x35\xff\x2a\x35\x2c"
    b"\x35\x33\x35\x32\x2f\x30\x2b\x26\x31\x24\x28\x25\x00\x01\x02\x03\x04\x05"
    b"\x06\x07\x08\x09\x27\x35\x2d\x35\x2e\x29\x35\x0a\x0b\x0c\x0d\x0e\x0f\x10"
    b"\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22"
    b"\x23\x35\x35\x35\x35\x35\x35\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14"
    b"\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x35\x35\x35"
    b"\x34\x35"
)
_ADVS = (
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x04\x02\x04\x04\x05\x06\x05\x05\x04\x04\x04\x04\x04\x04\x04\x06\x04\x04"
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x02\x04\x04"
    b"\x05\x06\x05\x05\x04\x04\x04\x04\x04\x04\x04\x06\x04\x04\x04\x04\x04\x04"
    b"\x04\x04"
)
# One character at a time through a 5x5 frame over 5 bytes, which blit() draws in C, clipped
# at the panel's edges (a narrow glyph's unused columns are 0, which blit's key leaves alone):
# 15 pixel() calls a character were 60-90% of a redraw's time.
_ONE = bytearray(5)
_ONE_FB = framebuf.FrameBuffer(_ONE, 5, 5, framebuf.MONO_VLSB)
# Dark on lit: blit looks each source pixel up in a palette (0 -> 1, 1 -> 0) before its key
# (1: the background stays), so one frame draws either way.
_DARK = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, framebuf.MONO_HLSB)


def _glyph(ch):
    """The glyph number of a character (lower case as upper: 3x5 has no room for both), -1
    for a space."""
    o = ord(ch)
    if 97 <= o <= 122:
        o -= 32
    if 48 <= o <= 57:
        return o - 48
    if 65 <= o <= 90:
        return o - 55
    if o == 32:
        return -1
    i = _SIGNS.find(ch)
    return 36 + i if i >= 0 else _BLOCK


def tiny(d, text, x, y, c=1):
    """`text` in the 3x5 font at x, y (top left); returns the x after it."""
    cols, one, adv = _COLS, _ONE, _ADV  # (up to three at once build no tuple)
    index = _INDEX
    for ch in text:
        o = ord(ch)
        g = index[o] if o < 128 else _BLOCK
        if g == 255:      # a space
            x += TW
            continue
        i = 5 * g
        one[0] = cols[i]
        one[1] = cols[i + 1]
        one[2] = cols[i + 2]
        one[3] = cols[i + 3]
        one[4] = cols[i + 4]
        if c:
            d.blit(_ONE_FB, x, y, 0)
        else:
            d.blit(_ONE_FB, x, y, 1, _DARK)
        x += adv[g]
    return x


def tiny_adv(text):
    """Pixels the 3x5 text moves the pen (each glyph and the gap after it): additive, so a
    word wrap can add words up."""
    n = 0
    advs = _ADVS
    for ch in text:
        o = ord(ch)
        n += advs[o] if o < 128 else 4  # (_ADV[_BLOCK])
    return n


def tiny_width(text):
    """Pixels the 3x5 text inks, without the trailing gap."""
    return tiny_adv(text) - 1 if text else 0


def tiny_len(text):
    """The 3x5 text's length in TW-wide columns (a wide letter counts for more): a field of n
    columns (n * TW - 1 pixels) holds it when this is n or less."""
    return (tiny_adv(text) + TW - 1) // TW


def digits(n):
    """Digits in a non-negative int (no string built)."""
    k = 1
    while n >= 10:
        n //= 10
        k += 1
    return k


def write(d, text, x, y, c=1, small=False):
    """Text in the 8x8 font, or the 3x5 one when small: a widget with both sizes calls this."""
    if small:
        tiny(d, text, x, y, c)
    else:
        d.text(text, x, y, c)


def number(d, n, x, y, c=1, small=False):
    """A non-negative int drawn digit by digit from constant one-character strings, so a
    counter redrawn on every cursor move allocates nothing; returns the x after it."""
    step = TW if small else CH
    k = digits(n)
    xx = x + (k - 1) * step
    while True:
        write(d, _DIGITS[n % 10], xx, y, c, small)
        n //= 10
        if not n:
            break
        xx -= step
    return x + k * step


def put(d, text, x, y, ncols, c=1, small=False):
    """Text in at most `ncols` characters (8x8), or in the ncols * TW - 1 pixels of as many 3x5
    columns when small: a longer text ends in '~' (it is cut, and says so). A cut text is drawn
    a character at a time (each a one-character string the interpreter already holds), not
    sliced: no string is built, and nothing is drawn past the field."""
    if small:
        end = x + ncols * TW          # the field's last pixel, and the gap after it
        if x + tiny_adv(text) <= end:
            tiny(d, text, x, y, c)
            return
        for ch in text:               # as many glyphs as leave room for the '~'
            g = _glyph(ch)
            a = TW if g < 0 else _ADV[g]
            if x + a + TW > end:
                break
            tiny(d, ch, x, y, c)
            x += a
        if x + TW <= end:
            tiny(d, "~", x, y, c)
        return
    if len(text) <= ncols:
        write(d, text, x, y, c, small)
        return
    i = 0
    while i < ncols:
        write(d, text[i] if i < ncols - 1 else "~", x, y, c, small)
        x += CH
        i += 1


def tiny_cols(w):
    """3x5 columns in w pixels (the last one needs no gap after it): put() and tiny_len()
    count in these (a text of narrow glyphs holds as many characters)."""
    return (w + 1) // TW
