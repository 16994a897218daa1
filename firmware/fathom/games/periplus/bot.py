# Periplus bots. Both decide from their own seat only: the public board, the public discard pile
# and their own hand. priv also holds the deck order derived from the joint seed (every unit can
# compute it); a fair bot never reads it, so nothing here reads priv beyond its hand and row.
from fathom.compat import const
from fathom.games.bots import Bot
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus.fleet import HITS, grid

# The schema's names this module reads (the engine's, the fleet's, and base's): private
# copies that MicroPython folds into the code, so they cost no heap; a test holds each
# to its schema.
_TAG = const(0)
_DISCARD_CARD = const(1)
_EV_MOVE = const("move")
_MOVE_SHIP = const(2)
_MOVE_TO = const(3)
_AHEAD_CARD = const(1)
_AHEAD_SHIP = const(2)
_ALSO_SHIP = const(1)
_FIRE_CARD = const(1)
_FIRE_SHIP = const(2)
_FIRE_TARGET = const(3)
_PHASE = const("phase")
_HAND = const("hand")
_DISCARDS = const("discard")
_FLEET_RANGE = const("fleet")
_PH_DISCARD = const("discard")
_PH_MOVE = const("move")
_PH_AHEAD = const("ahead")
_PH_FIRE = const("fire")
_PH_DEFEND = const("defend")
_PENDING = const("pending")
_P_CARD = const(0)
_P_AT = const(2)
_HELD = const("hand")
_ROW = const("row")
_SHIPS = const("ships")
_QUINQ = const(3)
_NSHIPS = const(8)
_TYPE = const(0)
_SQUARE = const(1)
_LEFT = const(2)
_SHEARED = const(3)

# a setup row that hides the Quinquereme in a corner with the heavy ships beside it
_ROW_TYPES = (_QUINQ, 2, 1, 0, 1, 0, 1, 2)


def _hand(seat):
    return seat.priv[_HELD]


def _unseen(seat):
    """Copies of each kind not in my hand nor in the discard pile: in the deck or the foe's hand."""
    left = [c[1] for c in C.CARDS]
    for k in seat.pub[_DISCARDS]:
        left[k] -= 1
    for k in _hand(seat):
        left[k] -= 1
    return left


def p_clear(seat, d):
    """Per-mille chance that the foe holds no copy of Defense kind d (drawn from unseen cards)."""
    left = _unseen(seat)
    total = sum(left)
    bad = max(0, left[d])
    h = seat.pub[_HAND][1 - seat.player]
    p = 1000
    for i in range(min(h, total)):
        p = p * max(0, total - bad - i) // (total - i)
    return p


def _dist(a, b):
    ar, ac = divmod(a, 8)
    br, bc = divmod(b, 8)
    return max(abs(ar - br), abs(ac - bc))


def _reach(a, b, g):
    """How much of the deck could strike square b from square a: pulls ships into good spots."""
    if a < 0 or b < 0:
        return 0
    if B.is_knight(a, b):
        return 1
    if not B.in_line(a, b, 6, g):
        return 0
    d = _dist(a, b)
    if d == 1:
        return 20          # boarding, ramming and every shot reach an adjacent ship
    return (8, 5, 3, 2, 1, 1)[d - 2]


def _quinq(pub, player):
    return pub[_SHIPS][player * _NSHIPS + _qcol(pub, player)][_SQUARE]


def _qcol(pub, player):
    for c in range(_NSHIPS):
        if pub[_SHIPS][player * _NSHIPS + c][_TYPE] == _QUINQ:
            return c
    return 0


# The Defense kinds, one per attack type: the foe's chance of holding each weighs an attack.
_DEFENSES = tuple([k for k in range(C.NKINDS) if C.ctype(k) == C.DEFENSE])


class EasyBot(Bot):
    """Plays every attack it can, always defends, otherwise moves at random."""
    LEVEL = "easy"
    LABEL = b"easy"

    def act(self, seat):
        legal = seat.legal()
        ph = seat.pub[_PHASE]
        if (ph == _PH_FIRE or ph == _PH_DEFEND) and len(legal) > 1:
            return self.rng.choice(legal[1:])      # anything but pass / take
        if ph == _PH_MOVE and len(legal) > 1 and self.rng.below(4):
            return self.rng.choice(legal[1:])
        return self.rng.choice(legal)


