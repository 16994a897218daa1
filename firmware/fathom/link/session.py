# Session layer, as pure state machines fed with whole messages (from a Channel) and a clock:
# discovery beacons, the pairing/rekey handshake (version check, Diffie-Hellman, short code),
# stored pairings, and the game set-up with its commit-reveal seed. No I/O, no clock reads.
from fathom import codec
from fathom.hal.clock import ticks_diff
from fathom.prng import Prng
from fathom.link import crypto, frame

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

VERSION = frame.VERSION
NONCE = const(16)              # bytes of every nonce
MAX_NAME = const(16)           # bytes of a player name in a beacon or hello
MAX_PAIRS = const(8)           # stored pairings announced in a hello
REVEAL_TIMEOUT_MS = const(60000)  # time a unit may sit on its reveal before it forfeits
_PID = const(4)                # bytes of a pairing id
_BIND = const(8)               # bytes binding a pairing message to this exchange
_COMMITS = const(8)            # "pc" values role 1 keeps before the real one is opened


class SessionError(ValueError):
    pass


def version_error(mine, theirs):
    return "protocol version mismatch: this unit speaks v%d, the other unit speaks v%d" % (
        mine, theirs)


def encode_msg(*parts):
    return codec.encode(list(parts))


def decode_msg(data, n=1):
    """A session message as a list whose first item is its str kind and which has at least `n`
    items; SessionError otherwise (what a peer sent is refused here, never by an IndexError
    further on)."""
    try:
        m = codec.decode(bytes(data))
    except codec.CodecError as e:
        raise SessionError("undecodable message: %s" % (e,))
    if not isinstance(m, list) or not m or not isinstance(m[0], str):
        raise SessionError("not a session message")
    if len(m) < n:
        raise SessionError("short %r message" % (m[0],))
    return m


BYE = "bye"              # ["bye", why(, tag)]: the partner left the pairing (BACK)


class Machine:
    """A state machine of the connector's parts (handshake.py, group.py): `state` changes only
    in _to(), never again once in one of FINAL; `error` says why it failed or was left."""

    FINAL = ()
    state = None
    error = None

    def _to(self, state, why=None):
        if self.state in self.FINAL:
            return
        self.state = state
        if why is not None:
            self.error = why

    def over(self):
        return self.state in self.FINAL


def bye_reason(data):
    """The reason a "bye" message gives (a str), or None when `data` is another message, or
    no session message at all (which the caller refuses in its own way)."""
    try:
        m = decode_msg(data)
    except SessionError:
        return None
    if m[0] != BYE:
        return None
    return str(m[1]) if len(m) > 1 else "left"


def _bytes(v, n):
    if not isinstance(v, bytes) or len(v) != n:
        raise SessionError("expected %d bytes" % n)
    return v


def _int(v):
    if not isinstance(v, int) or isinstance(v, bool):
        raise SessionError("expected an int")
    return v


def _name(v):
    if not isinstance(v, str) or len(v.encode()) > MAX_NAME:
        raise SessionError("bad name")
    return v


# ---- discovery -----------------------------------------------------------------------------
def beacon(name, mac, version=VERSION, game=None, players=2):
    """The broadcast frame that lists this unit by player name (a CRC frame, session id 0).
    With `game`, the unit is looking for a partner for that game (`players`: 2, or the size of
    the group it hosts): an idle unit's home menu shows it as an invitation."""
    name = name.encode()[:MAX_NAME].decode() if isinstance(name, str) else "?"
    m = ["fathom", version, name, bytes(mac)]
    if game is not None:
        m.append([game, players])
    return frame.encode(frame.BEACON, 0, 0, 0, codec.encode(m))


