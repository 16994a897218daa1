# Sugar Dog on CPython only: many play-outs, bot strength, fuzzed events, save/restore.
import pytest
from hostmodes import seatcopy
from hypothesis import given, settings, strategies as st

from fathom.codec import encode
from fathom.games.sugardog import say as SAY
from fathom.games import local
from fathom.games.base import IllegalAction
from hostmodes.seatcopy import restore
from fathom.games.sugardog.engine import ENGINE
from fathom.games.bots import RandomBot
from fathom.games.sugardog.bot import EasyBot, SharpBot


@pytest.mark.slow   # many whole games: make test, not the fast loop
@pytest.mark.parametrize("n", [2, 3, 4])
def test_many_random_playouts_pass_every_audit(n):
    reasons = set()
    for i in range({2: 30, 3: 12, 4: 8}[n]):
        seed = b"many%d" % i
        r = local.play(ENGINE, ENGINE.options(), n, seed, [RandomBot(seed, p) for p in range(n)])
        assert [a for a in r["audits"] if a[2] is not None] == []
        reasons.add(r["result"][1])
        winners, reason = r["result"]
        assert reason in ("last afloat", "all sunk", "calm")
        assert (len(winners) == 1) == (reason == "last afloat")
    assert "last afloat" in reasons


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bots_play_legal_games_at_every_size(n):
    kinds = [SharpBot, EasyBot, RandomBot, SharpBot]
    for i in range(4):
        seed = b"mix%d" % i
        bots = [kinds[(p + i) % 4](seed, p) for p in range(n)]
        r = local.play(ENGINE, ENGINE.options(), n, seed, bots)
        assert [a for a in r["audits"] if a[2] is not None] == []


def test_sharp_beats_random():
    wins = 0
    games = 60
    for g in range(games):
        seed = b"rate%d" % g
        me = g % 2
        bots = [SharpBot(seed, p) if p == me else RandomBot(seed, p) for p in range(2)]
        r = local.play(ENGINE, ENGINE.options(), 2, seed, bots)
        wins += me in r["result"][0]
    assert wins >= 0.55 * games, wins


def test_sharp_tracks_a_silent_enemy():
    seed = b"track"
    seats = local.make_seats(ENGINE, ENGINE.options(), 2, seed)
    bot = SharpBot(seed, 0)
    for s, start in zip(seats, (0, 35)):
        s.setup_choose(start)
    for s in seats:
        ev = s.author()
        for o in seats:
            if o is not s:
                o.receive(s.player, ev)

    def do(p, action):
        ev = seats[p].author(action)
        seats[1 - p].receive(p, ev)

    if seats[0].to_move()[0] == 1:
        do(1, ["run", 35])
    do(0, ["sonar"])
    do(1, None)                                # the echo pins P2 on F6
    do(1, ["run", 34])                         # then one quiet step
    from fathom.games.sugardog.bot import Tracker
    tr = Tracker(seats[0])
    tr.update(seats[0].log)
    assert sorted(q for q in range(36) if tr.can[1] >> q & 1) == [29, 34, 35]
    assert bot.act(seats[0])[0] in ("fire", "run", "mine", "sonar", "cruise")


EVENT = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 120), st.sampled_from(
        ["q", "c", "f", "s", "e", "a", "setup", "x"]), st.binary(max_size=33)),
    lambda inner: st.lists(inner, max_size=4), max_leaves=8)


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=200, deadline=None)
@given(st.tuples(st.sampled_from(["q", "c", "f", "s", "e", "a", "setup"]),
                 st.lists(EVENT, max_size=3)),
       st.integers(0, 60), st.integers(-1, 4))
def test_fuzzed_events_raise_illegal_action_and_change_nothing(ev, steps, author):
    seed = b"fuzz"
    seats = local.make_seats(ENGINE, ENGINE.options(), 3, seed)
    bots = [RandomBot(seed, p) for p in range(3)]
    for _i in range(steps):                   # a random reachable position
        if seats[0].result() is not None:
            break
        s = local.next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        t = s.to_move()
        e = s.author(bots[s.player].act(s) if t[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, e)
    pub = seats[0].pub
    before = encode(pub)
    event = [ev[0]] + ev[1]
    try:
        ENGINE.apply(pub, author, event)
    except IllegalAction:
        assert encode(pub) == before
    SAY.describe(pub, 0, event)             # never raises, whatever the event


def test_save_restore_mid_game_gives_the_same_state():
    seed = b"save"
    seats = local.make_seats(ENGINE, ENGINE.options(), 3, seed)
    bots = [SharpBot(seed, 0), RandomBot(seed, 1), EasyBot(seed, 2)]
    for _i in range(40):
        s = local.next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        t = s.to_move()
        e = s.author(bots[s.player].act(s) if t[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, e)
        if seats[0].result() is not None:
            break
    for s in seats:
        r = restore(ENGINE, seatcopy.save(s))
        assert encode(r.pub) == encode(s.pub)
        assert encode(r.priv) == encode(s.priv)
        assert r.short_hash() == s.short_hash()
