# From nothing to a keyed channel and an agreed game, ticked by the app loop. Each role is its
# own state machine in its own module: discovery.py (beacons, the list, a hail), handshake.py
# (the pair handshake with the chosen unit on an unkeyed channel, the code both players
# confirm), group.py (a group's seed and keys once its host paired with every partner). The
# Connector runs them in order, the game set-up (session.GameSetup, its commit-reveal seed) on
# the keyed channel in between, and routes each frame heard to the one that takes it.
# LinkPeer then carries the game's messages and persists the channel so a reboot resumes.
from fathom import codec
from fathom.hal.storage import CorruptFile
from fathom.link import entropy, frame
from fathom.link import discovery as disc
from fathom.link import handshake as pair
from fathom.link import group
from fathom.link.channel import Channel
from fathom.link.group import GROUP_N, GROUP_SEAT, GroupError, GroupHost, GroupMember
from fathom.link.peer import MAX_PARTNERS, LinkPeer, Mux, frame_sender, link_slot
from fathom.link.session import (BYE, GameSetup, Pairings, SessionError, bye_reason,
                                 encode_msg, parse_beacon)

PAIRINGS = "pairings"

# The connector's states, as the pairing screen shows them. DISCOVER: the list of units nearby
# (ESP-NOW). HANDSHAKE: hellos and keys with the chosen unit. CONFIRM: the code on both screens.
# SETUP: keyed, the game being agreed. OFFER: the other unit offers another game than ours: the
# player says yes or no. GROUP: the group's seed and keys. READY: seed and player set, peers()
# gives the game's links. Over: FAILED (`error` says why), LEFT (the partner said "bye"),
# DECLINED (the partner said no to our offer), LEAVING (our "bye" is on its way).
DISCOVER = "discover"
HANDSHAKE = "handshake"
CONFIRM = "confirm"
SETUP = "setup"
OFFER = "offer"
GROUP = "group"
READY = "ready"
FAILED = "failed"
LEFT = "left"
DECLINED = "declined"
LEAVING = "leaving"
# States in which the pairing is over on this unit: nothing the partner sends moves it on.
_OVER = (FAILED, LEFT, DECLINED, LEAVING)


def game_opts(opts):
    """The engine's options of a proposal, without the group keys."""
    return dict((k, v) for k, v in opts.items() if k not in (GROUP_N, GROUP_SEAT))


def load_pairings(storage):
    try:
        return Pairings.restore(storage.read_obj(PAIRINGS) or [])
    except (SessionError, CorruptFile):
        return Pairings()  # a damaged file (kept aside by storage): pair anew


def forget_pairings(storage):
    storage.remove(PAIRINGS)


def unit_mac(transport):
    """A cable has no addresses; the unit's id stands in so pairing records still name it."""
    if transport.mac:
        return transport.mac
    import machine
    return (bytes(machine.unique_id()) + b"\x00" * 6)[:6]


