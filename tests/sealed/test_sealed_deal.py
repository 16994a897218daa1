# The sealed deal (firmware/fathom/sealed): the protocol end to end for PING's and Periplus's
# decks between two simulated players, what one player can and cannot compute from everything
# it holds, and the audit naming a player who lies. Runs under MicroPython too.
import pytest

from fathom.codec import encode
from fathom.sealed import deal
from fathom.sealed.group import Group, SealedError
from hostmodes import sealedplay as sp
from hostmodes.sealedaudit import audit, audit_player
from hostmodes.sealedtable import Table

pytestmark = pytest.mark.micropython


def _game(seed=b"t", kinds=16):
    return sp.Game(sp.secrets_for(seed), kinds)


def _secrets(g):
    return [p.secret for p in g.players]


def _audit(g, claims=None):
    if claims is None:
        claims = {0: g.claims(0), 1: g.claims(1)}
    return audit(g.grp, g.log, g.commits, g.sources, g.kinds, _secrets(g), claims)


def _truth(g, rnd, pos):
    """The card at a position, opened with both secrets (what the audit can compute)."""
    c1, c2 = g.tables[0].card(rnd, pos)
    a, b = (deal.share(g.grp, s, c1) for s in _secrets(g))
    return deal.reveal(g.grp, c2, a, b, g.kinds)


def test_ping_deal_gives_each_player_three_distinct_cards_and_audits_clean():
    g = _game()
    mine, theirs = sp.ping_deal(g)
    assert len(set(mine + theirs)) == 6 and all(0 <= k < 16 for k in mine + theirs)
    whole = [_truth(g, 0, pos) for pos in range(16)]
    assert sorted(whole) == list(range(16))          # a permutation: nothing lost or copied
    assert whole[:6] == mine + theirs
    assert _audit(g) is None


def test_periplus_draws_and_a_reshuffle_of_the_discards_audit_clean():
    g = _game(b"periplus", 55)
    first = sp.periplus_setup(g)
    second = g.give(0, 1, [3, 4, 5])
    assert len(set(first + second)) == 6
    pile = [first[0], second[1], 40, 41]               # public discards: known cards
    g.shuffle(1, pile)
    got = g.give(1, 0, [0, 1]) + g.give(1, 1, [2, 3])
    assert sorted(got) == sorted(pile)
    assert _audit(g) is None


def test_different_secrets_deal_differently():
    a, b = _game(b"a"), _game(b"b")
    sp.ping_deal(a)
    sp.ping_deal(b)
    assert [_truth(a, 0, i) for i in range(16)] != [_truth(b, 0, i) for i in range(16)]


def _unlock(grp, c2, share, kinds):
    """The obvious attack: strip one share off c2 and read what is left as a card."""
    return grp.card_of(grp.mul(grp.element(c2), grp.inverse(grp.element(share))), kinds)


def test_the_other_hand_is_not_computable_from_what_a_player_holds():
    g = _game(b"hidden")
    sp.ping_deal(g)
    grp = g.grp
    x0 = g.players[0].secret
    t = g.tables[0]
    n = 16
    # everything player 0 has: its secret, hence its share of every card; the keys; the shares
    # player 1 published (for player 0's own cards); the generator
    mine = [deal.share(grp, x0, t.card(0, pos)[0]) for pos in range(n)]
    published = [v for (r, pos, who), v in t.shares.items() if who == 1]
    known = mine + published + t.keys + [t.joint, grp.to_bytes(grp.g)]
    for pos in range(3, n):            # player 1's hand, the face-down card, the nine aside
        c1, c2 = t.card(0, pos)
        assert _unlock(grp, c2, mine[pos], n) == -1      # its own lock off: still sealed
        for s in known:                                  # and any value it holds as the other
            assert deal.reveal(grp, c2, mine[pos], s, n) == -1
            assert _unlock(grp, c2, s, n) == -1
        # every card is as consistent with the public data as the true one: for each candidate
        # there is a share of player 1 that would open it, and only x1 says which
        for k in range(n):
            want = grp.mul(grp.element(c2), grp.inverse(grp.mul(grp.card(k), grp.element(mine[pos]))))
            assert deal.reveal(grp, c2, mine[pos], grp.to_bytes(want), n) == k
    # the control, so the test can fail: with player 1's secret the same computation opens all
    x1 = g.players[1].secret
    for pos in range(n):
        c1, c2 = t.card(0, pos)
        assert deal.reveal(grp, c2, mine[pos], deal.share(grp, x1, c1), n) == _truth(g, 0, pos)


def test_opening_one_card_opens_no_other():
    g = _game(b"one", 55)
    sp.periplus_setup(g)           # positions 0-2 opened to player 0
    grp, t = g.grp, g.tables[0]
    x0 = g.players[0].secret
    theirs = [t.shares[(0, pos, 1)] for pos in range(3)]
    for pos in range(3, 55):
        c1, c2 = t.card(0, pos)
        own = deal.share(grp, x0, c1)
        for s in theirs:
            assert deal.reveal(grp, c2, own, s, 55) == -1


def test_a_player_lying_about_a_drawn_card_is_named():
    g = _game(b"liar")
    sp.ping_deal(g)
    claims = {0: g.claims(0), 1: g.claims(1)}
    r, pos, k = claims[1][0]
    claims[1][0] = (r, pos, (k + 1) % 16)
    who, _i, why = _audit(g, claims)
    assert who == 1 and "claims" in why
    unopened = {0: g.claims(0) + [(0, 7, _truth(g, 0, 7))], 1: g.claims(1)}
    assert _audit(g, unopened)[0] == 0                   # a set-aside card is never its


