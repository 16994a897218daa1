# From nothing to a keyed channel and an agreed game, ticked by the app loop: discovery
# beacons (ESP-NOW), the handshake on an unkeyed channel (version, pairing or rekey, the code
# both players confirm), then the game set-up with its commit-reveal seed on the keyed channel.
# LinkPeer then carries the game's messages and persists the channel so a reboot resumes.
import os

from fathom import codec
from fathom.link import frame
from fathom.link.channel import Channel
from fathom.link.session import GameSetup, Handshake, Pairings, beacon, parse_beacon

BEACON_MS = 700          # how often a unit looking for a partner announces itself
SEEN_MS = 4000           # a unit not heard for this long leaves the list
PAIRINGS = "pairings"
LINK = "link"            # the live channel of the game in progress


def load_pairings(storage):
    try:
        return Pairings.restore(storage.read_obj(PAIRINGS) or [])
    except Exception:
        return Pairings()


def forget_pairings(storage):
    storage.remove(PAIRINGS)


def open_transport(kind, profile):
    if kind == "uart":
        from fathom.link.uart_link import UartLink
        return UartLink(profile["uart"])
    from fathom.link.espnow_link import EspNowLink
    return EspNowLink()


def unit_mac(transport):
    """A cable has no addresses; the unit's id stands in so pairing records still name it."""
    if transport.mac:
        return transport.mac
    import machine
    return (bytes(machine.unique_id()) + b"\x00" * 6)[:6]


class Connector:
    def __init__(self, transport, kind, name, storage, gid, opts, now):
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
        if kind != "espnow":
            self._handshake(now)

    # ---- what the pairing screen asks for --------------------------------------------------
    def nearby(self, now):
        return [(m, v[0], v[1]) for m, v in self.seen.items() if now - v[2] < SEEN_MS]

    def choose(self, mac, now):
        self.peer_mac = bytes(mac)
        self._handshake(now)

    def code(self):
        return self.hs.sas if self.hs else None

    def confirm(self, same):
        for m in self.hs.confirm(same):
            self.ch0.send(m)

    def offer(self):
        """(game, opts) the other unit proposes, when it differs from ours."""
        return (self.setup.game, self.setup.opts) if self.setup else None

    def accept(self, yes):
        out = self.setup.accept() if yes else self.setup.decline("declined")
        for m in out:
            self.ch1.send(m)

    # ---- the machine -----------------------------------------------------------------------
    def _send(self, data):
        self.t.send(self.peer_mac, data)

    def _handshake(self, now):
        self.state = "handshake"
        self.hs = Handshake(self.name, self.mac, os.urandom(16), os.urandom(32),
                            self.pairings, confirm=self.kind == "espnow")
        self.ch0 = Channel(self._send, None, 0, now)
        for m in self.hs.start():
            self.ch0.send(m)

    def tick(self, now):
        """Advance; returns True when something the screen shows changed."""
        before = (self.state, len(self.seen), self.error)
        if self.state == "discover" and now - self.next_beacon >= 0:
            self.next_beacon = now + BEACON_MS
            self.t.send(None, beacon(self.name, self.mac))
        while True:
            got = self.t.recv()
            if got is None:
                break
            self._frame(got[0], got[1], now)
        if self.ch0 is not None:
            self.ch0.poll(now)
            while self.hs.state not in ("done", "failed"):
                m = self.ch0.recv()
                if m is None:
                    break
                for out in self.hs.on_message(m):
                    self.ch0.send(out)
            if self.hs.state == "confirm" and self.state == "handshake":
                self.state = "confirm"
            if self.hs.state == "failed":
                self._fail(self.hs.error)
            elif self.hs.state == "done" and self.ch1 is None:
                self._keyed(now)
        if self.ch1 is not None:
            self.ch1.poll(now)
            self.setup.poll(now, self.ch1.state == "linked")
            while True:
                m = self.ch1.recv()
                if m is None:
                    break
                for out in self.setup.on_message(m):
                    self.ch1.send(out)
            self._setup_state()
        return before != (self.state, len(self.seen), self.error)

    def _frame(self, mac, data, now):
        b = parse_beacon(data)
        if b is not None:
            if mac and mac != self.mac:
                self.seen[bytes(mac)] = [b[0], b[2], now]
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
            self.ch0.on_frame(data)

    def _keyed(self, now):
        hs = self.hs
        self.pairings.add(hs.record)
        self.storage.write_obj(PAIRINGS, self.pairings.save())
        if self.peer_mac is None and self.kind == "espnow":
            self.peer_mac = hs.peer_mac
        key, sid, _sas = hs.result()
        self.ch1 = Channel(self._send, key, sid, now, hs.role)
        self.setup = GameSetup(hs.role, os.urandom(16))
        if self.gid is not None:  # a unit waiting as the bot opponent proposes nothing
            for m in self.setup.propose(self.gid, self.opts):
                self.ch1.send(m)
        self.state = "setup"

    def _setup_state(self):
        st = self.setup.state
        if st == "offered":
            same = self.gid is None or (self.setup.game == self.gid and codec.encode(
                self.setup.opts) == codec.encode(self.opts))
            if same:
                self.accept(True)
            else:
                self.state = "offer"
        elif st == "done":
            self.state = "ready"
        elif st in ("failed", "forfeit", "declined"):
            self._fail(self.setup.error or st)

    def _fail(self, why):
        self.state = "failed"
        self.error = why

    def peer(self, storage):
        """The LinkPeer for the game, once ready."""
        return LinkPeer(self.t, self.peer_mac, self.ch1, storage, self.kind)

    def drain_handshake(self, now):
        """Keep the unkeyed channel alive until its last message (the confirmation) is acked."""
        if self.ch0 is not None and self.ch0.pending():
            self.ch0.poll(now)


