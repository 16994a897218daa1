# Sugar Dog bots. They read only their own seat: the public log and state, and their own secrets.
# SharpBot keeps, for every enemy, the set of squares its submarine can still be in (a bitmask
# over the map), narrowed by every announcement and every "no contact" answer and widened by one
# square at each silent turn; it shoots when a torpedo's squares cover enough of that set.
from fathom.compat import const
from fathom.games.bots import Bot
from fathom.games.sugardog.engine import back, step, neighbours

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_TAG = const(0)
_EV_QUIET = const("q")
_EV_CRUISE = const("c")
_CRUISE_AT = const(1)
_EV_FIRE = const("f")
_FIRE_AT = const(1)
_FIRE_HEADING = const(2)
_EV_SONAR = const("s")
_SONAR_AT = const(1)
_SONAR_MINES = const(2)
_EV_ECHO = const("e")
_EV_ANSWER = const("a")
_ANSWER_SQUARES = const(1)
_ANSWER_RES = const(2)
_CLEAR = const(0)
_MINE_HIT = const(1)
_SIZE = const("size")
_ALIVE = const("alive")
_PHASE = const("ph")
_TORPS = const("torps")
_T_OWNER = const(1)
_T_SQ = const(2)
_T_HEADING = const(3)
_PH_STEP2 = const("c2")
_POS = const("pos")
_A_KIND = const(0)
_A_TO = const(1)
_A_HEADING = const(1)


def popcount(b):
    return bin(b).count("1")


class Tracker:
    """What the public log says about each enemy: possible squares and known mines."""

    def __init__(self, seat):
        pub = seat.pub
        self.me = seat.player
        self.size = size = pub[_SIZE]
        cells = size * size
        self.full = (1 << cells) - 1
        col0 = 0
        for y in range(size):
            col0 |= 1 << (y * size)
        self.not_first = self.full ^ col0               # squares with x != 0
        self.not_last = self.full ^ (col0 << (size - 1))  # squares with x != size - 1
        n = len(pub[_ALIVE])
        self.can = [self.full] * n
        self.mines = [[] for _ in range(n)]
        self.seen = 0

    def expand(self, b):
        s = self.size
        return (b | ((b << s) & self.full) | (b >> s) | ((b << 1) & self.not_first)
                | ((b >> 1) & self.not_last))

    def pin(self, p, sq):
        self.can[p] = 1 << sq

    def clear(self, p, sq):
        self.can[p] &= ~(1 << sq)
        if not self.can[p]:
            self.can[p] = self.full  # a contradiction (a lie, or a bug): start over
        if sq in self.mines[p]:
            self.mines[p].remove(sq)

    def update(self, log):
        size = self.size
        while self.seen < len(log):
            author, ev = log[self.seen]
            self.seen += 1
            if author == self.me or not ev:
                continue
            tag = ev[_TAG]
            if tag == _EV_QUIET:     # one silent step (or none) from anywhere it could be
                self.can[author] = self.expand(self.can[author])
            elif tag == _EV_CRUISE:
                self.pin(author, ev[_CRUISE_AT])
            elif tag == _EV_FIRE:
                self.pin(author, step(size, ev[_FIRE_AT], back(ev[_FIRE_HEADING])))
            elif tag == _EV_SONAR or tag == _EV_ECHO:   # an echo has a ping's shape
                self.pin(author, ev[_SONAR_AT])
                self.mines[author] = list(ev[_SONAR_MINES])
            elif tag == _EV_ANSWER:
                # clear up to the last square named; a mine there is spent, a sub there sunk
                sqs, res = ev[_ANSWER_SQUARES], ev[_ANSWER_RES]
                for q in sqs[:-1] if res != _CLEAR else sqs:
                    self.clear(author, q)
                if res == _MINE_HIT:
                    self.clear(author, sqs[-1])


def torpedo_path(pub, sq, d, stop_mask=0):
    """Squares a torpedo from sq heading d enters in its next two moves (stops on a known mine)."""
    out = []
    for _i in range(2):
        sq = step(pub[_SIZE], sq, d)
        if sq < 0:
            break
        out.append(sq)
        if stop_mask >> sq & 1:
            break
    return out


