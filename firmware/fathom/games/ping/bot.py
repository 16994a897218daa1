# PING bots that play fair: they read only their own seat (public state, own secrets).
# Easy races for the nearest objective and shoots only at a square it is sure of. Sharp plans
# the shortest tour of the objectives left, aims by the tracker (it shoots when the shot covers
# a third of the squares the adversary can still be on), repairs, and avoids LOUD moves and
# handing its guns to the adversary. Spending turns on LISTEN/PING, on ENCRYPT instead of the
# free report, or on a DIVE when found lost the race in measurements against Easy (with the
# dive, sharp won only 53% of them; without, about 80%).
from fathom.compat import const
from fathom.games.bots import Bot
from fathom.games.ping import board as B
from fathom.games.ping import track

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_TAG = const(0)
_HAND_CARDS = const("hand")
_SUB_AT = const("sq")
_DONE = const("done")
_EV_REPORT = const("report")
_EV_LISTEN = const("listen")
_EV_DIVE = const("dive")
_EV_SHUFFLE = const("shuffle")
_AREA = const("area")
_REPORTED = const("rep")
_SLOT_OWNER = const(0)
_SLOT_CARD = const(1)
_EV_DISABLE = const("disable")
_EV_END = const("end")
_A_MOVE = const("move")
_A_TORPEDO = const("torpedo")
_A_REPAIR = const("repair")
_ACT_CARD = const(1)
_MOVE_DEST = const(2)
_MOVE_REPORT = const(3)
_TORPEDO_DIR = const(2)

_FAR = 99


def _objective_distances():
    """_DIST[i] = bytes of BFS distances (along lines) from objective i to every square."""
    out = []
    for o in B.OBJECTIVES:
        d = bytearray([_FAR] * B.NSQ)
        d[o] = 0
        frontier = [o]
        k = 0
        while frontier:
            k += 1
            nxt = []
            for s in frontier:
                for t in B.squares(B.NB[s]):
                    if d[t] == _FAR:
                        d[t] = k
                        nxt.append(t)
            frontier = nxt
        out.append(bytes(d))
    return out


_DIST = _objective_distances()


def _tours():
    """_TOUR[mask*5+i]: fewest steps that start on objective i and visit every objective in mask
    (i in mask), by dynamic programming over the 32 subsets."""
    t = [0] * (32 * 5)
    for mask in range(1, 32):
        for i in range(5):
            if not mask & (1 << i):
                continue
            rest = mask & ~(1 << i)
            best = 0 if not rest else _FAR * 5
            for j in range(5):
                if rest & (1 << j):
                    v = _DIST[i][B.OBJECTIVES[j]] + t[rest * 5 + j]
                    if v < best:
                        best = v
            t[mask * 5 + i] = best
    return t


_TOUR = _tours()


def tour_length(done, sq):
    """Fewest steps from sq through every objective not done yet."""
    left = 31 & ~done
    if not left:
        return 0
    best = _FAR * 5
    for i in range(5):
        if left & (1 << i):
            v = _DIST[i][sq] + _TOUR[left * 5 + i]
            if v < best:
                best = v
    return best