class Connector:
    """players > 2: this unit hosts a group of that size. join: this unit proposes nothing and
    takes the offer of its game (a partner joining a group). looks: the game its beacons look
    for when it proposes none (gid None: it took an invitation to that game, flow/invite.py).

    Listing for a two-player game, a unit takes a unit that chose it as if its player had
    chosen that one (`hailed`): the hello must come from a unit listed, in our version, whose
    beacons look for the same game for two. The code both players compare is what makes it
    safe, as for a unit chosen from the list; an offer that differs is asked as ever.

    What a peer sends that is no frame or no message at all is refused by name: counted in
    `dropped`, its reason in `refused`; frames not from the chosen unit in `foreign`, not of
    this exchange in `jammed`, our own come back in `reflected`."""

    LENT = False            # lent as the bot opponent (lent.py)

    def __init__(self, transport, kind, name, storage, gid, opts, now, players=2, join=False,
                 looks=None):
        self.t = transport
        self.kind = kind
        self.name = name
        self.storage = storage
        self.gid = gid
        self.opts = opts
        self.players = players
        self.join = join
        self.mac = unit_mac(transport)
        self.pairings = load_pairings(storage)
        self.looks = gid if gid is not None else looks
        self.state = None
        self.error = None
        self.peer_mac = None
        # a proposer of a two-player game may take a unit that chose it (see the class)
        takes = kind == "espnow" and gid is not None and not join and players == 2
        self.discovery = disc.Discovery(transport, name, self.mac, self.pairings, gid,
                                        self.looks, players, join, takes, now,
                                        kind == "espnow")
        self.pair = None        # the pair handshake with the chosen unit (handshake.py)
        self.ch1 = None         # the keyed channel with it
        self.setup = None       # the game set-up on ch1
        self.host = GroupHost(players) if players > 2 else None
        self.member = None      # a group partner's side of group formation, once set up
        self.seed = None        # the game's seed once ready
        self.player = None      # this unit's player index once ready
        self.gkeys = None       # a group's end-to-end keys by player (None: its own), once ready
        self.gcode = None       # the group code every screen shows, once ready
        self.foreign = 0        # frames from units other than the chosen one, dropped
        self.dropped = 0        # frames or messages refused as malformed (`refused`: why)
        self.refused = None
        self.reflected = 0      # our own handshake frames that came back, dropped
        self.restarts = 0       # handshakes started over after a stall (handshake.STALL_MS)
        self.jammed = 0         # unkeyed frames at the chosen unit's address that are not
                                # this exchange's (forged, replayed, out of turn): dropped
        self.hailed = None      # when a unit that chose this one was taken from the list
        self.since = now        # when the state last changed (the screen's hints wait on it)
        self._leaving = []      # channels still carrying our "bye" (or decline) to the partner
        if kind == "espnow":
            self._to(DISCOVER)
        else:
            self._handshake(now)

    def _to(self, state, why=None):
        """The one place the state changes; discovery follows it (a keyed unit, or a host
        whose partners are all paired, has nobody more to find)."""
        self.state = state
        if why is not None:
            self.error = why
        d = self.discovery
        if state == DISCOVER:
            d.to(disc.LISTING)
        elif self.ch1 is not None or state in (GROUP, READY):
            d.to(disc.SILENT)
        elif d.state == disc.LISTING:
            d.to(disc.CHOSEN)

    # ---- what the pairing screen asks for --------------------------------------------------
    @property
    def hs(self):
        """The session handshake with the chosen unit (session.Handshake), or None."""
        return self.pair.hs if self.pair is not None else None

    @property
    def ch0(self):
        """The handshake's unkeyed channel, or None."""
        return self.pair.ch if self.pair is not None else None

    @property
    def seen(self):
        return self.discovery.seen

    @property
    def partners(self):
        """A host's partners done pairing (group.Partner), in seat order."""
        return self.host.partners if self.host is not None else []

    @property
    def lmk(self):
        return self.pair.lmk if self.pair is not None else None

    def nearby(self, now):
        return self.discovery.nearby(now)

    def choose(self, mac, now):
        self.peer_mac = bytes(mac)
        self._handshake(now)

    def code(self):
        return self.pair.code() if self.pair is not None else None

    def confirmed(self):
        """True once this unit's player said the code is the same."""
        return self.pair is not None and self.pair.confirmed()

    def group_code(self):
        """The six digits every unit of a group shows once ready (None for two units): the
        same on every screen unless the host showed partners different key values."""
        return self.gcode

    def confirm(self, same):
        self.pair.confirm(same)

    def autopilot(self, now, host_name=None, code=True):
        """Say yes to what a person would be asked (`fathom sim`, the link soak; a unit lent
        as a bot with code=False): a unit in the list not yet a partner (or the group's host,
        by name), a remembered one first; the code (only with `code`: a lent unit's owner
        confirms a new partner's code once, then the pairing is remembered); the offer."""
        st = self.state
        if st == DISCOVER:
            taken = [p.mac for p in self.partners]
            known = [r.peer_mac for r in self.pairings.records]
            near = [x for x in self.nearby(now) if x[0] not in taken and (
                host_name is None or x[1] == host_name)]
            near.sort(key=lambda x: x[0] not in known)
            if near:
                self.choose(near[0][0], now)
        elif st == CONFIRM and code and not self.confirmed():
            self.confirm(True)
        elif st == OFFER:
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
        names = [p.name for p in self.partners]
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
        if st == OFFER:
            self.accept(False)
            chans.append(self.ch1)
        elif st in (SETUP, GROUP) and self.ch1 is not None:
            self.ch1.send(encode_msg(BYE, why))
            chans.append(self.ch1)
        elif st in (HANDSHAKE, CONFIRM) and self.heard():
            # one never heard is not choosing us: nobody to tell
            self.pair.bye(why)
            chans.append(self.pair.ch)
        for p in self.partners:  # a group host's partners waiting on their channels
            p.ch.send(encode_msg(BYE, why))
            chans.append(p.ch)
        self._leaving = chans
        self._to(LEAVING)
        return bool(chans)

    def delivered(self):
        """True once every "bye" (or decline) was acknowledged by the partner."""
        for ch in self._leaving:
            if ch.pending():
                return False
        return True

    def accept(self, yes):
        out = self.setup.accept() if yes else self.setup.decline("declined")
        for m in out:
            self.ch1.send(m)

    def fail(self, why):
        """Stop the pairing: the screen shows why (also a caller's own reason, e.g. an
        offer of another game than the one the player said yes to)."""
        self._to(FAILED, why)

    def _left(self, why):
        """The partner's "bye" (its reason `why`)."""
        if self.state not in _OVER:
            self._to(LEFT, why)

    def _refuse(self, why):
        self.dropped += 1
        self.refused = why

    # ---- the machine -----------------------------------------------------------------------
    def _handshake(self, now, old=None):
        """The pair handshake with the chosen unit; `old`: the one that stalled (handshake.py,
        STALL_MS), started over, in clear if it had gone clear."""
        lmk = pid = None
        # ESP-NOW's own key for a partner this unit remembers (handshake.py); never in a group
        if self.kind == "espnow" and self.players == 2 and not self.join and \
                hasattr(self.t, "set_key") and (old is None or old.lmk is not None):
            for r in self.pairings.records:
                if r.peer_mac == self.peer_mac:
                    lmk, pid = r.lmk(), r.pid
            if lmk is not None:
                self.t.set_key(self.peer_mac, lmk)
        self.pair = pair.PairHandshake(self.t, self.peer_mac, self.name, self.mac,
                                       self.pairings, self.kind == "espnow", now, lmk, pid,
                                       self.LENT, (0, ()) if old is None else old.again())
        self._to(HANDSHAKE)

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
        self.discovery.announce(now)
        while True:
            got = self.t.recv()
            if got is None:
                break
            self._frame(got[0], got[1], now)
        if self.state == LEAVING:  # only the acks of our "bye" matter now
            for ch in self._leaving:
                ch.poll(now)
            return False
        if self.pair is not None:
            self._pair_step(now)
        g = self.host or self.member
        if self.host is not None:
            self.host.poll(now)
        if self.state == GROUP and g is not None:
            g.step()
            self._group_settled(g)
        if self.ch1 is not None:
            self._setup_step(now)
        return before != (self.state, len(self.seen), self.error, len(self.partners))

    def _pair_step(self, now):
        p = self.pair
        p.step(now, self.state not in _OVER and self.state != READY)
        st = p.state
        if self.state in _OVER:
            return
        if self.state in (HANDSHAKE, CONFIRM) and p.stalled(now):
            self.restarts += 1
            self._handshake(now, p)
            return
        if st == pair.CONFIRM and self.state == HANDSHAKE:
            self._to(CONFIRM)
        elif st == pair.FAILED:
            self.fail(p.error)
        elif st == pair.LEFT:
            self._left(p.error)
        elif st == pair.KEYED and self.ch1 is None:
            self._keyed(now)

    def _frame(self, mac, data, now):
        b = parse_beacon(data)
        if b is not None:
            if mac and mac != self.mac:
                self.discovery.heard(bytes(mac), data, b, now, self.LENT)
            if self.pair is not None and self.ch1 is None and (mac is None or
                                                               mac == self.peer_mac):
                # Only an intact frame counts (parse_beacon checks the CRC).
                if b[2] != frame.VERSION:
                    self.pair.other_version(b[2], now)
                elif self.pair.hs.peer_version is None:
                    self.pair._alien = None  # its beacon in our version: not the partner's
            return
        if self.state == DISCOVER and mac and self.discovery.hailed_by(bytes(mac), data, now):
            self.choose(mac, now)  # the hello is then read as the chosen unit's, below
            self.hailed = now
        try:
            keyed = frame.parse(data)[1]
        except frame.FrameError as e:
            keyed = None
            why = str(e)
        for p in self.partners:
            if p.mac == mac:
                if keyed:
                    p.ch.on_frame(data)
                elif keyed is None:
                    self._refuse(why)
                return  # unkeyed: the repeats of its finished handshake
        if self.peer_mac is not None and mac != self.peer_mac:
            self.foreign += 1
            return
        if keyed and self.ch1 is not None:
            self.ch1.on_frame(data)
        elif self.pair is not None:
            got = self.pair.frame(data, bool(keyed))
            if got == pair.REFLECTED:
                self.reflected += 1
            elif got == pair.JAMMED:
                self.jammed += 1
            elif got == pair.MALFORMED:
                self._refuse(self.pair.refused)

    def _keyed(self, now):
        hs = self.pair.hs
        self.pairings.add(hs.record)
        self.storage.write_obj(PAIRINGS, self.pairings.save())
        if self.peer_mac is None and self.kind == "espnow":
            self.peer_mac = hs.peer_mac
        key, sid, _sas = hs.result()
        # bound to this partner's mac: the host moves on to the next partner, the channel stays
        # (and goes on into the game, so its sender is peer.py's, not a function of this module)
        self.ch1 = Channel(frame_sender(self.t, self.peer_mac), key, sid, now, hs.role)
        self.setup = GameSetup(hs.role, entropy.token(16), key)
        # a unit waiting as the bot opponent, or joining a group, proposes nothing
        if self.gid is not None and not self.join:
            opts = self.opts
            if self.host is not None:
                opts = dict(opts)
                opts[GROUP_N] = self.players
                opts[GROUP_SEAT] = len(self.partners) + 1
            for m in self.setup.propose(self.gid, opts):
                self.ch1.send(m)
        self._to(SETUP)

    def _setup_step(self, now):
        self.ch1.poll(now)
        self.setup.poll(now)
        # Stop at 'done' (for a group partner, once the others' key values are in): what
        # follows on the channel is the game's, for the LinkPeer. A partner still working
        # out its keys must not read the host's first event as a set-up message.
        mb = self.member
        while self.setup.state != "done" or (self.state == GROUP and mb.reading()):
            m = self.ch1.recv()
            if m is None:
                break
            why = bye_reason(m)
            if why is not None:
                self._left(why)
                break
            if self.state == GROUP:
                mb.on_message(m)
                self._group_settled(mb)
                break
            for out in self.setup.on_message(m):
                self.ch1.send(out)
        if self.state in (SETUP, OFFER):
            self._setup_settled()

    def _setup_settled(self):
        s = self.setup
        st = s.state
        if st == "offered":
            offered = s.opts
            if self.join:
                same = s.game == self.gid and GROUP_N in offered
            else:
                same = self.gid is None or (s.game == self.gid and codec.encode(
                    offered) == codec.encode(self.opts))
            if same:
                self.accept(True)
            else:
                self._to(OFFER)
        elif st == "done":
            self._setup_done()
        elif st == "declined":
            self._to(DECLINED, s.error or st)  # the partner said no: the screen offers what to do
        elif st in ("failed", "forfeit"):
            self.fail(s.error or st)

    def _setup_done(self):
        s = self.setup
        if self.host is not None:
            self.host.add(self.peer_mac, self.ch1, self.hs.peer_name, s.seed)
            # back to the list for the next partner; this one waits on its channel (and sends
            # its group commitment there, read once all are in)
            self.peer_mac = self.pair = self.ch1 = self.setup = None
            self._to(DISCOVER if self.host.state == group.PAIRING else GROUP)
        elif s.opts and GROUP_SEAT in s.opts:
            # a partner: the host publishes the group seed once all are in
            try:
                self.member = GroupMember(self.ch1, s.opts, s.seed)
            except GroupError as e:
                self.fail("group start refused: %s" % (e,))
                return
            self._to(GROUP)
        else:
            self.seed = s.seed
            self.player = s.player()
            self._to(READY)

    def _group_settled(self, g):
        if self.state != GROUP:
            return
        if g.state == group.READY:
            self.seed, self.gkeys, self.gcode = g.seed, g.gkeys, g.gcode
            self.player = 0 if g is self.host else g.seat
            self.member = None  # its secret and the values go
            self._to(READY)
        elif g.state == group.FAILED:
            self.fail(g.error)
        elif g.state == group.LEFT:
            self._left(g.error)

    def peer(self, storage):
        """The LinkPeer for the game, once ready."""
        return LinkPeer(self.t, self.peer_mac, self.ch1, storage, self.kind, lmk=self.lmk)

    def peers(self, storage):
        """Every LinkPeer of the game, once ready: one, or a host's one per partner."""
        if not self.partners:
            out = [self.peer(storage)]
        else:
            mux = Mux(self.t)
            out = [LinkPeer(mux.port(p.mac), p.mac, p.ch, storage, self.kind, link_slot(i))
                   for i, p in enumerate(self.partners)]
        for i in range(len(out), MAX_PARTNERS):
            storage.remove(link_slot(i))  # a channel of an earlier, larger game
        if self.gkeys is not None:
            for p in out:  # the runner takes the group's keys and code from its peers
                p.group = (self.gkeys, self.gcode)
        return out
