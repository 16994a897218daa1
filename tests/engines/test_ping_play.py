# PING whole games under CPython: play-outs with audits, secrecy of every event, the tracker's
# soundness, a lying unit caught by the audit, save/restore, bot strength, fuzzed events.
import pytest
from hostmodes import seatcopy
from hypothesis import given, settings, strategies as st

from fathom.codec import encode
from fathom.games import local
from fathom.games.base import IllegalAction
from hostmodes.seatcopy import restore
from fathom.games.ping.engine import ENGINE, PingEngine
from fathom.games.ping import track
from fathom.games.ping import board as B
from fathom.games.bots import RandomBot
from kit.play import play_seats
from fathom.games.ping.bot import EasyBot, SharpBot
from fathom.games.audit import audit

SEEN = "seen"   # pub["q"] while the adversary turns their previous card up (the engine's _SEEN)

KINDS = {"random": RandomBot, "easy": EasyBot, "sharp": SharpBot}


def drive(seats, bots, check=None, limit=5000):
    """Play to the end; check(seats, author, event, before) after every event, `before`
    each seat's (square, cards in hand, incoming card) before it."""
    def on(seats, author, ev, privs):
        check(seats, author, ev, [(p["sq"], sorted(c for c, _d in p["hand"]), p["inc"])
                                  for p in privs])
    return play_seats(seats, bots, on_event=on if check else None, limit=limit)


@pytest.mark.parametrize("a, b", [("random", "random"), ("easy", "random"), ("sharp", "easy"),
                                  ("sharp", "sharp")])
def test_playouts_complete_and_every_audit_passes(a, b):
    for i in range(6):
        seed = b"po%d" % i
        r = local.play(ENGINE, {}, 2, seed, [KINDS[a](seed, 0), KINDS[b](seed, 1)])
        assert r["result"][1] in ("objectives", "sunk")
        assert [x[2] for x in r["audits"]] == [None, None]


def _secrecy(seats, author, ev, before):
    me = seats[author].priv
    tag = ev[0]
    last = me["last"]
    cards = []
    if tag == "up":
        assert [ev[1], ev[2]] == last and ev[3] == me["sq"]
        cards = [ev[1]]
    elif tag == "down":
        assert ev[1] in (-1, me["sq"])
    elif tag == "report":
        assert ev[1] == me["sq"]
    elif tag == "seen":
        assert [ev[1], ev[2]] == last and ev[3] in (-1, me["sq"])
        cards = [ev[1]]
    elif tag == "hand":
        assert [ev[1], ev[2]] == last
        cards = [ev[1]]
    elif tag == "dive":
        assert ev[1] == last[0]
        cards = [ev[1]]
    elif tag == "hit":
        assert len(ev) == 1
    elif tag == "damage":  # the reveal comes after the two cards are picked (rules 7)
        assert len(ev) == 3 and ev[1] in (0, 1) and ev[2] == me["sq"]
    elif tag == "setup":
        assert ev[1] is None
    else:  # events that carry no secret at all
        assert tag in ("listen", "miss", "shuffle", "disable", "end")
        assert len(ev) == {"listen": 1, "miss": 1, "shuffle": 1, "disable": 3, "end": 1}[tag]
    for c in cards:  # a card shown is the one just played, never one still held
        assert c not in [x for x, _d in me["hand"]]
        assert c != seats[0].priv["inc"]
    # the tracker never rules out where a player really is
    if tag != "setup" and len(seats[0].setups) == 2:
        for p in (0, 1):
            assert track.possible(seats[0].pub, p) & (1 << seats[p].priv["sq"])


@pytest.mark.parametrize("a, b", [("random", "random"), ("sharp", "random"), ("sharp", "easy")])
def test_no_event_shows_a_secret_before_the_rules_do(a, b):
    for i in range(4):
        seed = b"sec%d" % i
        seats = local.make_seats(ENGINE, {}, 2, seed)
        drive(seats, [KINDS[a](seed, 0), KINDS[b](seed, 1)], _secrecy)


class LiarEngine(PingEngine):
    """Answers a PING/LISTEN with a square one letter off, once."""

    def __init__(self):
        self.lied = False

    def answer(self, pub, priv, player):
        ev = PingEngine.answer(self, pub, priv, player)
        if pub["q"] == SEEN and ev[3] >= 0 and not self.lied:
            self.lied = True
            ev = ev[:3] + [(ev[3] + 1) % B.NSQ]
        return ev


def test_a_lying_unit_is_named_by_the_honest_audit():
    caught = 0
    for i in range(30):
        seed = b"lie%d" % i
        seats = local.make_seats(ENGINE, {}, 2, seed)
        liar = seats[1]
        liar.engine = LiarEngine()
        where = []

        def check(seats, author, ev, before):
            if author == 1 and ev[0] == "seen" and liar.engine.lied and not where:
                where.append(len(seats[0].log) - 1)
        drive(seats, [RandomBot(seed, 0), RandomBot(seed, 1)], check)
        if not where:
            continue
        verdict = audit(seats[0], 1, liar.reveal())
        assert verdict is not None and verdict[0] == where[0]
        assert audit(seats[1], 0, seats[0].reveal()) is None
        caught += 1
        if caught == 3:
            break
    assert caught == 3


def test_save_and_restore_mid_game_gives_the_same_state():
    seed = b"save"
    seats = local.make_seats(ENGINE, {}, 2, seed)
    bots = [SharpBot(seed, 0), RandomBot(seed, 1)]
    n = [0]

    def check(seats, author, ev, before):
        n[0] += 1
        if n[0] % 7 == 0:
            for s in seats:
                r = restore(ENGINE, seatcopy.save(s))
                assert encode(r.pub) == encode(s.pub) and encode(r.priv) == encode(s.priv)
                assert r.short_hash() == s.short_hash()
    drive(seats, bots, check)
    assert n[0] > 7


def test_sharp_beats_random():
    wins = 0
    games = 60
    for i in range(games):
        seed = b"sr%d" % i
        me = i % 2
        bots = [None, None]
        bots[me] = SharpBot(seed, me)
        bots[1 - me] = RandomBot(seed, 1 - me)
        r = local.play(ENGINE, {}, 2, seed, bots)
        wins += me in r["result"][0]
    assert wins >= games * 55 // 100


_val = st.one_of(st.integers(-3, 30), st.none(), st.booleans(), st.text(max_size=3),
                 st.binary(max_size=3))
_tags = st.sampled_from(["up", "down", "report", "listen", "seen", "hand", "dive", "hit",
                         "miss", "shuffle", "disable", "damage", "setup", "x"])


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), _tags, st.lists(_val, max_size=6), st.integers(0, 1))
def test_fuzzed_events_raise_cleanly_or_apply(stop, tag, args, author):
    seed = b"fz"
    seats = local.make_seats(ENGINE, {}, 2, seed)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    k = [0]

    class Stop(Exception):
        pass

    def check(seats, a, ev, before):
        k[0] += 1
        if k[0] >= stop:
            raise Stop()
    try:
        drive(seats, bots, check)
    except Stop:
        pass
    pub = seats[0].pub
    before = encode(pub)
    try:
        ENGINE.apply(pub, author, [tag] + args)
    except IllegalAction:
        assert encode(pub) == before
