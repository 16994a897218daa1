# A unit that lost its record of a game's link tells its partners with a notice tagged under
# the game's own secrets (link/lost.py): real runners with their journals over keyed channels
# on an in-memory cable. The partner ends the game void with the sentence only for the real
# notice; one tagged by a bystander (who has every frame of the game but not the seed), one from
# another game, or one with its tag altered changes nothing and is counted. A group's notice
# carries one tag per other unit, each under that unit's own key.
import hashlib

import pytest

from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.games.sugardog.engine import ENGINE
from fathom.link import lost
from fathom.link.channel import Channel
from fathom.link.peer import LinkPeer
from fathom.runner import LOST, VOID, Runner
from kit.memstore import MemStorage
from kit.play import bot_step

pytestmark = pytest.mark.micropython

KEY = bytes(range(32))
SID = 0x2222
SEED = hashlib.sha256(b"a joint seed").digest()
OPTS = {"calm": 10}


class End:
    """One end of an in-memory cable; `air` keeps every frame sent, as a listener would."""

    def __init__(self, air):
        self.mac = None
        self.inbox = []
        self.other = None
        self.air = air

    def send(self, peer, data):
        self.air.append(bytes(data))
        self.other.inbox.append(bytes(data))
        return True

    def recv(self):
        return (None, self.inbox.pop(0)) if self.inbox else None

    def close(self):
        pass


def cable():
    air = []
    a, b = End(air), End(air)
    a.other, b.other = b, a
    return a, b, air


def pair():
    """Two units playing Sugar Dog over a keyed channel, each with its journal; the air."""
    ta, tb, air = cable()
    sa, sb = MemStorage(), MemStorage()
    ca = Channel(lambda f: ta.send(None, f), KEY, SID, 0, 0)
    cb = Channel(lambda f: tb.send(None, f), KEY, SID, 0, 1)
    pa = LinkPeer(ta, None, ca, sa, "uart")
    pb = LinkPeer(tb, None, cb, sb, "uart")
    ra = Runner(Seat(ENGINE, OPTS, 2, SEED, 0, b"salt0"), [pa], sa, "sugardog",
                {"vs": "link", "link": "uart"})
    rb = Runner(Seat(ENGINE, OPTS, 2, SEED, 1, b"salt1"), [pb], sb, "sugardog",
                {"vs": "link", "link": "uart"})
    return [ra, rb], [ta, tb], air


def play(runners, until, now=0, limit=3000):
    bots = [RandomBot(SEED, p) for p in range(len(runners))]
    for _ in range(limit):
        now += 10
        for r, b in zip(runners, bots):
            bot_step(r, b, now)
        if until():
            return now
    raise AssertionError("never got there")


def tell(runner, transport, k, now, until):
    """The damaged unit's side: a Teller on the unit's transport, ticked with the partner."""
    t = lost.Teller(transport, k)
    for _ in range(400):
        now += 10
        t.tick(now)
        runner.tick(now)
        if until(t):
            return t, now
    raise AssertionError("the notice never got through")


def test_the_real_notice_voids_the_game_on_the_partner_in_words_and_is_answered():
    (ra, rb), (ta, tb), air = pair()
    now = play([ra, rb], lambda: ra.seat.n_log >= 3)
    # unit b's link record is gone: its save still holds the seed, and it tells unit a
    t, now = tell(ra, tb, lost.Keys(SEED, None, 1, 2), now, lambda t: not t.pending())
    assert ra.result() == ([], LOST % 2) and ra.finished()
    assert "P2 lost its link to this game" in LOST % 2


def test_the_notice_of_a_save_set_aside_voids_the_game_with_the_saves_sentence():
    (ra, rb), (ta, tb), air = pair()
    now = play([ra, rb], lambda: ra.seat.n_log >= 3)
    t = lost.Teller(tb, lost.Keys(SEED, None, 1, 2), lost.SAVE)
    for _ in range(100):
        now += 10
        t.tick(now)
        ra.tick(now)
    assert not t.pending()
    assert ra.result() == ([], VOID % 2) and ra.finished()