def parse_beacon(data):
    """(name, mac, version) from a beacon frame, or None for anything else. Nothing that fails
    its CRC yields anything: one corrupt or half-forged frame must not end a pairing. A frame
    of another version (any type) whose CRC checks yields its version, with the name when it
    is a beacon of our layout, so the list can show the mismatch (the CRC trailer and the
    version nibble are what every version keeps). The invitation a beacon may carry is
    parse_invite's."""
    n = len(data)
    if n < frame.HEADER + frame.CRC or n > frame.MAX_FRAME or not frame.check(data):
        return None
    version = data[0] >> 4
    body = _beacon_body(data) if data[0] & 0x07 == frame.BEACON else None
    if version != frame.VERSION:
        return body[:3] if body is not None and body[2] == version else ("?", b"", version)
    return body[:3] if body is not None else None


def parse_invite(data):
    """(name, mac, game, players) from a beacon of this version whose unit is looking for a
    partner for a game, or None (no invitation, or not a beacon)."""
    b = parse_beacon(data)
    if b is None or b[2] != VERSION:
        return None
    inv = _beacon_body(data)[3]
    return None if inv is None else (b[0], b[1], inv[0], inv[1])


def _beacon_body(data):
    try:
        m = decode_msg(data[frame.HEADER:-frame.CRC])
        # a unit of an older firmware sends four fields, one looking for a partner five
        if len(m) not in (4, 5) or m[0] != "fathom":
            return None
        return (_name(m[2]), _bytes(m[3], 6), _int(m[1]), _invite(m[4]) if len(m) == 5 else None)
    except SessionError:
        return None  # not a beacon of our layout: the caller treats the frame as no beacon


def _invite(v):
    """A beacon's fifth field as (game id, players), or None when it is not one: the unit is
    listed all the same, it only invites nobody."""
    if not isinstance(v, list) or len(v) != 2 or not isinstance(v[0], str):
        return None
    n = v[1]
    if not v[0] or len(v[0].encode()) > MAX_NAME or not isinstance(n, int) or \
            isinstance(n, bool) or not 2 <= n <= 255:
        return None
    return (v[0], n)


# ---- stored pairings -----------------------------------------------------------------------
class PairRecord:
    def __init__(self, peer_name, peer_mac, key):
        self.peer_name = peer_name
        self.peer_mac = bytes(peer_mac)
        self.key = bytes(key)
        self.pid = crypto.sha256(b"fathom-pid", self.key)[:_PID]

    def lmk(self):
        """The 16-byte ESP-NOW local master key for this peer: per pairing, stable across
        sessions, independent of the channel keys."""
        return crypto.kdf(self.key, b"fathom espnow lmk", 16)

    def save(self):
        return {"name": self.peer_name, "mac": self.peer_mac, "key": self.key}

    @classmethod
    def restore(cls, d):
        if not isinstance(d, dict):
            raise SessionError("bad pairing record")
        try:
            return cls(_name(d["name"]), _bytes(d["mac"], 6), _bytes(d["key"], 32))
        except KeyError as e:
            raise SessionError("pairing record without %s" % (e,))


class Pairings:
    """The pairings a unit remembers, one per peer unit, newest last; Settings can forget one."""

    def __init__(self, records=()):
        self.records = list(records)

    def add(self, rec):
        self.forget(rec.peer_mac)
        self.records.append(rec)
        del self.records[:-MAX_PAIRS]

    def forget(self, mac):
        self.records = [r for r in self.records if r.peer_mac != bytes(mac)]

    def find(self, mac, pids):
        for r in self.records:
            if r.peer_mac == mac and r.pid in pids:
                return r
        return None

    def save(self):
        return [r.save() for r in self.records]

    @classmethod
    def restore(cls, lst):
        if not isinstance(lst, list):
            raise SessionError("bad pairings")
        return cls([PairRecord.restore(d) for d in lst])


# ---- handshake: version, roles, pairing or rekey, session key ------------------------------
def session_keys(pair_key, n0, n1):
    """(session_key, session_id) from the pairing key and both hello nonces, role 0's first."""
    k = crypto.kdf(pair_key, b"fathom session" + n0 + n1)
    sid = int.from_bytes(crypto.kdf(k, b"fathom sid", 2), "big")
    return k, sid or 1  # 0 is the unkeyed session


