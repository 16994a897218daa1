# Shared set-ups for the PING tests (no tests here): two seats with chosen hands and start
# squares, and a driver that plays an action and lets the units answer until someone must choose.
from fathom.games import local
from fathom.games.ping.engine import ENGINE
from fathom.games.ping import board as B

SQ = {}
for _i in range(26):
    SQ[chr(65 + _i)] = _i
# card ids (see board.CARDS)
M1_TORP, M1_TORP2, M2_TORP = 0, 1, 2
M1_GUN, M2_GUN = 3, 4
M1_PING, M2_PING, M3_PING = 5, 6, 7
M1_LISTEN, M2_LISTEN, M3_LISTEN = 8, 9, 10
M1_ENC, M2_ENC, M3_ENC = 11, 12, 13
M2_DIVE, M3_DIVE = 14, 15


def game(h0, h1, at0, at1, inc=None, seed=b"rules"):
    """Two seats after set-up, player 1 (index 0) on square at0 with hand h0, player 2 on at1."""
    seats = local.make_seats(ENGINE, {}, 2, seed)
    for s, at in zip(seats, (at0, at1)):
        s.setup_choose(SQ[at] if isinstance(at, str) else at)
    for s in seats:
        ev = s.author()
        for o in seats:
            if o is not s:
                o.receive(s.player, ev)
    seats[0].priv["hand"] = [[c, 0] for c in h0]
    seats[1].priv["hand"] = [[c, 0] for c in h1]
    if inc is not None:
        seats[0].priv["inc"] = inc
    return seats


def step(seats, action=None):
    """The seat whose turn it is authors one event (an answer if action is None)."""
    t = seats[0].to_move()
    s = seats[t[0]]
    ev = s.author(action)
    for o in seats:
        if o is not s:
            o.receive(s.player, ev)
    assert seats[0].short_hash() == seats[1].short_hash()
    return ev


def play(seats, action):
    """Play `action`, then every answer that follows; the events in order."""
    out = [step(seats, action)]
    while True:
        t = seats[0].to_move()
        if t is None or t[1] != "answer":
            return out
        out.append(step(seats, None))


def hand(seat):
    return sorted(c for c, _d in seat.priv["hand"])


def names(sqs):
    return "".join(B.name(s) for s in sqs)
