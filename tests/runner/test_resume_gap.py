# A unit that loses power after journalling an event it authored, before its link's save held
# that event, must not stall a game of two. After the reboot its journal has the event but its
# channel (restored from the last save) never queued it, so only a resend after the resume's
# `sync` can bring it to the partner; the partner, told that the rebooted unit holds more
# events than it has, must say how far it is so the rebooted unit resends. Also cut elsewhere:
# after the link's save but before the first frame left, on the other unit, during the
# end-of-game reveal, and (sweep) before every write and every frame of one unit's game in turn.
#
# Real runners, seats, journals, keyed channels and LinkPeers over an in-memory wire, each unit
# with its own storage folder; a reboot rebuilds the unit from that folder alone, as play.py's
# resume does (runner.load, link.peer.restore_peer, resync()), and each step runs in the app's
# order: tick, then (after the redraw) late(), so a received event is journalled and acked
# after the unit has shown it.
import pytest

from fathom import codec, games
from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.hal.storage import Storage
from fathom.link import frame
from fathom.link.channel import Channel
from fathom.link.peer import LinkPeer, restore_peer
from fathom.runner import Runner, load
from kit.memstore import fresh
from kit.play import bot_step
from toy.engine import ENGINE as TOY

pytestmark = pytest.mark.micropython

SID = 11
KEY = b"k" * 32
STEP = 10          # ms of the test clock per round
DOWN_MS = 400      # how long a unit stays off before it boots again
ROUNDS = 4000      # 40 s of clock: a game and a reboot take a few hundred rounds


class PowerCut(BaseException):
    """The power fails here: nothing after it runs (a BaseException, so that the runner's
    guard against a peer's bytes, which catches Exception, cannot swallow it)."""


class Flash(Storage):
    """A unit's flash. Every write, and every frame (End.send), passes effect() first:
    `cut(kind, name, body)` true there cuts the power just before that effect happens."""

    def __init__(self, root, cut=None):
        self.cut = cut
        self.dead = False
        self.effects = 0
        Storage.__init__(self, root)

    def effect(self, kind, name, body):
        if self.dead:
            raise PowerCut()
        if self.cut is not None and self.cut(kind, name, body):
            self.dead = True
            raise PowerCut()
        self.effects += 1

    def write(self, name, data):
        self.effect("write", name, data)
        Storage.write(self, name, data)

    def new_records(self, name, first):
        self.effect("write", name, first)
        Storage.new_records(self, name, first)

    def append_record(self, name, body):
        self.effect("append", name, body)
        return Storage.append_record(self, name, body)

    def append_records(self, name, bodies):
        """A journal's held records: the cut may fall between any two of them."""
        for i, body in enumerate(bodies):
            try:
                self.effect("append", name, body)
            except PowerCut:
                if i:
                    Storage.append_records(self, name, bodies[:i])
                raise
        return Storage.append_records(self, name, bodies)

    def remove(self, name):
        self.effect("remove", name, None)
        Storage.remove(self, name)


def _kind(payload):
    """The kind of a one-frame message, None for one a modified peer made unreadable."""
    try:
        m = codec.decode(payload)
    except codec.CodecError:
        return None
    return m[0] if isinstance(m, list) and m else None


class End:
    """One unit's end of an in-memory wire: a frame leaves only while the unit has power, and
    arrives only while the other unit has (a radio off hears nothing). It also watches what
    leaves, across reboots: every sequence number with the bytes it first carried (a restored
    channel that sent other bytes under one the partner has seen would have them dropped as a
    replay), and the syncs."""

    def __init__(self, unit):
        self.unit = unit
        self.other = None
        self.inbox = []
        self.carried = {}   # seq -> (frame type, payload), of every data frame sent
        self.reused = []    # seqs sent again with other bytes
        self.syncs = 0      # sync messages sent (retransmissions not counted)

    def send(self, peer, data):
        self.unit.flash.effect("frame", None, data)
        self._watch(data)
        if not self.other.unit.down:
            self.other.inbox.append((None, bytes(data)))
        return True

    def _watch(self, data):
        ftype, _k, _sid, seq, _ack, payload = frame.parse(data)
        if ftype not in (frame.DATA, frame.MORE):
            return
        seen = self.carried.get(seq)
        if seen is None:
            self.carried[seq] = (ftype, payload)
            whole = self.carried.get(seq - 1, (frame.DATA,))[0] == frame.DATA
            if ftype == frame.DATA and whole and _kind(payload) == "sync":
                self.syncs += 1
        elif seen != (ftype, payload):
            self.reused.append(seq)

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def close(self):
        pass


