# The 3x5 font tells every letter apart: a 72x40 panel and the side panels set their words in
# it, and an M drawn as H with one pixel more read "YOUR HOVE".
import pytest

from fathom.ui.font import tiny
from kit.panel import Panel

pytestmark = pytest.mark.micropython

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def pixels(ch):
    p = Panel(4, 5)
    tiny(p, ch, 0, 0)
    return [(x, y) for y in range(5) for x in range(3) if p.pixel(x, y)]


def test_every_two_letters_differ_in_two_pixels_or_more():
    drawn = {ch: set(pixels(ch)) for ch in LETTERS}
    close = []
    for i, a in enumerate(LETTERS):
        for b in LETTERS[i + 1:]:
            if len(drawn[a] ^ drawn[b]) < 2:
                close.append(a + b)
    assert not close, close


@pytest.mark.parametrize("a,b", [("M", "H"), ("M", "N"), ("M", "W"), ("N", "H"), ("W", "H"),
                                 ("N", "W"), ("K", "H"), ("K", "X")])
def test_the_letters_that_were_misread_are_distinct(a, b):
    assert len(set(pixels(a)) ^ set(pixels(b))) >= 2


def test_lower_case_draws_as_upper_case():
    assert pixels("m") == pixels("M") and pixels("w") == pixels("W")
