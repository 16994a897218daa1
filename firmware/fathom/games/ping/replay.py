# PING's replay (flow/replay.py): the map with both submarines where they were, and in words
# each player's square and hand, and where a shot or a listen found the adversary.
from fathom.compat import const
from fathom.games.ping import board as B
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.font import tiny
from fathom.ui.revealmarks import lines, sub

_TAG = const(0)
_SUB_AT = const("sq")
_HAND_CARDS = const("hand")
_HELD_CARD = const(0)
_HELD_OFF = const(1)
_EV_MISS = const("miss")
_EV_HIT = const("hit")
_EV_DIVE = const("dive")
_EV_SEEN = const("seen")
_EV_DAMAGE = const("damage")
_EV_DOWN = const("down")

KEPT = _HAND_CARDS   # the hand before each step: the card a face-down play took from it
GRID = None   # the grid the last draw laid out (tests find a square's pixels with it)


def _hand(priv):
    return " ".join([("%d" % c) + ("x" if off else "") for c, off in priv[_HAND_CARDS]])


def secrets(rp, p):
    """Player p's secrets in one line: square and hand by name."""
    priv = rp.privs[p]
    sq = priv[_SUB_AT]
    return "P%d at %s, hand %s" % (p + 1, B.name(sq) if sq >= 0 else "?", ", ".join(
        [B.card_name(c) + (" (off)" if off else "") for c, off in priv[_HAND_CARDS]]) or "empty")


def _played(rp, p):
    """The card that left player p's hand with the step shown, or -1 (a hand entry is [card,
    disabled]: a card disabled meanwhile is still the same card)."""
    now = [c for c, _off in rp.privs[p][_HAND_CARDS]]
    for c, _off in rp.before[p]:
        if c in now:
            now.remove(c)
        else:
            return c
    return -1


def words(rp, viewer):
    out = []
    if rp.last is not None:
        author, event, _k = rp.last
        tag = event[_TAG]
        if tag in (_EV_MISS, _EV_HIT, _EV_DIVE, _EV_DAMAGE, _EV_SEEN):
            shooter = 1 - author
            sq = rp.privs[author][_SUB_AT]
            what = {_EV_MISS: "the shot missed", _EV_HIT: "the shot hit",
                    _EV_DIVE: "a dive dodged the shot", _EV_DAMAGE: "the hit landed",
                    _EV_SEEN: "the card was seen"}[tag]
            whose = "your" if shooter == viewer else "P%d's" % (shooter + 1)
            out.append("P%d was at %s: %s (%s turn)" % (author + 1, B.name(sq), what, whose))
        elif tag == _EV_DOWN:
            c = _played(rp, author)
            if c >= 0:
                sq = rp.privs[author][_SUB_AT]
                out.append("P%d's face-down card was %s; now at %s" % (
                    author + 1, B.card_name(c), B.name(sq)))
    for p in range(rp.n):
        out.append(secrets(rp, p))
    return out


def draw(d, rp, viewer, x, y, w, h):
    global GRID
    subs = [rp.privs[p][_SUB_AT] for p in range(rp.n)]

    def cell(d, c, cx, cy, px):
        sq = B.at(c)
        if sq < 0:
            return
        here = [str(p + 1) for p in range(len(subs)) if subs[p] == sq]
        if here:
            sub(d, cx, cy, px, here[0] if len(here) == 1 else "*")
        else:
            tiny(d, B.name(sq), cx + (px - 3) // 2, cy + (px - 5) // 2)

    g = GRID = BoardGrid(B.COLS, B.NROWS, 0, min_px=5, max_px=9)
    used = g.draw(d, x, y, w, h, cell, frame=False)
    rows = []
    for p in range(rp.n):
        priv = rp.privs[p]
        rows.append("P%d %s" % (p + 1, B.name(priv[_SUB_AT]) if priv[_SUB_AT] >= 0 else "?"))
        rows.append(_hand(priv))
    lines(d, rows, x + used + 2, y + 1, w - used - 2, y + h)
