# Pinned Down's replay (flow/replay.py): every player's hand and the top of their draw deck as
# they were, card ids in the 3x5 font; in words the hands by name, the decks' next cards and
# the cards a step drew.
from fathom.compat import const
from fathom.games.pinned_down.say import name
from fathom.ui.revealmarks import lines

_HAND = const("hand")
_DECK = const("deck")
_NEXT_SHOWN = const(3)   # the deck's cards named, from its top

KEPT = _HAND   # the hand before each step: what a draw added
SIDE = None   # the box the last draw wrote in (x, y, w, bottom): tests read it back


def rows(rp):
    """Two rows a player: the hand's ids, then the deck's size and its next cards."""
    out = []
    for p in range(rp.n):
        priv = rp.privs[p]
        out.append("P%d %s" % (p + 1, " ".join(priv[_HAND])))
        out.append("DECK %d: %s" % (len(priv[_DECK]), " ".join(priv[_DECK][:_NEXT_SHOWN])))
    return out


def words(rp, viewer):
    out = []
    for p in range(rp.n):
        got = rp.gained(p)
        if got:
            out.append("P%d drew %s" % (p + 1, ", ".join([name(c) for c in got])))
    for p in range(rp.n):
        priv = rp.privs[p]
        out.append("P%d hand: %s" % (p + 1, ", ".join([name(c) for c in priv[_HAND]])
                                     or "empty"))
        out.append("P%d deck: %d, next %s" % (p + 1, len(priv[_DECK]), ", ".join(
            [name(c) for c in priv[_DECK][:_NEXT_SHOWN]]) or "none"))
    return out


def draw(d, rp, viewer, x, y, w, h):
    global SIDE
    SIDE = (x + 1, y + 1, w - 1, y + h)
    lines(d, rows(rp), *SIDE)
