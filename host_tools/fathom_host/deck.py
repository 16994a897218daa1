# `fathom deck validate FILE`: check a Pinned Down deck file against the deck-construction rules
# with the same parser the units use, so a deck that passes here loads on a unit.
from fathom_host import FathomError


def add_arguments(p):
    sub = p.add_subparsers(dest="deck_command", required=True)
    v = sub.add_parser("validate", help="check a deck file (exit 1 naming the broken rule)")
    v.add_argument("file", help="deck file: 'affiliation X', 'flagship ID', 'COUNT ID' lines")


def validate_file(path):
    """(affiliation, flagship, draw deck) of a legal deck file; FathomError otherwise."""
    from fathom.games.pinned_down import deckfile
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise FathomError("cannot read %s: %s" % (path, e))
    try:
        return deckfile.validate(text)
    except deckfile.DeckError as e:
        raise FathomError("%s: %s" % (path, e))


def run(args):
    aff, flag, deck = validate_file(args.file)
    from fathom.games.pinned_down import cards as C
    print("%s: legal %s deck, flagship %s, %d cards in the draw deck"
          % (args.file, aff, C.get(flag)[C.NAME], len(deck)))
    return 0