def sas_code(pk0, pk1, n0, n1):
    """Six digits both players compare; a man in the middle matches them once in a million."""
    d = crypto.sha256(b"fathom sas", pk0, pk1, n0, n1)
    return "%06d" % (int.from_bytes(d[:4], "big") % 1000000)


def _dh_commit(pk):
    return crypto.sha256(b"fathom dh", b"\x00", pk)  # only role 0 commits


class Handshake:
    """Both sides start() at once; the larger hello nonce becomes role 0 (initiator).
    With a pairing both remember the session keys derive from it at once; otherwise a
    Diffie-Hellman pairing runs, role 0 committing to its public value first, then (with
    `confirm`, i.e. over the radio) both players must confirm the same six-digit code.

    state: 'hello' -> ['keys' -> 'confirm' ->] 'done', or 'failed' with `error` set.

    No single frame can stop it: a message counts only when it is bound to this exchange
    (wants()); anything else is ignored and counted (`ignored`). Before the keys nothing can be
    authenticated, so a message is taken from the chosen unit's address (the connector's
    filter) when it is the one this state waits for: the public key only with both hellos'
    nonces, the role-1 side keeping every commitment it heard until a value opens one. The
    confirmation and the refusal of the code, and a "bye" after the keys, carry a tag under the
    key being agreed over both nonces and the sender's role, so only the partner can send them.
    A jammer can still delay a pairing (the screen says so), not end it."""

    def __init__(self, name, mac, nonce, dh_secret, pairings=None, confirm=True,
                 version=VERSION):
        self.name = name
        self.mac = bytes(mac)
        self.nonce = _bytes(bytes(nonce), NONCE)
        self._secret = bytes(dh_secret)
        self.pairings = pairings if pairings is not None else Pairings()
        self.need_confirm = confirm
        self.version = version
        self.state = "hello"
        self.error = None
        self.role = None
        self.peer_name = None
        self.peer_mac = None
        self.peer_version = None
        self.sas = None
        self.record = None        # the PairRecord to store once done (new or the reused one)
        self.session_key = None
        self.session_id = None
        self.paired_now = False   # True when a new pairing was made (not a reuse)
        self._peer_nonce = None
        self._pk = None
        self._commits = []         # role 1: every "pc" heard (a forged one must not stick)
        self._confirmed = False
        self._peer_confirmed = False
        self.echoes = 0           # our own hellos that came back, dropped
        self.ignored = 0          # messages not bound to this exchange: dropped, counted
        self.refused = None       # why the last of them was refused

    def start(self):
        pids = [r.pid for r in self.pairings.records[-MAX_PAIRS:]]
        return [encode_msg("hi", self.version, self.name, self.mac, self.nonce, pids)]

    def result(self):
        return self.session_key, self.session_id, self.sas

    def _fail(self, why):
        self.state = "failed"
        self.error = why
        return []

    def on_message(self, data):
        """Feed one message; returns messages to send. A message this exchange does not wait
        for, or one malformed (SessionError), is ignored and counted, its reason kept in
        `refused`: a forged frame cannot end the exchange. Anything else raised is a bug."""
        if self.state in ("done", "failed"):
            return []
        try:
            m = decode_msg(data)
            if self._wanted(m):
                return self._handle(m[0], m)
            if m[0] == "hi" and self._echo(m):
                # Our own hello come back (a reflection, a loopback cable, a replay): the
                # real partner's may still come, so it is dropped, not fatal.
                self.echoes += 1
                return []
            self.refused = "unexpected %r message" % (m[0],)
        except SessionError as e:
            self.refused = str(e)
        self.ignored += 1
        return []

    def wants(self, data):
        """True when message `data` is one this exchange takes now (the connector drops any
        other frame before its channel, so a forged one cannot take the partner's sequence
        number and have the real frame dropped as a duplicate)."""
        if self.state in ("done", "failed"):
            return False
        try:
            m = decode_msg(data)
            # a hello of another version here is forged: a real unit of another version
            # speaks another frame version, which the connector names (its version check)
            return self._wanted(m) and (m[0] != "hi" or m[1] == self.version)
        except SessionError as e:
            self.refused = str(e)
            return False

    def _wanted(self, m):
        kind = m[0]
        st = self.state
        if kind == "hi":
            return st == "hello" and self._peer_nonce is None and len(m) > 1 and \
                not self._echo(m)
        if st != "keys" and st != "confirm":
            return False
        if len(m) < 2:
            return False  # every message past the hello carries a value
        if kind == "pc":
            return st == "keys" and self.role == 1 and len(self._commits) < _COMMITS and \
                isinstance(m[1], bytes) and len(m[1]) == 32 and m[1] not in self._commits
        if kind == "pk":
            return st == "keys" and self.role == 0 and self.sas is None and len(m) == 3 and \
                crypto.equal(_bytes(m[2], _BIND), self._bind())
        if kind == "pr":
            return st == "keys" and self.role == 1 and self.sas is None and \
                _dh_commit(_bytes(m[1], crypto.DH_BYTES)) in self._commits
        if kind == "ok" or kind == "no":
            return self.sas is not None and len(m) == 2 and \
                crypto.equal(_bytes(m[1], _BIND), self.tag(kind, 1 - self.role))
        return False

    def tag(self, what, role=None):
        """What binds our `what` ("ok", "no", "bye") to this exchange once the keys are
        agreed: a MAC under the pairing key over both nonces and the sender's role."""
        n0, n1 = self._nonces()
        role = self.role if role is None else role
        return crypto.Mac(self.record.key).digest(b"fathom " + what.encode(), bytes((role,)),
                                                  n0, n1)[:_BIND]

    def _bind(self):
        n0, n1 = self._nonces()
        return crypto.sha256(b"fathom pk", n0, n1)[:_BIND]

    def _echo(self, m):
        return len(m) == 6 and (m[4] == self.nonce or m[3] == self.mac)

    def _handle(self, kind, m):
        if kind == "hi":
            return self._hello(m)
        if kind == "pc":
            first = not self._commits
            self._commits.append(m[1])
            return [encode_msg("pk", self._public(), self._bind())] if first else []
        if kind == "pk":
            pk1 = _bytes(m[1], crypto.DH_BYTES)
            self._derive(self._public(), pk1, pk1)
            return [encode_msg("pr", self._public())] + self._after_keys()
        if kind == "pr":
            pk0 = _bytes(m[1], crypto.DH_BYTES)
            self._derive(pk0, self._public(), pk0)
            return self._after_keys()
        if kind == "ok":
            self._peer_confirmed = True
            return self._maybe_done()
        return self._fail("the other player rejected the code")

    def _hello(self, m):
        if len(m) < 2:
            raise SessionError("short hello")
        self.peer_version = _int(m[1])
        if self.peer_version != self.version:
            return self._fail(version_error(self.version, self.peer_version))
        if len(m) != 6 or not isinstance(m[5], list) or len(m[5]) > MAX_PAIRS:
            raise SessionError("bad hello")
        self.peer_name = _name(m[2])
        self.peer_mac = _bytes(m[3], 6)
        self._peer_nonce = _bytes(m[4], NONCE)
        peer_pids = [_bytes(p, _PID) for p in m[5]]
        self.role = 0 if self.nonce > self._peer_nonce else 1
        rec = self.pairings.find(self.peer_mac, peer_pids)
        if rec is not None:
            self.record = rec
            self._finish()
            return []
        self.state = "keys"
        if self.role == 0:
            return [encode_msg("pc", _dh_commit(self._public()))]
        return []

    def _public(self):
        if self._pk is None:
            self._pk = crypto.dh_public(self._secret)  # the slow step, only when pairing
        return self._pk

    def _nonces(self):
        return (self.nonce, self._peer_nonce) if self.role == 0 else (self._peer_nonce, self.nonce)

    def _derive(self, pk0, pk1, peer_pk):
        try:
            shared = crypto.dh_shared(self._secret, peer_pk)
        except ValueError as e:  # a value that would force a weak key: the peer's to refuse
            raise SessionError(str(e))
        n0, n1 = self._nonces()
        macs = (self.mac + self.peer_mac) if self.role == 0 else (self.peer_mac + self.mac)
        key = crypto.hkdf(shared, n0 + n1 + macs, b"fathom pair")
        self.record = PairRecord(self.peer_name, self.peer_mac, key)
        self.sas = sas_code(pk0, pk1, n0, n1)
        self.paired_now = True

    def _after_keys(self):
        if self.need_confirm:
            self.state = "confirm"
            return []
        self._confirmed = True
        return [encode_msg("ok", self.tag("ok"))] + self._maybe_done()

    def confirm(self, same):
        """The player's answer to 'does the other screen show this code?'."""
        if self.state != "confirm" or self._confirmed:
            return []
        if not same:
            no = encode_msg("no", self.tag("no"))
            self._fail("you rejected the code")
            return [no]
        self._confirmed = True
        return [encode_msg("ok", self.tag("ok"))] + self._maybe_done()

    def _maybe_done(self):
        if self._confirmed and self._peer_confirmed:
            self._finish()
        return []

    def _finish(self):
        n0, n1 = self._nonces()
        self.session_key, self.session_id = session_keys(self.record.key, n0, n1)
        self._secret = None
        self.state = "done"


