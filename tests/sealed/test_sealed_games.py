# The sealed deal inside PING and Periplus (docs/SEALED_DEAL.md): the option off is
# today's seeded deal, unchanged; on, seats play whole games with sealed hands and the audit
# verifies them; a bad share ends the game naming its sender; a lie about a drawn card is named
# by the audit; and the secrecy attack that reads a seeded hand reads nothing of a sealed one.
import pytest

from hostmodes import seatcopy
from hostmodes.seatcopy import restore
from fathom import games
from fathom.games import local
from fathom.games.base import IllegalAction
from fathom.games.bots import make_bot
from fathom.games.seat import Seat
from fathom.prng import Prng
from fathom.sealed import stage
from fathom.sealed.group import SealedError
from fathom.games.audit import audit
from kit.sealed_attack import attack, deal_end, first_drawer, hand_after

GIDS = ("ping", "periplus")


def seed_of(k):
    return Prng(b"sealed games", b"%d" % k).token(16)


def play(gid, sealed, k, level="random"):
    eng = games.engine(gid)
    seed = seed_of(k)
    bots = [make_bot(gid, level, seed, p) for p in (0, 1)]
    return local.play(eng, eng.options({"sealed": sealed}), 2, seed, bots)


def tags(seat):
    return [ev[0] for _a, ev in seat.log]


# ---- off: today's deal, byte for byte ------------------------------------------------------
@pytest.mark.parametrize("gid", GIDS)
def test_off_is_the_seeded_deal_unchanged(gid):
    eng = games.engine(gid)
    seed = seed_of(1)
    bots = [make_bot(gid, "random", seed, p) for p in (0, 1)]
    off = local.play(eng, eng.options({"sealed": 0}), 2, seed, bots)
    opts = eng.options({})
    del opts["sealed"]   # a save from before the option: the same game
    bots = [make_bot(gid, "random", seed, p) for p in (0, 1)]
    old = local.play(eng, opts, 2, seed, bots)
    assert off["seats"][0].short_hash() == old["seats"][0].short_hash()
    assert "sd" not in off["seats"][0].pub
    assert not {"sk", "ss", "so"} & set(tags(off["seats"][0]))
    assert eng.options({})["sealed"] == 1   # a new game's default: sealed


# ---- on: whole games, verified -------------------------------------------------------------
@pytest.mark.slow   # whole sealed games: make test, not the fast loop
@pytest.mark.parametrize("gid", GIDS)
@pytest.mark.parametrize("level", ["random", "sharp"])
def test_sealed_games_complete_and_verify(gid, level):
    rounds = 0
    for k in range(3):
        out = play(gid, 1, k, level)
        assert out["result"] is not None
        assert [a[2] for a in out["audits"]] == [None, None], out["audits"]
        s = out["seats"][0]
        t = tags(s)
        assert t[2:4] == ["sk", "sk"] and "ss" in t and "so" in t
        rounds = max(rounds, s.pub["sd"]["rnd"])
        for p in (0, 1):
            assert out["seats"][p].priv.get("foul") is None
        if gid == "ping":
            opened = [pos for _a, ev in s.log if ev[0] == "so" for pos in ev[2]]
            assert sorted(opened) in ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 6])
    if gid == "periplus" and level == "sharp":
        assert rounds >= 1, "no game reshuffled its discard pile"


def test_ping_face_down_card_is_opened_to_its_taker_at_the_end_of_turn_1():
    out = play("ping", 1, 2)
    s0, s1 = out["seats"]
    log = list(s0.log)
    first_play = next(i for i, (_a, ev) in enumerate(log) if ev[0] not in
                      ("setup", "sk", "ss", "so"))
    down = [i for i, (a, ev) in enumerate(log) if ev[0] == "so" and ev[2] == [6]]
    if s0.result()[1] != "objectives" or down:
        assert len(down) == 1 and down[0] > first_play
        assert log[down[0]][0] == 1   # player 2's share opens it to player 1


