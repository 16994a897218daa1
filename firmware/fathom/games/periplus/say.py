# Periplus log lines: an event in a few words, to fit a 21-character line with its player prefix.
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus.fleet import SHIP_ABBR, TYPE


def _ship(pub, sid):
    return SHIP_ABBR[pub["ships"][sid][TYPE]]


def say(pub, ev):
    """What an event did, in a few words for the log screen (player prefix added by the caller)."""
    tag = ev[0]
    if tag in ("discard", "defend"):
        return "%s %s" % ("plays" if tag == "defend" else "discards", C.name(ev[1]))
    if tag == "move":
        return "%s %s>%s" % (C.name(ev[1]), _ship(pub, ev[2]), B.sq_name(ev[3]))
    if tag == "ahead":
        return "%s ahead %s" % (C.name(ev[1]), _ship(pub, ev[2]))
    if tag == "also":
        return "also " + _ship(pub, ev[1])
    if tag == "fire":
        return "%s %s>%s" % (C.name(ev[1]), _ship(pub, ev[2]), _ship(pub, ev[3]))
    if tag == "take":
        return "takes the hit"
    if tag == "sk":
        return "deal key"
    if tag == "ss":
        return "shuffles %d-%d" % (ev[2] + 1, ev[2] + len(ev[3]) // 2)
    if tag == "so":
        return "opens %d card%s" % (len(ev[2]), "" if len(ev[2]) == 1 else "s")
    if tag == "foul":
        return "FOUL: bad card"
    return tag
