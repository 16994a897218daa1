# Groups as a star: the host's runner relays events, reveals and syncs between partners that
# are not linked to each other; every seat ends with the same log, hash and verified audits.
import hashlib

import pytest

from fathom.games.base import IllegalAction
from fathom.games.bots import RandomBot
from fathom.games.sugardog.bot import SharpBot
from fathom.games.seat import Seat
from fathom.games.sugardog.engine import ENGINE
from fathom.peers import pipe_pair
from fathom.runner import Runner, events, load
from kit.memstore import MemStorage
from kit.play import bot_step, drive

pytestmark = pytest.mark.micropython

OPTS = {"calm": 10}


def group_keys(n, label=b"k"):
    """What group formation gives every unit (connect.py): a key with every other unit."""
    k = lambda i, j: hashlib.sha256(label + bytes((min(i, j), max(i, j)))).digest()
    return [[None if i == j else k(i, j) for j in range(n)] for i in range(n)]


def star(n, seed, storage=None, keyed=False, relay=True, stores=()):
    """Runner 0 is the host, linked to each partner by its own pipe; partners see only it.
    keyed: with the group's end-to-end keys, as every group on units plays. storage: the
    host's, stores: each partner's (by index, None: no journal file)."""
    keys = group_keys(n) if keyed else [None] * n
    seats = [Seat(ENGINE, OPTS, n, seed, p, b"salt%d" % p) for p in range(n)]
    host = Runner(seats[0], [], storage, "sugardog", relay=relay, keys=keys[0])
    runners = [host]
    for p in range(1, n):
        near, far = pipe_pair()
        host.peers.append(near)
        st = stores[p] if p < len(stores) else None
        runners.append(Runner(seats[p], [far], st, "sugardog", keys=keys[p]))
    return runners


def check_agreement(runners):
    h = runners[0].seat.short_hash()
    for r in runners:
        assert r.desync is None and r.problem is None
        assert r.seat.short_hash() == h
        assert r.seat.log == runners[0].seat.log
        assert r.result() == runners[0].result()
        assert sorted(r.verdicts) == [p for p in range(len(runners)) if p != r.seat.player]
        assert all(v is None for v in r.verdicts.values())


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("n", [3, 4])
def test_star_of_runners_plays_sugar_dog_to_a_verified_end(n):
    for k in range(2):
        seed = b"relay%d-%d" % (n, k)
        runners = star(n, seed)
        bots = [SharpBot(seed, p) for p in range(n)]
        # partners tick before the host: they act on relayed events, never on direct ones
        drive(runners, bots, order=list(range(n - 1, -1, -1)))
        check_agreement(runners)
        assert len(runners[0].seat.log) > n


def test_partners_commit_in_player_order_even_when_all_are_ready_at_once():
    runners = star(3, b"race")
    bots = [RandomBot(b"race", p) for p in range(3)]
    for r, b in zip(runners, bots):
        r.setup_choose(b.setup(r.seat))
    for r in runners:
        r._auto()  # all three would commit now if the order did not hold them back
    assert [len(r.seat.log) for r in runners] == [1, 0, 0]
    drive(runners, bots)
    check_agreement(runners)
    assert [a for a, e in runners[0].seat.log[:3]] == [0, 1, 2]


def test_without_relay_partners_stall():
    runners = star(3, b"norelay", relay=False)
    bots = [RandomBot(b"norelay", p) for p in range(3)]
    with pytest.raises(AssertionError, match="never got there"):
        drive(runners, bots, limit=60)


@pytest.mark.parametrize("keyed", [False, True])
def test_partner_that_lost_messages_catches_up_through_the_host(keyed):
    runners = star(3, b"sync", keyed=keyed)
    bots = [RandomBot(b"sync", p) for p in range(3)]
    lost = 0
    for step in range(20000):
        for i, (r, b) in enumerate(zip(runners, bots)):
            if i == 2 and 6 <= step < 14:
                lost += len(r.peers[0].inbox)
                del r.peers[0].inbox[:]  # partner 2 hears nothing for a while
            if i == 2 and step == 14:
                r.resync()  # as after a reboot: "I have this many events"
            while r.seat.setup_legal():
                r.setup_choose(b.setup(r.seat))
            r.tick(step)
            s = r.seat
            if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
                r.play(b.act(s))
        if all(r.finished() for r in runners):
            break
    assert lost > 0
    # what it missed was partly authored by partner 1: only the host's relay could resend it
    check_agreement(runners)


@pytest.mark.parametrize("keyed", [False, True])
def test_host_resumes_from_its_journal_with_the_relay_on(keyed):
    store = MemStorage()
    runners = star(3, b"resume", store, keyed)
    bots = [RandomBot(b"resume", p) for p in range(3)]
    for step in range(30):
        for r, b in zip(runners, bots):
            while r.seat.setup_legal():
                r.setup_choose(b.setup(r.seat))
            r.tick(step)
            s = r.seat
            if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
                r.play(b.act(s))
    back = load(store, lambda gid: ENGINE)
    assert back.relay is True and back.keys == runners[0].keys
    assert back.seat.short_hash() == runners[0].seat.short_hash()
    for p in runners[0].peers:
        p.inbox.clear()  # what was in flight to the dead host is lost
    back.peers = runners[0].peers
    runners[0] = back
    back.resync()
    drive(runners, bots)
    check_agreement(runners)


