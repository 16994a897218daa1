# End-to-end tags of a group game (docs/PROTOCOL.md "Group keys and end-to-end tags"). A group
# is a star through its host, so what one partner authors reaches the others only as the host
# relays it; the channels authenticate each hop, not the author. Every unit holds a key with
# every other unit (groupkeys.py agrees them at group formation) and tags what it authors once
# per other unit, so a receiver checks that a relayed message is what its author sent: an event
# over (index, author, the short hash before it, event, commitment), and at the end the author's
# full chain head (equivocation: two partners shown different logs) and its whole reveal.
# Imported by the runner only when it has group keys: a game of two never loads it.
import hashlib

from fathom import codec
from fathom.link import crypto

TAG = 8          # bytes of one tag: a forger's chance is 2**-64 per try
HOST = 0         # the host is player 0 of a group (connect.py)


def slot(author, receiver):
    """Where `receiver`'s tag sits among `author`'s n-1 tags (player order, author left out)."""
    return receiver if receiver < author else receiver - 1


def _tags(keys, author, label, body):
    out = b""
    for i, k in enumerate(keys):
        if i != author:
            out += crypto.Mac(k).digest(label, body)[:TAG]
    return out


def _ok(keys, me, author, label, body, tags, at=0):
    if not isinstance(tags, bytes) or author == me or not 0 <= author < len(keys):
        return False
    i = at + slot(author, me) * TAG
    return crypto.equal(crypto.Mac(keys[author]).digest(label, body)[:TAG], tags[i:i + TAG])


def _event_body(idx, author, prev8, event, ck):
    return codec.encode([idx, author, prev8, event, ck])


def event_tags(keys, author, idx, prev8, event, ck):
    return _tags(keys, author, b"fathom ev", _event_body(idx, author, prev8, event, ck))


def event_ok(keys, me, author, idx, prev8, event, ck, tags):
    if not isinstance(tags, bytes) or len(tags) != (len(keys) - 1) * TAG:
        return False
    return _ok(keys, me, author, b"fathom ev", _event_body(idx, author, prev8, event, ck), tags)


def _end_body(author, n_log, chain):
    return codec.encode([author, n_log]) + chain


def reveal_digest(player, salt, setup, count, actions):
    """One hash over a reveal's head and every action (any iterable, read once)."""
    h = hashlib.sha256(b"fathom rv")
    codec.feed(h, [player, salt, setup, count])
    for a in actions:
        codec.feed(h, a)
    return h.digest()


def head_tags(keys, author, n_log, chain, digest):
    """A reveal head's tags: n-1 over the author's final chain (equivocation), then n-1 over
    its reveal's digest."""
    return (_tags(keys, author, b"fathom end", _end_body(author, n_log, chain)) +
            _tags(keys, author, b"fathom rd", digest))


def head_size(n):
    return 2 * (n - 1) * TAG


def end_ok(keys, me, author, n_log, chain, tags):
    return _ok(keys, me, author, b"fathom end", _end_body(author, n_log, chain), tags)


def reveal_ok(keys, me, author, digest, tags):
    return _ok(keys, me, author, b"fathom rd", digest, tags, (len(keys) - 1) * TAG)


def _got(key, sender, author, digest):
    return crypto.Mac(key).digest(b"fathom got", codec.encode([sender, author]) + digest)[:TAG]


def got_tag(keys, me, author, digest):
    """Unit `me`'s receipt for `author`'s whole reveal (its digest), tagged for `author` alone:
    a partner learns end to end that another partner received its reveal through the host."""
    return _got(keys[author], me, author, digest)


def got_ok(keys, me, sender, digest, tag):
    """`tag` is `sender`'s receipt for this unit's (`me`) reveal with this digest."""
    return isinstance(tag, bytes) and crypto.equal(_got(keys[sender], sender, me, digest), tag)


def relayed(me, author):
    """True when `author`'s messages reach unit `me` only through the host."""
    return me != HOST and author != HOST


def who(p):
    return "the host (P%d)" % (p + 1) if p == HOST else "P%d" % (p + 1)


def forged_event(me, author, idx):
    """What a failed event tag says, naming who can have caused it."""
    if relayed(me, author):
        return "the host (P1) altered P%d's event %d or the game before it" % (author + 1, idx)
    return "%s sent event %d with a bad tag" % (who(author), idx)


def other_game(me, author):
    if relayed(me, author):
        return "the host (P1) showed P%d a different game" % (author + 1)
    if author == HOST:
        return "the host (P1) showed this unit a different game"
    return "P%d claims a different game than this unit's" % (author + 1)


def forged_reveal(me, author):
    if relayed(me, author):
        return "the host (P1) altered P%d's reveal" % (author + 1)
    return "%s sent a reveal that fails its tag" % who(author)


def withheld(me, author):
    """The verdict on a reveal that did not come in time, naming every unit that could have
    kept it: a relayed reveal may have been dropped by its author or by the host."""
    if relayed(me, author):
        return "P%d, or the host P1 that relays it, did not reveal: not verified" % (author + 1)
    return "%s did not reveal: not verified, counts as a loss" % who(author)


def unconfirmed(q):
    """What this partner's unit says when partner `q` never confirmed its reveal in time."""
    return "P%d did not receive my reveal from the host P1 (or the host kept its receipt)" % (
        q + 1)
