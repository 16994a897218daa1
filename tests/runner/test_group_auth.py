# A group host that cannot rewrite unnoticed (docs/PROTOCOL.md "Group keys and
# end-to-end tags"). A group is a star through its host: every message between partners passes
# through it. Each test is an attack by a modified host (or a stranger) on runners and connectors
# in one process, with the same attack run without the group keys as the control where that
# shows the keys are what catch it.

import pytest

from fathom.codec import decode, encode
from fathom.games.bots import RandomBot
from fathom.games.seat import Seat, chain_next
from fathom.games.sugardog.bot import SharpBot
from fathom.games.sugardog.engine import ENGINE
from fathom.journal import MemJournal
from fathom.link import crypto, groupkeys, grouptags
from fathom.link.frame import MAX_PAYLOAD
from fathom.runner import REVEAL_MS, WITHHELD, Runner, load
from kit.memstore import MemStorage
from kit.play import bot_step, drive
from test_runner_relay import OPTS, check_agreement, connect_group, group_keys, star

pytestmark = pytest.mark.micropython


class Tamper:
    """The host's pipe to one partner in a modified host's hands: `edit(msg)` gives the messages
    to send instead (a list: none, the same, or others)."""

    def __init__(self, pipe, edit):
        self.pipe = pipe
        self.edit = edit
        self.inbox = pipe.inbox

    def send(self, msg):
        for m in self.edit(msg):
            self.pipe.send(m)

    def recv(self):
        return self.pipe.recv()

    def tick(self, now):
        pass

    def save(self):
        return None


def tamper(runners, partner, edit):
    host = runners[0]
    i = partner - 1
    host.peers[i] = Tamper(host.peers[i], edit)


def bots_for(runners, seed):
    return [RandomBot(seed, r.seat.player) for r in runners]


def play_until(runners, bots, until, limit=20000, hold=()):
    """Bot steps until `until()`; the runners in `hold` set up and tick but never act."""
    for step in range(limit):
        for r, b in zip(runners, bots):
            if r in hold:
                while r.seat.setup_legal():
                    r.setup_choose(b.setup(r.seat))
                r.tick(step)
            else:
                bot_step(r, b, step)
        if until():
            return step
    raise AssertionError("never got there")


# ---- honest groups ---------------------------------------------------------------------------
@pytest.mark.slow   # whole keyed group games: make test, not the fast loop
@pytest.mark.parametrize("n", [3, 8])
def test_a_keyed_group_plays_to_a_verified_end_and_every_frame_fits(n):
    runners = star(n, b"auth%d" % n, keyed=True)
    sizes = {}

    def measure(msg):
        k = msg[0]
        sizes[k] = max(sizes.get(k, 0), len(encode(msg)))
        return [msg]
    for p in range(1, n):
        tamper(runners, p, measure)  # an honest host: only looks
    drive(runners, [SharpBot(b"auth%d" % n, p) for p in range(n)], limit=40000)
    check_agreement(runners)
    # every event and reveal head carries n-1 tags and still fits one ESP-NOW frame
    assert sizes["ev"] <= MAX_PAYLOAD and sizes["rev"] <= MAX_PAYLOAD, sizes
    print("largest message payloads, %d units: %r" % (n, sizes))


@pytest.mark.slow   # whole games: make test, not the fast loop
def test_the_tags_do_not_change_a_game_of_two():
    from fathom.peers import pipe_pair
    a, b = pipe_pair()
    seats = [Seat(ENGINE, OPTS, 2, b"pair", p, b"salt%d" % p) for p in range(2)]
    ra, rb = Runner(seats[0], [a]), Runner(seats[1], [b])
    seen = []
    real = a.send
    a.send = lambda m: (seen.append(m), real(m))
    drive([ra, rb], [RandomBot(b"pair", 0), RandomBot(b"pair", 1)])
    assert ra.keys is None and rb.keys is None
    assert set(len(m) for m in seen if m[0] == "ev") == {6}
    assert set(len(m) for m in seen if m[0] == "rev") == {5}