# ---- the secret comes from the salt, never from the seed --------------------------------------
def test_secret_comes_from_the_salt():
    eng = games.engine("ping")
    opts = eng.options({"sealed": 1})
    seed = seed_of(3)
    a = Seat(eng, opts, 2, seed, 0, b"a" * 16)
    b = Seat(eng, opts, 2, seed, 0, b"b" * 16)
    a.setup_choose(0)
    b.setup_choose(0)
    assert a.setup_event()[1] != b.setup_event()[1]   # key commitments differ
    assert a.priv["sd"] == stage.secret(b"a" * 16)
    from fathom.games.seat import fresh_state
    _pub, priv = fresh_state(eng, opts, 2, seed, 0)   # the seed alone: no secret at all
    assert priv["sd"] is None and priv["hand"] == []
    with pytest.raises(SealedError):
        stage.key_commit(priv["sd"])


# ---- live checks -----------------------------------------------------------------------------
def _seats(gid, k=4):
    eng = games.engine(gid)
    seats = local.make_seats(eng, eng.options({"sealed": 1}), 2, seed_of(k))
    for s in seats:
        bot = make_bot(gid, "random", seed_of(k), s.player)
        while s.setup_legal():
            s.setup_choose(bot.setup(s))
    return seats


def _step(seats, tamper=None):
    """The next author writes its event and the others receive it (maybe tampered)."""
    s = local.next_author(seats)
    ev = s.author(None if s.to_move()[1] != "act" else s.legal()[0])
    if tamper is not None:
        ev = tamper(s.player, ev)
    for o in seats:
        if o is not s:
            o.receive(s.player, ev, s.ck)
    return s.player, ev


@pytest.mark.parametrize("gid", GIDS)
def test_live_checks_refuse_bad_sealed_events(gid):
    seats = _seats(gid)
    _step(seats)
    _step(seats)                  # both set-ups in
    a, b = seats
    grp = stage.group()
    wrong = grp.to_bytes(grp.card(5))
    with pytest.raises(IllegalAction):      # a key its set-up did not commit to
        b.receive(0, ["sk", wrong], b"\0" * 8)
    with pytest.raises(IllegalAction):      # play before the deal is done
        b.receive(0, ["pass"] if gid == "periplus" else ["listen"], b"\0" * 8)
    _step(seats)
    _step(seats)                  # both keys
    with pytest.raises(IllegalAction):      # a chunk out of order
        b.receive(0, ["ss", 0, 4, [wrong, wrong]], b"\0" * 8)
    with pytest.raises(IllegalAction):      # shares before the deck is sealed
        b.receive(0, ["so", 0, [3], [wrong]], b"\0" * 8)
    assert a.short_hash() == b.short_hash()


@pytest.mark.parametrize("gid", GIDS)
def test_a_bad_share_ends_the_game_naming_its_sender(gid):
    seats = _seats(gid)
    grp = stage.group()
    bad = {}

    def tamper(author, ev):
        if ev[0] == "so" and not bad:
            bad["i"] = seats[1 - author].n_log
            bad["by"] = author
            return ["so", ev[1], ev[2], [grp.to_bytes(7)] * len(ev[3])]
        return ev
    while not bad:
        _step(seats, tamper)
    honest = seats[1 - bad["by"]]
    assert honest.priv.get("foul") == 1
    cheat = seats[bad["by"]]
    while honest.result() is None:   # the receiver's next event is the foul, without a key
        t = honest.to_move()
        assert t[0] == honest.player
        ev = honest.author(honest.engine.forced(honest.pub, honest.priv, honest.player)
                           if t[1] == "act" else None)
        assert ev == ["foul"]
    winners, reason = honest.result()
    assert winners == [honest.player] and "P%d" % (cheat.player + 1) in reason
    v = audit(honest, cheat.player, cheat.reveal())
    assert v is not None and v[0] == bad["i"], v


