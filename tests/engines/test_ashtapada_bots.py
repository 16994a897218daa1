# Lake Ashtapada under CPython only: bot strength, many more play-outs, and fuzzed events.
import pytest
from hypothesis import given, settings, strategies as st

from fathom.codec import encode
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.ashtapada.engine import ENGINE
from fathom.games.bots import RandomBot
from fathom.games.ashtapada.bot import SharpBot, EasyBot
from test_ashtapada_play import check_deduction


def duel(cls_a, cls_b, games, prefix, opts=None):
    """Wins of cls_a, seat alternating, over `games` games."""
    wins = 0
    for seed in range(games):
        a = seed % 2
        bots = [None, None]
        bots[a] = cls_a(seed, a)
        bots[1 - a] = cls_b(seed, 1 - a)
        res = local.play(ENGINE, ENGINE.options(opts), 2, prefix + b"%d" % seed, bots)
        assert all(x[2] is None for x in res["audits"])
        if res["result"][0] == [a]:
            wins += 1
    return wins


@pytest.mark.slow   # many whole games: make test, not the fast loop
def test_sharp_beats_random():
    assert duel(SharpBot, RandomBot, 60, b"sr") >= 33          # measured about 98%


@pytest.mark.slow   # many whole games: make test, not the fast loop
def test_sharp_beats_easy():
    assert duel(SharpBot, EasyBot, 20, b"se") >= 8             # measured about 70%, rest draws


@pytest.mark.slow   # many whole games: make test, not the fast loop
def test_easy_beats_random():
    assert duel(EasyBot, RandomBot, 30, b"er") >= 17


def test_many_random_playouts_every_option():
    n = 0
    for size in (8, 10, 12):
        for mines in (3, 7):
            for isl in (0, 3):
                opts = ENGINE.options({"size": size, "mines": mines, "islands": isl})
                for seed in range(3):
                    res = local.play(ENGINE, opts, 2, b"all%d%d%d%d" % (size, mines, isl, seed),
                                     [RandomBot(seed, 0), RandomBot(seed, 1)])
                    assert res["result"] is not None
                    assert all(x[2] is None for x in res["audits"])
                    n += 1
    assert n == 36


def test_deduction_sound_on_every_lake():
    for seed in range(6):
        check_deduction(seed + 10, ENGINE.options({"size": (8, 10, 12)[seed % 3],
                                                   "mines": 3 + seed % 5, "islands": seed % 4}))


def started(pending):
    seats = local.make_seats(ENGINE, ENGINE.options(), 2, b"fuzz")
    for s in seats:
        bot = RandomBot(3, s.player)
        while s.setup_legal():
            s.setup_choose(bot.setup(s))
    for s in seats:
        ev = s.author()
        seats[1 - s.player].receive(s.player, ev)
    if pending:
        s = seats[0]
        ev = s.author([a for a in s.legal() if a[0] == "sound"][0])
        seats[1].receive(0, ev)
        assert ENGINE.turn(s.pub)[1] == "answer"
    return seats[0].pub


leaves = (st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=6)
          | st.binary(max_size=4))
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=2),
    max_leaves=10)
tags = st.sampled_from(["move", "sound", "depth", "ping", "hit", "mine", "setup", "x"])


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=200, deadline=None)
@given(tag=tags, rest=st.lists(values, max_size=3), author=st.integers(-1, 2),
       pending=st.booleans())
def test_fuzzed_events_only_raise_illegal_action(tag, rest, author, pending):
    pub = started(pending)
    before = encode(pub)
    try:
        ENGINE.apply(pub, author, [tag] + rest)
    except IllegalAction:
        assert encode(pub) == before


def test_the_bots_candidates_from_their_last_decision_are_the_engines():
    """candidates_since starts from the bot's last fixed point: at every decision of whole
    games (sharp against hard and easy, every lake size) it must equal engine.candidates."""
    from fathom.games.ashtapada import bot as B
    from fathom.games.ashtapada.engine import candidates
    checked = [0]
    real = B.candidates_since

    def both(bot, pub, player):
        got = real(bot, pub, player)
        assert got == candidates(pub, player)
        checked[0] += 1
        return got
    B.candidates_since = both
    try:
        for i, size in enumerate((8, 10, 12)):
            for other in (B.HardBot, B.EasyBot):
                bots = [SharpBot(i, 0), other(i, 1)] if i % 2 else [other(i, 0), SharpBot(i, 1)]
                local.play(ENGINE, ENGINE.options({"size": size}), 2, b"since%d" % i, bots)
    finally:
        B.candidates_since = real
    assert checked[0] > 100