@pytest.mark.slow   # whole keyed group games: make test, not the fast loop
def test_a_pinned_down_group_of_four_keyed_fits_its_frames():
    from fathom.games.pinned_down.bot import SharpBot as PinnedBot
    from fathom.games.pinned_down.engine import ENGINE as PINNED
    from fathom.peers import pipe_pair
    keys = group_keys(4)
    seats = [Seat(PINNED, PINNED.options(), 4, b"pin", p, b"salt%d" % p) for p in range(4)]
    host = Runner(seats[0], [], None, "pinned_down", relay=True, keys=keys[0])
    runners = [host]
    for p in range(1, 4):
        near, far = pipe_pair()
        host.peers.append(near)
        runners.append(Runner(seats[p], [far], keys=keys[p]))
    sizes = {}

    def measure(msg):
        sizes[msg[0]] = max(sizes.get(msg[0], 0), len(encode(msg)))
        return [msg]
    for p in range(1, 4):
        tamper(runners, p, measure)
    drive(runners, [PinnedBot(b"pin", p) for p in range(4)], limit=40000)
    check_agreement(runners)
    assert sizes["ev"] <= MAX_PAYLOAD, sizes
    print("largest message payloads, Pinned Down 4 units: %r" % (sizes,))


# ---- a host rewriting one relayed event --------------------------------------------------------
def rewrite_one(runners, partner, author):
    """Make the host rewrite the first cruise `author` makes, as relayed to `partner`: another
    square, with the short hash the partner will compute after it, so that the state hash
    cannot tell; only an end-to-end tag can. Returns the list the altered index lands in."""
    host = runners[0]
    snap = []
    real = host.seat.receive

    def spy(a, event, ck=None):  # the state before each event, which a real host would keep
        snap[:] = [host.seat.chain, decode(encode(host.seat.pub)), host.seat.settle()]
        real(a, event, ck)
    host.seat.receive = spy
    done = []

    def edit(msg):
        if done or msg[0] != "ev" or msg[2] != author or msg[3][0] != "c":
            return [msg]
        ev = ["c", (msg[3][1] + 1) % snap[1]["size"] ** 2]
        ENGINE.apply(snap[1], author, ev)  # a legal move: only the tags can tell
        out = list(msg)
        out[3], out[4] = ev, chain_next(snap[0], snap[2], ev)[:8]
        done.append(msg[1])
        return [out]
    tamper(runners, partner, edit)
    return done


def test_a_host_rewriting_one_relayed_event_is_named_and_the_game_stops():
    store = MemStorage()
    keys = group_keys(3)
    # a seed whose random game has P2 cruise before it ends (the first one's, once a cruise could
    # stop after one square, ended first)
    runners = star(3, b"rewrite2", keyed=True)
    victim = Runner(runners[2].seat, runners[2].peers, store, "sugardog", keys=keys[2])
    runners[2] = victim
    done = rewrite_one(runners, 2, 1)
    bots = bots_for(runners, b"rewrite2")
    play_until(runners, bots, lambda: victim.desync is not None)
    idx = done[0]
    assert victim.desync == (idx, "the host (P1) altered P2's event %d or the game before it"
                             % idx)
    assert victim.seat.n_log == idx  # the altered event never entered its log
    for _ in range(50):  # stopped, not looping: the resends change nothing
        for r, b in zip(runners, bots):
            bot_step(r, b, 0)
    assert victim.seat.n_log == idx and victim.desync[0] == idx
    # the journal is kept, and a reboot shows the same finding instead of playing on
    back = load(store, lambda gid: ENGINE)
    assert back.desync == victim.desync and back.seat.n_log == idx and back.keys == keys[2]


def test_without_the_keys_the_same_rewrite_is_taken_silently():
    runners = star(3, b"rewrite2")   # the seed of the test above
    done = rewrite_one(runners, 2, 1)
    bots = bots_for(runners, b"rewrite2")
    play_until(runners, bots, lambda: done and runners[2].seat.n_log > done[0])
    idx = done[0]
    assert runners[2].desync is None
    assert runners[2].seat.log[idx] != runners[1].seat.log[idx]  # it holds the host's version


