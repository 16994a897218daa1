# A game's link once paired: the runner's LinkPeer over a keyed channel, the Mux that shares one
# transport among a group host's partners, and their restore after a reboot. Kept apart from the
# pairing code (connect.py, session.py) so that code leaves the heap when the game starts.
from fathom import codec
from fathom.link.channel import Channel

_BEACON = 0x03           # frame.BEACON's type nibble: outside every channel (a notice, link/lost.py)
LINK = "link"            # the live channel of the game in progress (+ "1" .. "6": more partners)
# A group host's partners at most: Sugar Dog's eight players. On the 32-bit frozen runtime the
# host of eight finishes under a 96 KB heap, relaying at each link's pace (docs/PROTOCOL.md,
# section 7b).
MAX_PARTNERS = 7


def link_slot(i):
    return LINK if i == 0 else LINK + str(i)


def frame_sender(transport, mac):
    """A channel's send_frame to the partner at `mac`. Made here, in a module the game keeps:
    a function holds its module's globals, so one made in the pairing code (connect.py) would
    keep all of that code on the heap for the whole game, however often it is forgotten."""
    return lambda f: transport.send(mac, f)


def open_transport(kind, profile):
    if kind == "uart":
        from fathom.link.uart_link import UartLink
        return UartLink(profile["uart"])
    from fathom.link.espnow_link import EspNowLink
    return EspNowLink()


class LinkPeer:
    """The runner's peer over a keyed channel. The channel is persisted whenever it says so,
    before frames leave in poll(), so a rebooted unit neither replays nor accepts replays.

    The runner ticks it in two halves, receive() then flush(): frames in, the runner reads and
    journals every message, then one save and the poll. So the save holds no message received
    but not yet read (a group host's seven links each held a few, and the saves were the
    host's largest blocks), and acks and replies leave in the same tick. A message the runner
    read but did not journal before a reboot is not lost: its ack had not left, so the peer
    sends it again. send() still saves at once: a message the runner sends is already in its
    journal (streams.tell writes what the journal holds first), and must not be forgotten by
    the link."""
    # class defaults: a LinkPeer rebuilt without __init__ (restore_peer, a host's soak) has them
    secrets = None          # the game's secrets, read when a partner's notice first comes
    lost = None             # [player, what, not yet said]: a partner's checked notice

    def __init__(self, transport, peer_mac, channel, storage, kind, slot=LINK, lmk=None):
        self.t = transport
        self.slot = slot
        self.lmk = lmk          # the radio's own key for this partner, if the session uses one
        self.peer_mac = peer_mac
        self.ch = channel
        self.storage = storage
        self.kind = kind
        self.bad = 0            # messages refused as unreadable (`refused`: the last one's why)
        self.refused = None
        self.foreign = 0
        self._persist()

    @property
    def state(self):
        return self.ch.state

    def send(self, msg):
        self.ch.send(codec.encode(msg))
        self._persist()

    def recv(self):
        if self.lost is not None and self.lost[2]:  # a partner's notice, checked: said once
            self.lost[2] = False
            who, what = self.lost[0], self.lost[1]
            return ["void", who, what] if what == "link" else ["void", who]
        raw = self.ch.recv()
        if raw is None:
            return None
        try:
            m = codec.decode(raw)
        except (codec.CodecError, MemoryError) as e:  # a message that decodes too large
            self.refused = str(e) or "out of memory"
            m = None
        if not isinstance(m, list) or not m or not isinstance(m[0], str):
            self.bad += 1
            return ["bad"]  # the runner refuses it and shows the problem
        return m

    def tick(self, now):
        self.receive()
        self.flush(now)

    def receive(self):
        """Frames in: what they complete waits in the channel for recv()."""
        while True:
            got = self.t.recv()
            if got is None:
                break
            mac, data = got
            if self.peer_mac is not None and mac != self.peer_mac:
                self.foreign += 1
                continue
            if data and data[0] & 0x0F == _BEACON and self._notice(data):
                continue
            self.ch.on_frame(data)

    def _notice(self, data):
        """The partner lost its record of this link, or its whole save (link/lost.py): its
        notice, tagged under the game's secrets, is answered and the game ends void (recv). A
        notice whose tag fails (a bystander's) is counted; another beacon goes on to the
        channel, which ignores it."""
        from fathom.link import lost
        if not lost.is_notice(data):
            return False
        if self.secrets is None:
            self.secrets = lost.of_save(self.storage)
        said = None if self.secrets is None else lost.lost_player(self.secrets, data)
        if said is None:
            self.foreign += 1
            return True
        if self.lost is None:
            self.lost = [said[0], said[1], True]
            self.ch = lost.Gone()
        try:
            self.t.send(None, lost.receipt(self.secrets, said[0]))  # broadcast: it has no radio key
        except OSError:
            pass  # lost with the radio's buffers full: the next notice is answered
        return True

    def fresh(self):
        return self.ch.fresh()

    def wake_in(self, now):
        """App._rest: the channel's, over a radio that wakes the loop (irq); else every loop."""
        if self.ch.needs_save or not getattr(self.t, "irq", False):
            return 0
        return self.ch.wake_in(now)

    def flush(self, now):
        """Save what changed, then let frames (acks included) leave."""
        self._persist()
        self.ch.poll(now)

    def _persist(self):
        # [kind, mac, lmk, channel]: a list, as Channel.save() is, for the same reason
        if self.storage is not None and self.ch.needs_save:
            self.storage.write_obj(self.slot, [self.kind, self.peer_mac, self.lmk,
                                               self.ch.save()])

    def save(self):
        return {"kind": "link"}

    def close(self):
        try:
            self.t.close()
        except OSError:
            pass  # a transport already gone is closed