def _lie(gid, k):
    """Play until a player holds cards, then let it swap one for a card it was not dealt; the
    game goes on. Returns (liar, index of the lie's first authored event, outcome)."""
    eng = games.engine(gid)
    seed = seed_of(k)
    seats = local.make_seats(eng, eng.options({"sealed": 1}), 2, seed)
    bots = [make_bot(gid, "random", seed, p) for p in (0, 1)]
    liar = None
    first = None
    for _ in range(20000):
        if seats[0].result() is not None:
            break
        s = local.next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        if liar is None and s.to_move()[1] == "act" and len(s.priv["hand"]) >= 3:
            liar, first = s.player, s.n_log
            h = s.priv["hand"]
            if gid == "periplus":   # a Defense card it was not dealt, the card the game turns on
                fake = next(d for d in (22, 23, 24) if d not in h)
                h[0] = fake
                s.priv["hand"] = sorted(h)
            else:
                held = [c for c, _d in h]
                h[0] = [next(c for c in range(16) if c not in held), 0]
        t = s.to_move()
        ev = s.author(bots[s.player].act(s) if t[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, ev, s.ck)
    assert liar is not None and seats[0].result() is not None
    auditor = seats[1 - liar]
    return liar, first, audit(auditor, liar, seats[liar].reveal())


@pytest.mark.slow   # whole sealed games: make test, not the fast loop
@pytest.mark.parametrize("gid", GIDS)
def test_a_lie_about_a_drawn_card_is_named_by_the_audit(gid):
    for k in range(3):
        liar, first, v = _lie(gid, k)
        # named at its very next event: the card played is not one it holds, or its state
        # commitment covers a hand the deal did not give
        assert v is not None and v[0] == first, v
        assert "not legal" in v[1] or "hidden state" in v[1], v


# ---- secrecy: the attack that reads a seeded hand reads nothing of a sealed one --------------
def _attack_after_deal(gid, sealed, k):
    eng = games.engine(gid)
    opts = eng.options({"sealed": sealed})
    seats = play(gid, sealed, k)["seats"]
    seed = seats[0].seed
    log = deal_end(list(seats[0].log))
    first = first_drawer(gid, opts, seed)
    me = 0 if first is None else 1 - first   # the attacker: the one who has not drawn
    other = seats[1 - me]
    truth = hand_after(gid, opts, seed, other.player, other.salt, log)
    return truth, attack(gid, opts, seed, me, seats[me].salt, log)


@pytest.mark.slow   # whole sealed games: make test, not the fast loop
@pytest.mark.parametrize("gid", GIDS)
def test_secrecy_attack_reads_the_seeded_hand_and_nothing_sealed(gid):
    for k in range(3):
        truth, got = _attack_after_deal(gid, 0, k)
        assert len(truth) == 3 and got == truth    # the deal off: the whole hand, exactly
        truth, got = _attack_after_deal(gid, 1, k)
        assert len(truth) == 3 and got == []       # sealed: not one card


# ---- progress and resume -------------------------------------------------------------------
@pytest.mark.parametrize("gid", GIDS)
def test_deal_progress_counts_up_to_its_total(gid):
    seats = _seats(gid)
    eng = seats[0].engine
    seen = []
    while True:
        pr = eng.deal_progress(seats[0].pub)
        if pr is None and seen:
            break
        if pr is not None:
            seen.append(pr)
        _step(seats)
    dones = [d for d, _t in seen]
    assert dones == sorted(dones) and seen[0][0] == 0
    total = seen[-1][1]
    n = 16 if gid == "ping" else 55
    assert total == 2 + 2 * n + (6 if gid == "ping" else 3)
    assert all(t == total for _d, t in seen) and dones[-1] < total


@pytest.mark.slow   # whole sealed games: make test, not the fast loop
def test_a_sealed_game_resumes_from_its_save():
    out = play("periplus", 1, 5)
    for s in out["seats"]:
        r = restore(s.engine, seatcopy.save(s))
        assert r.short_hash() == s.short_hash() and r.priv == s.priv
