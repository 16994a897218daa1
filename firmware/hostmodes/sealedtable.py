# The public side of a sealed deal dealt without a game (host only: the bench's two players in
# one process, hostmodes/sealedplay.py, and the protocol tests): a transcript of the deal's
# events applied through the deal's one apply, sealed/stage.py's, which every unit's engine runs
# too. The table adds what a game's engine does around it: the rounds' known cards (`sources`,
# filled in by the caller as it shuffles), each opening queued from its event, the log the deck
# is read back from, and the shares kept for the private openings and the audit
# (hostmodes/sealedaudit.py).
#
# Events (an engine wraps them in its own events: ping/engine.py, periplus/engine.py):
#   ["sk", key]                    a player's public key, once, player 0 first
#   ["ss", rnd, first, [values]]   a shuffle chunk: cards first.. of this player's output
#   ["so", rnd, [pos, ...], [share, ...]]   the author's shares for those positions
# Round rnd: player 0 shuffles sources[rnd] (known cards), then player 1 shuffles that.
from fathom.compat import const
from fathom.sealed import stage
from fathom.sealed.deal import joint_key
from fathom.sealed.group import SealedError

_TAG = const(0)          # copies of sealed/stage.py's names
_SHUFFLE_CHUNK = const("ss")
_SHUFFLE_ROUND = const(1)
_CARD_SHARES = const("so")
_OPEN_ROUND = const(1)
_OPEN_POSITIONS = const(2)
_OPEN_SHARES = const(3)
_P0 = const(0)
_P1 = const(1)
_TOTAL = const(1)


class Table:
    def __init__(self, grp, commits, sources):
        self.grp = grp
        self.sources = sources      # rnd -> list of the known cards that round shuffles
        self.sd = stage.new(0)
        for p in (_P0, _P1):
            stage.set_commit(self.sd, p, commits[p])
        self.log = []               # (author, event): the deck is read back from it
        self.rounds = 0             # rounds queued so far
        self.at = {}                # rnd -> log index of player 1's first chunk of it
        self.shares = {}            # (rnd, pos, player) -> share bytes

    @property
    def keys(self):
        return self.sd["keys"]

    @property
    def joint(self):
        k = self.sd["keys"]
        return None if k[_P1] is None else joint_key(self.grp, k[_P0], k[_P1])

    def apply(self, author, ev):
        if not isinstance(ev, list) or not ev or author not in (_P0, _P1):
            raise SealedError("malformed sealed event")
        sd, tag = self.sd, ev[_TAG]
        if tag == _SHUFFLE_CHUNK and len(ev) == 4 and self.sd["keys"][_P1] is not None:
            rnd = ev[_SHUFFLE_ROUND]
            if type(rnd) is not int or rnd not in self.sources:
                raise SealedError("no round %r" % (rnd,))
            if rnd == self.rounds:   # a new round: queued as an engine queues it
                stage.shuffle(sd, self.sources[rnd])
                self.rounds += 1
        opening = tag == _CARD_SHARES and len(ev) == 4 and isinstance(ev[_OPEN_POSITIONS], list)
        if opening:   # the shares say what they open: queued as a game's rules would
            stage.open_to(sd, 1 - author, ev[_OPEN_ROUND], ev[_OPEN_POSITIONS])
        try:
            stage.apply(sd, author, ev, self.grp)
        except (TypeError, IndexError, KeyError, AttributeError, ValueError):
            self._undo(opening, ev)
            raise SealedError("malformed sealed event")
        except SealedError:
            self._undo(opening, ev)
            raise
        stage.count(sd)
        i = len(self.log)
        self.log.append((author, ev))
        if tag == _SHUFFLE_CHUNK and author == _P1:
            self.at[ev[_SHUFFLE_ROUND]] = sd["at"][_P1]
        elif opening:
            for pos, s in zip(ev[_OPEN_POSITIONS], ev[_OPEN_SHARES]):
                self.shares[(ev[_OPEN_ROUND], pos, author)] = s
        return i

    def _undo(self, opening, ev):
        """A refused event's opening leaves the queue (stage.apply changed nothing)."""
        q = self.sd["q"]
        if opening and ev[_OPEN_POSITIONS] and q:
            q.pop()
            self.sd["w"][_TOTAL] -= len(ev[_OPEN_POSITIONS])

    @property
    def mid(self):
        """rnd -> player 0's shuffled deck of the round under way, read back from the log."""
        return _Mid(self)

    def card(self, rnd, pos):
        """(c1, c2) of a sealed position."""
        if rnd not in self.at:
            raise SealedError("round %r is not sealed" % (rnd,))
        return stage.card(self.log, self.at[rnd], _P1, rnd, pos, self.grp)


class _Mid:
    def __init__(self, table):
        self.t = table

    def __getitem__(self, rnd):
        sd = self.t.sd
        if rnd != sd["rnd"]:
            raise KeyError(rnd)
        return stage._Chunks(self.t.log, sd, self.t.grp)
