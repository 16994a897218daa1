# From nothing to a keyed channel and an agreed game, ticked by the app loop: discovery
# beacons (ESP-NOW), the handshake on an unkeyed channel (version, pairing or rekey, the code
# both players confirm), then the game set-up with its commit-reveal seed on the keyed channel.
# LinkPeer then carries the game's messages and persists the channel so a reboot resumes.
# Groups (docs/PROTOCOL.md 'Groups'): the host pairs with each partner in turn, one keyed
# channel per partner, then publishes the group seed and passes the partners' Diffie-Hellman
# values round (groupkeys.py), so every two units share a key for end-to-end tags through the
# host and every screen can show one group code; partners are linked only to the host.
from fathom import codec
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.link import crypto, entropy, frame, groupkeys
from fathom.link.channel import Channel
from fathom.link.peer import MAX_PARTNERS, LinkPeer, Mux, link_slot
from fathom.link.session import (GameSetup, Handshake, Pairings, beacon, decode_msg,
                                 encode_msg, parse_beacon, parse_invite, version_error)

BEACON_MS = 700          # how often a unit looking for a partner announces itself
SEEN_MS = 4000           # a unit not heard for this long leaves the list
MAX_SEEN = 16            # units listed at most: beacons from made-up MACs cannot fill the heap
RADIO_KEYS = 6           # ESP-NOW holds six encrypted peers
PAIRINGS = "pairings"
# Option keys a group proposal adds to the game's options (bound into the seed commitment, so
# the seats are fixed before any nonce is revealed); never passed to the engine.
LMK_DEAF_MS = 5000       # an encrypted handshake that hears nothing this long goes clear
GROUP_N = "_players"
GROUP_SEAT = "_seat"
MINE = 32                # CRCs of our latest handshake frames kept to recognise reflections
# An intact frame of another version from the partner ends the pairing only if no hello in our
# version arrives from it this long after: a forged one then cannot beat the real partner.
VERSION_GRACE_MS = 3000
BYE = "bye"              # ["bye", why]: the partner pressed BACK during the pairing
# States in which the pairing is over on this unit: nothing the partner sends moves it on.
_OVER = ("failed", "left", "declined", "leaving")


def game_opts(opts):
    """The engine's options of a proposal, without the group keys."""
    return dict((k, v) for k, v in opts.items() if k not in (GROUP_N, GROUP_SEAT))


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
        raise ValueError("bad group seeds")
    flat = seal_seeds(key, [sealed])
    return [flat[i * 32:i * 32 + 32] for i in range(count)]




def load_pairings(storage):
    try:
        return Pairings.restore(storage.read_obj(PAIRINGS) or [])
    except Exception:
        return Pairings()


def forget_pairings(storage):
    storage.remove(PAIRINGS)




def is_hello(data):
    """True for an intact hello of our version on an unkeyed channel (CRC checked): the first
    message of a unit that chose this one to pair with it."""
    try:
        ftype, keyed, sid, _seq, _ack, payload = frame.parse(data)
        return ftype == frame.DATA and not keyed and sid == 0 and frame.check(data) and \
            decode_msg(payload)[0] == "hi"
    except Exception:
        return False


def unit_mac(transport):
    """A cable has no addresses; the unit's id stands in so pairing records still name it."""
    if transport.mac:
        return transport.mac
    import machine
    return (bytes(machine.unique_id()) + b"\x00" * 6)[:6]


