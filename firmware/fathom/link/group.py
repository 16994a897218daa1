# Group formation (docs/PROTOCOL.md 'Groups'), once the host has paired with every partner in
# turn, one keyed channel each: the host publishes the group seed and passes the partners'
# Diffie-Hellman values round (groupkeys.py), so every two units share a key for end-to-end
# tags through the host and every screen can show one group code. Partners are linked only to
# the host. GroupHost and GroupMember are each one state machine (session.Machine), moved only
# by its _to().
from fathom import codec
from fathom.link import crypto, entropy, groupkeys
from fathom.link.groupkeys import GroupError
from fathom.link.session import Machine, SessionError, bye_reason, decode_msg

# Option keys a group proposal adds to the game's options (bound into the seed commitment, so
# the seats are fixed before any nonce is revealed); never passed to the engine.
GROUP_N = "_players"
GROUP_SEAT = "_seat"

# The states both sides share: READY (keys, code, seed and seat set), FAILED (`error` says what
# was refused), LEFT (a "bye" came: `error` is its reason).
READY = "ready"
FAILED = "failed"
LEFT = "left"
# The host's: PAIRING (partners still being paired, one at a time), COMMITS (waiting for each
# partner's commitment), VALUES (seeds and commitments sent, waiting for each partner's value),
# PASSING (the other partners' values go out, one partner at a time).
PAIRING = "pairing"
COMMITS = "commits"
VALUES = "values"
PASSING = "passing"
# A partner's: START (commitment sent, waiting for the group start), OTHERS (its value sent,
# waiting for the other partners' values), KEYS (all in: one exponentiation a tick).
START = "start"
OTHERS = "others"
KEYS = "keys"



def group_seed(n, seeds):
    """The group's seed from every pairwise seed, in seat order (seat 1 first)."""
    return crypto.sha256(b"fathom group", bytes((n,)), *seeds)


def seal_seeds(key, seeds):
    """The pairwise seeds for one partner, XORed with a keystream from that partner's session
    key: the 'gs' message is authenticated but not encrypted by the channel, and in clear it
    would hand a listener every pairwise seed and so the group's. Used once per session key."""
    flat = b"".join(seeds)
    ks = crypto.kdf(key, b"fathom group seeds", len(flat))
    return bytes(flat[i] ^ ks[i] for i in range(len(flat)))


def open_seeds(key, sealed, count):
    if not isinstance(sealed, bytes) or len(sealed) != 32 * count:
        raise GroupError("bad group seeds")
    flat = seal_seeds(key, [sealed])
    return [flat[i * 32:i * 32 + 32] for i in range(count)]


class Partner:
    """One partner of a host: its address, keyed channel, name and pairwise seed, then its
    group commitment and value as they arrive."""

    def __init__(self, mac, ch, name, seed):
        self.mac = mac
        self.ch = ch
        self.name = name
        self.seed = seed
        self.commit = None
        self.value = None


