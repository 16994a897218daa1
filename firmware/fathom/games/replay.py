# The reveal after the audit: the finished game played again with every player's secrets, one
# event at a time. It reads the seat's journal as the audit does (games/audit.py): the log one
# record at a time, each player's revealed actions one at a time, and keeps only the state as it
# stands (the public state and one private state per player). Nothing grows with the game:
# stepping back replays from the start. Loaded only when the result screen opens it.
from fathom.compat import const
from fathom.prng import Prng
from fathom.games.base import CONCEDE, SETUP, event_tag
from fathom.games.seat import step_kind

_TURN_ACT = const("act")   # copies of seat.py's turn kinds
_TURN_ANSWER = const("answer")
_VERDICT_AT = const(0)     # a failed audit's verdict (games/audit.py): (log index or -1, reason)
_VERDICT_WHY = const(1)
_ST_SALT = const(0)        # copies of runner.py's names for Runner.reveals[player]
_ST_SETUP = const(1)
_REC_AUTHOR = const(1)     # copies of seat.py's names for its journal's event record
_REC_EVENT = const(2)
_SETUP_COMMIT = const(2)   # a copy of base.py's
_WHOSE = const(0)          # copies of seat.py's names for a turn
_KIND = const(1)
_LAST_EVENT = const(1)     # Replay.last: (author, event, kind)
_FAILED_PLAYER = const(0)  # Replay.failed: (player, log index or -1 for the set-up, reason)
_FAILED_AT = const(1)
_FAILED_WHY = const(2)


class Replay:
    """The game as it stood after `at` events of the log (0: every set-up chosen, nothing
    played), with `pub` and `privs[player]`. `end` is how far it replays: the whole log, or up
    to the event a failed audit names (`failed`: (player, index, reason))."""

    def __init__(self, runner, kept=None):
        self.runner = runner
        self.kept = kept          # the private state's key whose list `before` keeps
        s = self.seat = runner.seat
        self.engine = s.engine
        self.n = s.n
        self.end = s.n_log
        self.failed = None
        for p in sorted(runner.verdicts):
            v = runner.verdicts[p]
            if isinstance(v, (list, tuple)):  # a failed audit (None: verified)
                idx = max(0, v[_VERDICT_AT])
                if idx < self.end or self.failed is None:
                    self.end = min(self.end, idx)
                    self.failed = (p, v[_VERDICT_AT], v[_VERDICT_WHY])
        self._log = None
        self._acts = None
        self.restart()

    # ---- what each player revealed --------------------------------------------------------
    def _reveal(self, p):
        """(salt, set-up choices) of player p."""
        s = self.seat
        if p == s.player:
            return s.salt, s.setup_choices
        st = self.runner.reveals[p]
        return st[_ST_SALT], st[_ST_SETUP]

    def _actions(self, p):
        s = self.seat
        if p == s.player:
            return _own(s)
        return self.runner._revealed_actions(p)

    # ---- stepping ---------------------------------------------------------------------------
    def close(self):
        """Close the journal readers (MicroPython does not close an abandoned generator)."""
        if self._log is not None:
            self._log.close()
        for a in self._acts or ():
            a.close()
        self._log = self._acts = None

    def restart(self):
        """Back to the start: every set-up chosen, no event played."""
        self.close()
        s, e = self.seat, self.engine
        self.pub = e.new_game(s.opts, self.n, Prng(s.seed, b"game"))
        self.privs = []
        seal = getattr(e, "seal", None)
        for p in range(self.n):
            salt, choices = self._reveal(p)
            priv = e.new_private(self.pub, p, Prng(s.seed, b"deal"))
            if seal is not None:
                seal(self.pub, priv, salt)
            for c in choices:
                e.setup_apply(self.pub, priv, p, c)
            self.privs.append(priv)
        self.setups = {}
        self.at = 0
        self.last = None          # (author, event, kind) of the newest event played
        self.before = None        # privs[p][kept] before it, a copy a player (kept: None)
        self.actor = None         # the author of the newest action
        self.opens = False        # the newest event began a turn
        self._log = s.records()
        self._acts = [self._actions(p) for p in range(self.n)]

    def forward(self):
        """Play the next event; False at the end."""
        if self.at >= self.end:
            return False
        rec = next(self._log)
        author, event = rec[_REC_AUTHOR], rec[_REC_EVENT]
        e, pub = self.engine, self.pub
        kind = step_kind(e, pub, author, event, self.n, self.setups)
        k = self.kept
        if k is not None:
            self.before = [list(v[k]) for v in self.privs]
        if kind == SETUP:
            e.apply(pub, author, event)
            self.setups[author] = event[_SETUP_COMMIT]
        elif kind == CONCEDE:
            e.concede(pub, author)
        else:
            priv = self.privs[author]
            if kind == _TURN_ACT:
                e.act(pub, priv, author, next(self._acts[author]))
            elif kind == _TURN_ANSWER:
                e.answer(pub, priv, author)
            e.apply(pub, author, event)
            for p in range(self.n):
                e.apply_private(pub, self.privs[p], p, author, event)
        self.last = (author, event, kind)
        self.opens = kind == _TURN_ACT and author != self.actor   # this event began a turn
        if kind == _TURN_ACT:
            self.actor = author
        self.at += 1
        return True

    def goto(self, i):
        """The state after i events (0..end)."""
        i = max(0, min(i, self.end))
        if i < self.at:
            self.restart()
        while self.at < i and self.forward():
            pass

    def back(self):
        self.goto(self.at - 1)

    def next_turn(self):
        """Forward to just before the next turn's first action (a turn: a player's actions,
        up to another player's action), or to the end."""
        if not self.forward():
            return
        e = self.engine
        while self.at < self.end:
            t = e.turn(self.pub) if len(self.setups) == self.n else None
            if t is not None and t[_KIND] == _TURN_ACT and t[_WHOSE] != self.actor:
                return
            self.forward()

    def prev_turn(self):
        """Back to the start of the turn before the step shown (two runs from the start)."""
        target = self.at
        self.restart()
        best = 0
        while self.at < target and self.forward():
            if self.opens:
                best = self.at - 1
        self.goto(best)

    def gained(self, p):
        """What player p's kept list gained with the step shown (a draw's cards, a mine)."""
        return _less(self.privs[p][self.kept], self.before[p]) if self.before else []

    def lost(self, p):
        """What it lost (a card played)."""
        return _less(self.before[p], self.privs[p][self.kept]) if self.before else []

    def tag(self):
        return event_tag(self.last[_LAST_EVENT]) if self.last else None


def _less(a, b):
    out = list(a)
    for x in b:
        if x in out:
            out.remove(x)
    return out


def _own(seat):
    g = seat.my_actions()
    try:
        for _p, _e, a in g:
            yield a
    finally:
        g.close()

