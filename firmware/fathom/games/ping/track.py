# The tracker: the squares where a player's adversary may still be, from public facts only.
# Facts about player `who` (kind, x, y):
#   F_PLAY  x = steps of one play: -1 not yet known (a face-down card: 0, 1 or 2), else exact
#   F_AT    x = square (a reveal)
#   F_LINE  not on the torpedo path from square x heading y (a miss)
#   F_NEAR  not on square x nor one line from it (a deck-gun miss)
# A face-down card is always shown within one adversary turn (PING, LISTEN, DIVE or when it
# is handed over), so each player has at most one unknown play. pub["tr"][who] = [mask, pend]:
# mask folds every fact up to that unknown play, pend (flat triples) holds it and what followed,
# so the public state stays small however long the game runs.
from fathom.games.ping import board as B

F_PLAY = 0
F_AT = 1
F_LINE = 2
F_NEAR = 3


def _mask(sqs):
    m = 0
    for s in sqs:
        m |= 1 << s
    return m


def _fold(m, kind, x, y):
    if kind == F_PLAY:
        if x < 0:
            one = B.spread(m)
            return m | one | B.spread(one)
        for _ in range(x):
            m = B.spread(m)
        return m
    if kind == F_AT:
        return 1 << x
    if kind == F_LINE:
        return m & ~_mask(B.path(x, y))
    return m & ~(B.NB[x] | (1 << x))


def new():
    return [[B.ALL, []], [B.ALL, []]]


def add(pub, who, kind, x, y=0):
    t = pub["tr"][who]
    if t[1] or (kind == F_PLAY and x < 0):
        t[1].extend((kind, x, y))
    else:
        t[0] = _fold(t[0], kind, x, y)


def resolve(pub, who, steps):
    """The unknown play of `who` turned out to be `steps` steps: fold what is now certain."""
    t = pub["tr"][who]
    pend = t[1]
    for i in range(0, len(pend), 3):
        if pend[i] == F_PLAY and pend[i + 1] < 0:
            pend[i + 1] = steps
            break
    m = t[0]
    i = 0
    while i < len(pend) and not (pend[i] == F_PLAY and pend[i + 1] < 0):
        m = _fold(m, pend[i], pend[i + 1], pend[i + 2])
        i += 3
    t[0] = m
    t[1] = pend[i:]


def possible(pub, who):
    """Bitmask of the squares `who` may occupy given everything public."""
    m, pend = pub["tr"][who]
    for i in range(0, len(pend), 3):
        m = _fold(m, pend[i], pend[i + 1], pend[i + 2])
    return m


def tracker(pub, player):
    """Sorted list of the squares where `player`'s adversary may still be."""
    return B.squares(possible(pub, 1 - player))
