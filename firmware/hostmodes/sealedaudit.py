# The end-of-game check of a sealed deal dealt without a game (host only: the protocol tests;
# a game's seat audit, games/audit.py, checks the same steps through stage.py's answers):
# replay the public transcript and recompute every step a player authored from its revealed
# secret, then every card it claimed to receive. One player's secret is enough to check that
# player (the other's shares are public); audit() runs it for both.
from fathom.compat import const
from fathom.sealed.deal import Shuffle, open_card, public_key, share
from fathom.sealed.group import SealedError
from hostmodes.sealedtable import Table

_TAG = const(0)          # copies of sealed/stage.py's names
_KEY_SHARE = const("sk")
_KEY = const(1)
_SHUFFLE_CHUNK = const("ss")
_SHUFFLE_ROUND = const(1)
_SHUFFLE_FROM = const(2)
_SHUFFLE_CARDS = const(3)
_CARD_SHARES = const("so")
_OPEN_ROUND = const(1)
_OPEN_POSITIONS = const(2)
_OPEN_SHARES = const(3)
_C1 = const(0)
_FOUND_AT = const(0)     # audit()'s findings: (transcript index, player, reason)
_FOUND_PLAYER = const(1)
_FOUND_WHY = const(2)
_AT = const(0)           # audit_player()'s verdict: (transcript index or -1, reason)
_WHY = const(1)


def audit_player(grp, transcript, commits, sources, kinds, player, secret, claims=()):
    """None if every sealed step `player` authored matches its secret and every claimed card
    (rnd, pos, card) is what its shares open (cards are 0..kinds-1); else (transcript index or -1 for a claim,
    reason). A transcript that does not even replay publicly names its first bad event's
    author (a peer's unit refuses such an event live, so it only reaches an audit in tests)."""
    t = Table(grp, commits, sources)
    shuffles = {}
    for i, (author, ev) in enumerate(transcript):
        try:
            t.apply(author, ev)
        except SealedError as e:
            if author == player:
                return (i, "event %d does not replay: %s" % (i, e))
            return None  # the other player's fault: its own audit names it
        if author != player:
            continue
        tag = ev[_TAG]
        if tag == _KEY_SHARE and ev[_KEY] != public_key(grp, secret):
            return (i, "event %d: key is not the secret's" % i)
        if tag == _SHUFFLE_CHUNK:
            rnd = ev[_SHUFFLE_ROUND]
            s = shuffles.get(rnd)
            if s is None:
                src = sources[rnd] if player == 0 else t.mid[rnd]
                s = shuffles[rnd] = Shuffle(grp, t.joint, secret, rnd, src, len(sources[rnd]))
            if s.chunk(ev[_SHUFFLE_FROM], len(ev[_SHUFFLE_CARDS]) // 2) != ev[_SHUFFLE_CARDS]:
                return (i, "event %d: shuffle is not the secret's" % i)
        if tag == _CARD_SHARES:
            for pos, sh in zip(ev[_OPEN_POSITIONS], ev[_OPEN_SHARES]):
                if sh != share(grp, secret, t.card(ev[_OPEN_ROUND], pos)[_C1]):
                    return (i, "event %d: share for card %d is not the secret's" % (i, pos))
    for rnd, pos, card in claims:
        theirs = t.shares.get((rnd, pos, 1 - player))
        if theirs is None:
            return (-1, "claims card %d of round %d, never opened to it" % (pos, rnd))
        c1, c2 = t.card(rnd, pos)
        real = open_card(grp, secret, c1, c2, theirs, kinds)
        if real != card:
            return (-1, "claims %d at card %d of round %d, the deal gave %d" %
                    (card, pos, rnd, real))
    return None


def audit(grp, transcript, commits, sources, kinds, secrets, claims):
    """Both players: None, or (player named, transcript index or -1, reason); the earlier
    failing event is named first."""
    found = []
    for p in (0, 1):
        r = audit_player(grp, transcript, commits, sources, kinds, p, secrets[p],
                         claims.get(p, ()))
        if r is not None:
            found.append((r[_AT] if r[_AT] >= 0 else len(transcript), p, r[_WHY]))
    if not found:
        return None
    first = min(found)
    at = first[_FOUND_AT]
    return (first[_FOUND_PLAYER], at if at < len(transcript) else -1, first[_FOUND_WHY])