class GroupHost(Machine):
    """The host of a group of `players`. Once READY: seed, gkeys (by player), gcode."""

    FINAL = (READY, FAILED, LEFT)

    def __init__(self, players):
        self.players = players
        self.partners = []
        self.state = PAIRING
        self.seed = self.gkeys = self.gcode = None
        self._next = 0          # PASSING: the partner whose list of values goes out next

    def add(self, mac, ch, name, seed):
        """A partner done pairing (its seat is its place in the list)."""
        self.partners.append(Partner(mac, ch, name, seed))
        if len(self.partners) == self.players - 1:
            self._to(COMMITS)

    def poll(self, now):
        for p in self.partners:
            p.ch.poll(now)  # keep every finished partner's channel acked and alive

    def step(self):
        """Each partner's commitment, then (after the seeds and the list of commitments went
        out) each partner's value; then the list of values to all, and READY."""
        if self.state not in (COMMITS, VALUES, PASSING):
            return
        for p in self.partners:
            while p.value is None:
                m = p.ch.recv()
                if m is None:
                    break
                why = bye_reason(m)
                if why is not None:
                    self._to(LEFT, why)
                    return
                try:
                    self._gathered(p, decode_msg(m, 2))
                except (SessionError, GroupError) as e:
                    self._to(FAILED, "group keys refused: %s" % (e,))
                    return
        ps = self.partners
        if self.state == COMMITS and all(p.commit is not None for p in ps):
            self._send_gs()
            self._to(VALUES)
        elif self.state == VALUES and all(p.value is not None for p in ps):
            self._to(PASSING)
        if self.state == PASSING and self._send_gv():
            self.seed = group_seed(self.players, [p.seed for p in ps])
            self.gcode = groupkeys.code(groupkeys.view(self.players, self.seed,
                                                       [p.value for p in ps]))
            self.gkeys = groupkeys.host_keys(self.players, [p.ch.key for p in ps])
            self._to(READY)

    def _gathered(self, p, m):
        v = m[1]
        if m[0] == "kc" and self.state == COMMITS and p.commit is None and \
                isinstance(v, bytes) and len(v) == groupkeys.COMMIT:
            p.commit = v
        elif m[0] == "kp" and self.state == VALUES and isinstance(v, bytes) and \
                groupkeys.commit(v) == p.commit:
            p.value = v
        else:
            raise GroupError("unexpected %r" % (m[0],))

    def _send_gs(self):
        # Every partner gets every commitment before any value is revealed: the values the host
        # could substitute are fixed before it sees a partner's real one (groupkeys.py).
        seeds = [p.seed for p in self.partners]
        commits = [p.commit for p in self.partners]
        for p in self.partners:
            p.ch.send(codec.encode(["gs", self.players, seal_seeds(p.ch.key, seeds), commits]))

    def _send_gv(self):
        """The other partners' values, one message each, to one partner at a time; True once
        every partner acknowledged its own. One frame a message, and one partner's at a time,
        keeps the host's largest block small, and the game starts on empty links (a list of
        seven values queued on seven links at once was the host's largest block)."""
        ps = self.partners
        if any(p.ch.pending() for p in ps[:self._next]):
            return False
        i = self._next
        if i == len(ps):
            return True
        for seat, pk in self._values_for(i):
            ps[i].ch.send(codec.encode(["kl", seat, pk]))
        self._next = i + 1
        return False

    def _values_for(self, i):
        """(seat, value) of every partner but the one at index i (seat i + 1): it has its own."""
        return [(j + 1, p.value) for j, p in enumerate(self.partners) if j != i]


class GroupMember(Machine):
    """A partner of a group, on its keyed channel `ch` with the host, from the agreed set-up
    `opts` (its size and seat) and its pairwise `seed`. Once READY: seed, gkeys, gcode, seat."""

    FINAL = (READY, FAILED, LEFT)

    def __init__(self, ch, opts, seed):
        n, seat = opts.get(GROUP_N), opts.get(GROUP_SEAT)
        if not isinstance(n, int) or not isinstance(seat, int) or not 1 <= seat < n <= 255:
            raise GroupError("bad group size or seat")
        self.ch = ch
        self.n = n
        self.seat = seat
        self.pair_seed = seed
        self.seed = self.gkeys = self.gcode = None
        self._gs = None         # the group seed, until the keys are done
        self.member = groupkeys.Member(self.n, self.seat, entropy.token(32), ch.key)
        ch.send(codec.encode(["kc", self.member.commitment()]))
        self.state = START

    def reading(self):
        """True while what the host sends is the group's (from KEYS on it is the game's)."""
        return self.state in (START, OTHERS)

    def on_message(self, m):
        """One message from the host (a "bye" is the caller's)."""
        try:
            self._take(decode_msg(m, 2))
        except (SessionError, GroupError) as e:
            self._to(FAILED, "group start refused: %s" % (e,))

    def _take(self, m):
        mb = self.member
        if m[0] == "gs" and self.state == START:
            if len(m) != 4 or m[1] != self.n:
                raise GroupError("bad group start")
            seeds = open_seeds(self.ch.key, m[2], self.n - 1)
            # Only our own entry can be checked here; a host that lies about another
            # partner's gives that partner another seed, and so another group code.
            if seeds[self.seat - 1] != self.pair_seed:
                raise GroupError("the host changed this unit's seed")
            mb.got_commits(m[3])
            self._gs = group_seed(self.n, seeds)
            self.ch.send(codec.encode(["kp", mb.public()]))
            self._to(OTHERS)
        elif m[0] == "kl" and self.state == OTHERS and len(m) == 3:
            mb.got_value(self._gs, m[1], m[2])
            if mb.pks is not None:
                self._to(KEYS)
        else:
            raise GroupError("unexpected %r" % (m[0],))

    def step(self):
        """One exponentiation a tick once every value is in."""
        if self.state != KEYS:
            return
        mb = self.member
        try:
            done = mb.step()
        except GroupError as e:
            self._to(FAILED, "group keys refused: %s" % (e,))
            return
        if done:
            self.gkeys = mb.keys
            self.gcode = groupkeys.code(mb.view)
            self.seed = self._gs
            self.member = None  # its secret and the values go
            self._to(READY)