class SharpBot(Bot):
    """Focuses every attack on the enemy Quinquereme, steers ships to squares from which many
    cards reach it, keeps its own Quinquereme out of reach, and picks attacks the foe is least
    likely to negate given the cards still unseen."""
    LEVEL = "sharp"
    LABEL = b"sharp"

    def setup(self, seat):
        """Its own row's order; a row begun otherwise (a player whose first choice went astray
        hands over, chaos bench) goes on with the next type of that order still left."""
        legal = seat.setup_legal()
        for t in _ROW_TYPES[len(seat.priv[_ROW]):]:
            if t in legal:
                return t
        return legal[0]

    def act(self, seat):
        legal = seat.legal()
        if len(legal) == 1:
            return legal[0]
        ph = seat.pub[_PHASE]
        if ph == _PH_DEFEND:
            return legal[-1]          # a matching Defense is always worth its card
        if ph == _PH_DISCARD:
            return min(legal, key=lambda a: self._keep(_hand(seat), a[_DISCARD_CARD]))
        if ph == _PH_FIRE:
            return self._fire(seat, legal)
        if ph == _PH_AHEAD:
            return self._ahead(seat, legal)
        return self._move(seat, legal)

    # ---- cards -----------------------------------------------------------------------------
    def _keep(self, hand, k):
        """How much keeping card k is worth in this hand (the lowest is discarded)."""
        t = C.ctype(k)
        same = 0
        for o in hand:
            if C.ctype(o) == t:
                same += 1
        if t == C.DEFENSE:
            return 40 - 10 * hand.count(k)
        if t == C.MOVE:
            return 20 - 4 * same + (C.rng(k) == C.KNIGHT) * 3
        return 30 - 3 * same + C.damage(k) * 3 + C.rng(k)

    # ---- fire ------------------------------------------------------------------------------
    def _attack_value(self, seat, k, s, t, clear):
        pub = seat.pub
        tgt = pub[_SHIPS][t]
        dmg = C.damage(k)
        if k == C.SHEAR_OARS:
            v = 0 if tgt[_SHEARED] else (30 if tgt[_TYPE] == _QUINQ else 8)
        elif tgt[_TYPE] == _QUINQ:
            v = 10000 if tgt[_LEFT] <= dmg else 300 * dmg
        else:
            v = 12 * min(dmg, tgt[_LEFT]) + (25 * HITS[tgt[_TYPE]] if tgt[_LEFT] <= dmg else 0)
            # a ship that threatens my Quinquereme is the next best target
            v += 3 * _reach(tgt[_SQUARE], _quinq(pub, self.player), _NOISLE)
        return v * clear[C.defense_for(k)] // 1000 - self._keep(_hand(seat), k) // 4

    def _fire(self, seat, legal):
        clear = {}
        for d in _DEFENSES:
            clear[d] = p_clear(seat, d)
        best = legal[0]
        bv = 0
        for a in legal[1:]:
            v = self._attack_value(seat, a[_FIRE_CARD], a[_FIRE_SHIP], a[_FIRE_TARGET],
                                   clear)
            if v > bv:
                best, bv = a, v
        return best

    # ---- maneuver --------------------------------------------------------------------------
    def _move(self, seat, legal):
        pub = seat.pub
        me = self.player
        g = grid(pub)
        eq = _quinq(pub, 1 - me)
        mq = _quinq(pub, me)
        attacks = [k for k in _hand(seat) if C.is_attack(k)]
        # what each ship could already hit without moving (missiles ignore ships in the way)
        stay = []
        for s in range(me * _NSHIPS, (me + 1) * _NSHIPS):
            sq = pub[_SHIPS][s][_SQUARE]
            stay.append(self._strike(sq, eq, attacks, False, g))
        best_stay = max(stay)
        threat = self._threat(pub, mq, g)
        best = legal[0]
        bv = best_stay * 50 - threat
        for a in legal[1:]:
            if a[_TAG] == _EV_MOVE:
                s = a[_MOVE_SHIP]
                sq = pub[_SHIPS][s][_SQUARE]
                to = a[_MOVE_TO]
            else:                       # a fleet move: its first ship straight ahead
                s = a[_AHEAD_SHIP]
                sq = pub[_SHIPS][s][_SQUARE]
                to = B.slide(sq, B.forward(me), 0, C.rng(a[_AHEAD_CARD]), g)
            others = 0
            for i in range(_NSHIPS):
                if i != s - me * _NSHIPS and stay[i] > others:
                    others = stay[i]
            strike = max(others, self._strike(to, eq, attacks, True, g))
            v = strike * 50
            if pub[_SHIPS][s][_TYPE] == _QUINQ:
                g[sq] = B.FREE
                v -= self._threat(pub, to, g) * 3 // 2     # moving it is a risk worth weighing
                g[sq] = B.SHIP
            else:
                v -= threat
                v += 3 * (_reach(to, eq, g) - _reach(sq, eq, g))
                v += 2 * (_dist(sq, eq) - _dist(to, eq))
            if v > bv:
                best, bv = a, v
        return best

    def _strike(self, sq, eq, attacks, moved, g):
        """Best damage this ship could deal the enemy Quinquereme from sq with my attack cards."""
        if sq < 0 or eq < 0:
            return 0
        best = 0
        for k in attacks:
            if k == C.SHEAR_OARS or (C.ctype(k) == C.RAM and not moved):
                continue
            r = C.rng(k)
            ok = B.is_knight(sq, eq) if r == C.KNIGHT else B.in_line(sq, eq, r, g)
            if ok and C.damage(k) > best:
                best = C.damage(k)
        return best

    def _threat(self, pub, mq, g):
        foe = (1 - self.player) * _NSHIPS
        t = 0
        for s in range(foe, foe + _NSHIPS):
            t += _reach(pub[_SHIPS][s][_SQUARE], mq, g)
        return t

    def _ahead(self, seat, legal):
        pub = seat.pub
        eq = _quinq(pub, 1 - self.player)
        for a in legal[1:]:
            sh = pub[_SHIPS][a[_ALSO_SHIP]]
            to = sh[_SQUARE] + 8 * B.forward(self.player) * pub[_FLEET_RANGE]
            if sh[_TYPE] != _QUINQ and _dist(to, eq) < _dist(sh[_SQUARE], eq):
                return a
        return legal[0]


