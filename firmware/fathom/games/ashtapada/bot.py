# Lake Ashtapada bots. Both see only their own seat: the public record and their own mines.
# Sharp keeps to squares the ping reports prove empty, sounds where the reports split the
# remaining candidate squares best, and depth-charges only proved mines (or one good gamble).
from fathom.compat import const
from fathom.games.ashtapada.engine import candidates, certain, distance, reports
from fathom.games.bots import Bot

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_TAG = const(0)
_SIZE = const("size")
_MINES = const("mines")
_DEAD = const("dead")
_MISSED = const("miss")
_EV_MOVE = const("move")
_MOVE_PATH = const(1)
_EV_SOUND = const("sound")
_EV_DEPTH = const("depth")
_CHARGE_SQ = const(1)
_C_MINE = const("mine")
_CHOICE_SQ = const(1)
_MY_MINES = const("mines")


def _cheb(a, b, n):
    dr = a // n - b // n
    dc = a % n - b % n
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    return dr if dr > dc else dc


def _nearest(sq, squares, n):
    best = 99
    for s in squares:
        d = _cheb(sq, s, n)
        if d < best:
            best = d
    return best


def _split(q, squares, n):
    """Sum of squared group sizes when `squares` are grouped by their ping distance from q:
    the expected size of what is left after one report, lower is better."""
    groups = {}
    for s in squares:
        d = distance(n, q, s)
        groups[d] = groups.get(d, 0) + 1
    t = 0
    for k in groups:
        t += groups[k] * groups[k]
    return t


def candidates_since(bot, pub, player):
    """engine.candidates(pub, player), started from the bot's last decision's (a test holds the
    two to each other over whole games): on an ESP32 that keeps a decision's median under 50 ms."""
    bot.cand = candidates(pub, player, bot.cand)
    return bot.cand


def _safe_moves(legal, cand):
    return [a for a in legal if a[_TAG] == _EV_MOVE and not any(cand[s] for s in a[_MOVE_PATH])]


def _sounded(pub, player):
    dead = len(pub[_DEAD][1 - player])
    return [at for by, at, _times, nd in reports(pub) if by == player and nd == dead]


class SharpBot(Bot):
    LEVEL = "sharp"
    LABEL = b"sharp"
    cand = None   # the candidates at the last decision (candidates_since)

    def act(self, seat):
        pub = seat.pub
        me = seat.player
        n = pub[_SIZE]
        legal = seat.legal()
        cand = candidates_since(self, pub, me)
        left = [s for s in range(n * n) if cand[s]]
        if not left:  # the reports contradict each other: someone lied; play on blindly
            return self.rng.choice(legal)
        sure = certain(pub, me, cand)
        charges = [a[_CHARGE_SQ] for a in legal if a[_TAG] == _EV_DEPTH]
        for s in sure:
            if s in charges:
                return [_EV_DEPTH, s]
        live = pub[_MINES] - len(pub[_DEAD][1 - me])
        near = [s for s in charges if cand[s]]
        if near and not pub[_MISSED][me] and 2 * live >= len(left):
            return [_EV_DEPTH, self.rng.choice(near)]
        safe = _safe_moves(legal, cand)
        if sure and safe:
            best = self._closest(safe, sure, n)
            if best is not None:
                return best
        done = _sounded(pub, me)
        fresh = [s for s in charges if s not in done]
        if fresh:
            scores = [(_split(q, left, n), q) for q in fresh]
            scores.sort()
            if scores[0][0] < len(left) * len(left):
                return [_EV_SOUND, scores[0][1]]
        if safe:
            return self._explore(safe, left, done, n)
        return [_EV_SOUND, self.rng.choice(charges)]

    def _closest(self, safe, sure, n):
        """The safe move ending nearest a proved mine (adjacent is the aim)."""
        best = None
        for a in safe:
            key = (_nearest(a[_MOVE_PATH][-1], sure, n), len(a[_MOVE_PATH]))
            if best is None or key < best[0]:
                best = (key, a)
        return best[1]

    def _explore(self, safe, left, done, n):
        """The safe move to the square whose own sounding would split the candidates best."""
        seen = {}
        for a in safe:
            end = a[_MOVE_PATH][-1]
            if end not in seen:
                seen[end] = a
        best = None
        for end in sorted(seen):
            key = (end in done, _split(end, left, n), _nearest(end, left, n))
            if best is None or key < best[0]:
                best = (key, seen[end])
        return best[1]


class EasyBot(Bot):
    """Moves only where its own boat has been or the proof says empty, sounds often, and
    gambles on an adjacent candidate square now and then."""
    LEVEL = "easy"
    LABEL = b"easy"
    cand = None

    def act(self, seat):
        pub = seat.pub
        me = seat.player
        legal = seat.legal()
        cand = candidates_since(self, pub, me)
        charges = [a[_CHARGE_SQ] for a in legal if a[_TAG] == _EV_DEPTH]
        near = [s for s in charges if cand[s]]
        if near and not pub[_MISSED][me] and self.rng.below(4) == 0:
            return [_EV_DEPTH, self.rng.choice(near)]
        safe = _safe_moves(legal, cand)
        if safe and self.rng.below(2):
            return self.rng.choice(safe)
        return [_EV_SOUND, self.rng.choice(charges)]


BOTS = (EasyBot, SharpBot)


class HardBot(SharpBot):
    """Sharp's play over a harder lake: its mines lie spread out, each as far from the others as
    the half allows (more than three squares where it can), on the rim three times in four.
    Close mines give each other away: one proved mine narrows its neighbours' squares, and a
    boat beside one charges the next without a move. Measured against sharp (200 games, seats
    alternated): random mines 50%, far from the enemy boat 43%, spread 64%, spread and on the
    rim 69% of decided games."""
    LEVEL = "hard"
    LABEL = b"hard"
    APART = 3     # Chebyshev distance a mine keeps from the others (less only when none fits)
    RIM = 75      # % of mines put on the rim when a spread rim square is free

    def setup(self, seat):
        legal = seat.setup_legal()
        if legal[0][_TAG] != _C_MINE:
            return self.rng.choice(legal)      # islands: anywhere they may go
        n = seat.pub[_SIZE]
        mines = seat.priv[_MY_MINES]
        rim = self.rng.below(100) < self.RIM
        for apart in range(self.APART, 0, -1):
            ok = [a for a in legal if _nearest(a[_CHOICE_SQ], mines, n) > apart]
            if ok:
                edge = [a for a in ok if _on_rim(a[_CHOICE_SQ], n)]
                return self.rng.choice(edge if edge and rim else ok)
        return self.rng.choice(legal)


def _on_rim(sq, n):
    r, c = sq // n, sq % n
    return r == 0 or c == 0 or r == n - 1 or c == n - 1
