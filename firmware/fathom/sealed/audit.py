# The end-of-game check of the sealed deal: replay the public transcript and recompute every
# step a player authored from its revealed secret, then every card it claimed to receive.
# One player's secret is enough to check that player (the other's shares are public), so each
# unit audits its partner with the partner's reveal alone; audit() runs it for both.
from fathom.sealed.deal import Shuffle, open_card, public_key, share
from fathom.sealed.group import SealedError
from fathom.sealed.table import Table


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
        tag = ev[0]
        if tag == "sk" and ev[1] != public_key(grp, secret):
            return (i, "event %d: key is not the secret's" % i)
        if tag == "ss":
            rnd = ev[1]
            s = shuffles.get(rnd)
            if s is None:
                src = sources[rnd] if player == 0 else t.mid[rnd]
                s = shuffles[rnd] = Shuffle(grp, t.joint, secret, rnd, src, len(sources[rnd]))
            if s.chunk(ev[2], len(ev[3]) // 2) != ev[3]:
                return (i, "event %d: shuffle is not the secret's" % i)
        if tag == "so":
            for pos, sh in zip(ev[2], ev[3]):
                if sh != share(grp, secret, t.card(ev[1], pos)[0]):
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
            found.append((r[0] if r[0] >= 0 else len(transcript), p, r[1]))
    if not found:
        return None
    found.sort()
    return (found[0][1], found[0][0] if found[0][0] < len(transcript) else -1, found[0][2])