def cut_and_load(store, keep):
    """The unit's journal loses its tail (half of it, or its last byte) and the unit boots
    from what is left: it says so in one line."""
    with open(store.root + "/game", "rb") as f:
        data = f.read()
    with open(store.root + "/game", "wb") as f:
        f.write(data[:len(data) // 2 if keep == "half" else len(data) - 1])
    back = load(store, lambda gid: ENGINE)
    assert back.problem == "save cut to %s: partner resends" % events(back.seat.n_log)
    return back


@pytest.mark.parametrize("keyed", [False, True])
@pytest.mark.parametrize("keep", ["half", "all but a byte"])
def test_a_partner_whose_save_is_cut_in_the_middle_heals_from_the_host(keyed, keep):
    store = MemStorage()
    # a seed whose random game is still on when partner 2 has made its sixth action (the first
    # one's game, once a cruise could stop after one square, ended in the calm draw by then)
    runners = star(3, b"cutgroup2", keyed=keyed, stores=[None, None, store])
    bots = [RandomBot(b"cutgroup2", p) for p in range(3)]
    me = runners[2]
    # play on until partner 2 has authored several actions, the last event its own and the
    # host's too (a partner's own events are never relayed back to it in play)
    drive(runners, bots, until=lambda: me.seat.n_actions >= 6 and me.seat.log[-1][0] == 2 and
          runners[0].seat.n_log == me.seat.n_log)
    lost = me.seat.n_log
    back = cut_and_load(store, keep)
    assert back.behind and back.seat.n_log < lost
    # the cut took events this partner had authored and sent: the half far older than the
    # host keeps in RAM, the last record its newest
    assert 2 in [a for a, _e in runners[0].seat.log[back.seat.n_log:lost]]
    for p in me.peers:
        p.inbox.clear()  # what was in flight to it is lost with its RAM
    back.peers = me.peers
    runners[2] = back
    back.resync()
    drive(runners, bots)
    check_agreement(runners)
    assert back.seat.n_log > lost and not back.behind


@pytest.mark.parametrize("keep", ["half", "all but a byte"])
def test_a_host_whose_save_is_cut_in_the_middle_heals_from_its_partners(keep):
    store = MemStorage()
    # a seed whose journal's half is not a record boundary (the first one's was, once a cruise
    # could stop after one square, so nothing read as cut)
    runners = star(4, b"cuthost3", store, keyed=True)
    bots = [RandomBot(b"cuthost3", p) for p in range(4)]
    host = runners[0]
    # play on until each player has authored several actions and the host's own event is not
    # the newest: the cut takes events of the host and of every partner, which only the
    # partners still hold (each with the tags its author sent)
    drive(runners, bots, until=lambda: host.seat.n_actions >= 3 and host.seat.log[-1][0] != 0)
    lost = host.seat.n_log
    authors = [a for a, _e in host.seat.log]
    back = cut_and_load(store, keep)
    assert back.behind and back.seat.n_log < lost
    gone = authors[back.seat.n_log:]
    if keep == "half":  # events of the host itself and of partners, relayed to the others
        assert 0 in gone and len(set(gone)) > 2
    for p in host.peers:
        p.inbox.clear()  # what was in flight to the host is lost with its RAM
    back.peers = host.peers
    runners[0] = back
    back.resync()
    with pytest.raises(IllegalAction):
        back.play(["sonar"])  # nothing authored before the lost events are back
    drive(runners, bots)
    check_agreement(runners)
    assert back.seat.n_log > lost and not back.behind


# ---- a whole group over keyed channels: pairing in turn, the group seed, relayed play -------
class _Air:
    def __init__(self):
        self.nodes = {}


class _Radio:
    """An in-memory ESP-NOW: unicast to one MAC or broadcast, nothing lost."""

    def __init__(self, air, i):
        self.air = air
        self.mac = bytes([2, 0, 0, 0, 0, i + 1])
        self.inbox = []
        air.nodes[self.mac] = self

    def send(self, peer, data):
        for m, n in self.air.nodes.items():
            if m != self.mac and (peer is None or peer == m):
                n.inbox.append((self.mac, bytes(data)))
        return True

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def close(self):
        pass


def connect_group(n):
    from fathom.link.connect import Connector
    air = _Air()
    radios = [_Radio(air, i) for i in range(n)]
    conns = [Connector(radios[0], "espnow", "HOST", MemStorage(), "sugardog", {"calm": 10}, 0,
                       players=n)]
    conns += [Connector(radios[i], "espnow", "P%d" % i, MemStorage(), "sugardog", {"calm": 20},
                        0, join=True) for i in range(1, n)]
    now = 0
    for _ in range(5000):
        now += 10
        for i, c in enumerate(conns):
            c.tick(now)
            if c.state == "discover":
                # the host takes the partners in reverse order: seats follow the host's choice
                want = radios[n - 1 - len(c.partners)].mac if i == 0 else radios[0].mac
                if [m for m, _n, _v in c.nearby(now) if m == want]:
                    c.choose(want, now)
            elif c.state == "confirm" and not c.hs._confirmed:
                c.confirm(True)
        if all(c.state == "ready" for c in conns):
            return conns, now
    raise AssertionError("group not ready: %r" % [(c.state, c.error) for c in conns])


def test_group_of_three_pairs_agrees_on_one_seed_and_plays_over_channels():
    conns, now = connect_group(3)
    assert len(set(c.seed for c in conns)) == 1
    assert [c.player for c in conns] == [0, 2, 1]
    assert [c.group() for c in conns] == [3, 3, 3]
    assert conns[1].setup.opts["calm"] == 10  # the host's options stand
    stores = [MemStorage() for _ in conns]
    runners = []
    for c, st in zip(conns, stores):
        seat = Seat(ENGINE, {"calm": 10}, 3, c.seed, c.player, b"salt%d" % c.player)
        peers = c.peers(st)
        runners.append(Runner(seat, peers, st, "sugardog", relay=len(peers) > 1))
    assert len(runners[0].peers) == 2 and stores[0].exists("link1")
    # every unit took the group's end-to-end keys from its peers, and shows one code
    assert all(r.keys is not None for r in runners)
    assert len(set(c.group_code() for c in conns)) == 1 and len(conns[0].group_code()) == 6
    assert [r.code for r in runners] == [c.group_code() for c in conns]
    bots = [SharpBot(c.seed, c.player) for c in conns]
    for _ in range(40000):
        now += 10
        for r, b in zip(runners, bots):
            bot_step(r, b, now)
        if all(r.finished() for r in runners):
            break
    check_agreement(runners)


def test_partner_refuses_a_group_start_that_changes_its_seed():
    from fathom.codec import decode, encode
    from fathom.link import group
    real = group.GroupHost._send_gs

    def lying(self):
        real(self)
        for p in self.partners:  # replace what was queued with a forged list
            ch = p.ch
            seq, ftype, payload = ch._out[-1]
            m = decode(bytes(payload))
            m[2] = bytes(b ^ 1 for b in m[2])  # every sealed seed changed
            ch._out[-1] = (seq, ftype, encode(m))
    group.GroupHost._send_gs = lying
    try:
        with pytest.raises(AssertionError, match="changed this unit's seed"):
            connect_group(3)
    finally:
        group.GroupHost._send_gs = real


@pytest.mark.parametrize("keyed", [False, True])
def test_a_partner_whose_save_was_set_aside_voids_the_game_on_every_unit(keyed):
    # flow/resume.py: a unit that could not read its save says only ["void"] over its link
    # (it may not even know its seat); the host names it by the link it came on and relays
    # the seat to the other partners, and every unit ends the game with the same sentence
    runners = star(3, b"voidgroup", keyed=keyed)
    bots = [RandomBot(b"voidgroup", p) for p in range(3)]
    drive(runners, bots, until=lambda: runners[0].seat.n_log >= 4)
    runners[2].peers[0].send(["void"])  # what partner 2's unit sends after its reboot
    runners = runners[:2]
    drive(runners, bots, until=lambda: all(r.result() is not None for r in runners),
          limit=200)
    for r in runners:
        assert r.result() == ([], "P3's save was damaged: this game cannot be checked and is "
                                  "void") and r.finished()


@pytest.mark.parametrize("who", [0, 2])
def test_a_group_unit_whose_cut_took_its_set_up_choices_voids_the_game_everywhere(who):
    # A host (who 0) or a partner (who 2) of a keyed group of three: its save ends inside its
    # first set-up choice once every set-up is in. Its partners resend its set-up event, which
    # it cannot author again: every unit ends the game with the same sentence.
    from test_cut_save import records_of
    store = MemStorage()
    runners = star(3, b"cutsetup", store if who == 0 else None, keyed=True,
                   stores=[None, None, store] if who == 2 else ())
    bots = [RandomBot(b"cutsetup", p) for p in range(3)]
    drive(runners, bots, until=lambda: all(r.seat.n_log >= 4 for r in runners))
    path = store.root + "/game"
    at = [p for p, r in records_of(path) if r[0] == "c"][0]
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:at + 1])
    back = load(store, lambda gid: ENGINE)
    me = runners[who]
    for p in me.peers:
        p.inbox.clear()
    back.peers = me.peers
    runners[who] = back
    back.resync()
    drive(runners, bots, until=lambda: all(r.result() is not None for r in runners), limit=500)
    for r in runners:
        assert r.result() == ([], "P%d's save was damaged: this game cannot be checked and is "
                                  "void" % (who + 1)), (r.seat.player, r.problem)
