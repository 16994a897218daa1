# The public side of a sealed deal: what every unit checks and keeps as the events arrive, with
# no exponentiation (so apply() stays fast): keys against their set-up commitments, shuffle
# chunks in order and well-formed, shares well-formed. An engine may keep these fields in its
# public state; the audit (audit.py) replays a transcript through it.
#
# Events (payloads; an engine wraps them in its own event tags):
#   ["sk", key]                    a player's public key, once, player 0 first
#   ["ss", rnd, first, [values]]   a shuffle chunk: cards first.. of this player's output
#   ["so", rnd, [pos, ...], [share, ...]]   the author's shares for those positions
# Round rnd: player 0 shuffles sources[rnd] (known cards), then player 1 shuffles that.
from fathom.sealed.deal import check_key, joint_key, read_chunk, read_share, distinct
from fathom.sealed.group import SealedError


class Table:
    def __init__(self, grp, commits, sources):
        self.grp = grp
        self.commits = commits      # [key commitment of player 0, of player 1]
        self.sources = sources      # rnd -> list of the known cards that round shuffles
        self.keys = [None, None]
        self.joint = None
        self.mid = {}               # rnd -> player 0's shuffled deck (flat)
        self.deck = {}              # rnd -> the final deck (flat), complete or growing
        self.shares = {}            # (rnd, pos, player) -> share bytes

    def n(self, rnd):
        if type(rnd) is not int or rnd not in self.sources:
            raise SealedError("no round %r" % (rnd,))
        return len(self.sources[rnd])

    def ready(self, rnd):
        """The final deck of round rnd is complete."""
        n = self.n(rnd)
        d = self.deck.get(rnd)
        return d is not None and len(d) == 2 * n

    def apply(self, author, ev):
        if not isinstance(ev, list) or not ev or author not in (0, 1):
            raise SealedError("malformed sealed event")
        tag = ev[0]
        if tag == "sk":
            if len(ev) != 2 or self.keys[author] is not None or \
                    (author == 1 and self.keys[0] is None):
                raise SealedError("key out of order")
            self.keys[author] = check_key(self.grp, ev[1], self.commits[author])
            if author == 1:
                self.joint = joint_key(self.grp, self.keys[0], self.keys[1])
        elif tag == "ss":
            if len(ev) != 4 or self.joint is None:
                raise SealedError("shuffle before both keys")
            rnd = ev[1]
            n = self.n(rnd)
            if author == 0:
                if rnd in self.mid and len(self.mid[rnd]) == 2 * n:
                    raise SealedError("player 0 already shuffled round %d" % rnd)
                out = self.mid.setdefault(rnd, [])
            else:
                if rnd not in self.mid or len(self.mid[rnd]) != 2 * n:
                    raise SealedError("player 1 shuffles after player 0")
                if self.ready(rnd):
                    raise SealedError("round %d already sealed" % rnd)
                out = self.deck.setdefault(rnd, [])
            out.extend(read_chunk(self.grp, ev[3], ev[2], n, len(out) // 2))
            if len(out) == 2 * n and not distinct(out):
                raise SealedError("a card appears twice in the shuffled deck")
        elif tag == "so":
            if len(ev) != 4 or not isinstance(ev[2], list) or not isinstance(ev[3], list) \
                    or len(ev[2]) != len(ev[3]) or not ev[2]:
                raise SealedError("malformed shares")
            rnd = ev[1]
            if not self.ready(rnd):
                raise SealedError("shares before the deck is sealed")
            n = self.n(rnd)
            for pos, s in zip(ev[2], ev[3]):
                if type(pos) is not int or not 0 <= pos < n:
                    raise SealedError("share position out of range")
                if (rnd, pos, author) in self.shares:
                    raise SealedError("share given twice")
                self.shares[(rnd, pos, author)] = read_share(self.grp, s)
        else:
            raise SealedError("unknown sealed event %r" % (tag,))

    def card(self, rnd, pos):
        """(c1, c2) of a sealed position."""
        d = self.deck[rnd]
        return d[2 * pos], d[2 * pos + 1]
