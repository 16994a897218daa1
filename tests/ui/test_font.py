# The 3x5 font: every glyph draws the picture below (lit on dark and dark on lit, clipped at
# every edge of the panel, from the column bytes in font._COLS), advances the pen by its width
# and a gap, and no two glyphs a word can hold are easily mistaken: two letters differ in 3
# pixels or more and a digit from any other glyph in 2 or more (in 3 columns M read as N and
# W as H: "IT WAS MOVE 1" read "IT HAS MOVE 1", and "58" as "59" in a timer).
import pytest

from kit.panel import Panel
from fathom.ui import font

pytestmark = pytest.mark.micropython

# Each glyph's rows, top first ("X" lit); the width is the rows' length.
PICTURES = {
    '0': '.X. X.X X.X X.X .X.',
    '1': '.X. XX. .X. .X. XXX',
    '2': 'XXX ..X XXX X.. XXX',
    '3': 'XX. ..X .X. ..X XX.',
    '4': 'X.X X.X XXX ..X ..X',
    '5': 'XXX X.. XX. ..X XX.',
    '6': 'XX. X.. XXX X.X XXX',
    '7': 'XXX ..X .X. .X. .X.',
    '8': 'XXX X.X .X. X.X XXX',
    '9': 'XXX X.X XXX ..X XX.',
    'A': '.X. X.X X.X XXX X.X',
    'B': 'XX. X.X XX. X.X XXX',
    'C': '.XX X.. X.. X.. .XX',
    'D': 'XX. X.X X.X X.X XX.',
    'E': 'XXX X.. XXX X.. XXX',
    'F': 'XXX X.. XX. X.. X..',
    'G': '.XX X.. XXX X.X .XX',
    'H': 'X.X X.X XXX X.X X.X',
    'I': 'X X X X X',
    'J': '..X ..X ..X X.X .X.',
    'K': 'X.X XX. X.. XX. X.X',
    'L': 'X... X... X... X... XXXX',
    'M': 'X...X XX.XX X.X.X X...X X...X',
    'N': 'X..X XX.X X.XX X..X X..X',
    'O': '.XX. X..X X..X X..X .XX.',
    'P': 'XX. X.X XXX X.. X..',
    'Q': '.X. X.X X.X XX. .XX',
    'R': 'XX. X.X XX. XX. X.X',
    'S': '.XX X.. .X. ..X XX.',
    'T': 'XXX .X. .X. .X. .X.',
    'U': 'X.X X.X X.X X.X .X.',
    'V': 'X.X X.X X.X .X. .X.',
    'W': 'X...X X...X X.X.X X.X.X .X.X.',
    'X': 'X.X .X. .X. X.X X.X',
    'Y': 'X.X X.X .X. .X. .X.',
    'Z': 'XXX ..X .X. X.. XXX',
    '-': '... ... XXX ... ...',
    '/': '..X ..X .X. X.. X..',
    '+': '... .X. XXX .X. ...',
    ':': '... .X. ... .X. ...',
    '.': '... ... ... ... .X.',
    '?': 'XX. ..X .X. ... .X.',
    '!': '.X. .X. .X. ... .X.',
    '*': '... X.X .X. X.X ...',
    '#': 'X.X XXX X.X XXX X.X',
    '<': '..X .X. X.. .X. ..X',
    '>': 'X.. .X. ..X .X. X..',
    '(': '.X. X.. X.. X.. .X.',
    ')': '.X. ..X ..X ..X .X.',
    ',': '... ... ... .X. X..',
    "'": 'X.. X.. ... ... ...',
    '%': 'X.X ..X .X. X.. X.X',
    '~': '... .XX XX. ... ...',
}
BLOCK = "XXX XXX XXX XXX XXX"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"


def picture(ch):
    if ch == " ":
        return "... ... ... ... ..."
    return PICTURES.get(ch.upper(), BLOCK)


def dots(pic):
    return {(x, y) for y, row in enumerate(pic.split()) for x, v in enumerate(row) if v == "X"}


def drawn(ch):
    p = Panel(8, 5)
    font.tiny(p, ch, 0, 0)
    return {(x, y) for y in range(5) for x in range(8) if p.pixel(x, y)}


def by_pixels(d, text, x, y, c):
    for ch in text:
        pic = picture(ch)
        for px, py in dots(pic):
            d.pixel(x + px, y + py, c)
        x += len(pic.split()[0]) + 1
    return x