def _count(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


def _bit(sq):
    for i in range(5):
        if B.OBJECTIVES[i] == sq:
            return 1 << i
    return 0


def goal_distance(done, sq):
    """Steps from sq to the nearest objective not done yet (0 when every one is done)."""
    best = _FAR
    for i in range(5):
        if not done & (1 << i) and _DIST[i][sq] < best:
            best = _DIST[i][sq]
    return 0 if best == _FAR else best


def shot_mask(action, sq):
    """Squares a TORPEDO or DECK GUN action from sq would hit."""
    if action[_TAG] == _A_TORPEDO:
        m = 0
        for t in B.path(sq, action[_TORPEDO_DIR]):
            m |= 1 << t
        return m
    return B.NB[sq] | (1 << sq)


# choices the rules make blind (any is as good), and a turn kept open for a late report that
# this bot cannot make (the report, where legal, comes first and both bots take it: it is free)
_BLIND = (_EV_SHUFFLE, _EV_DISABLE, _EV_END)
_SHOTS = (_A_TORPEDO, "gun")


class EasyBot(Bot):
    LEVEL = "easy"
    LABEL = b"pingeasy"

    def act(self, seat):
        legal = seat.legal()
        if [_EV_REPORT] in legal:
            return [_EV_REPORT]
        if legal[0][_TAG] in _BLIND:
            return self.rng.choice(legal)
        foe = track.possible(seat.pub, 1 - seat.player)
        sq = seat.priv[_SUB_AT]
        if _count(foe) == 1:
            for a in legal:
                if a[_TAG] in _SHOTS and shot_mask(a, sq) & foe:
                    return a
        return _progress(legal, seat.priv, self.rng, 0)


_CYCLE = ("encrypt", _EV_LISTEN, _EV_DIVE)   # plays that only pass a card on


def _progress(legal, priv, rng, careful):
    """Move toward an objective; when no move gets closer, repair (or cycle a card) instead,
    so disabled and badly placed cards go back into play."""
    a = _best_move(legal, priv, rng, careful)
    dist = tour_length if careful else goal_distance
    here = dist(priv[_DONE], priv[_SUB_AT])
    if a is None or (not a[_MOVE_REPORT] and dist(priv[_DONE], a[_MOVE_DEST]) >= here):
        for b in legal:
            if b[_TAG] == _A_REPAIR:
                return b
        for b in legal:
            if b[_TAG] in _CYCLE:
                return b
    return a or rng.choice(legal)


def _best_move(legal, priv, rng, careful):
    """The move action that gets closest to an open objective (ties broken at random)."""
    done = priv[_DONE]
    best = None
    best_score = 1 << 30
    four = _count(done) == 4
    for a in legal:
        if a[_TAG] != _A_MOVE:
            continue
        dest = a[_MOVE_DEST]
        score = (tour_length(done, dest) if careful else goal_distance(done, dest)) * 10
        if a[_MOVE_REPORT]:
            if not four:
                continue  # report next turn, just before playing: the tip in the rules
            score = -100
        elif four and _bit(dest) and not done & _bit(dest):
            continue  # the report-and-win variant of this move is better
        if careful:
            steps, util = B.CARDS[a[_ACT_CARD]]
            if steps == 3:
                score += 5          # LOUD: tells the adversary where we are
            if util in (B.TORPEDO, B.DECK_GUN):
                score += 3          # the card we play ends in the adversary's hand
        score = score * 8 + rng.below(8)
        if score < best_score:
            best, best_score = a, score
    return best


class SharpBot(Bot):
    LEVEL = "sharp"
    LABEL = b"pingsharp"
    AIM = 34        # % of the squares the adversary may be on that a shot must cover

    def act(self, seat):
        legal = seat.legal()
        if legal[0][_TAG] in _BLIND:
            return self.rng.choice(legal)
        pub, priv, me = seat.pub, seat.priv, seat.player
        sq = priv[_SUB_AT]
        foe = track.possible(pub, 1 - me)
        nfoe = _count(foe) or 1
        kinds = {}
        for a in legal:
            kinds.setdefault(a[_TAG], a)
        if _EV_REPORT in kinds:
            return [_EV_REPORT]  # free: racing beats hiding (measured against EasyBot)
        # shoot when the shot covers enough of where the adversary may be
        best, best_cover = None, 0
        for a in legal:
            if a[_TAG] in _SHOTS:
                cover = self.cover(seat, shot_mask(a, sq), foe, nfoe)
                if cover > best_cover:
                    best, best_cover = a, cover
        if best is not None and best_cover >= self.aim(seat, foe):
            return best
        dis = 0
        for _c, d in priv[_HAND_CARDS]:
            dis += d
        if _A_REPAIR in kinds and dis >= 2:
            return kinds[_A_REPAIR]
        return self.move(legal, seat)

    def cover(self, seat, hit, foe, nfoe):
        """% of the adversary's possible squares that a shot hitting `hit` covers."""
        return _count(hit & foe) * 100 // nfoe

    def aim(self, seat, foe):
        return self.AIM

    def move(self, legal, seat):
        return _progress(legal, seat.priv, self.rng, 1)



class HardBot(SharpBot):
    """The start with the shortest tour, sharp's aim, and a plan two turns deep over its own cards: each move is valued by the
    best tour left after the move that can follow it, with the two cards kept and the card it
    takes at the end of the turn when that one is face up (a face-down one is not counted on),
    so it does not strand itself on the wrong square colour for an objective."""
    LEVEL = "hard"
    LABEL = b"pinghard"

    def setup(self, seat):
        """Start on one of the squares with the shortest tour of all five objectives (E, V or
        Z: 20 steps, where a random start averages 22.6, a turn of the race). Measured: this
        alone took hard from 50% to 73% of 400 games against sharp."""
        best, out = _FAR * 5, []
        for s in seat.setup_legal():
            v = tour_length(0, s)
            if v < best:
                best, out = v, [s]
            elif v == best:
                out.append(s)
        return self.rng.choice(out)

    def aim(self, seat, foe):
        """Ahead in the race (its tour shorter than the shortest the adversary can have, from
        its reports and the squares it may be on), a shot must cover half of them; behind, a
        quarter: a miss costs a turn and hands over the gun, worth it only when losing."""
        rep = seat.pub[_REPORTED][1 - seat.player]
        theirs = _FAR * 5
        s = 0
        while foe:
            if foe & 1:
                v = tour_length(rep, s)
                if v < theirs:
                    theirs = v
            foe >>= 1
            s += 1
        return 50 if tour_length(seat.priv[_DONE], seat.priv[_SUB_AT]) < theirs else 25

    def move(self, legal, seat):
        priv = seat.priv
        done, sq, hand = priv[_DONE], priv[_SUB_AT], priv[_HAND_CARDS]
        if _count(done) == 4:
            return _progress(legal, priv, self.rng, 1)   # sharp's race to the last report
        area = seat.pub[_AREA]
        taken = area[_SLOT_CARD] if area[_SLOT_OWNER] == 1 - seat.player else -1
        best, best_score = None, 1 << 30
        for a in legal:
            if a[_TAG] != _A_MOVE or a[_MOVE_REPORT]:
                continue
            dest, card = a[_MOVE_DEST], a[_ACT_CARD]
            now = done | _bit(dest)      # an objective reached is reported, free, next turn
            t1 = tour_length(now, dest)
            t2 = t1                       # a utility next turn: it stays
            skip = 1
            for c, dis in hand:
                if c == card and skip:
                    skip = 0
                    continue
                if not dis:
                    t2 = _after(now, dest, c, t2)
            if taken >= 0:
                t2 = _after(now, dest, taken, t2)
            steps, util = B.CARDS[card]
            score = t2 * 40 + t1 * 10
            if steps == 3:
                score += 5          # LOUD: tells the adversary where we are
            if util in (B.TORPEDO, B.DECK_GUN):
                score += 3          # the card we play ends in the adversary's hand
            score = score * 8 + self.rng.below(8)
            if score < best_score:
                best, best_score = a, score
        if best is None or tour_length(done, best[_MOVE_DEST]) >= tour_length(done, sq):
            return _progress(legal, priv, self.rng, 1)
        return best


def _after(done, sq, card, best):
    """The shortest tour left after card's move from sq (or best, when that is shorter)."""
    m = B.reach(sq, B.CARDS[card][0])
    t = 0
    while m:
        if m & 1:
            v = tour_length(done | _bit(t), t)
            if v < best:
                best = v
        m >>= 1
        t += 1
    return best
