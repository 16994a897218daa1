# Text at two sizes: the display's 8x8 font (CH px cells) and a 3x5 font for labels where 8x8
# letters do not fit (board edges, a counter in the top bar, side panels, a 72x40 panel). Both draw straight
# into the framebuf without building strings, so a redraw that only moves a cursor allocates
# nothing (a string too long for its field is drawn a character at a time, never sliced).
import framebuf

from fathom.compat import const

CH = 8          # 8x8 font cell, pixels
TW = 4          # 3x5 font advance: 3 px glyph + 1 px gap
TH = 6          # 3x5 font line pitch: 5 px glyph + 1 px gap

# 15 bits a glyph, top row first, left bit high (the bitmaps as drawn; _COLS below is what
# tiny() reads): 0-9, then A-Z, then the few signs a label needs.
# Every two letters differ in at least two pixels: M has a closed top (an M drawn as H with one
# pixel more read 'YOUR HOVE'), W a low join, K its diagonals (not H with a pixel less).
_TINY = (0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7252, 0x7BEF, 0x7BCF,
         0x2BED, 0x6BAE, 0x3923, 0x6B6E, 0x79A7, 0x79A4, 0x396B, 0x5BED, 0x7497, 0x126A, 0x5D35,
         0x4927, 0x7F6D, 0x6B6D, 0x2B6A, 0x6BA4, 0x2B73, 0x6BAD, 0x388E, 0x7492, 0x5B6F, 0x5B6A,
         0x5B7D, 0x5AAD, 0x5A92, 0x72A7)
_SIGNS = "-/+:.?!*#<>(),'%~"
_SIGN = (0x01C0, 0x12A4, 0x05D0, 0x0410, 0x0002, 0x7282, 0x2482, 0x0AA8, 0x5F7D, 0x1511,
         0x4454, 0x2922, 0x224A, 0x0014, 0x4800, 0x52A5, 0x0780)
_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")


# The glyphs above as the panel stores them: per glyph 3 bytes, one per column, the top row
# in bit 0 (framebuf.MONO_VLSB), in the order 0-9, A-Z, _SIGNS, then the block an unknown
# character shows as (visible, never silently dropped). A bytes literal: in flash on a board.
# tests/ui/test_font.py holds it to _TINY and _SIGN.
_COLS = (
    b"\x1f\x11\x1f\x12\x1f\x10\x1d\x15\x17\x15\x15\x1f\x07\x04\x1f\x17\x15\x1d"
    b"\x1f\x15\x1d\x01\x19\x07\x1f\x15\x1f\x17\x15\x1f\x1e\x05\x1e\x1f\x15\x0a"
    b"\x0e\x11\x11\x1f\x11\x0e\x1f\x15\x11\x1f\x05\x01\x0e\x11\x1d\x1f\x04\x1f"
    b"\x11\x1f\x11\x08\x10\x0f\x1f\x0a\x11\x1f\x10\x10\x1f\x03\x1f\x1f\x01\x1e"
    b"\x0e\x11\x0e\x1f\x05\x02\x0e\x19\x16\x1f\x05\x1a\x12\x15\x09\x01\x1f\x01"
    b"\x1f\x10\x1f\x0f\x10\x0f\x1f\x08\x1f\x1b\x04\x1b\x03\x1c\x03\x19\x15\x13"
    b"\x04\x04\x04\x18\x04\x03\x04\x0e\x04\x00\x0a\x00\x00\x10\x00\x01\x15\x03"
    b"\x00\x17\x00\x0a\x04\x0a\x1f\x0a\x1f\x04\x0a\x11\x11\x0a\x04\x0e\x11\x00"
    b"\x00\x11\x0e\x10\x08\x00\x03\x00\x00\x19\x04\x13\x04\x06\x02\x1f\x1f\x1f"
)
_BLOCK = const(159)
# One character at a time through a 3x5 frame over 3 bytes, which blit() draws in C, clipped at
# the panel's edges: 15 pixel() calls a character were 60-90% of a redraw's time.
_ONE = bytearray(3)
_ONE_FB = framebuf.FrameBuffer(_ONE, 3, 5, framebuf.MONO_VLSB)
# Dark on lit: blit looks each source pixel up in a palette (0 -> 1, 1 -> 0) before its key
# (1: the background stays), so one frame draws either way.
_DARK = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, framebuf.MONO_HLSB)


def tiny(d, text, x, y, c=1):
    """`text` in the 3x5 font at x, y (top left); returns the x after it."""
    cols, one = _COLS, _ONE
    for ch in text:
        o = ord(ch)   # the glyph's first byte in _COLS (written out here: a call a character
        if 97 <= o <= 122:  # costs as much as the drawing); one case only: 3x5 has no room
            o -= 32         # for both
        if 48 <= o <= 57:
            i = 3 * (o - 48)
        elif 65 <= o <= 90:
            i = 3 * (o - 55)
        elif o == 32:
            x += TW
            continue
        else:
            i = _SIGNS.find(ch)
            i = 3 * (36 + i) if i >= 0 else _BLOCK
        one[0] = cols[i]
        one[1] = cols[i + 1]
        one[2] = cols[i + 2]
        if c:
            d.blit(_ONE_FB, x, y, 0)
        else:
            d.blit(_ONE_FB, x, y, 1, _DARK)
        x += TW
    return x


def tiny_width(text):
    """Pixels the 3x5 text inks, without the trailing gap."""
    return len(text) * TW - 1 if text else 0


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
    """Text in at most `ncols` characters (8x8, or 3x5 when small): a longer text ends in '~'
    (it is cut, and says so). A cut text is drawn a character at a time (each a one-character
    string the interpreter already holds), not sliced: no string is built, and nothing is
    drawn past the field."""
    if len(text) <= ncols:
        write(d, text, x, y, c, small)
        return
    step = TW if small else CH
    i = 0
    while i < ncols:
        write(d, text[i] if i < ncols - 1 else "~", x, y, c, small)
        x += step
        i += 1


def tiny_cols(w):
    """3x5 characters that fit in w pixels (the last one needs no gap after it)."""
    return (w + 1) // TW