# ---- game set-up and the joint seed --------------------------------------------------------
def seed_commit(role, proposal, nonce):
    return crypto.sha256(b"fathom seed", bytes((role,)), proposal, nonce)


def joint_seed(key, c0, c1, n0, n1):
    """Both commitments and both reveals, role 0's first, hashed (not XORed) so neither side
    can steer it, under the session key: the reveals travel authenticated but in clear (no
    radio encryption on a first pairing or in a group, none on a cable), and a listener who
    has every frame still lacks the key, which only the pairing's Diffie-Hellman gives."""
    return crypto.Mac(key).digest(b"fathom seed", c0, c1, n0, n1)


class GameSetup:
    """Either unit proposes a game and options with its seed commitment; the other accepts with
    its own; the proposer reveals, then the acceptor. Who plays first comes from the seed.
    Crossed proposals: role 0's stands. state: 'idle' 'proposed' 'offered' 'reveal' 'done'
    'declined' 'failed' 'forfeit' (the peer sat on its reveal after seeing ours).
    `key` is the keyed channel's session key, which the seed depends on; a set-up without one
    fails when it would make the seed rather than make one a listener could compute."""

    def __init__(self, role, nonce, key=None):
        self.role = role
        self.nonce = _bytes(bytes(nonce), NONCE)
        self.key = None if key is None else _bytes(bytes(key), 32)
        self.state = "idle"
        self.error = None
        self.game = None
        self.opts = None
        self.seed = None
        self.first = None          # role that plays first, i.e. is player 0
        self.proposer = None
        self._commits = [None, None]
        self._reveals = [None, None]
        self._waited = 0
        self._last = None

    def _proposal(self):
        return crypto.sha256(codec.encode([self.game, self.opts]))

    def _fail(self, why, state="failed"):
        self.state = state
        self.error = why
        return []

    def propose(self, game, opts):
        if self.state not in ("idle", "declined"):
            raise SessionError("a game is already being set up")
        self.game, self.opts = game, opts
        self.proposer = self.role
        c = seed_commit(self.role, self._proposal(), self.nonce)
        self._commits = [None, None]
        self._commits[self.role] = c
        self.state = "proposed"
        return [encode_msg("gp", game, opts, c)]

    def accept(self):
        if self.state != "offered":
            return []
        c = seed_commit(self.role, self._proposal(), self.nonce)
        if c == self._commits[1 - self.role]:
            return self._fail("the other unit copied this unit's commitment")
        self._commits[self.role] = c
        self.state = "reveal"
        self._waited = 0
        return [encode_msg("ga", c)]

    def decline(self, reason="declined"):
        if self.state != "offered":
            return []
        self.state = "idle"
        return [encode_msg("gd", str(reason))]

    def on_message(self, data):
        """Feed one message; returns messages to send. Never raises."""
        if self.state in ("done", "failed", "forfeit"):
            return []
        try:
            m = decode_msg(data, 2)
            return self._handle(m[0], m)
        except SessionError as e:
            return self._fail("bad set-up message: %s" % (e,))

    def _handle(self, kind, m):
        peer = 1 - self.role
        if kind == "gp" and (self.state in ("idle", "declined")
                             or self.state == "proposed" and self.role == 1):
            if len(m) != 4 or not isinstance(m[1], str) or not isinstance(m[2], dict):
                raise SessionError("bad proposal")
            self.game, self.opts = m[1], m[2]
            self.proposer = peer
            self._commits = [None, None]
            self._commits[peer] = _bytes(m[3], 32)
            self.state = "offered"
            return []
        if kind == "gp" and self.state == "proposed":
            return []  # crossed proposals: ours (role 0) stands and the peer yields
        if kind == "gd" and self.state == "proposed":
            return self._fail(str(m[1]) if len(m) > 1 else "declined", "declined")
        if kind == "ga" and self.state == "proposed":
            c = _bytes(m[1], 32)
            if c == self._commits[self.role]:
                return self._fail("the other unit copied this unit's commitment")
            self._commits[peer] = c
            self._reveals[self.role] = self.nonce
            self.state = "reveal"
            self._waited = 0
            return [encode_msg("rv", self.nonce)]
        if kind == "rv" and self.state == "reveal" and self._reveals[peer] is None:
            n = _bytes(m[1], NONCE)
            if not crypto.equal(seed_commit(peer, self._proposal(), n), self._commits[peer]):
                return self._fail("the other unit's reveal does not match its commitment")
            if self.key is None:
                return self._fail("no session key: the seed would be public")
            self._reveals[peer] = n
            out = []
            if self._reveals[self.role] is None:
                self._reveals[self.role] = self.nonce
                out.append(encode_msg("rv", self.nonce))
            self.seed = joint_seed(self.key, self._commits[0], self._commits[1],
                                   self._reveals[0], self._reveals[1])
            self.first = Prng(self.seed, b"first").below(2)
            self.state = "done"
            return out
        return self._fail("unexpected %s message" % kind)

    def poll(self, now_ms, linked=True):
        """Count time spent waiting for the peer's reveal; past REVEAL_TIMEOUT_MS the peer
        forfeits (it may be sitting on a result it dislikes). The time counts whether or not
        the link is up (`linked` does not matter): a unit that dislikes the seed could
        otherwise go silent and have the players start over with a new one."""
        if self._last is not None and self.state == "reveal":
            self._waited += max(0, ticks_diff(now_ms, self._last))
            if self._waited > REVEAL_TIMEOUT_MS:
                self._fail("the other unit did not reveal its nonce: it forfeits", "forfeit")
        self._last = now_ms

    def player(self, role=None):
        """Player index (0 plays first) of `role`, by default this unit's."""
        role = self.role if role is None else role
        return 0 if role == self.first else 1

    def save(self):
        return {"role": self.role, "nonce": self.nonce, "key": self.key,
                "state": self.state, "error": self.error,
                "game": self.game, "opts": self.opts, "seed": self.seed, "first": self.first,
                "proposer": self.proposer, "commits": list(self._commits),
                "reveals": list(self._reveals), "waited": self._waited}

    @classmethod
    def restore(cls, d):
        try:
            g = cls(d["role"], d["nonce"], d["key"])
            for k in ("state", "error", "game", "opts", "seed", "first", "proposer"):
                setattr(g, k, d[k])
            g._commits = list(d["commits"])
            g._reveals = list(d["reveals"])
            g._waited = int(d["waited"])
        except (KeyError, TypeError, ValueError) as e:
            raise SessionError("bad set-up record: %r" % (e,))
        return g
