# One player's steps in the sealed deal (docs/SEALED_DEAL.md): ElGamal over the group of
# group.py, the deck shuffled twice (once by each player: permute, then re-randomise every card
# under the joint key), a card opened by the players' decryption shares.
#
# A player's secrets are one 32-byte `secret` (the engine derives it from the seat's salt, so
# the end-of-game reveal already carries it); its key, each shuffle's permutation and every
# re-randomiser derive from it by label, so the private state is 32 bytes whatever the deck,
# and the audit recomputes every step from it.
#
# A deck is a flat list [c1_0, c2_0, c1_1, c2_1, ...] of element bytes: card k sealed is
# (g**r, (k+2) * Y**r) with r the sum of both players' randomisers and Y = Y_0 * Y_1. It opens
# as c2 / (c1**x_0 * c1**x_1); c1**x is a player's share for that card and says nothing of any
# other card (each card has its own r).
import hashlib

from fathom.prng import Prng
from fathom.sealed.group import Comb, SealedError, exponent

EVENT_BYTES = 200   # a shuffle event carries at most this many element bytes: 1 card at 768
#                     bits. No allocation during play may pass 1 KB (an 800-byte event's
#                     encoding grows to 1.6 KB in a buffer); a seat keeps its newest events
#                     in RAM, as many as fit in 400 bytes of byte strings (games/seat.py), so
#                     larger events would cost heap at the peak of a Periplus reshuffle
#                     (docs/SEALED_DEAL.md, memory); and a 1-card event is one link frame


def secret_from_salt(salt):
    """The sealed-deal secret of a seat: its salt is fresh from the hardware generator,
    committed at set-up and revealed at the end, which is exactly what this secret needs."""
    return hashlib.sha256(b"fathom sealed|" + bytes(salt)).digest()


def chunk_cards(grp):
    """Cards per shuffle event."""
    return max(1, EVENT_BYTES // (2 * grp.nbytes))


# ---- keys ------------------------------------------------------------------------------------
def public_key(grp, secret):
    return grp.to_bytes(comb(grp, grp.g).pow(exponent(secret, b"key")))


def key_commit(grp, secret):
    """Goes in the set-up event: binds the key before either player shows its own, so neither
    can choose its key after seeing the other's (a key Y_1 = g**z / Y_0 would let one player
    open every card alone)."""
    return hashlib.sha256(b"fathom sealed key|" + public_key(grp, secret)).digest()


def check_key(grp, key, commit):
    """A peer's key event: the element its set-up committed to. Raises SealedError."""
    grp.element(key)
    if not isinstance(commit, bytes) or \
            hashlib.sha256(b"fathom sealed key|" + key).digest() != commit:
        raise SealedError("key does not match its set-up commitment")
    return key


def joint_key(grp, key0, key1):
    return grp.to_bytes(grp.mul(grp.element(key0), grp.element(key1)))


# ---- fixed-base tables: cached, since every card of a shuffle raises the same two bases -----
_tables = []    # [(base, Comb)], newest last; at most two (g and the joint key)


def comb(grp, base):
    for b, c in _tables:
        if b == base and c.grp.p == grp.p:
            c.grp = grp  # counts go to the caller's group object
            return c
    c = Comb(grp, base)
    _tables.append((base, c))
    if len(_tables) > 2:
        _tables.pop(0)
    return c


def release():
    """Drop the cached tables (~6 KB at 768 bits on a 32-bit heap): call when no shuffle is under way."""
    del _tables[:]


# ---- shuffling -------------------------------------------------------------------------------
def permutation(secret, rnd, n):
    """Output position i of this player's shuffle in round `rnd` takes input card perm[i]."""
    return Prng(secret, b"perm%d" % rnd).shuffle(list(range(n)))


def _rerand(secret, rnd, i):
    return exponent(secret, b"r%d.%d" % (rnd, i))


class Shuffle:
    """One player's shuffle of one deck, a card at a time (two fixed-base powers each), so the
    caller can slice it: chunk(first, count) for one event, or card(i) per step of a progress
    bar. `src` is the input: a list of card ints (known cards: a fresh deck or a reshuffled
    discard pile, sealed by the identity) or a flat deck of element bytes (the other player's
    shuffle). Nothing is kept but the permutation and the two tables."""

    def __init__(self, grp, joint, secret, rnd, src, n):
        self.grp = grp
        self.secret = secret
        self.rnd = rnd
        self.src = src
        self.known = n == len(src)
        if not self.known and len(src) != 2 * n:
            raise SealedError("deck of %d values for %d cards" % (len(src), n))
        self.n = n
        self.perm = permutation(secret, rnd, n)
        self.gc = comb(grp, grp.g)
        self.yc = comb(grp, grp.element(joint))

    def card(self, i):
        grp = self.grp
        j = self.perm[i]
        if self.known:
            c1, c2 = 1, grp.card(self.src[j])
        else:
            c1 = grp.element(self.src[2 * j], True)
            c2 = grp.element(self.src[2 * j + 1])
        r = _rerand(self.secret, self.rnd, i)
        return grp.to_bytes(grp.mul(c1, self.gc.pow(r))), grp.to_bytes(grp.mul(c2, self.yc.pow(r)))

    def chunk(self, first, count):
        out = []
        for i in range(first, min(first + count, self.n)):
            a, b = self.card(i)
            out.append(a)
            out.append(b)
        return out


def read_chunk(grp, vals, first, n, have):
    """A peer's shuffle event: `vals` must be the flat values of cards first.. in order after
    the `have` cards already received, all well-formed and not the identity. Raises
    SealedError; cheap (no exponentiation)."""
    if type(first) is not int or first != have:
        raise SealedError("shuffle chunk out of order")
    if not isinstance(vals, list) or not vals or len(vals) % 2:
        raise SealedError("shuffle chunk malformed")
    if first + len(vals) // 2 > n:
        raise SealedError("shuffle chunk past the deck")
    for v in vals:
        grp.element(v)
    return vals


def distinct(deck):
    """A finished deck has no repeated ciphertext: a cheap live check (a copied card would
    otherwise only be found by the audit)."""
    seen = set()
    for i in range(0, len(deck), 2):
        c = deck[i]
        if c in seen:
            return False
        seen.add(c)
    return True


# ---- opening ---------------------------------------------------------------------------------
def share(grp, secret, c1):
    """This player's share for a sealed card: c1**x. Published to open the card for the other
    player, kept private to open it for oneself."""
    return grp.to_bytes(grp.pow(grp.element(c1), exponent(secret, b"key")))


def read_share(grp, b):
    grp.element(b)
    return b


def reveal(grp, c2, share_a, share_b, kinds):
    """The card both shares open (0 <= k < kinds, the game's card identities), or -1 when they do not open any card: one of them
    is not what its author's secret gives (the audit says whose)."""
    s = grp.mul(grp.element(share_a), grp.element(share_b))
    target = grp.element(c2)
    p = grp.p
    v = s
    for k in range(kinds):
        v = (v + s) % p            # (k + 2) * s, by additions: no inverse, no power
        if v == target or p - v == target:
            return k
    return -1


def open_card(grp, secret, c1, c2, their_share, kinds):
    """Privately open a card the other player published its share for: -1 if it opens none."""
    return reveal(grp, c2, share(grp, secret, c1), their_share, kinds)
