# Periplus fair play: hands never travel before they are played, a lie about a card held is
# named by the audit, and a saved seat restores to the same state (CPython and MicroPython).
import pytest

from hostmodes import seatcopy
from hostmodes.seatcopy import restore
from fathom.codec import encode
from fathom.games import local
from kit.play import play_seats
from fathom.games.seat import Seat
from fathom.games.bots import RandomBot
from fathom.games.periplus.engine import ENGINE
from fathom.games.periplus import cards as C
from fathom.games.periplus.engine import PeriplusEngine
from fathom.games.audit import audit

# the seeded deal: these tests read the deck order from the joint seed, or are not about the
# deal at all (the sealed deal has its own: tests/sealed/); sealed games cost more
SEEDED = {"sealed": 0}

pytestmark = pytest.mark.micropython

PLAYS = ("discard", "move", "ahead", "fire", "defend")
PRIV_KEYS = ["deck", "hand", "key", "n", "row"]


class Recorder:
    """Wraps a bot and remembers its seat, so the test can look at hands between events."""

    def __init__(self, bot):
        self.bot = bot
        self.seat = None

    def setup(self, seat):
        self.seat = seat
        return self.bot.setup(seat)

    def act(self, seat):
        return self.bot.act(seat)


@pytest.mark.parametrize("seed", [b"sec1", b"sec2", b"sec3"])
def test_no_event_carries_a_card_before_it_is_played(seed):
    recs = [Recorder(RandomBot(seed, p)) for p in range(2)]
    prev = {}
    checked = [0]

    def on_event(author, ev):
        seats = [r.seat for r in recs if r.seat is not None]
        for s in seats:
            if s.player not in prev:      # first seen at its own set-up: hand as dealt
                prev[s.player] = list(s.priv["hand"])
        tag = ev[0]
        if tag in PLAYS:
            # the one card an event names was in its author's hand and now leaves it
            assert ev[1] in prev[author], (ev, prev[author])
            checked[0] += 1
        elif tag == "setup":
            assert sorted(ev[1]) == [0, 0, 1, 1, 1, 2, 2, 3]   # ship types only
        else:
            assert tag in ("pass", "halt", "take", "also"), ev
            assert len(ev) <= 2                                 # 'also' names a ship
        for s in seats:
            assert sorted(s.priv) == PRIV_KEYS
            if len(seats) == 2:
                assert s.pub["hand"] == [len(x.priv["hand"]) for x in seats]
            for k in s.pub["discard"]:
                assert C.is_kind(k)
            prev[s.player] = list(s.priv["hand"])

    out = local.play(ENGINE, ENGINE.options(SEEDED), 2, seed, recs, on_event=on_event)
    assert out["result"] is not None and checked[0] > 10


def test_public_state_holds_counts_not_hands():
    out = local.play(ENGINE, ENGINE.options(SEEDED), 2, b"pubkeys",
                     [RandomBot(b"pubkeys", 0), RandomBot(b"pubkeys", 1)])
    pub = out["seats"][0].pub
    assert sorted(pub) == sorted(["isl", "ships", "ready", "turn", "phase", "n", "hand", "deck",
                                  "discard", "shuf", "pile", "moved", "fleet", "pending",
                                  "quiet", "harm", "end"])
    assert all(type(n) is int for n in pub["hand"])


class CheatEngine(PeriplusEngine):
    """A tampered unit: it claims Defense cards and attack cards it never drew."""

    def __init__(self, how):
        self.how = how

    def legal(self, pub, priv, player):
        out = PeriplusEngine.legal(self, pub, priv, player)
        if pub["hand"][player] < 1 or self.turn(pub) != (player, "act"):
            return out
        if self.how == "defend" and pub["phase"] == "defend":
            d = C.defense_for(pub["pending"][0])
            if ["defend", d] not in out:
                out.append(["defend", d])
        if self.how == "fire" and pub["phase"] == "fire":
            trebuchet = 20
            for a in PeriplusEngine.legal(self, pub, {"hand": [trebuchet]}, player):
                if a not in out:
                    out.append(a)
        return out


class Greedy:
    """Takes the last legal action (where the cheat's extra options sit), random otherwise."""

    def __init__(self, seed, player):
        self.rnd = RandomBot(seed, player)

    def setup(self, seat):
        return self.rnd.setup(seat)

    def act(self, seat):
        legal = seat.legal()
        if seat.pub["phase"] in ("defend", "fire"):
            return legal[-1]
        return self.rnd.act(seat)


def drive(seats, bots):
    """local.play's loop, but each seat may run its own engine."""
    play_seats(seats, bots, limit=3000)


@pytest.mark.parametrize("how", ["defend", "fire"])
def test_audit_names_the_first_card_played_without_holding_it(how):
    seed = b"cheat-" + how.encode()
    opts = ENGINE.options(SEEDED)
    honest = Seat(ENGINE, opts, 2, seed, 0, b"salt0")
    cheat = Seat(CheatEngine(how), opts, 2, seed, 1, b"salt1")
    drive([honest, cheat], [RandomBot(seed, 0), Greedy(seed, 1)])
    assert honest.result() is not None
    # the first event the cheat authored with a card it did not hold
    replay = Seat(ENGINE, opts, 2, seed, 1, b"salt1")
    first = None
    for i, (author, ev) in enumerate(cheat.log):
        if author == 1 and ev[0] in ("fire", "defend") and first is None:
            if ev[1] not in replay.priv["hand"]:
                first = i
        if author == 1 and ev[0] == "setup":
            for c in cheat.setup_choices:
                replay.setup_choose(c)
            replay.settle()  # what the seat's own author() does first
            replay._record(1, ev, "setup")
        elif author == 1:
            replay.settle()
            replay._record(1, ev, "act")
        else:
            replay.receive(author, ev)
    assert first is not None, "the cheat never cheated: pick another seed"
    verdict = audit(honest, 1, cheat.reveal())
    assert verdict is not None and verdict[0] == first, (verdict, first)
    assert "not legal" in verdict[1]
    assert audit(cheat, 0, honest.reveal()) is None


def test_a_saved_seat_restores_to_the_same_state():
    out = local.play(ENGINE, ENGINE.options({"islands": 2, "sealed": 0}), 2, b"save",
                     [RandomBot(b"save", 0), RandomBot(b"save", 1)])
    for s in out["seats"]:
        back = restore(ENGINE, seatcopy.save(s))
        assert encode(back.pub) == encode(s.pub)
        assert encode(back.priv) == encode(s.priv)
        assert back.chain == s.chain