_NOISLE = bytearray(64)   # threat estimates ignore islands: cheaper, and rarely different


class HardBot(SharpBot):
    """Sharp's play, with its Defense cards kept for its Quinquereme: an attack on any other ship
    is negated only with a spare card (two of the kind in hand), since a card spent there is one
    less against the attack that decides the game; and no Defense card is discarded while
    another card can go. Against sharp (which negates every attack it can): 60% of the 190
    decided games of `fathom bench bots`' 200, but 53% of 192 over the next 200 seeds (56.5% of
    all 400), short of the 60% that would have the menus offer it: the declaration has no HARD.
    (Taking every other hit: 57% of the bench's games; only keeping Defense cards: 56.5%.)
    Also tried, all short (bench seeds 0-199, then 200-399): guarding the Quinquereme's free
    neighbours against rams and boarding, 45% / 47% (most attacks that land on a Quinquereme
    are shots, which fly over guards: 180 of 251 in 40 of those games); with the Defense cards
    kept as here, ships drawn away from it, 55%; attacks weighted 10 (not 3) for the target's
    reach to the Quinquereme, 59.7% / 54.2%; that and the Quinquereme shunning threat twice
    as much, 56.5%; discarding last the attack cards a ship could already aim at the enemy
    Quinquereme, 59.4% / 54.1%. Lookahead over 12 sampled foe hands (the unseen cards, its
    next draw included), on unsealed deals, where this bot won 47.8% of seeds 0-299 and 52.3%
    of 0-999: each maneuver scored by the expected damage of the foe's best reply (a move card,
    then an attack I hold no Defense for) to my Quinquereme against my best attack's expected
    damage to its, 46.9% (0-299) / 51.0% (300-599); that with sharp's pull towards the foe's
    Quinquereme, 47.9% (0-399) / 52.0% (1000-1799); and with my best move-then-attack over
    sampled next draws, 54.0% (1000-1799): none clearly above this bot. Then (seeds 0-199 /
    200-399, as this bot's 60.0% / 53.1%): attacking another ship only to kill it or when it
    lies next to my Quinquereme, 47.6% / 42.2%, and no shot at another ship unless it kills,
    53.2% / 47.0% (so those attacks are worth much: they kill the ships that would strike my
    Quinquereme and draw the foe's Defense cards); every legal attack played, 59.5% / 53.4%;
    attacks on other ships not discounted for the foe's Defense cards, 58.6% / 54.7%; the
    Quinquereme moved only to flee, 60.0% / 53.1% (the same games: it never moves otherwise);
    the Quinquereme shunning threat three times as much with 2 hits or fewer left, 59.3% /
    53.4%; the Quinquereme at the other end of the row, 52.4% / 52.1%, or in column d, 54.9% /
    57.9%; over seeds 0-99 (this bot 64.2%): a fleet move chosen by what every following ship
    gains, 55.2%, and a ship next to my Quinquereme worth 40 more as a target, 63.2%. Killing a
    ship in reach of my Quinquereme (reach 8 and up) before a hit on the enemy's that does not
    sink it: when my Quinquereme has fewer hits left, 60.3% / 55.2%; always, 59.3% / 55.7%."""
    LEVEL = "hard"
    LABEL = b"hard"

    def act(self, seat):
        pub = seat.pub
        if pub[_PHASE] == _PH_DEFEND:
            legal = seat.legal()
            k = pub[_PENDING][_P_CARD]
            if pub[_SHIPS][pub[_PENDING][_P_AT]][_TYPE] != _QUINQ and \
                    _hand(seat).count(C.defense_for(k)) < 2:
                return legal[0]          # take the hit: one card left is the Quinquereme's
            return legal[-1]
        return SharpBot.act(self, seat)

    def _keep(self, hand, k):
        """A Defense card is kept whatever else the hand holds (sharp lets a second copy go)."""
        if C.ctype(k) == C.DEFENSE:
            return 40
        return SharpBot._keep(self, hand, k)
