# Position builders for the Periplus tests (no tests here): a hand-made board, both players' private
# states and a way to push events through apply + apply_private the way every unit does.
from fathom.codec import encode
from fathom.prng import Prng
from fathom.games.periplus.engine import ENGINE
from fathom.games.periplus import cards as C
from fathom.games.periplus.fleet import HITS

# the seeded deal: these tests read the deck order from the joint seed, or are not about the
# deal at all (the sealed deal has its own: tests/sealed/); sealed games cost more
SEEDED = {"sealed": 0}

SEED = b"periplus-test"
KEY = b"k" * 16
BI, TR, QD, QQ = 0, 1, 2, 3

# card kinds by name, so tests read like the card list
K = {}
for _i, _c in enumerate(C.CARDS):
    K[_c[0]] = _i


def sq(name):
    """'a1' -> 0 (player 0's back row is rank 1), 'h8' -> 63."""
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def pos(ships, turn=0, phase="move", hands=((), ()), deck=None, discard=(), isl=(), moved=()):
    """pub and [priv0, priv1] for a hand-built position. ships: {ship id: (type, square)};
    ids 0-7 are player 0's, 8-15 player 1's. deck defaults to the remaining cards in list order."""
    pub = ENGINE.new_game(ENGINE.options(SEEDED), 2, Prng(SEED, b"game"))
    pub["ships"] = [[0, -1, 0, 0] for _ in range(16)]
    for sid in ships:
        t, where = ships[sid]
        pub["ships"][sid] = [t, where, HITS[t], 0]
    if deck is None:
        deck = C.full_deck()
        for k in list(hands[0]) + list(hands[1]) + list(discard):
            deck.remove(k)
    pub["ready"] = [True, True]
    pub["turn"] = turn
    pub["phase"] = phase
    pub["hand"] = [len(hands[0]), len(hands[1])]
    pub["deck"] = len(deck)
    pub["discard"] = list(discard)
    pub["isl"] = sorted(isl)
    pub["moved"] = list(moved)
    privs = [{"deck": list(deck), "key": KEY, "hand": sorted(h), "row": [], "n": 0}
             for h in hands]
    return pub, privs


def play(pub, privs, author, event):
    ENGINE.apply(pub, author, event)
    for p in range(2):
        ENGINE.apply_private(pub, privs[p], p, author, event)


def act(pub, privs, player, action):
    """The acting unit's act() turns the action into an event, then every unit applies it."""
    event = ENGINE.act(pub, privs[player], player, action)
    play(pub, privs, player, event)
    return event


def legal(pub, privs, player):
    return ENGINE.legal(pub, privs[player], player)


def snapshot(pub):
    return encode(pub)