class Unit:
    def __init__(self, player, seed, cut, engine):
        self.player = player
        self.seed = seed
        self.engine = engine
        self.root = fresh("gap%d" % player)
        self.flash = Flash(self.root, cut)
        self.end = End(self)
        self.down = None          # when the power went, while it is off
        self.boots = 0
        self.bot = RandomBot(seed, player)
        self.runner = None

    def start(self):
        ch = Channel(lambda f: self.end.send(None, f), KEY, SID, 0, self.player)
        ch.needs_save = True  # as after the game agreement ran on it (connect.py): saved at once
        peer = LinkPeer(self.end, None, ch, self.flash, "espnow")
        eng = self.engine
        self.runner = Runner(Seat(eng, eng.options(), 2, self.seed, self.player,
                                  b"salt%d" % self.player), [peer], self.flash, eng.NAME,
                             {"vs": "link"})
        self.runner.draw_first = True  # the app's order (play.show): every cut point below
        self.runner.save()             # falls between a redraw and the receipts too

    def step(self, now):
        if self.down is not None:
            if now - self.down >= DOWN_MS:
                self.boot(now)
            return
        try:
            bot_step(self.runner, self.bot, now)
            self.runner.late(now)  # as App.step: receipts after the redraw
        except PowerCut:
            self.down = now
            self.runner = None

    def tick(self, now):
        """A loop step with no move made: tick, (the redraw,) late()."""
        self.runner.tick(now)
        self.runner.late(now)

    def boot(self, now):
        """As a unit powering up with a saved game: everything from its flash, nothing from
        RAM (the radio's buffer included), then play.py's resume."""
        self.down = None
        self.boots += 1
        self.end.inbox = []
        self.flash = Flash(self.root)
        r = load(self.flash, lambda gid: self.engine)
        assert r.saved_peers == [{"kind": "link"}], r.saved_peers
        r.peers = [restore_peer(self.flash, None, now, self.end)]
        r.resync()
        r.draw_first = True
        self.runner = r


def pair(seed, cuts=(None, None), engine=TOY):
    units = [Unit(p, seed, cuts[p], engine) for p in range(2)]
    units[0].end.other, units[1].end.other = units[1].end, units[0].end
    for u in units:
        u.start()
    return units


def run(units, rounds=ROUNDS):
    now = 0
    for _ in range(rounds):
        now += STEP
        for u in units:
            u.step(now)
        if all(u.runner is not None and u.runner.finished() for u in units):
            return now
    raise AssertionError("stalled: logs %r, boots %r" % (
        [u.runner and u.runner.seat.n_log for u in units], [u.boots for u in units]))


def log_of(seat):
    return [(rec[1], rec[2], rec[3], rec[4]) for rec in seat.records()]


def check_verified_end(units, now):
    a, b = units[0].runner, units[1].runner
    for u in units:
        r = u.runner
        assert r.desync is None and r.problem is None, (u.player, r.desync, r.problem)
        assert r.seat.result() is not None
        assert r.verdicts == {1 - u.player: None}, (u.player, r.verdicts)
    assert a.seat.short_hash() == b.seat.short_hash()
    for u in units:
        assert u.end.reused == [], (u.player, u.end.reused)
        # a sync at each boot and at most one answer to each of the partner's (measured: 2 at
        # most in the sweep): never an exchange that feeds itself
        assert u.end.syncs <= 2 * (u.boots + units[1 - u.player].boots), \
            (u.player, u.end.syncs, [v.boots for v in units])
    assert a.seat.n_log == b.seat.n_log
    assert log_of(a.seat) == log_of(b.seat)
    # and the link falls quiet once what is owed is through: no sync answered by a sync
    # answered by a sync ... (a resend after a reboot may still be on its way at the end)
    for _ in range(300):
        if not any(not u.runner.streams.idle() or u.runner.peers[0].ch.pending() for u in units):
            break
        now = tick_both(units, now)
    delivered = [u.runner.peers[0].ch.stats["delivered"] for u in units]
    for _ in range(300):  # 3 s: heartbeats only
        now = tick_both(units, now)
    assert [u.runner.peers[0].ch.stats["delivered"] for u in units] == delivered
    assert [u.runner.peers[0].ch.pending() for u in units] == [0, 0]


def tick_both(units, now):
    now += STEP
    for u in units:
        u.tick(now)
    return now


# ---- where to cut ---------------------------------------------------------------------------
def record(body):
    return codec.decode(body)


def own_act(player, k):
    """The journal append of `player`'s k-th action (0: its first)."""
    seen = [0]

    def test(kind, name, body):
        if kind != "append" or name != "game":
            return False
        rec = record(body)
        if rec[0] == "e" and rec[1] == player and len(rec) > 5:
            seen[0] += 1
            return seen[0] == k + 1
        return False
    return test