class LinkPeer:
    """The runner's peer over a keyed channel. The channel is persisted whenever it says so,
    before frames leave in poll(), so a rebooted unit neither replays nor accepts replays."""

    def __init__(self, transport, peer_mac, channel, storage, kind):
        self.t = transport
        self.peer_mac = peer_mac
        self.ch = channel
        self.storage = storage
        self.kind = kind
        self.bad = 0
        self.foreign = 0
        self._persist()

    @property
    def state(self):
        return self.ch.state

    def send(self, msg):
        self.ch.send(codec.encode(msg))
        self._persist()

    def recv(self):
        raw = self.ch.recv()
        if raw is None:
            return None
        self._persist()
        try:
            return codec.decode(raw)
        except codec.CodecError:
            self.bad += 1
            return ["bad"]  # the runner refuses it and shows the problem

    def tick(self, now):
        while True:
            got = self.t.recv()
            if got is None:
                break
            mac, data = got
            if self.peer_mac is not None and mac != self.peer_mac:
                self.foreign += 1
                continue
            self.ch.on_frame(data)
        self._persist()
        self.ch.poll(now)

    def _persist(self):
        if self.storage is not None and self.ch.needs_save:
            self.storage.write_obj(LINK, {"kind": self.kind, "mac": self.peer_mac,
                                          "ch": self.ch.save()})

    def save(self):
        return {"kind": "link"}

    def close(self):
        try:
            self.t.close()
        except Exception:
            pass


def restore_peer(storage, profile, now):
    """The LinkPeer of the saved game, on a freshly opened transport; raises ValueError."""
    d = storage.read_obj(LINK)
    if not d:
        raise ValueError("no saved link")
    t = open_transport(d["kind"], profile)
    peer = LinkPeer.__new__(LinkPeer)
    peer.t = t
    peer.peer_mac = d["mac"]
    peer.storage = storage
    peer.kind = d["kind"]
    peer.bad = peer.foreign = 0
    peer.ch = Channel.restore(d["ch"], lambda f: t.send(peer.peer_mac, f), now)
    return peer