# ---- equivocation: two partners shown different logs -----------------------------------------
def equivocate(keyed):
    """At its turn the host concedes (which ends a Sugar Dog game), but P3 is shown a host
    cruise before the concession: one result on every unit, two logs. The host's tags are real
    (it holds its keys) and no partner authors anything after, so only the end-of-game check
    can see it."""
    runners = star(3, b"equivocate", keyed=keyed)
    host = runners[0]
    bots = bots_for(runners, b"equivocate")
    play_until(runners, bots, lambda: all(r.seat.n_log == 3 for r in runners), hold=runners)
    play_until(runners, bots, lambda: len(set(r.seat.n_log for r in runners)) == 1 and
               host.seat.my_turn() and host.seat.to_move()[1] == "act" and
               not any(p.inbox for p in host.peers) and
               not any(r.peers[0].inbox for r in runners[1:]), hold=[host])
    # the second game the host shows P3: its own seat, copied from its journal, plays on
    copy = MemJournal()
    for _pos, _end, rec in host.seat.journal.read():
        copy.append(rec)
    shadow = Seat(ENGINE, OPTS, 3, b"equivocate", 0, b"salt0", copy)
    shadow.replay()
    k = host.seat.n_log
    extra = []
    for action in ([a for a in shadow.legal() if a[0] == "cruise"][0], None):
        prev = shadow.short_hash()
        ev = shadow.author(action) if action else shadow.concede()
        m = ["ev", shadow.n_log - 1, 0, ev, shadow.short_hash(), shadow.ck]
        if keyed:
            m.append(grouptags.event_tags(host.keys, 0, shadow.n_log - 1, prev, ev, shadow.ck))
        extra.append(m)
    tamper(runners, 2, lambda m: extra if m[0] == "ev" and m[1] == k else [m])
    host.concede()
    drive(runners, bots, limit=20000)
    assert runners[1].seat.n_log == k + 1 and runners[2].seat.n_log == k + 2
    assert runners[1].result() == runners[2].result()
    return runners


def test_a_host_equivocating_between_two_partners_is_named_by_the_audit():
    host, p2, p3 = equivocate(True)
    assert p2.verdicts[2][1] == "the host (P1) showed P3 a different game"
    assert p3.verdicts[1][1] == "the host (P1) showed P2 a different game"
    assert p3.verdicts[0][1] == "the host (P1) showed this unit a different game"
    assert p2.verdicts[0] is None  # the host's game with P2 is the one it played
    assert host.verdicts[2][1] == "P3 claims a different game than this unit's"
    assert all(r.desync is None for r in (host, p2, p3))  # no tag failed on the way


def test_without_the_keys_the_partner_shown_the_true_game_sees_nothing():
    host, p2, p3 = equivocate(False)
    assert p2.verdicts == {0: None, 2: None}  # "verified", though P3 saw another game


# ---- a host substituting a Diffie-Hellman value ------------------------------------------------
def test_an_honest_group_shares_a_key_per_pair_and_shows_one_code():
    conns, _now = connect_group(4)
    by = dict((c.player, c) for c in conns)
    assert len(set(c.group_code() for c in conns)) == 1
    for i in range(4):
        for j in range(4):
            if i != j:
                assert by[i].gkeys[j] == by[j].gkeys[i]
    assert len(set(by[1].gkeys[j] for j in (0, 2, 3))) == 3


