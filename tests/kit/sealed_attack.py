# The secrecy attack on the sealed deal: from everything one unit holds (the joint seed, its
# own salt and hence its own secrets, every event it sent or received) determine cards of the
# other player's hand. Every way we know to read a card is tried; each returns only cards it
# *determines* (no guesses). With the seeded deal the first method reads the whole hand, so a
# test asserting the sealed deal defeats this attack can fail.
from fathom import games
from fathom.games.seat import SETUP, apply_event, fresh_state, step_kind
from fathom.sealed import deal, stage


def seeded_hand(gid, opts, seed, other):
    """Method 1: deal the other player's hand from the joint seed, as every unit could."""
    eng = games.engine(gid)
    _pub, priv = fresh_state(eng, opts, 2, seed, other)  # no salt: what the seed alone gives
    return sorted(c[0] if isinstance(c, list) else c for c in priv["hand"])


def sealed_cards(gid, opts, seed, me, salt, events):
    """Methods 2 and 3 on a sealed deal: replay the events as `me` with its own secrets, and
    (2) for every card it opened to the other, try to open it with its own share and each share
    the other ever published (and with its own share alone); (3) look for a card's plain
    element anywhere in the events. Returns the cards so determined."""
    eng = games.engine(gid).bind(events)   # the sealed deck is read back from the events
    pub, priv = fresh_state(eng, opts, 2, seed, me, salt)
    if "sd" not in pub:
        return []
    grp = stage.group()
    kinds = pub["sd"]["kinds"]
    setups = {}
    theirs_sealed = []      # (c1, c2) of cards opened to the other player
    their_shares = []
    for author, ev in events:
        kind = step_kind(eng, pub, author, ev, 2, setups)
        if kind == SETUP:
            eng.apply(pub, author, ev)
            setups[author] = ev[2]
            continue
        if ev[0] == "so":
            sd = pub["sd"]
            for p, sh in zip(ev[2], ev[3]):
                if author == me:
                    theirs_sealed.append(stage.card(events, sd["at"][1], 1, sd["rnd"], p))
                else:
                    their_shares.append(sh)
        apply_event(eng, pub, priv, me, author, ev, kind)
    found = []
    for c1, c2 in theirs_sealed:
        mine = deal.share(grp, priv["sd"], c1)
        for sh in their_shares:
            k = deal.reveal(grp, c2, mine, sh, kinds)
            if k >= 0:
                found.append(k)
        one = grp.element(mine)
        target = grp.element(c2)
        for k in range(kinds):
            if grp.mul(one, grp.card(k)) == target:
                found.append(k)
    plain = [grp.to_bytes(grp.card(k)) for k in range(kinds)]
    for _a, ev in events:
        for v in _values(ev):
            if v in plain:
                found.append(plain.index(v))
    return sorted(found)


def _values(v):
    if isinstance(v, (bytes, bytearray)):
        yield bytes(v)
    elif isinstance(v, list):
        for x in v:
            yield from _values(x)


def deal_end(events):
    """The events up to the end of the opening deal (before the first play)."""
    out = []
    for a, ev in events:
        if ev[0] not in ("setup", "sk", "ss", "so"):
            break
        out.append((a, ev))
    return out


def hand_after(gid, opts, seed, player, salt, events):
    """The truth: `player`'s hand after `events` (the opening deal), replayed with its own
    salt (the answers in a deal need no set-up choice)."""
    eng = games.engine(gid).bind(events)
    pub, priv = fresh_state(eng, opts, 2, seed, player, salt)
    setups = {}
    for author, ev in events:
        kind = step_kind(eng, pub, author, ev, 2, setups)
        if kind == SETUP:
            eng.apply(pub, author, ev)
            setups[author] = ev[2]
            continue
        if author == player and kind == "answer":
            assert eng.answer(pub, priv, player) == ev
        apply_event(eng, pub, priv, player, author, ev, kind)
    return sorted(c[0] if isinstance(c, list) else c for c in priv["hand"])


def first_drawer(gid, opts, seed):
    """Who holds cards after the opening deal: both in PING, the first player in Periplus."""
    if gid != "periplus":
        return None
    from fathom.prng import Prng
    return games.engine(gid).new_game(opts, 2, Prng(seed, b"game"))["turn"]


def attack(gid, opts, seed, me, salt, events):
    """Every card of the other player's hand that `me` determines from what it holds."""
    return sorted(seeded_hand(gid, opts, seed, 1 - me) +
                  sealed_cards(gid, opts, seed, me, salt, events))