class SharpBot(Bot):
    LEVEL = "sharp"
    LABEL = b"sharp"
    # fire when a torpedo covers at least this % of an enemy's possible squares: at 34 sharp beat
    # easy in 66% of 400 decided games; at 24, 71% of 1000 (hard, at 15, still beats it 68%)
    SHOOT = 24
    PING = 7       # ping when the best-known enemy could be in this many squares or more

    def __init__(self, seed, player):
        Bot.__init__(self, seed, player)
        self.tr = None
        self.goal = -1

    def setup(self, seat):
        size = seat.pub[_SIZE]
        # Away from the rim, where a torpedo along the edge row or column is likeliest. The
        # inner square is computed, not picked from a list (324 squares would be a 2 KB block
        # on a unit); the same draw picks the same square as choice() over the inner squares.
        k = size - 2
        i = self.rng.below(k * k)
        return (1 + i // k) * size + 1 + i % k

    def _foes(self, pub):
        alive = pub[_ALIVE]
        return [p for p in range(len(alive)) if p != self.player and alive[p]]

    def _danger(self, pub):
        """Squares enemy torpedoes will sweep before my next turn."""
        bad = 0
        for t in pub[_TORPS]:
            if t[_T_OWNER] != self.player:
                for q in torpedo_path(pub, t[_T_SQ], t[_T_HEADING]):
                    bad |= 1 << q
        return bad

    def _mine_mask(self, foes):
        m = 0
        for p in foes:
            for q in self.tr.mines[p]:
                m |= 1 << q
        return m

    def _shot(self, pub, sq, d, cans, mines):
        """Expected enemies hit (in % of one) by a torpedo fired from sq heading d."""
        path = torpedo_path(pub, sq, d, mines)
        score = 0
        for b in cans:
            hit = 0
            for q in path:
                hit |= 1 << q
            score += 100 * popcount(b & hit) // popcount(b)
        return score

    def _best_shot(self, pub, sq, cans, mines):
        best, bd = -1, -1
        for d in range(4):
            if step(pub[_SIZE], sq, d) >= 0:
                s = self._shot(pub, sq, d, cans, mines)
                if s > best:
                    best, bd = s, d
        return best, bd

    def act(self, seat):
        legal = seat.legal()
        pub = seat.pub
        if self.tr is None:
            self.tr = Tracker(seat)
        self.tr.update(seat.log)
        foes = self._foes(pub)
        pos = seat.priv[_POS]
        danger = self._danger(pub)
        mines = self._mine_mask(foes)
        cans = [self.tr.can[p] for p in foes]
        if pub[_PHASE] == _PH_STEP2:
            return self._second_step(legal, pos, danger, mines, cans)
        score, d = self._best_shot(pub, pos, cans, mines)
        if score >= self.SHOOT and ["fire", d] in legal:
            return ["fire", d]
        here_bad = danger >> pos & 1
        if not here_bad and min([popcount(b) for b in cans]) >= self.PING and \
                self.rng.below(3) == 0 and self._threat(pub, pos, cans) < 25:
            return ["sonar"]
        # Move where next turn's shot is best against where the enemies may have gone by then.
        later = [self.tr.expand(b) for b in cans]
        best, choice = -1, None
        for a in legal:
            if a[_A_KIND] != "run" or danger >> a[_A_TO] & 1:
                continue
            shot, _d = self._best_shot(pub, a[_A_TO], later, mines)
            s = shot * 4 + self.rng.below(4)
            for b in later:
                # a square an enemy may cruise into (or share) is a draw waiting to happen
                s -= 800 * (b >> a[_A_TO] & 1) // popcount(b)
            if s > best:
                best, choice = s, a
        if choice is None:
            return self._escape(legal, pos, danger, mines, cans)
        if choice[_A_TO] == pos and ["mine"] in legal and self.rng.below(2) == 0:
            return ["mine"]
        return choice

    def _threat(self, pub, sq, cans):
        """% chance an enemy could torpedo sq next turn if it knew I was there."""
        reach = 0
        for d in range(4):
            for q in torpedo_path(pub, sq, d):
                reach |= 1 << q
        return sum([100 * popcount(b & reach) // popcount(b) for b in cans])

    def _unsafe(self, q, danger, mines, cans):
        if (danger | mines) >> q & 1:
            return True
        for b in cans:
            if b >> q & 1 and popcount(b) <= 4:
                return True
        return False

    def _escape(self, legal, pos, danger, mines, cans):
        """Every silent step is swept: cruise out, if some path is clear. A first square out of
        the sweep is enough: the cruise stops there (no further contacts), since a second
        announced square tells the enemies no less and may meet an unknown mine."""
        size = self.tr.size
        for a in legal:
            if a[_A_KIND] == "cruise" and not self._unsafe(a[_A_TO], danger, mines, cans):
                self.goal = a[_A_TO]
                return a
        for a in legal:
            if a[_A_KIND] != "cruise" or self._unsafe(a[_A_TO], 0, mines, cans):
                continue
            for q in neighbours(size, a[_A_TO]):
                if q != pos and not self._unsafe(q, danger, mines, cans):
                    self.goal = q
                    return a
        for a in legal:
            if a[_A_KIND] == "run":
                return a
        return legal[0]

    def _second_step(self, legal, pos, danger, mines, cans):
        """Stop where the first square is the goal or safe, else the goal square, else a safe
        second square."""
        if self.goal == pos or not self._unsafe(pos, danger, mines, cans):
            return ["stop"]
        steps = [a for a in legal if a[_A_KIND] == "cruise"]
        for a in steps:
            if a[_A_TO] == self.goal:
                return a
        for a in steps:
            if not self._unsafe(a[_A_TO], danger, mines, cans):
                return a
        return ["stop"]


# The events that are a player's own command (not an answer to another's): the turn's end
_COMMANDS = (_EV_QUIET, _EV_CRUISE, _EV_SONAR, _EV_FIRE)


class EasyBot(Bot):
    """Shoots at an enemy only right after it gave its square away; otherwise drifts silently
    and pings now and then. No deduction beyond the last announcement."""
    LEVEL = "easy"
    LABEL = b"easy"

    def _fresh_sightings(self, seat):
        """Enemy squares announced since my own last command."""
        out = []
        size = seat.pub[_SIZE]
        for author, ev in reversed(seat.log):
            tag = ev[_TAG]
            if author == self.player and tag in _COMMANDS:
                break
            if author == self.player:
                continue
            if tag == _EV_CRUISE:
                out.append(ev[_CRUISE_AT])
            elif tag == _EV_SONAR or tag == _EV_ECHO:   # an echo has a ping's shape
                out.append(ev[_SONAR_AT])
            elif tag == _EV_FIRE:
                out.append(step(size, ev[_FIRE_AT], back(ev[_FIRE_HEADING])))
        return out

    def act(self, seat):
        legal = seat.legal()
        pub = seat.pub
        if pub[_PHASE] == _PH_STEP2:
            return self.rng.choice(legal)
        pos = seat.priv[_POS]
        for target in self._fresh_sightings(seat):
            for a in legal:
                if a[_A_KIND] == "fire" and target in torpedo_path(pub, pos, a[_A_HEADING]):
                    return a
        if self.rng.below(5) == 0:
            return ["sonar"]
        runs = [a for a in legal if a[_A_KIND] == "run" or a[_A_KIND] == "mine"]
        return self.rng.choice(runs)



class HardBot(SharpBot):
    """Sharp's tracking, firing at far thinner odds: a torpedo that covers 15% of where an
    enemy may be. Against sharp it wins about 2 decided games in 3 (measured over 300 games
    with the threshold from 5 to 67%: 15-20% won most; sharp's higher bar lets the enemy shoot
    first, 5% wastes its torpedoes)."""
    LEVEL = "hard"
    LABEL = b"hard"
    SHOOT = 15