def test_a_bad_share_fails_to_open_at_once_and_the_audit_names_its_author():
    g = _game(b"share")
    g.keys()
    g.shuffle(0, range(16))
    t = g.tables[0]
    wrong = deal.share(g.grp, b"another secret", t.card(0, 0)[0])
    g.post(1, ["so", 0, [0], [wrong]])
    c1, c2 = t.card(0, 0)
    assert deal.open_card(g.grp, g.players[0].secret, c1, c2, wrong, 16) == -1
    who, i, why = _audit(g)
    assert (who, i) == (1, len(g.log) - 1) and "share" in why


def test_a_shuffle_that_swaps_a_card_is_named_at_its_event():
    g = _game(b"swap")
    g.keys()
    g.sources[0] = list(range(16))
    p0 = g.players[0]
    forged = list(range(16))
    forged[5] = 7                   # two 7s, no 5: distinct ciphertexts, so it passes live
    s = deal.Shuffle(g.grp, g.tables[0].joint, p0.secret, 0, forged, 16)
    step = deal.chunk_cards(g.grp)
    for first in range(0, 16, step):
        g.post(0, ["ss", 0, first, s.chunk(first, step)])
    bad_from = 2
    p1 = g.players[1]
    s1 = deal.Shuffle(g.grp, g.tables[1].joint, p1.secret, 0, g.tables[1].mid[0], 16)
    for first in range(0, 16, step):
        g.post(1, ["ss", 0, first, s1.chunk(first, step)])
    who, i, why = _audit(g)
    assert who == 0 and i >= bad_from and "shuffle" in why
    assert audit_player(g.grp, g.log, g.commits, g.sources, 16, 1, p1.secret) is None


def test_a_key_chosen_after_the_other_is_refused_live():
    g = _game(b"rogue")
    grp = g.grp
    g.post(0, ["sk", deal.public_key(grp, g.players[0].secret)])
    # player 1 would like Y1 = g**z / Y0, so that the joint key is g**z: its commitment forbids it
    y0 = grp.element(g.tables[0].keys[0])
    rogue = grp.to_bytes(grp.mul(grp.pow(grp.g, 12345), grp.inverse(y0)))
    with pytest.raises(SealedError):
        g.tables[0].apply(1, ["sk", rogue])


def test_events_out_of_order_or_malformed_are_refused():
    g = _game(b"order")
    grp = g.grp
    t = Table(grp, g.commits, {0: list(range(16))})
    y = [deal.public_key(grp, p.secret) for p in g.players]
    with pytest.raises(SealedError):
        t.apply(1, ["sk", y[1]])                      # player 0's key comes first
    t.apply(0, ["sk", y[0]])
    with pytest.raises(SealedError):
        t.apply(0, ["ss", 0, 0, [grp.to_bytes(2)] * 2])   # before both keys
    t.apply(1, ["sk", y[1]])
    bad = [
        ["ss", 0, 1, [grp.to_bytes(2)] * 2],          # not the next card
        ["ss", 0, 0, [grp.to_bytes(2)]],              # half a card
        ["ss", 0, 0, [grp.to_bytes(1)] * 2],          # the identity
        ["ss", 0, 0, [grp.to_bytes(grp.q + 1)] * 2],  # not folded
        ["ss", 0, 0, [b"\x05" * 3] * 2],              # wrong length
        ["ss", 0, 0, [7, 7]],
        ["ss", 9, 0, [grp.to_bytes(2)] * 2],          # no such round
        ["ss", 0, 15, [grp.to_bytes(2)] * 4],
        ["so", 0, [0], [grp.to_bytes(5)]],            # no deck yet
        ["zz"], [], "ss",
    ]
    for ev in bad:
        with pytest.raises(SealedError):
            t.apply(0, ev)


def test_a_shuffle_event_fits_the_link_and_the_allocation_budget():
    g = _game(b"size", 55)
    g.keys()
    g.shuffle(0, range(55))
    biggest = max(len(encode(ev)) for _a, ev in g.log)
    assert biggest <= 1024   # the budgets (docs/ARCHITECTURE.md): no allocation in play over 1 KB
    assert len([1 for _a, ev in g.log if ev[0] == "ss"]) == 2 * -(-55 // deal.chunk_cards(g.grp))


def test_exponentiations_per_unit_are_what_the_docs_say():
    g = _game(b"count")
    sp.ping_deal(g)
    assert [c[1] for c in g.cost()] == [40, 40]       # 1 key + 32 re-encryption + 3 + 3 (+1 commit)
    g = _game(b"count", 55)
    sp.periplus_setup(g)
    assert [c[1] for c in g.cost()] == [115, 115]
    g.give(0, 1, [3, 4, 5])
    assert [c[1] for c in g.cost()] == [3, 3]


def test_group_arithmetic_folds_and_inverts():
    grp = Group()
    a = grp.pow(grp.g, 99)
    assert 1 < a <= grp.q
    assert grp.mul(a, grp.inverse(a)) == 1
    assert grp.pow(a, grp.q) == 1                     # every folded element has order q or 1
    assert grp.card_of(grp.card(54), 55) == 54 and grp.card_of(1, 55) == -1
