# Pinned Down deck files: parse the text format and check the deck-construction rules.
# Pure functions (the host's `fathom deck validate` and the device share them), plus `load`,
# which reads a shipped deck, a data file (fathom.res finds it whether fathom is frozen or not).
#
# Format, one item a line, '#' starts a comment:
#   affiliation red        (purple, red, blue or acarr)
#   flagship R1            (starts in play; counts towards the four-copy limit)
#   4 R2                   (count and card id: the draw deck)
from fathom import res
from fathom.games.pinned_down import cards as C

MIN_DECK = 30
MAX_COPIES = 4


class DeckError(ValueError):
    """A deck file that breaks the format or a deck-construction rule (named in the message)."""


def parse(text):
    """(affiliation, flagship id, [(count, card id), ...]) from a deck file's text."""
    return parse_lines(text.split("\n"))


def parse_lines(lines):
    """parse() over any iterable of lines, such as an open file read line by line."""
    aff = flag = None
    entries = []
    n = 0
    for raw in lines:
        n += 1
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise DeckError("line %d: expected 'COUNT CARD' or 'KEY VALUE'" % n)
        a, b = parts
        if a == "affiliation":
            if aff is not None:
                raise DeckError("line %d: affiliation given twice" % n)
            aff = b.lower()
        elif a == "flagship":
            if flag is not None:
                raise DeckError("line %d: flagship given twice" % n)
            flag = b
        elif a.isdigit():
            if int(a) < 1:
                raise DeckError("line %d: count must be at least 1" % n)
            entries.append((int(a), b))
        else:
            raise DeckError("line %d: unknown key %r" % (n, a))
    if aff is None:
        raise DeckError("affiliation rule: the deck names no affiliation")
    return aff, flag, entries


def check(aff, flag, entries):
    """Raise DeckError naming the broken rule; returns the draw deck as a list of ids."""
    if aff not in C.AFFS:
        raise DeckError("affiliation rule: %r is not one of %s" % (aff, ", ".join(C.AFFS)))
    code = C.AFF_CODE[aff]
    if flag is None:
        raise DeckError("set-up rule: every deck needs a flagship line")
    if not C.known(flag):
        raise DeckError("unknown card %r" % (flag,))
    f = C.get(flag)
    if f[C.TYPE] != C.SHIP or not C.kw(flag, "F"):
        raise DeckError("set-up rule: %s is not a FLAGSHIP" % f[C.NAME])
    if f[C.AFF] != code:
        raise DeckError("affiliation rule: the flagship %s is not %s" % (f[C.NAME], aff))
    copies = {flag: 1}
    deck = []
    for count, cid in entries:
        if not C.known(cid):
            raise DeckError("unknown card %r" % (cid,))
        c = C.get(cid)
        if c[C.TYPE] not in (C.SHIP, C.CHAR, C.EQUIP, C.EFFECT) or c[C.AFF] not in "PRBA":
            raise DeckError("card type rule: %s is not a player card" % c[C.NAME])
        if code == "A" and c[C.TYPE] in (C.CHAR, C.EQUIP):
            raise DeckError("affiliation rule: Ac'arr decks hold no characters or equipment"
                            " (%s)" % c[C.NAME])
        copies[cid] = copies.get(cid, 0) + count
        if copies[cid] > MAX_COPIES:
            raise DeckError("copy rule: %s more than %d times" % (c[C.NAME], MAX_COPIES))
        deck.extend([cid] * count)
    if len(deck) < MIN_DECK:
        raise DeckError("deck size rule: %d cards in the draw deck, at least %d"
                        % (len(deck), MIN_DECK))
    return deck


def validate(text):
    """(affiliation, flagship, draw deck ids) of a legal deck file; DeckError otherwise."""
    aff, flag, entries = parse(text)
    return aff, flag, check(aff, flag, entries)


def path(name):
    """A shipped deck's data path (for fathom.res)."""
    return "games/pinned_down/decks/" + name + ".txt"


def load(name):
    """The shipped deck decks/<name>.txt, validated: (affiliation, flagship, draw deck)."""
    with res.open_data(path(name)) as fh:
        aff, flag, entries = parse_lines(fh)
    return aff, flag, check(aff, flag, entries)
