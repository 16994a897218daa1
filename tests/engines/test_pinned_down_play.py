# Pinned Down on CPython only: many play-outs, a cheating unit caught by the audit, secrecy of
# hands, bots that play fair and beat random play, fuzzed events, save/restore.
import pytest
from hostmodes import seatcopy
from hypothesis import given, settings, strategies as st

from fathom.codec import encode
from fathom.prng import Prng
from fathom.games import local
from fathom.games.base import IllegalAction
from hostmodes.seatcopy import restore
from fathom.games.pinned_down.engine import ENGINE
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down.engine import PinnedDown
from fathom.games.bots import RandomBot
from fathom.games.pinned_down.bot import EasyBot, SharpBot, next_threat
from fathom.games.audit import audit


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_many_random_playouts_pass_every_audit(n):
    reasons = set()
    for i in range({1: 24, 2: 10, 3: 4, 4: 3}[n]):
        seed = b"many%d-%d" % (n, i)
        opts = ENGINE.options({"deck": C.AFFS[i % 4], "level": ("easy", "normal", "hard")[i % 3]})
        r = local.play(ENGINE, opts, n, seed, [RandomBot(seed, p) for p in range(n)])
        assert [a for a in r["audits"] if a[2] is not None] == []
        reasons.add(r["result"][1][:8])
    if n == 1:
        assert reasons == {"every fl", "distance"}


@pytest.mark.slow   # many whole games: make test, not the fast loop
def test_bots_play_legal_games_in_mixed_teams():
    kinds = [SharpBot, EasyBot, RandomBot, SharpBot]
    for i in range(3):
        seed = b"mix%d" % i
        bots = [kinds[(p + i) % 4](seed, p) for p in range(3)]
        r = local.play(ENGINE, ENGINE.options(), 3, seed, bots)
        assert [a for a in r["audits"] if a[2] is not None] == []


def _team_wins(bot, n, games, tag):
    wins = 0
    for g in range(games):
        seed = b"%s%d" % (tag, g)
        opts = ENGINE.options({"deck": C.AFFS[g % 4]})
        r = local.play(ENGINE, opts, n, seed, [bot(seed, p) for p in range(n)])
        wins += bool(r["result"][0])
    return wins


@pytest.mark.slow   # many whole games: make test, not the fast loop
def test_sharp_team_wins_clearly_more_than_random_team():
    games = 48
    sharp = _team_wins(SharpBot, 1, games, b"rate")
    rnd = _team_wins(RandomBot, 1, games, b"rate")
    assert sharp >= rnd + games // 6, (sharp, rnd)
    assert rnd <= games // 4


class Cheat(PinnedDown):
    """Claims a Full Broadside it never drew, once."""
    cheated = False

    def legal(self, pub, priv, player):
        out = [a for a in PinnedDown.legal(self, pub, priv, player) if a != ["show"]]
        if not self.cheated and pub["ph"] == "main" and "R10" not in priv["hand"] \
                and pub["hs"][player] > 0:
            return [["play", "R10", 0]]
        return out

    def act(self, pub, priv, player, action):
        if action == ["play", "R10", 0] and not self.cheated:
            self.cheated = True
            priv["hand"].pop(0)             # keeps the hand size honest-looking
            return list(action)
        return PinnedDown.act(self, pub, priv, player, action)


def test_a_card_played_without_holding_it_fails_the_audit():
    seed = b"cheat"
    seats = local.make_seats(ENGINE, ENGINE.options({"deck": "red"}), 2, seed)
    seats[0].engine = Cheat()
    bots = [RandomBot(seed, p) for p in range(2)]
    cheat_at = None
    while seats[0].result() is None and len(seats[0].log) < 3000:
        s = local.next_author(seats)
        ev = s.author(bots[s.player].act(s) if s.to_move()[1] == "act" else None)
        if ev == ["play", "R10", 0] and s.player == 0 and cheat_at is None:
            cheat_at = len(s.log) - 1
        for o in seats:
            if o is not s:
                o.receive(s.player, ev)
    assert cheat_at is not None
    seats[0].engine = ENGINE
    verdict = audit(seats[1], 0, seats[0].reveal())
    assert verdict is not None and verdict[0] == cheat_at
    assert audit(seats[0], 1, seats[1].reveal()) is None


def test_events_carry_no_card_of_a_hand_before_it_is_played():
    seed = b"secret"
    seen = []
    r = local.play(ENGINE, ENGINE.options({"deck": "purple"}), 2, seed,
                   [RandomBot(seed, p) for p in range(2)],
                   on_event=lambda a, e: seen.append((a, e)))
    seats = r["seats"]
    assert [e for a, e in seen if e[0] == "setup" and e[1] is not None] == []
    # replay the public state alone, checking each event against what was public before it
    pub = ENGINE.new_game(ENGINE.options({"deck": "purple"}), 2, Prng(seed, b"game"))
    for a, e in seen:
        public = [s[1] for s in pub["ships"]] + [x[1] for s in pub["ships"] for x in s[3]]
        for pile in pub["disc"] + pub["dest"]:
            public.extend(pile)
        allowed = list(public)
        if e[0] in ("play", "spare", "discard"):
            allowed.append(e[1])
            if len(e) > 2 and isinstance(e[2], str):
                allowed.append(e[2])
        if e[0] == "show":
            allowed.extend(e[1])
        flat = []
        for x in e[1:]:
            flat.extend(x if isinstance(x, list) else [x])
        for x in flat:
            if isinstance(x, str) and C.known(x) and C.get(x)[C.AFF] in "PRBA":
                assert x in allowed, (a, e)
        ENGINE.apply(pub, a, e)
    assert encode(pub) == encode(seats[0].pub)


def test_save_and_restore_round_trip():
    seed = b"save"
    r = local.play(ENGINE, ENGINE.options(), 2, seed, [RandomBot(seed, p) for p in range(2)])
    s = r["seats"][1]
    back = restore(ENGINE, seatcopy.save(s))
    assert encode(back.pub) == encode(s.pub) and encode(back.priv) == encode(s.priv)


def test_sharp_deduces_the_next_attack_threat():
    seats = local.make_seats(ENGINE, ENGINE.options({"deck": "red", "level": "easy"}), 1, b"d")
    seats[0].author()
    pub = seats[0].pub
    pub["threat"] = 3
    # pool 3 + Ardor upkeep 1 + two for the coming location + one ship + easy 0
    assert next_threat(pub) == 3 + 1 + 2 + 1


EVENT = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 12),
              st.sampled_from(["play", "use", "move", "spare", "ready", "jump", "def",
                               "fight", "pass", "keep", "discard", "show", "yes", "no",
                               "cloak", "R2", "R8", "R9", "R10", "X2", "B3"]),
              st.binary(max_size=4)),
    lambda inner: st.lists(inner, max_size=5), max_leaves=10)


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=300, deadline=None)
@given(st.lists(EVENT, min_size=1, max_size=6), st.integers(0, 3))
def test_fuzzed_events_never_crash_and_never_half_apply(events, upto):
    seed = b"fuzz"
    r = None
    seats = local.make_seats(ENGINE, ENGINE.options(), 2, seed)
    bots = [RandomBot(seed, p) for p in range(2)]
    for _ in range(2 + upto * 7):
        s = local.next_author(seats)
        if s is None or seats[0].result() is not None:
            break
        ev = s.author(bots[s.player].act(s) if s.to_move()[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, ev)
    pub = seats[0].pub
    for e in events:
        for author in range(2):
            before = encode(pub)
            try:
                ENGINE.apply(pub, author, e)
            except IllegalAction:
                assert encode(pub) == before
            else:
                return r