def panels(w, h, ground):
    a, b = Panel(w, h), Panel(w, h)
    a.fill(ground)
    b.fill(ground)
    return a, b


def test_every_glyph_is_its_picture():
    for ch in PICTURES:
        assert drawn(ch) == dots(PICTURES[ch]), ch
    assert drawn("@") == dots(BLOCK)


@pytest.mark.parametrize("c", [1, 0])
def test_every_glyph_draws_anywhere_on_the_panel_and_past_its_edges(c):
    w, h = 24, 16
    for ch in "".join(PICTURES) + "a z@":
        for x, y in ((0, 0), (5, 3), (w - 2, 0), (0, h - 3), (-1, -2), (w - 3, h - 5), (3, 6)):
            a, b = panels(w, h, 1 - c)
            end = by_pixels(a, ch, x, y, c)
            assert font.tiny(b, ch, x, y, c) == end
            assert bytes(a.buf) == bytes(b.buf), (ch, x, y, c)


def test_a_line_of_text_is_its_glyphs_side_by_side_and_measures_so():
    text = "P2 HIT 3/4! MOVE W"
    a, b = panels(96, 8, 0)
    end = by_pixels(a, text, 1, 2, 1)
    assert font.tiny(b, text, 1, 2, 1) == end
    assert bytes(a.buf) == bytes(b.buf)
    assert font.tiny_adv(text) == end - 1
    assert font.tiny_width(text) == end - 2
    assert font.tiny_len(text) == (end - 1 + font.TW - 1) // font.TW
    assert font.tiny_width("") == 0


def test_every_two_letters_differ_in_three_pixels_or_more():
    shapes = {ch: drawn(ch) for ch in LETTERS}
    close = [a + b for i, a in enumerate(LETTERS) for b in LETTERS[i + 1:]
             if len(shapes[a] ^ shapes[b]) < 3]
    assert not close, close


def test_every_digit_differs_from_every_other_glyph_in_two_pixels_or_more():
    shapes = {ch: drawn(ch) for ch in PICTURES}
    close = [d + g for d in DIGITS for g in shapes if g != d and len(shapes[d] ^ shapes[g]) < 2]
    assert not close, close


@pytest.mark.parametrize("a,b", [("M", "N"), ("H", "W"), ("M", "H"), ("U", "W"), ("H", "U"),
                                 ("B", "D"), ("B", "R"), ("P", "R"), ("5", "9"), ("8", "0")])
def test_the_pairs_that_were_misread_are_distinct(a, b):
    assert len(drawn(a) ^ drawn(b)) >= (3 if a.isalpha() and b.isalpha() else 2)


def test_m_and_w_are_wider_than_three_columns():
    assert max(x for x, _y in drawn("M")) >= 4 and max(x for x, _y in drawn("W")) >= 4
    assert font.tiny_adv("MW") == 12


def test_lower_case_draws_as_upper_case():
    assert drawn("m") == drawn("M") and drawn("w") == drawn("W")


def test_a_cut_small_text_ends_in_a_tilde_inside_its_field():
    for text in ("WWWWWW", "MOVE MADE", "ABCDEFG"):
        p = Panel(40, 5)
        font.put(p, text, 0, 0, 5, 1, True)         # 5 columns: 19 pixels
        assert not any(p.pixel(x, y) for x in range(19, 40) for y in range(5)), text
    p, q = Panel(40, 5), Panel(40, 5)
    font.put(p, "MAW", 0, 0, 5, 1, True)            # 6 + 4 + 6 = 16 pixels: whole
    font.tiny(q, "MAW", 0, 0)
    assert bytes(p.buf) == bytes(q.buf)


def test_every_character_code_measures_and_draws_as_its_glyph():
    # tiny() and tiny_adv() look a character up in per-code tables (_INDEX, _ADVS); each
    # code's entry is the glyph _glyph() names and that glyph's advance, and a character past
    # ASCII is the block, as wide as it
    for o in list(range(128)) + [0xe9, 0x263a]:
        ch = chr(o)
        g = font._glyph(ch)
        adv = font.TW if g < 0 else font._ADV[g]
        assert font.tiny_adv(ch) == adv, o
        a, b = panels(8, 8, 0)
        if g >= 0:
            font.tiny(a, font._SIGNS[g - 36] if 36 <= g < 36 + len(font._SIGNS) else
                      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[g] if g < 36 else "@", 1, 1)
        assert font.tiny(b, ch, 1, 1) == 1 + adv, o
        assert bytes(a.buf) == bytes(b.buf), o