class Mux:
    """One transport shared by a host's partners: frames are sorted into a queue per partner
    MAC, so each LinkPeer reads only its own (others' frames are not lost to it). A group runs
    in clear on every link (docs/PROTOCOL.md, section 7a): a port takes its partner's radio
    key off, so a host holds one clear peer per partner, whatever was registered before."""

    def __init__(self, transport):
        self.t = transport
        self.mac = transport.mac
        self.q = {}
        self.closed = False

    def port(self, mac):
        mac = bytes(mac)
        if hasattr(self.t, "set_key"):
            self.t.set_key(mac, None)
        self.q[mac] = []
        return _Port(self, mac)

    def pump(self):
        while True:
            got = self.t.recv()
            if got is None:
                return
            q = self.q.get(bytes(got[0]))
            if q is not None and len(q) < 64:  # bounded, as a radio buffer is
                q.append(got[1])

    def close(self):
        if not self.closed:
            self.closed = True
            self.t.close()


class _Port:
    def __init__(self, mux, mac):
        self.mux = mux
        self.peer = mac
        self.mac = mux.mac

    def send(self, peer, data):
        return self.mux.t.send(peer, data)

    def recv(self):
        q = self.mux.q[self.peer]
        if not q:
            self.mux.pump()
        return (self.peer, q.pop(0)) if q else None

    def close(self):
        self.mux.close()


def restore_peers(storage, profile, now):
    """Every LinkPeer of the saved game (a group host has several) on one freshly opened
    transport; raises ValueError."""
    first = storage.read_obj(LINK)
    if not first:
        raise ValueError("no saved link")
    t = open_transport(_saved(first)[0], profile)
    more = []
    for i in range(1, MAX_PARTNERS):
        d = storage.read_obj(link_slot(i))
        if not d:
            break
        more.append(d)
    if not more:
        return [restore_peer(storage, profile, now, t)]
    mux = Mux(t)
    return [restore_peer(storage, profile, now, mux.port(_saved(d)[1]), link_slot(i))
            for i, d in enumerate([first] + more)]


def _saved(d):
    """The list LinkPeer._persist saves, checked; ValueError if it is not one."""
    if not isinstance(d, list) or len(d) < 4:
        raise ValueError("bad link record")
    return d


def restore_peer(storage, profile, now, t=None, slot=LINK):
    """The LinkPeer of the saved game, on a freshly opened transport; raises ValueError."""
    d = storage.read_obj(slot)
    if not d:
        raise ValueError("no saved link")
    kind, mac, lmk, ch = _saved(d)[:4]
    if t is None:
        t = open_transport(kind, profile)
    peer = object.__new__(LinkPeer)  # MicroPython classes have no __new__ attribute
    peer.t = t
    peer.slot = slot
    peer.peer_mac = mac
    peer.storage = storage
    peer.kind = kind
    peer.lmk = lmk
    if peer.lmk and hasattr(t, "set_key"):
        t.set_key(peer.peer_mac, peer.lmk)  # the session ran encrypted: so does its resume
    peer.bad = peer.foreign = 0
    peer.refused = None
    peer.ch = Channel.restore(ch, frame_sender(t, peer.peer_mac), now)
    return peer