def test_a_host_substituting_a_value_shows_different_codes():
    from fathom.link import group
    x = b"\x07" * 32  # the host's own exponent, for a man in the middle
    fake = crypto.dh_public(x)
    real_gs, real_gv = group.GroupHost._send_gs, group.GroupHost._values_for

    def gs(self):
        seeds = [p.seed for p in self.partners]
        for i, p in enumerate(self.partners):
            commits = [q.commit for q in self.partners]
            if i == 0:
                commits[1] = groupkeys.commit(fake)  # seat 1 is shown the host's value for seat 2
            p.ch.send(encode(["gs", self.players, group.seal_seeds(p.ch.key, seeds), commits]))

    def gv(self, i):
        out = real_gv(self, i)
        if i == 0:  # seat 1 is shown the host's value as seat 2's
            out = [(seat, fake if seat == 2 else pk) for seat, pk in out]
        return out
    group.GroupHost._send_gs, group.GroupHost._values_for = gs, gv
    try:
        conns, _now = connect_group(3)
    finally:
        group.GroupHost._send_gs, group.GroupHost._values_for = real_gs, real_gv
    by = dict((c.player, c) for c in conns)
    # the substitution itself passes every check a unit can make alone ...
    assert all(c.state == "ready" for c in conns)
    # ... and the host holds seat 1's key "with seat 2": it could rewrite between them
    v1 = groupkeys.view(3, by[1].seed, [_value(by, 1), fake])
    shared = crypto.dh_shared(x, _value(by, 1))
    assert groupkeys.pair_key(shared, v1, 1, 2) == by[1].gkeys[2]
    # but the screens show it: seat 1's code is not seat 2's
    assert by[1].group_code() != by[2].group_code()
    assert by[2].group_code() == by[0].group_code()


def _value(by, seat):
    """Seat `seat`'s real Diffie-Hellman value, as the host collected it."""
    host = by[0]
    return host.partners[seat - 1].value


# ---- a stranger, a replay --------------------------------------------------------------------
@pytest.mark.parametrize("how", ["stranger", "replay"])
def test_an_event_tagged_without_the_key_or_replayed_elsewhere_is_refused(how):
    runners = star(3, b"forge", keyed=True)
    bots = bots_for(runners, b"forge")
    seen = []
    host = runners[0]
    tamper(runners, 2, lambda m: (seen.append(m), [m])[1])
    play_until(runners, bots, lambda: host.seat.n_log > 6 and
               len(set(r.seat.n_log for r in runners)) == 1 and not any(
                   p.inbox for p in host.peers) and not any(r.peers[0].inbox for r in runners))
    p3 = runners[2]
    k = p3.seat.n_log
    old = [m for m in seen if m[0] == "ev" and m[2] == 1][-1]
    msg = list(old)
    msg[1] = k
    if how == "stranger":  # a genuine-looking next event, tagged with keys not the group's
        stranger = group_keys(3, b"stranger")[1]
        msg[6] = grouptags.event_tags(stranger, 1, k, p3.seat.short_hash(), msg[3], msg[5])
    host.peers[1].pipe.send(msg)
    p3.tick(0)
    assert p3.desync == (k, "the host (P1) altered P2's event %d or the game before it" % k)
    assert p3.seat.n_log == k


# ---- a host altering a relayed reveal ------------------------------------------------------------
@pytest.mark.parametrize("keyed", [True, False])
def test_a_host_altering_a_relayed_reveal(keyed):
    runners = star(3, b"reveal", keyed=keyed)

    def edit(m):
        if m[0] == "ra" and m[1] == 1:  # P2's revealed actions, as relayed to P3
            acts = list(m[3])
            acts[0] = ["sonar"] if acts[0] != ["sonar"] else ["mine"]
            return [["ra", m[1], m[2], acts]]
        return [m]
    tamper(runners, 2, edit)
    drive(runners, bots_for(runners, b"reveal"), limit=20000)
    v = runners[2].verdicts[1]
    if keyed:
        assert v[1] == "the host (P1) altered P2's reveal"
    else:  # without the keys the honest P2 is blamed
        assert v is not None and "host" not in v[1]
    assert runners[1].verdicts == {0: None, 2: None}


def test_the_group_code_and_keys_survive_in_the_journal():
    store = MemStorage()
    keys = group_keys(3)
    seat = Seat(ENGINE, OPTS, 3, b"gk", 0, b"salt0")
    Runner(seat, [], store, "sugardog", relay=True, keys=keys[0], code="123456")
    back = load(store, lambda gid: ENGINE)
    assert back.keys == keys[0] and back.code == "123456"
    with pytest.raises(ValueError):
        Runner(Seat(ENGINE, OPTS, 3, b"gk", 0, b"salt0"), [], None, keys=keys[0][:2])


