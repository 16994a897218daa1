# Keys between every two units of a group, agreed through the host at group formation
# (docs/PROTOCOL.md "Group keys and end-to-end tags"). Partners are linked only to the host, so
# a partner's Diffie-Hellman value reaches the others only as the host passes it on: a host that
# substituted its own values could sit in the middle of every partner pair. Two things stop it:
# each partner commits to its value before the host publishes the list of commitments, and
# reveals it only after, so every value the host shows a partner is fixed before that
# partner's real one is known; and every screen shows one group code, a hash of the seed and
# every value in seat order, which a host that showed partners different values cannot make
# agree (one chance in a million). The host needs no Diffie-Hellman: its key with a partner
# comes from their session key, which the pairing code already confirmed.
from fathom.link import crypto

COMMIT = 32


class GroupError(ValueError):
    """What the host (or, at the host, a partner) sent does not check out: the group refuses it."""


def commit(pk):
    return crypto.sha256(b"fathom gk", pk)


def view(n, seed, pks):
    """What the group code shows: the seed and every partner's value in seat order."""
    return crypto.sha256(b"fathom group view", bytes((n,)), seed, *pks)


def code(v):
    return "%06d" % (int.from_bytes(v[:4], "big") % 1000000)


def host_key(session_key):
    return crypto.kdf(session_key, b"fathom group host")


def pair_key(shared, v, i, j):
    """The key of partners i < j: bound to the whole view, so partners shown different lists
    do not even share a key by chance."""
    return crypto.hkdf(shared, v, b"fathom group pair" + bytes((min(i, j), max(i, j))))


def check_values(n, commits, pks):
    """Every partner's value against its commitment, in seat order; raises GroupError."""
    if not isinstance(pks, list) or len(pks) != n - 1 or len(commits) != n - 1:
        raise GroupError("bad group values")
    for c, pk in zip(commits, pks):
        if not isinstance(pk, bytes) or len(pk) != crypto.DH_BYTES or commit(pk) != c:
            raise GroupError("a group value does not match its commitment")


class Member:
    """A partner's side: its secret and value, then its keys, one exponentiation per step()
    (each ~0.5-1 s on an ESP32: the pairing screen keeps drawing in between)."""

    def __init__(self, n, seat, secret, session_key):
        self.n = n
        self.seat = seat
        self.x = secret
        self.pk = None
        self.commits = None
        self.pks = None
        self.got = None         # the other partners' values as they come in, by seat
        self.view = None
        self.keys = None
        self.todo = []
        self._session = session_key

    def public(self):
        if self.pk is None:
            self.pk = crypto.dh_public(self.x)
        return self.pk

    def commitment(self):
        return commit(self.public())

    def got_commits(self, commits):
        if not isinstance(commits, list) or len(commits) != self.n - 1 or \
                commits[self.seat - 1] != self.commitment():
            raise GroupError("the host changed this unit's group value")
        self.commits = commits

    def got_value(self, seed, seat, pk):
        """One other partner's value (the host sends them one message each); once all are in,
        got_values. A value for this unit's own seat, or one given twice, is refused."""
        if self.got is None:
            self.got = [None] * (self.n - 1)
        if not isinstance(seat, int) or not 1 <= seat < self.n or seat == self.seat or \
                self.got[seat - 1] is not None or not isinstance(pk, bytes):
            raise GroupError("bad group value")
        self.got[seat - 1] = pk
        if sum(1 for v in self.got if v is None) == 1:  # only our own seat is left
            got, self.got = self.got, None
            self.got_values(seed, got)

    def got_values(self, seed, pks):
        """Every partner's value in seat order, this unit's own left out (None)."""
        if not isinstance(pks, list) or len(pks) != self.n - 1 or pks[self.seat - 1] is not None:
            raise GroupError("bad group values")
        pks = list(pks)
        pks[self.seat - 1] = self.pk
        check_values(self.n, self.commits, pks)
        self.pks = pks
        self.view = view(self.n, seed, pks)
        self.keys = [None] * self.n
        self.keys[0] = host_key(self._session)
        self.todo = [j for j in range(1, self.n) if j != self.seat]

    def step(self):
        """One exponentiation; True once every key is there."""
        if self.todo:
            j = self.todo.pop(0)
            try:
                shared = crypto.dh_shared(self.x, self.pks[j - 1])
            except ValueError as e:  # a value that would force a weak key
                raise GroupError(str(e))
            self.keys[j] = pair_key(shared, self.view, self.seat, j)
        return not self.todo


def host_keys(n, session_keys):
    """The host's keys, by player: None for itself, then one per partner's session key."""
    return [None] + [host_key(k) for k in session_keys]