def journalled(tag):
    return lambda kind, name, body: kind == "append" and name == "game" and \
        record(body)[0] == tag


def link_save(kind, name, body):
    return kind == "write" and name == "link"


def sent(kind, name, body):
    return kind == "frame"


def in_order(*steps):
    """A cut at the last of `steps`, each met after the one before it."""
    left = list(steps)

    def cut(kind, name, body):
        if left[0](kind, name, body):
            left.pop(0)
            return not left
        return False
    return cut


def nth(k):
    """A cut before the unit's k-th effect (write, append or frame; 0: the first)."""
    seen = [0]

    def cut(kind, name, body):
        seen[0] += 1
        return seen[0] == k + 1
    return cut


def played(units, who):
    assert units[who].boots == 1, "the cut never happened"
    assert units[1 - who].boots == 0


SEED = b"gap1"


# ---- the stall ------------------------------------------------------------------------------
@pytest.mark.parametrize("who", [0, 1])
def test_an_event_journalled_but_not_on_the_saved_link_reaches_the_partner(who):
    # the worst case: the move is in the journal, the link's save that would queue it never
    # happened, so the restored channel has never heard of it
    units = pair(SEED, [in_order(own_act(p, 1), link_save) if p == who else None
                        for p in range(2)])
    now = run(units)
    played(units, who)
    check_verified_end(units, now)


@pytest.mark.parametrize("who", [0, 1])
def test_an_event_on_the_saved_link_but_not_yet_sent_goes_out_after_the_reboot(who):
    units = pair(SEED, [in_order(own_act(p, 1), link_save, sent) if p == who else None
                        for p in range(2)])
    now = run(units)
    played(units, who)
    check_verified_end(units, now)


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid,who", [("ashtapada", 0), ("sugardog", 1), ("pinned_down", 0),
                                     ("ping", 1)])
def test_the_same_gap_in_each_real_game(gid, who):
    units = pair(b"gapr", [in_order(own_act(p, 2), link_save) if p == who else None
                           for p in range(2)], games.engine(gid))
    now = run(units, 20000)
    played(units, who)
    check_verified_end(units, now)


def test_both_units_rebooting_with_a_gap_each_still_finish():
    units = pair(SEED, [in_order(own_act(0, 1), link_save), in_order(own_act(1, 1), link_save)])
    now = run(units)
    assert [u.boots for u in units] == [1, 1]
    check_verified_end(units, now)


# ---- at the end of the game -----------------------------------------------------------------
def final_event_cut(units, p):
    """The link's save right after `p` journalled the game's last event (when p authors it)."""
    def cut(kind, name, body):
        r = units[p].runner
        return link_save(kind, name, body) and r is not None and not r.revealed and \
            r.seat.result() is not None
    return cut


def test_the_last_event_journalled_but_not_on_the_saved_link_reaches_the_partner():
    units = pair(SEED)
    for p in range(2):  # whoever authors the last event (an answer) loses power there
        units[p].flash.cut = final_event_cut(units, p)
    now = run(units)
    assert sorted(u.boots for u in units) == [0, 1]
    check_verified_end(units, now)


@pytest.mark.parametrize("who", [0, 1])
@pytest.mark.parametrize("where", ["head", "chunk", "received"])
def test_a_reboot_during_the_reveal(who, where):
    if where == "head":     # the reveal head's save: it never went out
        cut = in_order(journalled("rv"), link_save)
    elif where == "chunk":  # the head's frame went out, the chunk's did not
        cut = in_order(journalled("rv"), link_save, sent, sent)
    else:                   # the partner's head journalled, its acknowledgement not saved
        cut = in_order(journalled("r"), link_save)
    units = pair(SEED, [cut if p == who else None for p in range(2)])
    now = run(units)
    played(units, who)
    check_verified_end(units, now)


# ---- every point of one unit's game ---------------------------------------------------------
@pytest.mark.slow   # a whole game cut at every point: make test, not the fast loop
def test_a_cut_before_any_write_or_frame_of_a_game_still_ends_verified():
    # A pair that never answered a sync ahead of it stalls for good at 11 of these 117 cut
    # points under CPython, the set-up commit's among them.
    dry = pair(b"gap2")
    first = [u.flash.effects for u in dry]  # the new game's journal, link and peers saved
    now = run(dry)
    total = [u.flash.effects for u in dry]
    check_verified_end(dry, now)
    for who in range(2):
        for k in range(first[who], total[who]):
            units = pair(b"gap2", [nth(k) if p == who else None for p in range(2)])
            try:
                now = run(units)
                check_verified_end(units, now)
            except AssertionError as e:
                raise AssertionError("unit %d cut before effect %d of %d: %s"
                                     % (who, k, total[who], e))
            assert units[who].boots == 1
