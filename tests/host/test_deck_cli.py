# `fathom deck validate`: legal decks pass, an illegal deck exits 1 naming the broken rule.
import pathlib

import pytest

from fathom_host.cli import main

DECKS = pathlib.Path(__file__).resolve().parents[2] / "firmware/fathom/games/pinned_down/decks"


@pytest.mark.parametrize("name", ["purple", "red", "blue", "acarr"])
def test_shipped_decks_validate(name, capsys):
    assert main(["deck", "validate", str(DECKS / (name + ".txt"))]) == 0
    assert "legal %s deck" % name in capsys.readouterr().out


@pytest.mark.parametrize("text,rule", [
    ("affiliation red\nflagship R1\n4 R2\n4 R3\n", "deck size rule: 8 cards"),
    ("affiliation red\nflagship R1\n5 R2\n" + "4 R4\n4 R8\n4 R9\n4 R6\n4 R7\n4 R10\n4 R3\n",
     "copy rule: Lancer more than 4 times"),
    ("affiliation acarr\nflagship A1\n4 B2\n", "affiliation rule"),
    ("affiliation red\n4 R2\n", "set-up rule"),
    ("affiliation red\nflagship R1\n4 ZZ\n", "unknown card"),
])
def test_illegal_deck_names_the_rule(tmp_path, capsys, text, rule):
    f = tmp_path / "deck.txt"
    f.write_text(text)
    assert main(["deck", "validate", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fathom: ") and rule in err


def test_missing_file_is_one_line(tmp_path, capsys):
    assert main(["deck", "validate", str(tmp_path / "nope.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err
