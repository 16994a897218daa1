# Data files found through fathom.res (here, run from the filesystem: beside the package), read
# on demand: Pinned Down's decks and card texts, and a missing file named in the error.
import pytest

from fathom import res
from fathom.games.pinned_down import cards as C, deckfile

pytestmark = pytest.mark.micropython


def test_data_sits_beside_the_package_when_not_frozen():
    assert not res.frozen()
    assert res.root().endswith("fathom") and res.root() != res.DATA_ROOT
    with res.open_data(deckfile.path("red")) as fh:
        assert fh.readline().startswith("#")


def test_a_missing_data_file_names_its_path():
    with pytest.raises(res.MissingData) as e:
        res.open_data("games/pinned_down/decks/nope.txt")
    assert res.path("games/pinned_down/decks/nope.txt") in str(e.value)
    with pytest.raises(OSError):   # still an OSError for code that expects one
        deckfile.load("nope")


def test_shipped_decks_load_line_by_line():
    for name in C.AFFS:
        aff, flag, deck = deckfile.load(name)
        assert aff == name and C.get(flag)[C.AFF] == C.AFF_CODE[name]
        assert len(deck) >= deckfile.MIN_DECK


def test_every_card_has_its_text_line_and_rule_cards_have_text():
    for c in C.CARDS:
        t = C.text(c[C.CARD_ID])
        assert t == t.strip() and "\n" not in t
        if c[C.TYPE] not in (C.SHIP, C.FOE):
            assert t, c[C.CARD_ID]
    assert C.text("P1") == "FLAGSHIP. UPKEEP (1). At the start of the attack phase, remove (2)."
    assert C.text("R4") == ""          # a plain ship
    assert C.text("D10") == "STRUCTURE -60%."
    with pytest.raises(KeyError):
        C.text("Z9")