def test_a_partner_away_while_told_is_owed_the_notice_until_its_receipt():
    # unit a is switched off while unit b tells: before, the telling gave up after TELL_MS and
    # unit a, back in its game, found unit b silent for good
    (ra, rb), (ta, tb), air = pair()
    now = play([ra, rb], lambda: ra.seat.n_log >= 3)
    st = MemStorage()
    k = lost.Keys(SEED, None, 1, 2)
    t = lost.Teller(tb, k, lost.SAVE, None, st)
    owed = st.read_obj(lost.OWED)
    assert owed[0] == lost.notice(k, lost.SAVE) and len(owed[1]) == 1
    assert SEED not in owed[0] + owed[1][0]                 # frames the air carries, no key
    for _ in range(lost.TELL_MS // 1000 + 2):               # nobody answers
        now += 1000
        t.tick(now)
    assert not t.pending()
    assert st.read_obj(lost.OWED) == owed                   # still owed once the telling ends
    ta.inbox.clear()
    tb.inbox.clear()
    tb.send(None, owed[0])           # unit a is back in its game; the home menu says it again
    ra.tick(now + 10)
    assert ra.result() == ([], VOID % 2)
    assert any(owed[1][0] in d for d in tb.inbox)        # its receipt carries the owed tag
    # and the tag is not in any frame a bystander could have sent before that receipt
    assert not any(owed[1][0] in d for d in air[:-1])


def test_a_telling_that_is_answered_owes_nothing():
    (ra, rb), (ta, tb), air = pair()
    now = play([ra, rb], lambda: ra.seat.n_log >= 3)
    st = MemStorage()
    t = lost.Teller(tb, lost.Keys(SEED, None, 1, 2), lost.SAVE, None, st)
    for _ in range(100):
        now += 10
        t.tick(now)
        ra.tick(now)
    assert not t.pending() and not st.exists(lost.OWED)


def test_a_bystanders_notice_changes_nothing_and_is_counted():
    (ra, rb), (ta, tb), air = pair()
    now = play([ra, rb], lambda: ra.seat.n_log >= 3)
    heard = list(air)  # a listener holds every frame of the game so far
    forged = [lost.notice(lost.Keys(hashlib.sha256(b"a guess").digest(), None, 1, 2)),
              lost.notice(lost.Keys(KEY, None, 1, 2)),  # even the channel's key is not it
              lost.notice(lost.Keys(hashlib.sha256(b"another game").digest(), None, 1, 2))]
    good = lost.notice(lost.Keys(SEED, None, 1, 2))
    bad_tag = good[:-12] + bytes((good[-12] ^ 1,)) + good[-11:]  # CRC recomputed below
    from fathom.link import crypto
    import struct
    bad_tag = bad_tag[:-4] + struct.pack(">I", crypto.crc32(bad_tag[:-4]))
    forged.append(bad_tag)
    # the real notice of a save set aside, its "what" switched to the link: its tag fails
    from fathom import codec
    from fathom.link import frame
    said = codec.decode(frame.parse(lost.notice(lost.Keys(SEED, None, 1, 2), lost.SAVE))[5])
    said[2] = lost.LINK
    forged.append(frame.encode(frame.BEACON, 0, 0, 0, codec.encode(said)))
    before = ra.peers[0].foreign
    sent = len(air)
    for f in forged + heard:
        ta.inbox.append(f)
        for _ in range(3):
            now += 10
            ra.tick(now)
    assert ra.result() is None and not ra.claimed
    assert ra.peers[0].foreign - before == len(forged)
    assert not any(lost.answered_by(lost.Keys(SEED, None, 1, 2), f) is not None
                   for f in air[sent:])  # no receipt went out for any of them
    # and the game goes on to its verified end
    play([ra, rb], lambda: ra.finished() and rb.finished(), now)
    assert ra.verdicts == {1: None} and rb.verdicts == {0: None}


def test_a_forged_receipt_does_not_stop_the_notices():
    k = lost.Keys(SEED, None, 1, 2)
    ta, tb, air = cable()
    t = lost.Teller(tb, k)
    t.tick(0)
    assert len(air) == 1 and lost.lost_player(lost.Keys(SEED, None, 0, 2), air[0]) == (1, lost.LINK)
    tb.inbox.append(lost.receipt(lost.Keys(KEY, None, 0, 2), 1))   # not the seed's key
    tb.inbox.append(lost.receipt(lost.Keys(SEED, None, 0, 2), 0))  # for another unit's notice
    t.tick(lost.NOTICE_MS)
    assert t.pending() and len(air) == 2  # told again
    tb.inbox.append(lost.receipt(lost.Keys(SEED, None, 0, 2), 1))
    t.tick(2 * lost.NOTICE_MS)
    assert not t.pending() and len(air) == 2
    # unanswered, it stops after TELL_MS
    t2 = lost.Teller(tb, k)
    t2.tick(0)
    t2.tick(lost.TELL_MS)
    assert not t2.pending()


@pytest.mark.parametrize("who", [0, 2])
def test_a_group_notice_carries_a_tag_for_each_unit_under_its_own_key(who):
    n = 4
    pk = lambda i, j: hashlib.sha256(b"k" + bytes((min(i, j), max(i, j)))).digest()
    keys = [[None if i == j else pk(i, j) for j in range(n)] for i in range(n)]
    f = lost.notice(lost.Keys(SEED, keys[who], who, n))
    for q in range(n):
        got = lost.lost_player(lost.Keys(SEED, keys[q], q, n), f)
        assert got == (None if q == who else (who, lost.LINK))
    # a unit of the group cannot make another's notice for a third: it lacks their key
    liar = 1 if who != 1 else 3
    mine = list(keys[liar])
    mine[liar] = keys[liar][who]  # its own key with `who`: the one tag it could make right
    fake = lost.Keys(SEED, mine, who, n)
    third = [q for q in range(n) if q not in (who, liar)][0]
    assert lost.lost_player(lost.Keys(SEED, keys[third], third, n), lost.notice(fake)) is None
    # the receipts: the host waits for every partner's, a partner for the host's
    t = lost.Teller(cable()[0], lost.Keys(SEED, keys[who], who, n, relay=who == 0))
    assert t.waits == ([1, 2, 3] if who == 0 else [0])
    for q in t.waits[:]:
        t.t.inbox.append(lost.receipt(lost.Keys(SEED, keys[q], q, n), who))
    t.tick(0)
    assert not t.pending()


def test_a_group_host_relays_a_partners_lost_link_and_takes_it_for_that_partner_only():
    # What the host's LinkPeer gives its runner for a partner's checked notice: the host ends
    # the game with the sentence and relays it; every partner shows the same words. A partner
    # that says another partner lost its link is refused: the host takes it for itself only.
    from fathom.peers import pipe_pair
    n = 3
    pk = lambda i, j: hashlib.sha256(b"g" + bytes((min(i, j), max(i, j)))).digest()
    keys = [[None if i == j else pk(i, j) for j in range(n)] for i in range(n)]
    seats = [Seat(ENGINE, OPTS, n, SEED, p, b"salt%d" % p) for p in range(n)]
    host = Runner(seats[0], [], None, "sugardog", relay=True, keys=keys[0])
    runners = [host]
    for p in range(1, n):
        near, far = pipe_pair()
        host.peers.append(near)
        runners.append(Runner(seats[p], [far], None, "sugardog", keys=keys[p]))
    now = play(runners, lambda: all(r.seat.n_log >= 3 for r in runners))
    runners[1].peers[0].send(["void", 2, "link"])  # P2 framing P3
    now = play(runners, lambda: host.problem is not None, now)
    assert all(r.result() is None for r in runners), host.problem
    runners[2].peers[0].send(["void", 2, "link"])
    play(runners[:2], lambda: all(r.result() is not None for r in runners[:2]), now)
    for r in runners[:2]:
        assert r.result() == ([], LOST % 3)
