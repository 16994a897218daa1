# The game framework on a toy game: seats, the hash chain, runners over message pipes, bots as
# in-unit peers, the journal and resume, refusal of bad peer messages, and the replay audit.
import pytest

from fathom.games.bots import RandomBot
from fathom.codec import encode
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.seat import Seat
from fathom.peers import BotPeer, pipe_pair
from fathom.runner import Runner, load
from fathom.games.audit import audit
from kit.memstore import MemStorage
from toy.engine import ENGINE, Liar
from kit.play import drive

pytestmark = pytest.mark.micropython


def seat(p, seed=b"s1", engine=ENGINE):
    return Seat(engine, engine.options(), 2, seed, p, b"salt%d" % p)


def test_runners_over_pipes_agree_and_verify():
    a, b = pipe_pair()
    ra, rb = Runner(seat(0), [a]), Runner(seat(1), [b])
    drive([ra, rb], [RandomBot(b"x", 0), RandomBot(b"x", 1)])
    assert ra.seat.short_hash() == rb.seat.short_hash()
    assert ra.result() == rb.result()
    assert ra.verdicts == {1: None} and rb.verdicts == {0: None}


def test_liar_is_named_by_the_honest_audit():
    a, b = pipe_pair()
    liar = Liar()
    ra = Runner(seat(0), [a])
    rb = Runner(seat(1, engine=liar), [b])
    drive([ra, rb], [RandomBot(b"b", 0), RandomBot(b"b", 1)])
    secret = rb.seat.priv["secret"]
    lies = [i for i, (author, ev) in enumerate(ra.seat.log)
            if author == 1 and ev == ["ans", "lo"] and ra.seat.log[i - 1][1] == ["guess", secret]]
    assert lies, "the liar never had to lie in this game: pick another seed"
    idx, reason = ra.verdicts[1]
    assert idx == lies[0]
    assert "secrets give" in reason


def test_wrong_setup_reveal_fails_audit():
    out = local.play(ENGINE, ENGINE.options(), 2, b"z", [RandomBot(b"z", 0), RandomBot(b"z", 1)])
    s0, s1 = out["seats"]
    salt, choices, actions = s1.reveal()
    other = [c for c in range(1, 5) if c != choices[0]][0]
    assert audit(s0, 1, [salt, [other], actions]) is not None
    assert audit(s0, 1, [b"other-salt", choices, actions])[1] == "set-up does not match the commitment"
    assert audit(s0, 1, [salt, choices, actions]) is None


def test_out_of_turn_and_malformed_events_change_nothing():
    s0, s1 = seat(0), seat(1)
    for s in (s0, s1):
        s.setup_choose(2)
    e0 = s0.author()
    s1.receive(0, e0)
    e1 = s1.author()
    s0.receive(1, e1)
    first = s0.to_move()[0]
    other = 1 - first
    before = encode(s0.pub), len(s0.log)
    viewer = s0 if other == 1 else s1
    for author, ev in ((other, ["guess", 2]), (first, ["guess", 99]), (first, "junk"),
                       (first, []), (first, ["ans", "hit"]), (first, ["setup", None, b"x" * 32])):
        if author == viewer.player:
            continue
        with pytest.raises(IllegalAction):
            viewer.receive(author, ev)
    assert (encode(s0.pub), len(s0.log)) == before


def test_runner_refuses_bad_messages_and_keeps_playing():
    a, b = pipe_pair()
    ra, rb = Runner(seat(0), [a]), Runner(seat(1), [b])
    for junk in (["ev", 0, 1, ["guess", 1], b"12345678"], ["nope"], [], ["ev", "x"], ["rev", 0, 1]):
        b.send(junk)
    ra.tick(0)
    assert ra.problem and ra.seat.log == []
    drive([ra, rb], [RandomBot(b"w", 0), RandomBot(b"w", 1)])
    assert ra.verdicts == {1: None}


def test_desync_is_found_at_the_event():
    a, b = pipe_pair()
    ra, rb = Runner(seat(0), [a]), Runner(seat(1), [b])
    bots = [RandomBot(b"d", 0), RandomBot(b"d", 1)]
    for step in range(40):
        for r, bot in zip((ra, rb), bots):
            while r.seat.setup_legal():
                r.setup_choose(bot.setup(r.seat))
            r.tick(step)
        if len(ra.seat.log) >= 2 and len(rb.seat.log) >= 2:
            break
    rb.seat.pub["misses"][0] = 5  # a corrupted state on one unit
    for step in range(200):
        for r, bot in zip((ra, rb), bots):
            r.tick(step)
            if r.desync is None and r.seat.result() is None and r.seat.my_turn() and r.seat.to_move()[1] == "act":
                r.play(bot.act(r.seat))
        if ra.desync or rb.desync:
            break
    d = ra.desync or rb.desync
    assert d is not None and "hash differs" in d[1]


def test_reboot_mid_game_resumes_from_the_journal():
    a, b = pipe_pair()
    sa = MemStorage()
    ra, rb = Runner(seat(0), [a], sa, "toy"), Runner(seat(1), [b])
    bots = [RandomBot(b"r", 0), RandomBot(b"r", 1)]
    for step in range(12):
        for r, bot in zip((ra, rb), bots):
            while r.seat.setup_legal():
                r.setup_choose(bot.setup(r.seat))
            r.tick(step)
            if r.seat.result() is None and r.seat.my_turn() and r.seat.to_move()[1] == "act":
                r.play(bot.act(r.seat))
    n = len(ra.seat.log)
    assert n >= 4
    ra2 = load(sa, lambda gid: ENGINE)
    assert ra2.seat.short_hash() == ra.seat.short_hash()
    assert ra2.seat.priv == ra.seat.priv and ra2.seat.actions == ra.seat.actions
    a.inbox.clear()  # what was in flight to the dead unit is lost
    ra2.peers = [a]
    ra2.resync()
    drive([ra2, rb], bots)
    assert ra2.verdicts == {1: None} and rb.verdicts == {0: None}


def test_bot_peer_plays_a_whole_game_inside_one_unit():
    human = Runner(seat(0), [])
    peer = BotPeer(Runner, seat(1), RandomBot(b"b", 1), "random")
    human.peers = [peer]
    me = RandomBot(b"b", 0)
    now = 0
    for _ in range(3000):
        now += 50
        while human.seat.setup_legal():
            human.setup_choose(me.setup(human.seat))
        human.tick(now)
        s = human.seat
        if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
            human.play(me.act(s))
        if human.finished() and peer.runner.finished():
            break
    assert human.verdicts == {1: None}
    assert peer.runner.verdicts == {0: None}
    # the bot's seat never held the human's secret
    assert peer.runner.seat.priv["secret"] in range(1, 5)