class Connector:
    """players > 2: this unit hosts a group of that size. join: this unit proposes nothing and
    takes the offer of its game (a partner joining a group). looks: the game its beacons look
    for when it proposes none (gid None: it took an invitation to that game, ui/invite.py).

    Listing for a two-player game, a unit takes a unit that chose it as if its player had
    chosen that one (`hailed`): the hello must come from a unit listed, in our version, whose
    beacons look for the same game for two. The code both players compare is what makes it
    safe, as for a unit chosen from the list; an offer that differs is asked as ever."""

    def __init__(self, transport, kind, name, storage, gid, opts, now, players=2, join=False,
                 looks=None):
        self.t = transport
        self.kind = kind
        self.name = name
        self.storage = storage
        self.gid = gid
        self.opts = opts
        self.mac = unit_mac(transport)
        self.pairings = load_pairings(storage)
        self.state = "discover" if kind == "espnow" else "handshake"
        self.error = None
        self.seen = {}          # mac -> [name, version, last_heard]
        self.peer_mac = None
        self.hs = None
        self.ch0 = None
        self.ch1 = None
        self.setup = None
        self.next_beacon = now
        self.foreign = 0        # frames from units other than the chosen one, dropped
        self.dropped = 0        # frames whose handling failed: dropped, never raised
        self.players = players
        self.join = join
        self.lmk = None
        self.partners = []      # host: [mac, ch1, name, pairwise seed, group commitment,
                                #        group value] of each partner done
        self.member = None      # a group partner's keys in the making (groupkeys.Member)
        self.gkeys = None       # a group's end-to-end keys by player (None: its own), once ready
        self.gcode = None       # the group code every screen shows, once ready
        self._gs = None         # a partner: the group seed until its keys are done; host: gs sent
        self._kl = None         # host: the partners sent the list of values so far
        self.seed = None        # the game's seed once ready
        self.reflected = 0      # our own handshake frames that came back, dropped
        self.jammed = 0         # unkeyed frames at the chosen unit's address that are not
                                # this exchange's (forged, replayed, out of turn): dropped
        self._mine = []         # CRC trailers of the handshake frames we sent
        self._alien = None      # (version, since): the partner seemed to speak another one
        self.player = None      # this unit's player index once ready
        self.since = now        # when the state last changed (the screen's hints wait on it)
        self._leaving = []      # channels still carrying our "bye" (or decline) to the partner
        self.looks = gid if gid is not None else looks
        # a proposer of a two-player game may take a unit that chose it (see the class)
        self._takes = kind == "espnow" and gid is not None and not join and players == 2
        self.hailed = None      # when a unit that chose this one was taken from the list
        self._prekeyed = []     # remembered units listed whose radio key was installed
        if kind != "espnow":
            self._handshake(now)

    # ---- what the pairing screen asks for --------------------------------------------------
    def nearby(self, now):
        return [(m, v[0], v[1]) for m, v in self.seen.items()
                if 0 <= ticks_diff(now, v[2]) < SEEN_MS]

    def choose(self, mac, now):
        self.peer_mac = bytes(mac)
        self._radio_key(now)
        self._handshake(now)

    # ESP-NOW's own encryption, a second layer under the channel's HMAC: with a partner both
    # units remember, the radio encrypts with the pairing's LMK from the first frame on. The
    # units agree without a switch-over: each installs the key only when it holds the pairing,
    # and drops it again when the partner's hello shows it does not (it forgot), or when
    # nothing at all is heard for LMK_DEAF_MS (a radio that refuses plain frames from an
    # encrypted peer). A first pairing runs in clear; the next session is encrypted.
    def _radio_key(self, now):
        self.lmk = None
        if self.kind != "espnow" or self.players > 2 or self.join:
            return
        rec = None
        for r in self.pairings.records:
            if r.peer_mac == self.peer_mac:
                rec = r
        if rec is not None and hasattr(self.t, "set_key"):
            self.lmk, self.lmk_pid, self.lmk_since = rec.lmk(), rec.pid, now
            self.t.set_key(self.peer_mac, self.lmk)

    def _check_radio_key(self, now):
        hs = self.hs
        if self.lmk is None or hs.state in ("done", "failed"):
            return
        forgot = hs._peer_nonce is not None and (
            hs.record is None or hs.record.pid != self.lmk_pid)
        deaf = self.ch0.stats["frames_received"] == 0 and ticks_diff(now, self.lmk_since) > LMK_DEAF_MS
        if forgot or deaf:
            self.lmk = None
            self.t.set_key(self.peer_mac, None)

    def code(self):
        return self.hs.sas if self.hs else None

    def group_code(self):
        """The six digits every unit of a group shows once ready (None for two units): the
        same on every screen unless the host showed partners different key values."""
        return self.gcode

    def confirm(self, same):
        for m in self.hs.confirm(same):
            self.ch0.send(m)

    def autopilot(self, now, host_name=None, code=True):
        """Say yes to what a person would be asked (`fathom sim`, the link soak; a unit lent
        as a bot with code=False): a unit in the list not yet a partner (or the group's host,
        by name), a remembered one first; the code (only with `code`: a lent unit's owner
        confirms a new partner's code once, then the pairing is remembered); the offer."""
        st = self.state
        if st == "discover":
            taken = [p[0] for p in self.partners]
            known = [r.peer_mac for r in self.pairings.records]
            near = [x for x in self.nearby(now) if x[0] not in taken and (
                host_name is None or x[1] == host_name)]
            near.sort(key=lambda x: x[0] not in known)
            if near:
                self.choose(near[0][0], now)
        elif st == "confirm" and code and not self.hs._confirmed:
            self.confirm(True)
        elif st == "offer":
            self.accept(True)

    def offer(self):
        """(game, opts) the other unit proposes, when it differs from ours."""
        return (self.setup.game, self.setup.opts) if self.setup else None

    def group(self):
        """Players in the game being agreed (2 unless a group)."""
        if self.players > 2:
            return self.players
        if self.setup is not None and self.setup.opts and GROUP_N in self.setup.opts:
            return self.setup.opts[GROUP_N]
        return 2

    def partner_names(self):
        names = [p[2] for p in self.partners]
        if not names and self.hs is not None and self.hs.peer_name:
            names = [self.hs.peer_name]
        return names

    def partner(self):
        """The partner's name as far as it is known (None before anyone was chosen)."""
        if self.hs is not None and self.hs.peer_name:
            return self.hs.peer_name
        got = self.seen.get(self.peer_mac) if self.peer_mac is not None else None
        return got[0] if got else None

    def heard(self):
        """True once an authentic frame came from the partner (on either channel)."""
        for ch in (self.ch0, self.ch1):
            if ch is not None and ch.stats["frames_received"] > 0:
                return True
        return False

    def quiet(self):
        """True while the partner, once heard, has been silent past the channel's LOST_MS:
        switched off, out of range, or left without a word (an older firmware)."""
        ch = self.ch1 or self.ch0
        return ch is not None and self.heard() and ch.state == "lost"

    def leave(self, why="left"):
        """BACK on the pairing screen: tell the partner (a declined offer, or a "bye"), so its
        screen says so at once instead of after a silence. The message leaves only on a poll:
        the screen keeps ticking until delivered() (or its own limit) before closing."""
        st = self.state
        chans = []
        if st == "offer":
            self.accept(False)
            chans.append(self.ch1)
        elif st in ("setup", "group") and self.ch1 is not None:
            chans.append(self.ch1)
        elif st in ("handshake", "confirm") and self.heard():
            chans.append(self.ch0)  # one never heard is not choosing us: nobody to tell
        if st != "offer":
            for ch in chans:
                if ch is self.ch0 and self.hs.sas is not None:  # bound to this exchange
                    ch.send(encode_msg(BYE, why, self.hs.tag(BYE)))
                else:
                    ch.send(encode_msg(BYE, why))
        for p in self.partners:  # a group host's partners waiting on their channels
            p[1].send(encode_msg(BYE, why))
            chans.append(p[1])
        self._leaving = chans
        self.state = "leaving"
        return bool(chans)

    def delivered(self):
        """True once every "bye" (or decline) was acknowledged by the partner."""
        for ch in self._leaving:
            if ch.pending():
                return False
        return True

    def _bye(self, m):
        """True (and the state 'left') when message m is the partner's "bye"."""
        try:
            d = decode_msg(m)
        except Exception:
            return False
        if d[0] != BYE:
            return False
        if self.state not in _OVER:
            self.state = "left"
            self.error = str(d[1]) if len(d) > 1 else "left"
        return True

    def accept(self, yes):
        out = self.setup.accept() if yes else self.setup.decline("declined")
        for m in out:
            self.ch1.send(m)

    # ---- the machine -----------------------------------------------------------------------
    def _send(self, data):
        # A reflected handshake frame would pass its CRC and look like the partner's: it
        # would take the partner's seq (its real frame then dropped as a replay) and ack our
        # frames for it. Remembering what we sent lets _frame drop it first.
        self._mine.append(bytes(data[-frame.CRC:]))
        del self._mine[:-MINE]
        self.t.send(self.peer_mac, data)

    def _handshake(self, now):
        self.state = "handshake"
        self._mine = []
        self._alien = None
        secret = entropy.token(48)
        self.hs = Handshake(self.name, self.mac, secret[:16], secret[16:],
                            self.pairings, confirm=self.kind == "espnow")
        self.ch0 = Channel(self._send, None, 0, now)
        for m in self.hs.start():
            self.ch0.send(m)

    def tick(self, now):
        """Advance; returns True when something the screen shows changed."""
        before = (self.state, len(self.seen), self.error, len(self.partners))
        try:
            return self._tick(now, before)
        finally:
            if self.state != before[0]:
                self.since = now

    def _tick(self, now, before):
        # keep announcing until keyed: the partner may still be choosing from its list
        if self.ch1 is None and self.kind == "espnow" and ticks_diff(now, self.next_beacon) >= 0:
            self.next_beacon = ticks_add(now, BEACON_MS)
            # the game it looks for rides along: an idle unit shows an invitation
            # (ui/invite.py); a unit joining a group has none to offer
            self.t.send(None, beacon(self.name, self.mac,
                                     game=None if self.join else self.looks,
                                     players=self.players))
        while True:
            got = self.t.recv()
            if got is None:
                break
            try:
                self._frame(got[0], got[1], now)
            except Exception:
                self.dropped += 1  # nothing a peer sends may stop this loop
        if self.state == "leaving":  # only the acks of our "bye" matter now
            for ch in self._leaving:
                ch.poll(now)
            return False
        if self.ch0 is not None:
            self.ch0.poll(now)
            self._handshake_in()
            self._check_radio_key(now)
            self._version(now)
            if self.hs.state == "confirm" and self.state == "handshake":
                self.state = "confirm"
            if self.state in _OVER:
                pass
            elif self.hs.state == "failed":
                self.fail(self.hs.error)
            elif self.hs.state == "done" and self.ch1 is None:
                self._keyed(now)
        for p in self.partners:
            p[1].poll(now)  # keep every finished partner's channel acked and alive
        if self.state == "group":
            if self.partners:
                self._gather()
            elif self.member is not None and self.member.pks is not None:
                self._member_keys()
        if self.ch1 is not None:
            self.ch1.poll(now)
            self.setup.poll(now)
            # Stop at 'done' (for a group partner, once the others' key values are in): what
            # follows on the channel is the game's, for the LinkPeer. A partner still working
            # out its keys must not read the host's first event as a set-up message.
            while self.setup.state != "done" or (self.state == "group" and not self._keys_in()):
                m = self.ch1.recv()
                if m is None or self._bye(m):
                    break
                if self.state == "group":
                    self._group_msg(m)
                    break
                for out in self.setup.on_message(m):
                    self.ch1.send(out)
            if self.state not in _OVER and self.state not in ("ready", "group"):
                self._setup_state()
        return before != (self.state, len(self.seen), self.error, len(self.partners))

    def _handshake_in(self):
        """Feed the handshake what its channel delivered (after each frame too: the filter in
        _plain_ok asks the handshake about the next frame in the state the one before left)."""
        while self.hs.state not in ("done", "failed"):
            m = self.ch0.recv()
            if m is None or self._bye(m):
                break
            for out in self.hs.on_message(m):
                self.ch0.send(out)

    def _keys_in(self):
        return self.member is not None and self.member.pks is not None

    def _frame(self, mac, data, now):
        b = parse_beacon(data)
        if b is not None:
            if mac and mac != self.mac:
                self._saw(bytes(mac), b + (self._looks_for(data, b),), now)
            if b[2] != frame.VERSION and self.hs is not None and self.ch1 is None and \
                    self._alien is None and (mac is None or mac == self.peer_mac):
                # The partner's frames of another version never reach the handshake (parse
                # refuses them), so its hello cannot say so: _version() names both versions.
                # Only an intact frame counts (parse_beacon checks the CRC).
                self._alien = (b[2], now)
            return
        if self.state == "discover" and self._takes and mac and self._hailed_by(
                bytes(mac), data, now):
            self.choose(mac, now)  # the hello is then read as the chosen unit's, below
            self.hailed = now
        for p in self.partners:
            if p[0] == mac:
                try:
                    if frame.parse(data)[1]:
                        p[1].on_frame(data)
                except frame.FrameError:
                    pass
                return
        if self.peer_mac is not None and mac != self.peer_mac:
            self.foreign += 1
            return
        try:
            keyed = frame.parse(data)[1]
        except frame.FrameError:
            keyed = False
        if keyed and self.ch1 is not None:
            self.ch1.on_frame(data)
        elif self.ch0 is not None:
            if not keyed and bytes(data[-frame.CRC:]) in self._mine:
                self.reflected += 1
                return
            if not keyed and not self._plain_ok(data):
                self.jammed += 1
                return
            self.ch0.on_frame(data)
            self._handshake_in()

    def _plain_ok(self, data):
        """Whether an unkeyed frame from the chosen unit's address may reach the handshake's
        channel: acks, repeats of what it delivered (so it acks them again), and the next
        message only if the handshake takes it now (Handshake.wants). Anything else (a forged
        "ok", a replay of another exchange, a frame ahead of its turn) would take the partner's
        sequence number, and its real frame would then be dropped as a duplicate: it is
        dropped here instead, and the partner's real frame still comes (a frame ahead is
        sent again once its turn comes)."""
        ftype, _k, _sid, seq, _ack, payload = frame.parse(data)
        if ftype == frame.ACK:
            return True
        nxt = self.ch0._rcv_next
        seq = frame.unwrap(seq, nxt)
        if seq < nxt:
            return True
        if seq != nxt or ftype != frame.DATA:
            return False
        if self._bye_msg(payload):
            return self.hs.sas is None or self._bound_bye(payload)
        return self.hs.wants(payload)

    def _bye_msg(self, m):
        try:
            return decode_msg(m)[0] == BYE
        except Exception:
            return False

    def _bound_bye(self, m):
        """A "bye" on the handshake's channel after the keys: only with the partner's tag."""
        d = decode_msg(m)
        return len(d) == 3 and isinstance(d[2], bytes) and \
            crypto.equal(d[2], self.hs.tag(BYE, 1 - self.hs.role))

    def _version(self, now):
        al = self._alien
        if al is None or self.state in _OVER:
            return
        if self.hs.peer_version is not None:
            self._alien = None  # the partner's own hello settled it (a mismatch fails there)
        elif ticks_diff(now, al[1]) >= VERSION_GRACE_MS:
            self.fail(version_error(frame.VERSION, al[0]))

    def _saw(self, mac, b, now):
        """b: (name, mac, version, the two-player game it looks for or None)."""
        seen = self.seen
        if mac not in seen:
            for m in list(seen):
                if ticks_diff(now, seen[m][2]) >= SEEN_MS:
                    del seen[m]  # also keeps every entry young enough for ticks_diff
            if len(seen) >= MAX_SEEN:
                return
        seen[mac] = [b[0], b[2], now, b[3]]
        if b[3] is not None and b[3] == self.gid:
            self._prekey(mac)

    def _looks_for(self, data, b):
        """The game a beacon looks for a partner for, when that is two players and this unit
        could take a hello from it; None otherwise (no beacon parsed twice for nothing)."""
        if not self._takes or b[2] != frame.VERSION:
            return None
        inv = parse_invite(data)
        return inv[2] if inv is not None and inv[3] == 2 else None

    def _hailed_by(self, mac, data, now):
        s = self.seen.get(mac)
        return s is not None and s[3] == self.gid and s[1] == frame.VERSION and \
            0 <= ticks_diff(now, s[2]) < SEEN_MS and is_hello(data)

    def _prekey(self, mac):
        """A remembered unit that chooses this one sends its hello encrypted with the pairing's
        radio key (_radio_key): installed from the list, that hello is readable. Only for units
        looking for our game, at most the radio's six."""
        if self.state != "discover" or mac in self._prekeyed or \
                len(self._prekeyed) >= RADIO_KEYS or not hasattr(self.t, "set_key"):
            return
        for r in self.pairings.records:
            if r.peer_mac == mac:
                self._prekeyed.append(mac)
                self.t.set_key(mac, r.lmk())

    def _keyed(self, now):
        hs = self.hs
        self.pairings.add(hs.record)
        self.storage.write_obj(PAIRINGS, self.pairings.save())
        if self.peer_mac is None and self.kind == "espnow":
            self.peer_mac = hs.peer_mac
        key, sid, _sas = hs.result()
        t, mac = self.t, self.peer_mac
        # bound to this partner's mac: the host moves on to the next partner, the channel stays
        self.ch1 = Channel(lambda f: t.send(mac, f), key, sid, now, hs.role)
        self.setup = GameSetup(hs.role, entropy.token(16), key)
        # a unit waiting as the bot opponent, or joining a group, proposes nothing
        if self.gid is not None and not self.join:
            opts = self.opts
            if self.players > 2:
                opts = dict(opts)
                opts[GROUP_N] = self.players
                opts[GROUP_SEAT] = len(self.partners) + 1
            for m in self.setup.propose(self.gid, opts):
                self.ch1.send(m)
        self.state = "setup"

    def _setup_state(self):
        st = self.setup.state
        if st == "offered":
            offered = self.setup.opts
            if self.join:
                same = self.setup.game == self.gid and GROUP_N in offered
            else:
                same = self.gid is None or (self.setup.game == self.gid and codec.encode(
                    offered) == codec.encode(self.opts))
            if same:
                self.accept(True)
            else:
                self.state = "offer"
        elif st == "done":
            self._setup_done()
        elif st == "declined":
            self.state = "declined"  # the partner said no: the screen offers what to do
            self.error = self.setup.error or st
        elif st in ("failed", "forfeit"):
            self.fail(self.setup.error or st)

    def _setup_done(self):
        s = self.setup
        if self.players > 2:
            self.partners.append([self.peer_mac, self.ch1, self.hs.peer_name, s.seed, None, None])
            # back to the list for the next partner; this one waits on its channel (and sends
            # its group commitment there, read once all are in)
            self.peer_mac = self.hs = self.ch0 = self.ch1 = self.setup = None
            self.state = "discover" if len(self.partners) < self.players - 1 else "group"
        elif s.opts and GROUP_SEAT in s.opts:
            self.state = "group"  # a partner: the host publishes the seed once all are in
            self.member = groupkeys.Member(s.opts[GROUP_N], s.opts[GROUP_SEAT],
                                           entropy.token(32), self.ch1.key)
            self.ch1.send(codec.encode(["kc", self.member.commitment()]))
        else:
            self.seed = s.seed
            self.player = s.player()
            self.state = "ready"

    # ---- group keys: the host's side ---------------------------------------------------------
    def _gather(self):
        """The host once every partner is paired: each partner's commitment, then (after the
        seeds and the list of commitments went out) each partner's value; then the list of
        values to all, and the game starts."""
        for p in self.partners:
            while p[5] is None:
                m = p[1].recv()
                if m is None or self._bye(m):
                    break
                try:
                    self._gathered(p, codec.decode(m))
                except Exception as e:
                    self.fail("group keys refused: %s" % (e,))
                    return
        if self.state != "group":
            return
        if self._gs is None and all(p[4] is not None for p in self.partners):
            self._send_gs()
        elif self._gs is not None and all(p[5] is not None for p in self.partners):
            if self._kl is None:
                self._kl = 0
            if self._send_gv():
                pks = [p[5] for p in self.partners]
                self.seed = group_seed(self.players, [p[3] for p in self.partners])
                self.gcode = groupkeys.code(groupkeys.view(self.players, self.seed, pks))
                self.gkeys = groupkeys.host_keys(self.players, [p[1].key for p in self.partners])
                self.player = 0
                self.state = "ready"

    def _gathered(self, p, m):
        if m[0] == "kc" and p[4] is None and isinstance(m[1], bytes) and \
                len(m[1]) == groupkeys.COMMIT:
            p[4] = m[1]
        elif m[0] == "kp" and self._gs is not None and groupkeys.commit(m[1]) == p[4]:
            p[5] = m[1]
        else:
            raise ValueError("unexpected %r" % (m[0],))

    def _send_gs(self):
        # Every partner gets every commitment before any value is revealed: the values the host
        # could substitute are fixed before it sees a partner's real one (groupkeys.py).
        seeds = [p[3] for p in self.partners]
        commits = [p[4] for p in self.partners]
        for p in self.partners:
            p[1].send(codec.encode(["gs", self.players, seal_seeds(p[1].key, seeds), commits]))
        self._gs = True

    def _send_gv(self):
        """The other partners' values, one message each, to one partner at a time; True once
        every partner acknowledged its own. As one list (~1.2 KB for eight units) queued on
        seven links at once, and still queued when the game's links were first saved, they made
        the host's largest blocks: now each message is one frame, and the game starts on empty
        links."""
        ps = self.partners
        if any(p[1].pending() for p in ps[:self._kl]):
            return False
        i = self._kl
        if i == len(ps):
            return True
        for seat, pk in self._values_for(i):
            ps[i][1].send(codec.encode(["kl", seat, pk]))
        self._kl = i + 1
        return False

    def _values_for(self, i):
        """(seat, value) of every partner but the one at index i (seat i + 1): it has its own."""
        return [(j + 1, p[5]) for j, p in enumerate(self.partners) if j != i]

    # ---- group keys: a partner's side --------------------------------------------------------
    def _group_msg(self, m):
        s = self.setup
        try:
            m = codec.decode(m)
            if m[0] == "gs" and self._gs is None:
                n, seat = m[1], s.opts[GROUP_SEAT]
                if n != s.opts[GROUP_N] or len(m) != 4:
                    raise ValueError("bad group start")
                seeds = open_seeds(self.ch1.key, m[2], n - 1)
                # Only our own entry can be checked here; a host that lies about another
                # partner's gives that partner another seed, and so another group code.
                if seeds[seat - 1] != s.seed:
                    raise ValueError("the host changed this unit's seed")
                self.member.got_commits(m[3])
                self._gs = group_seed(n, seeds)
                self.ch1.send(codec.encode(["kp", self.member.public()]))
            elif m[0] == "kl" and self._gs is not None and self.member.pks is None and \
                    len(m) == 3:
                self.member.got_value(self._gs, m[1], m[2])
            else:
                raise ValueError("unexpected %r" % (m[0],))
        except Exception as e:
            self.fail("group start refused: %s" % (e,))

    def _member_keys(self):
        mb = self.member
        try:
            done = mb.step()  # one exponentiation a tick
        except Exception as e:
            self.fail("group keys refused: %s" % (e,))
            return
        if done:
            self.gkeys = mb.keys
            self.gcode = groupkeys.code(mb.view)
            self.seed = self._gs
            self.player = mb.seat
            self.member = None  # its secret and the values go
            self.state = "ready"

    def fail(self, why):
        """Stop the pairing: the screen shows why (also a caller's own reason, e.g. an
        offer of another game than the one the player said yes to)."""
        self.state = "failed"
        self.error = why

    def peer(self, storage):
        """The LinkPeer for the game, once ready."""
        return LinkPeer(self.t, self.peer_mac, self.ch1, storage, self.kind,
                        lmk=self.lmk)

    def peers(self, storage):
        """Every LinkPeer of the game, once ready: one, or a host's one per partner."""
        if not self.partners:
            out = [self.peer(storage)]
        else:
            mux = Mux(self.t)
            out = [LinkPeer(mux.port(p[0]), p[0], p[1], storage, self.kind, link_slot(i))
                   for i, p in enumerate(self.partners)]
        for i in range(len(out), MAX_PARTNERS):
            storage.remove(link_slot(i))  # a channel of an earlier, larger game
        if self.gkeys is not None:
            for p in out:  # the runner takes the group's keys and code from its peers
                p.group = (self.gkeys, self.gcode)
        return out
