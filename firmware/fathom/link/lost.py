# A unit whose record of a game's link is gone (damaged and set aside as link.bad, or missing)
# holds no channel key to tell its partners anything, and they would find it "vanished". What
# its save still holds, and a bystander does not, is the game's seed (a hash under the pairing's
# session key: docs/PROTOCOL.md, section 6) and, in a group, its key with every other unit. So it
# says "I lost this game's link" in an unkeyed broadcast frame tagged under those
# (the notice), every partner's LinkPeer checks its own tag and ends the game void in words
# (runner._on_void), and answers with a receipt tagged the same way, which stops the notices.
# A partner away from the game while it is told (at home, out of range, switched off) is told
# when it comes back: the notice is kept (OWED) until that partner's receipt, and the home
# menu's radio says it again every OWE_MS (flow/invite.py).
# Loaded only when a notice arrives or a unit lost its link: a game never loads it otherwise.
from fathom import codec
from fathom.link import crypto, frame

TAG = 8                 # bytes of one tag: a forger's chance is 2**-64 per try
NOTICE_MS = 1000        # how often the notice goes out until every partner has answered
TELL_MS = 60000         # how long a unit that lost its link tells, answered or not
_NOTICE = "lost"        # the payload's first item: ["lost", player, what, tags]
LINK, SAVE = "link", "save"  # what was lost: the link record, or the whole save (set aside)
_RECEIPT = "lost ok"    # ["lost ok", player, lost player, tag]
_BEACON = 0x03          # frame.BEACON: an unkeyed frame outside any channel
OWED = "owed"           # [notice frame, [receipt tag of each partner not yet told]]
OWE_MS = 5000           # how often the home menu says an owed notice (flow/invite.py)


class Keys:
    """The secrets a unit's save shares with each other unit: `seed` (a game of two: a key
    derived from the joint seed, which only the two units hold) or `keys`, a group's
    end-to-end keys by player (each shared by this unit and that player alone)."""

    def __init__(self, seed, keys, me, n, kind=None, relay=False):
        self.me = me
        self.n = n
        self.keys = keys
        self.kind = kind        # the game's link ("espnow", "uart"; None: not a link game)
        self.relay = relay      # this unit is a group's host
        self.pair = crypto.kdf(bytes(seed), b"fathom lost") if keys is None else None

    def mac(self, other):
        return crypto.Mac(self.pair if self.keys is None else self.keys[other])


def of_save(storage, aside=False):
    """The Keys of the saved game (its journal's header; `aside`: of the save set aside as
    game.bad), or None if it has none or it cannot be read."""
    from fathom.hal.storage import CorruptFile
    from fathom.journal import FileJournal, JournalError, header_of
    from fathom.runner import SAVE
    try:
        if aside:
            body = storage.first_aside(SAVE)
            if body is None:
                return None
            h = header_of(codec.decode(body))
        else:
            h = header_of(FileJournal(storage, SAVE).first())
        meta = h.get("meta") or {}
        return Keys(h["seed"], h.get("gk"), h["player"], h["n"],
                    meta.get("link", "espnow") if meta.get("vs") == "link" else None,
                    h.get("relay", False))
    except (CorruptFile, JournalError, codec.CodecError, KeyError, TypeError, ValueError,
            OSError):  # no game, or a header this unit cannot use: nothing to check with
        return None


def _notice_tag(mac, who, to, what):
    return mac.digest(b"fathom lost", bytes((who, to)), what.encode())[:TAG]


def notice(k, what=LINK):
    """The frame that says player `k.me` lost `what` (LINK or SAVE), one tag per other unit."""
    tags = b""
    for q in range(k.n):
        if q != k.me:
            tags += _notice_tag(k.mac(q), k.me, q, what)
    return frame.encode(frame.BEACON, 0, 0, 0, codec.encode([_NOTICE, k.me, what, tags]))


def _receipt_tag(k, lost, who):
    """The tag of `who`'s receipt for `lost`'s notice (a key both hold)."""
    return k.mac(who if k.me == lost else lost).digest(b"fathom lost ok",
                                                        bytes((who, lost)))[:TAG]


def receipt(k, lost):
    return frame.encode(frame.BEACON, 0, 0, 0, codec.encode(
        [_RECEIPT, k.me, lost, _receipt_tag(k, lost, k.me)]))


def owe(storage, k, what, players):
    """Keep this unit's notice for `players` until each has answered; none: nothing owed. Only
    what the air carries anyway is kept (the frame, the receipts' tags), no key."""
    if players:
        storage.write_obj(OWED, [notice(k, what), [_receipt_tag(k, k.me, q) for q in players]])
    else:
        storage.remove(OWED)


