# Discovery over ESP-NOW: the beacons this unit sends until it has a keyed channel, the list of
# units it hears, the unit that chose this one from its own list (a hail), and the radio keys
# of remembered units installed ahead of their hello. One state machine, moved only by to().
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.link import frame
from fathom.link.session import beacon, decode_msg, parse_invite, SessionError

BEACON_MS = 700          # how often a unit looking for a partner announces itself
SEEN_MS = 4000           # a unit not heard for this long leaves the list
MAX_SEEN = 16            # units listed at most: beacons from made-up MACs cannot fill the heap
RADIO_KEYS = 6           # ESP-NOW holds six encrypted peers

# The states. LISTING: announcing, listing, installing remembered units' radio keys, taking a
# unit that hails this one. CHOSEN: a partner is being paired; still announcing (it may still
# be choosing from its list) and listing. SILENT: keyed, or on a cable: no beacons.
LISTING = "listing"
CHOSEN = "chosen"
SILENT = "silent"


def is_hello(data):
    """True for an intact hello of our version on an unkeyed channel (CRC checked): the first
    message of a unit that chose this one to pair with it."""
    try:
        ftype, keyed, sid, _seq, _ack, payload = frame.parse(data)
    except frame.FrameError:
        return False
    if ftype != frame.DATA or keyed or sid != 0 or not frame.check(data):
        return False
    try:
        return decode_msg(payload)[0] == "hi"
    except SessionError:
        return False


class Discovery:
    """looks: the game (for `players`) the beacons look for a partner for, or None; join: a
    unit joining a group offers none. takes: a unit whose hello arrives while listing, for the
    game `gid` for two, may be taken as if chosen (the connector's `hailed`)."""

    def __init__(self, transport, name, mac, pairings, gid, looks, players, join, takes, now,
                 radio):
        self.t = transport
        self.name = name
        self.mac = mac
        self.pairings = pairings
        self.gid = gid
        self.looks = None if join else looks
        self.players = players
        self.takes = takes
        self.seen = {}          # mac -> [name, version, last_heard, game it looks for or None]
        self.prekeyed = []      # remembered units listed whose radio key was installed
        self.next_beacon = now
        self.radio = radio
        self.state = LISTING if radio else SILENT

    def to(self, state):
        """The one place the state changes (a cable has no discovery: it stays SILENT)."""
        if self.radio:
            self.state = state

    def announce(self, now):
        if self.state != SILENT and ticks_diff(now, self.next_beacon) >= 0:
            self.next_beacon = ticks_add(now, BEACON_MS)
            # the game it looks for rides along: an idle unit shows an invitation
            # (flow/invite.py)
            self.t.send(None, beacon(self.name, self.mac, game=self.looks, players=self.players))

    def nearby(self, now):
        return [(m, v[0], v[1]) for m, v in self.seen.items()
                if 0 <= ticks_diff(now, v[2]) < SEEN_MS]

    def heard(self, mac, data, b, now, prekey_any=False):
        """A beacon b (parse_beacon's) from mac: list it. prekey_any: install a remembered
        unit's radio key whatever game it looks for (a lent unit: any unit may hail it)."""
        seen = self.seen
        s = seen.get(mac)
        if s is not None and b[2] != frame.VERSION and s[1] == frame.VERSION and \
                ticks_diff(now, s[2]) < SEEN_MS:
            return  # heard in our version this recently: another version there is forged
        if s is None:
            for m in list(seen):
                if ticks_diff(now, seen[m][2]) >= SEEN_MS:
                    del seen[m]  # also keeps every entry young enough for ticks_diff
            if len(seen) >= MAX_SEEN:
                return
        looks = self._looks_for(data, b)
        seen[mac] = [b[0], b[2], now, looks]
        if prekey_any or looks is not None and looks == self.gid:
            self._prekey(mac)

    def _looks_for(self, data, b):
        """The game a beacon looks for a partner for, when that is two players and this unit
        could take a hello from it; None otherwise (no beacon parsed twice for nothing)."""
        if not self.takes or b[2] != frame.VERSION:
            return None
        inv = parse_invite(data)
        return inv[2] if inv is not None and inv[3] == 2 else None

    def hailed_by(self, mac, data, now):
        """True when a listed unit looking for our game for two sends its hello here."""
        if self.state != LISTING or not self.takes:
            return False
        s = self.seen.get(mac)
        return s is not None and s[3] == self.gid and s[1] == frame.VERSION and \
            0 <= ticks_diff(now, s[2]) < SEEN_MS and is_hello(data)

    def _prekey(self, mac):
        """A remembered unit that chooses this one sends its hello encrypted with the pairing's
        radio key: installed from the list, that hello is readable. At most the radio's six."""
        if self.state != LISTING or mac in self.prekeyed or \
                len(self.prekeyed) >= RADIO_KEYS or not hasattr(self.t, "set_key"):
            return
        for r in self.pairings.records:
            if r.peer_mac == mac:
                self.prekeyed.append(mac)
                self.t.set_key(mac, r.lmk())