# ---- a host withholding a relayed reveal ---------------------------------------------------------
def withhold(runners, what):
    """The host keeps from P3 what `what(msg)` picks; returns the clock when all finished."""
    tamper(runners, 2, lambda m: [] if what(m) else [m])
    return drive(runners, bots_for(runners, b"withhold"), limit=40000, step=20)


REPLAY = "RIGHT: Replay"


def result_lines(r):
    from fathom.flow.gameend import ResultScreen
    return ResultScreen(None, r)._text()


def test_a_host_withholding_a_relayed_reveal_is_named_on_both_partners():
    runners = star(3, b"withhold", keyed=True)
    _host, p2, p3 = runners
    withhold(runners, lambda m: m[0] in ("rev", "ra") and m[1] == 1)
    # P3 cannot tell whether P2 or the host kept the reveal: both are named, never P2 alone
    assert p3.verdicts == {0: None, 1: WITHHELD}
    assert result_lines(p3)[2] == \
        "P2, or the host P1 that relays it, did not reveal: not verified"
    # P2 revealed and was never told P3 had it: its unit names the host
    assert p2.verdicts == {0: None, 2: None} and p2.receipts == {2: False}
    lines = result_lines(p2)
    assert lines[2] == "verified"
    assert lines[3] == \
        "P3 did not receive my reveal from the host P1 (or the host kept its receipt)"
    assert p3.receipts == {1: True}  # P2 had P3's reveal and said so through the host
    # the findings are journalled: a reboot shows them again
    store = MemStorage()
    seat = Seat(ENGINE, OPTS, 3, b"gk", 1, b"salt1")
    r = Runner(seat, [], store, "sugardog", keys=group_keys(3)[1])
    r._journal(["g", 2, False])
    assert load(store, lambda gid: ENGINE).receipts == {2: False}


def test_a_host_withholding_only_the_receipt_is_named_by_the_author():
    runners = star(3, b"withhold", keyed=True)
    _host, p2, p3 = runners
    # the host keeps P3's receipt for P2's reveal from P2 (P2's pipe is partner 1's)
    tamper(runners, 1, lambda m: [] if m[0] == "got" else [m])
    drive(runners, bots_for(runners, b"withhold"), limit=40000, step=20)
    assert p3.verdicts == {0: None, 1: None}
    assert p2.receipts == {2: False} and "the host P1" in result_lines(p2)[3]


def test_a_forged_receipt_is_refused_and_the_honest_group_confirms_every_reveal():
    runners = star(3, b"withhold", keyed=True)
    _host, p2, p3 = runners

    def forge(m):
        if m[0] == "got" and m[2] == 2:  # P2's receipt for P3, its tag flipped by the host
            return [m[:3] + [bytes(8)], m]
        return [m]
    tamper(runners, 2, forge)
    end = drive(runners, bots_for(runners, b"withhold"), limit=40000, step=20)
    assert p3.problem == "refused: a receipt that fails its tag"
    assert p2.receipts == {2: True} and p3.receipts == {1: True}
    assert p2.verdicts == {0: None, 2: None} and p3.verdicts == {0: None, 1: None}
    # nothing unconfirmed: the verdict, then the offer of the replay
    assert result_lines(p2)[2:] == result_lines(p3)[2:] == ["verified", REPLAY]
    assert end < REVEAL_MS  # nobody waited out the limit: a receipt ends the wait


def test_a_partner_replays_the_group_game_with_every_players_secrets():
    """The replay after the audit in a group of four: a partner, holding every other player's
    reveal (two of them relayed by the host), rebuilds each seat's secrets as that seat held them
    at the end, and the public state too."""
    from fathom.games.replay import Replay
    from fathom.games.seat import state_hash
    runners = star(4, b"replay group", keyed=True)
    drive(runners, bots_for(runners, b"replay group"), limit=40000, step=20)
    p3 = runners[2]
    assert all(v is None for v in p3.verdicts.values()) and len(p3.verdicts) == 3
    rp = Replay(p3, "mines")
    rp.goto(rp.end)
    assert rp.at == p3.seat.n_log
    assert state_hash(rp.pub) == state_hash(p3.seat.pub)
    for r in runners:
        assert encode(rp.privs[r.seat.player]) == encode(r.seat.priv)
    rp.close()