def _payload(data):
    """The decoded list of an intact unkeyed beacon-type frame of ours, or None."""
    if len(data) < frame.HEADER + frame.CRC + 1 or data[0] & 0x0F != _BEACON:
        return None
    try:
        m = codec.decode(frame.parse(data)[5])
    except (frame.FrameError, codec.CodecError, MemoryError):
        return None
    if not frame.check(data) or not isinstance(m, list) or len(m) < 3:
        return None
    return m


def is_notice(data):
    """Cheap first look (no key needed): a frame that may be a notice."""
    m = _payload(data)
    return m is not None and m[0] == _NOTICE


def lost_player(k, data):
    """(player, what it lost) of the notice `data`, if its tag for this unit checks out; else
    None."""
    m = _payload(data)
    if m is None or m[0] != _NOTICE or len(m) != 4:
        return None
    _tag, who, what, tags = m
    if type(who) is not int or not 0 <= who < k.n or who == k.me or what not in (LINK, SAVE) \
            or not isinstance(tags, bytes) or len(tags) != (k.n - 1) * TAG:
        return None
    i = (k.me if k.me < who else k.me - 1) * TAG  # tags in player order, the sender left out
    ok = crypto.equal(_notice_tag(k.mac(who), who, k.me, what), tags[i:i + TAG])
    return (who, what) if ok else None


def answered_by(k, data):
    """The player whose receipt for this unit's notice `data` is (its tag checked), or None."""
    m = _payload(data)
    if m is None or m[0] != _RECEIPT or len(m) != 4:
        return None
    _tag, who, lost, tag = m
    if type(who) is not int or not 0 <= who < k.n or who == k.me or lost != k.me or \
            not isinstance(tag, bytes):
        return None
    return who if crypto.equal(_receipt_tag(k, lost, who), tag) else None


class Gone:
    """The channel to a unit that lost its keys: nothing said on it can arrive any more, so
    nothing is waited for (a void game's result goes home at once, Runner.finished)."""
    state = "lost"
    needs_save = False
    stats = {}

    def pending(self):
        return 0

    def fresh(self):
        return False

    def recv(self):
        return None

    def send(self, msg):
        pass

    def on_frame(self, data):
        pass

    def poll(self, now):
        pass

    def wake_in(self, now):
        return NOTICE_MS


class Teller:
    """Sends the notice every NOTICE_MS on a freshly opened transport until every unit this
    one was linked to has answered (a group's host: every partner; a partner: the host; a pair:
    the other unit), or TELL_MS. A game whose link record is lost keeps it as its peer: a peer
    that says nothing and whose `ch` is pending while it still tells, so the result screen
    waits for it (Runner.finished) before OK goes home. A save set aside (flow/aside.py) runs
    it as a service of the home menu (`app`), which it leaves once done. Who has not answered
    is kept in `storage` (owe): told later from the home menu, or after a reboot."""

    def __init__(self, transport, k, what=LINK, app=None, storage=None):
        self.t = transport
        self.k = k
        self.what = what
        self.app = app
        self.storage = storage
        self.ch = self
        if k.relay:
            self.waits = [q for q in range(k.n) if q != k.me]
        else:
            self.waits = [0 if k.n > 2 else 1 - k.me]
        self.frame = notice(k, what)
        self.next = None
        self.since = None
        self._owe()

    def _owe(self):
        if self.storage is not None:
            owe(self.storage, self.k, self.what, self.waits)

    def pending(self):
        return len(self.waits)

    def tick(self, now):
        from fathom.hal.clock import ticks_add, ticks_diff
        while True:
            got = self.t.recv()
            if got is None:
                break
            who = answered_by(self.k, got[1])
            if who in self.waits:
                self.waits.remove(who)
                self._owe()
        if self.since is None:
            self.since = now
        if self.waits and ticks_diff(now, self.since) >= TELL_MS:
            self.waits = []  # the rest are told when they come back (owe): stop waiting here
        if self.waits and (self.next is None or ticks_diff(now, self.next) >= 0):
            try:
                self.t.send(None, self.frame)
            except OSError:
                pass  # the radio's buffers are full: the next notice goes NOTICE_MS later
            self.next = ticks_add(now, NOTICE_MS)
        if not self.waits and self.app is not None:
            self.close()
            self.app.services.remove(self)
            self.app = None
        return False

    def recv(self):
        return None

    def send(self, msg):
        pass  # the game is over here: nothing more goes to the partners

    def save(self):
        return {"kind": "link"}

    def close(self):
        try:
            self.t.close()
        except OSError:
            pass
