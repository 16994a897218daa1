# Lake Ashtapada: two PT boats hunt each other's secret mines on a square lake by sonar.
# Rules, gaps and interpretations: docs/rules/lake_ashtapada.md (section numbers quoted below).
# Player 0 is South and moves first. Squares are ints r*size+c, row 0 on the South shore.
from fathom.compat import const
from fathom.games import ashtapada as D
from fathom.games.base import Engine, IllegalAction

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_READY = const("ready")
_CONCEDED = const("conceded")
_TURN_ACT = const("act")
_TURN_ANSWER = const("answer")
_TAG = const(0)
_SETUP_PUBLIC = const(1)

_SOUTH = const(0)   # player 0, and the index of South's entry in every per-side list below
_NORTH = const(1)

# ---- the schema: public state (pub), private state (priv), events ----------------------------
# pub, the same on both units ("ready": base.READY; "conceded": base.CONCEDED)
_SIZE = const("size")          # squares along a side of the lake (option)
_MINES = const("mines")        # mines per side (option)
_ISLAND_COUNT = const("isl")   # islands per side (option)
_CALM = const("calm")          # turns without a mine destroyed that end the game drawn (option)
_ISLANDS = const("islands")    # per side: its islands' squares, sorted (public from set-up)
_BOATS = const("boats")        # per side: its boat's square
_TURN = const("turn")          # the side to act
_PENDING = const("pend")       # the action awaiting the mine owner's answer, or None:
_PEND_KIND = const(0)          #   EV_MOVE, EV_SOUND or EV_DEPTH
_PEND_BY = const(1)            #   the side that acted
_PEND_AT = const(2)            #   the path moved (a list) or the charge's square
_DEAD = const("dead")          # per side: its mines destroyed, in the order they were
_MISSED = const("miss")        # per side: the squares of its depth-charge misses
_CLEAR = const("clear")        # per side: enemy squares its boat crossed safely
_SONAR = const("sonar")        # every ping report, each a bytes record:
_REC_BY = const(0)             #   the side that sounded
_REC_AT = const(1)             #   the charge's square
_REC_DEAD = const(2)           #   how many of the reporter's mines were destroyed by then
_REC_TIMES = const(3)          #   from here: the distances reported, shortest first
_QUIET = const("quiet")        # turns since a mine was destroyed
_TURNS = const("turns")        # turns completed
_END = const("end")            # None while playing, else:
_END_WINNER = const(0)         #   the winning side, -1 for a draw
_END_WHY = const(1)            #   one of the WON_/DRAW_ reasons below
_END_SQ = const(2)             #   the square that decided it, -1 for none

# priv, on its owner's unit only
_MY_ISLANDS = const("islands")  # my islands' squares, as placed
_MY_MINES = const("mines")      # my mines' squares, as placed (destroyed ones stay listed)

# set-up choices (setup_legal): [_C_ISLAND or _C_MINE, square]
_C_ISLAND = const("island")
_C_MINE = const("mine")
_CHOICE_SQ = const(1)

# events: [tag, slot 1, ...] (actions have the same form); docs/rules/lake_ashtapada.md lists them
_EV_MOVE = const("move")       # a manoeuvre of 1 to STEPS orthogonal steps
_MOVE_PATH = const(1)          # the squares entered, in order
_EV_SOUND = const("sound")     # a sounding charge dropped next to the boat
_SOUND_SQ = const(1)           # where
_EV_DEPTH = const("depth")     # a depth charge dropped next to the boat
_DEPTH_SQ = const(1)           # where
_CHARGE_SQ = const(1)          # _SOUND_SQ and _DEPTH_SQ: the slot both charges share
_EV_MINE = const("mine")       # answer to a move: the first of its squares holding my mine
_MINE_SQ = const(1)            # that square, -1 for safe passage
_EV_PING = const("ping")       # answer to a sounding charge (rule 5)
_PING_SQ = const(1)            # the charge's square
_PING_TIMES = const(2)         # the ping distances, shortest first, each once
_EV_HIT = const("hit")         # answer to a depth charge
_HIT_SQ = const(1)             # the charge's square
_HIT_MINE = const(2)           # True when it destroyed a mine there
_STEPS = const(3)    # squares one manoeuvre may cover (rule 4.1)
_MISSES = const(2)   # the depth-charge miss that loses (rule 4.3)
_LETTERS = "ABCDEFGHIJKL"
_ACT = const("act")   # the phase (Engine.phase) while no action awaits its answer

# reasons in result(); a UI may show them as they are
WON_MINES = "mines cleared"
WON_STRUCK = "struck a mine"
WON_MISSES = "two misses"
DRAW_CALM = "quiet waters"


# ---- squares ---------------------------------------------------------------------------------
def name(sq, size):
    """'A1' is the South-West corner: letters run West to East, numbers South to North."""
    r, c = divmod(sq, size)
    return _LETTERS[c] + str(r + 1)


def parse(text, size):
    """The square a name like 'c5' stands for; IllegalAction if it is not on the lake."""
    t = str(text).strip().upper()
    if len(t) < 2 or t[0] not in _LETTERS[:size] or not t[1:].isdigit():
        raise IllegalAction("not a square: %r" % (text,))
    r = int(t[1:]) - 1
    if not 0 <= r < size:
        raise IllegalAction("not a square: %r" % (text,))
    return r * size + _LETTERS.index(t[0])


def side(sq, size):
    """SOUTH for the rows 1..size/2, NORTH for the rest (rule 1.2)."""
    return _SOUTH if sq // size < size // 2 else _NORTH


def near_shore(sq, size):
    r, c = divmod(sq, size)
    return r == 0 or c == 0 or r == size - 1 or c == size - 1


def neighbours(sq, size):
    """The up to 8 squares touching `sq` orthogonally or diagonally."""
    r, c = divmod(sq, size)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size:
                out.append((r + dr) * size + c + dc)
    return out


def _steps(sq, size):
    r, c = divmod(sq, size)
    out = []
    if r > 0:
        out.append(sq - size)
    if r < size - 1:
        out.append(sq + size)
    if c > 0:
        out.append(sq - 1)
    if c < size - 1:
        out.append(sq + 1)
    return out


# ---- the ping report (rule 5): one pure function, also used by the companion mode -------------
def ping_path(size, charge, mine):
    """(distance, squares the ping crosses) from a charge to a mine, both ends excluded.
    Rule 5.2: on a straight orthogonal or diagonal line, the line. Rule 5.3: otherwise along
    the longer of the row/column distance until level with the mine, then over to it."""
    r0, c0 = divmod(charge, size)
    r1, c1 = divmod(mine, size)
    dr = r1 - r0
    dc = c1 - c0
    ar = dr if dr >= 0 else -dr
    ac = dc if dc >= 0 else -dc
    vr = size if dr > 0 else -size if dr < 0 else 0
    vc = 1 if dc > 0 else -1 if dc < 0 else 0
    path = []
    s = charge
    if ar == 0 or ac == 0 or ar == ac:
        d = ar if ar > ac else ac
        for _ in range(d - 1):
            s += vr + vc
            path.append(s)
        return d, path
    first, n1, then, n2 = (vr, ar, vc, ac) if ar > ac else (vc, ac, vr, ar)
    for _ in range(n1):
        s += first
        path.append(s)
    for _ in range(n2 - 1):
        s += then
        path.append(s)
    return ar + ac, path


def distance(size, charge, mine):
    """The ping distance alone (rules 5.2 and 5.3). Allocates nothing: the deduction calls it
    thousands of times per move, and garbage fragments a small heap."""
    dr = charge // size - mine // size
    dc = charge % size - mine % size
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    if dr == 0 or dc == 0 or dr == dc:
        return dr if dr > dc else dc
    return dr + dc


def _reach(size, charge, mine, block):
    """The ping distance, or -1 when a square of the path is marked in `block`: ping_path()
    walked in place without building the list (tests check the two agree everywhere)."""
    dr = mine // size - charge // size
    dc = mine % size - charge % size
    ar = dr if dr >= 0 else -dr
    ac = dc if dc >= 0 else -dc
    vr = size if dr > 0 else -size if dr < 0 else 0
    vc = 1 if dc > 0 else -1 if dc < 0 else 0
    s = charge
    if ar == 0 or ac == 0 or ar == ac:
        d = ar if ar > ac else ac
        step = vr + vc
        for _ in range(d - 1):
            s += step
            if block[s]:
                return -1
        return d
    if ar > ac:
        first = vr
        n1 = ar
        then = vc
        n2 = ac
    else:
        first = vc
        n1 = ac
        then = vr
        n2 = ar
    for _ in range(n1):
        s += first
        if block[s]:
            return -1
    for _ in range(n2 - 1):
        s += then
        if block[s]:
            return -1
    return ar + ac


def report(size, islands, mines, charge):
    """The ping times a side reports for a sounding charge at `charge` (rule 5): distances to
    its remaining `mines`, shortest first, each distance once, leaving out every mine whose
    path crosses an island or another of these mines."""
    cells = size * size
    for s in list(islands) + list(mines) + [charge]:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < cells:
            raise IllegalAction("square %r is not on a %dx%d lake" % (s, size, size))
    block = bytearray(cells)
    for s in islands:
        block[s] = 1
    if block[charge]:
        raise IllegalAction("no charge on an island")
    for s in mines:
        block[s] = 1
    out = []
    for m in mines:
        d = _reach(size, charge, m, block)
        if d >= 0 and d not in out:
            out.append(d)
    out.sort()
    return out


# ---- the sonar record kept in pub -----------------------------------------------------------
def reports(pub):
    """Every ping report so far as (charger, charge square, distances, reporter's mines
    destroyed before it). Stored as bytes in pub[_SONAR] to keep a long game small."""
    return [(rec[_REC_BY], rec[_REC_AT], list(rec[_REC_TIMES:]), rec[_REC_DEAD])
            for rec in pub[_SONAR]]


def _islands(pub):
    isl = pub[_ISLANDS]
    return isl[_SOUTH] + isl[_NORTH]


def unproved(pub, player):
    """bytearray over the lake: 1 where public facts alone (rule 6.2) leave room for a live
    enemy mine: the enemy half less islands, destroyed mines, `player`'s misses and the
    squares `player`'s boat crossed safely."""
    n = pub[_SIZE]
    enemy = 1 - player
    out = bytearray(n * n)
    lo = (n // 2) * n if enemy == _NORTH else 0
    for s in range(lo, lo + n * n // 2):
        out[s] = 1
    # _islands(pub) written out: this runs at the bottom of every answer's validation
    isl = pub[_ISLANDS]
    for s in isl[_SOUTH] + isl[_NORTH] + pub[_DEAD][enemy] + pub[_MISSED][player] + pub[_CLEAR][player]:
        out[s] = 0
    return out


def known_empty(pub, player, sq):
    """True when public facts prove no live enemy mine of `player`'s opponent is on `sq`."""
    return not unproved(pub, player)[sq]


# ---- deduction (rule 6.3: the overlay the UI may show, and SharpBot's eyes) ------------------
def candidates(pub, player, since=None):
    """bytearray over the lake: 1 where a live enemy mine of `player`'s opponent could still be.
    Sound and per square: a 0 is proved empty by the public record (if the opponent answered
    honestly); a 1 passes every test below but may still be impossible in combination with the
    other squares. Tests: enemy half, not an island, not a destroyed mine, not a miss, not
    crossed safely by `player`'s boat, and for each of `player`'s sounding charges either its
    distance was reported or its path could have been blocked (an island, a square still
    marked 1, or a mine destroyed after that report). Repeated to a fixed point, walking only
    the squares still open. `since`: an earlier result for the same player, to start from (what
    the record proves only grows, so a square it proved empty stays so): a bot deciding every
    turn takes about half the time."""
    n = pub[_SIZE]
    enemy = 1 - player
    cand = unproved(pub, player)
    if since is not None:
        for s in range(n * n):
            if not since[s]:
                cand[s] = 0
    left = [s for s in range(n * n) if cand[s]]
    mine_reports = [r for r in reports(pub) if r[0] == player]
    dead = pub[_DEAD][enemy]
    isl = _islands(pub)
    changed = True
    while changed and left:
        changed = False
        for _who, c, dists, nd in mine_reports:
            block = bytearray(cand)
            for s in isl:
                block[s] = 1
            for s in dead[nd:]:
                block[s] = 1
            for s in left:
                if cand[s] and distance(n, c, s) not in dists and _reach(n, c, s, block) >= 0:
                    cand[s] = 0
                    changed = True
        if changed:
            left = [s for s in left if cand[s]]
    return cand


def certain(pub, player, cand=None):
    """Squares that must hold a live enemy mine: the only square left that can explain some
    reported distance, or every candidate when exactly as many remain as live enemy mines."""
    n = pub[_SIZE]
    enemy = 1 - player
    if cand is None:
        cand = candidates(pub, player)
    dead = pub[_DEAD][enemy]
    live = pub[_MINES] - len(dead)
    left = [s for s in range(n * n) if cand[s]]
    if len(left) <= live:
        return left
    out = []
    isl = _islands(pub)
    for who, c, dists, nd in reports(pub):
        if who != player:
            continue
        block = bytearray(n * n)
        for s in isl:
            block[s] = 1
        later = dead[nd:]
        for s in later:
            block[s] = 1
        # the squares that could have sent each reported ping back
        source = {}
        for s in left + later:
            d = _reach(n, c, s, block)
            if d in dists:
                source[d] = s if d not in source else -1
        for d in source:
            s = source[d]
            if s >= 0 and cand[s] and s not in out:
                out.append(s)
    out.sort()  # dict order differs between runtimes; bots must not
    return out


# ---- validation helpers ---------------------------------------------------------------------
def _sq(x, size):
    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < size * size:
        raise IllegalAction("not a square: %r" % (x,))
    return x


def _squares(x, size, count):
    if not isinstance(x, list) or len(x) != count:
        raise IllegalAction("expected %d squares" % count)
    for s in x:
        _sq(s, size)
    for i in range(len(x)):
        if x[i] in x[i + 1:]:
            raise IllegalAction("square listed twice")
    return x


class Ashtapada(Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS

    # ---- set-up (rules 2 and 3) ------------------------------------------------------------
    def new_game(self, opts, nplayers, rng):
        if nplayers != 2:
            raise IllegalAction("Lake Ashtapada is for two players")
        opts = self.options(opts)
        n = opts["size"]
        return {
            "size": n, "mines": opts["mines"], "isl": opts["islands"], "calm": opts["calm"],
            "ready": [False, False], "islands": [[], []], "boats": [0, n * n - 1],
            "turn": _SOUTH, "pend": None, "dead": [[], []], "miss": [[], []],
            "clear": [[], []], "sonar": [], "quiet": 0, "turns": 0, "end": None,
            "conceded": None,
        }

    def new_private(self, pub, player, rng):
        return {"islands": [], "mines": []}

    def island_ok(self, pub, player, sq):
        n = pub[_SIZE]
        return side(sq, n) == player and not near_shore(sq, n)

    def setup_legal(self, pub, priv, player):
        n = pub[_SIZE]
        if len(priv[_MY_ISLANDS]) < pub[_ISLAND_COUNT]:
            return [[_C_ISLAND, s] for s in range(n * n)
                    if self.island_ok(pub, player, s) and s not in priv[_MY_ISLANDS]]
        if len(priv[_MY_MINES]) < pub[_MINES]:
            return [[_C_MINE, s] for s in range(n * n) if side(s, n) == player
                    and s not in priv[_MY_ISLANDS] and s not in priv[_MY_MINES]]
        return []

    def setup_apply(self, pub, priv, player, choice):
        if choice not in self.setup_legal(pub, priv, player):
            raise IllegalAction("set-up choice not legal: %r" % (choice,))
        priv[_MY_ISLANDS if choice[_TAG] == _C_ISLAND else _MY_MINES].append(choice[_CHOICE_SQ])

    def setup_public(self, pub, priv, player):
        return sorted(priv[_MY_ISLANDS])

    # ---- turns -----------------------------------------------------------------------------
    def turn(self, pub):
        if self.result(pub) is not None or False in pub[_READY]:
            return None
        if pub[_PENDING] is not None:
            return (1 - pub[_PENDING][_PEND_BY], _TURN_ANSWER)
        return (pub[_TURN], _TURN_ACT)

    def charge_squares(self, pub, player):
        """Where `player` may drop a charge now (rule 4.2)."""
        isl = _islands(pub)
        foe = pub[_BOATS][1 - player]
        return [s for s in neighbours(pub[_BOATS][player], pub[_SIZE])
                if s != foe and s not in isl]

    def _walks(self, pub, player):
        n = pub[_SIZE]
        start = pub[_BOATS][player]
        banned = _islands(pub) + [pub[_BOATS][1 - player], start]
        out = []
        todo = [[]]
        while todo:
            path = todo.pop()
            here = path[-1] if path else start
            for s in _steps(here, n):
                if s not in banned and s not in path:
                    p = path + [s]
                    out.append(p)
                    if len(p) < _STEPS:
                        todo.append(p)
        return out

    def legal(self, pub, priv, player):
        if self.turn(pub) != (player, _TURN_ACT):
            return []
        out = [[_EV_MOVE, p] for p in self._walks(pub, player)]
        charges = self.charge_squares(pub, player)   # (once: a partner's redraw asks)
        for s in charges:
            out.append([_EV_SOUND, s])
        for s in charges:
            out.append([_EV_DEPTH, s])
        return out

    def _check_action(self, pub, player, action):
        if self.turn(pub) != (player, _TURN_ACT):
            raise IllegalAction("not player %d's turn to act" % player)
        if not isinstance(action, list) or len(action) != 2:
            raise IllegalAction("malformed action")
        tag = action[_TAG]
        n = pub[_SIZE]
        if tag == _EV_MOVE:
            path = action[_MOVE_PATH]
            if not isinstance(path, list) or not 1 <= len(path) <= _STEPS:
                raise IllegalAction("a manoeuvre is 1 to %d steps" % _STEPS)
            _squares(path, n, len(path))
            here = pub[_BOATS][player]
            banned = _islands(pub) + [pub[_BOATS][1 - player], here]
            for s in path:
                if s not in _steps(here, n):
                    raise IllegalAction("%s is not one orthogonal step on" % name(s, n))
                if s in banned:
                    raise IllegalAction("cannot enter %s" % name(s, n))
                here = s
            return
        if tag == _EV_SOUND or tag == _EV_DEPTH:
            sq = action[_CHARGE_SQ]
            if _sq(sq, n) not in self.charge_squares(pub, player):
                raise IllegalAction("cannot drop a charge on %s" % name(sq, n))
            return
        raise IllegalAction("unknown action %r" % (tag,))

    def act(self, pub, priv, player, action):
        self._check_action(pub, player, action)
        if action[_TAG] == _EV_MOVE:
            return [_EV_MOVE, list(action[_MOVE_PATH])]
        return [action[_TAG], action[_CHARGE_SQ]]

    # ---- answers from the mine owner's secrets (rules 4.1, 5, 4.3) --------------------------
    def live_mines(self, pub, priv, player):
        return [m for m in priv[_MY_MINES] if m not in pub[_DEAD][player]]

    def answer(self, pub, priv, player):
        pend = pub[_PENDING]
        if pend is None or pend[_PEND_BY] == player:
            raise IllegalAction("nothing for player %d to answer" % player)
        live = self.live_mines(pub, priv, player)
        kind, at = pend[_PEND_KIND], pend[_PEND_AT]
        if kind == _EV_MOVE:
            for s in at:
                if s in live:
                    return [_EV_MINE, s]
            return [_EV_MINE, -1]
        if kind == _EV_SOUND:
            return [_EV_PING, at, report(pub[_SIZE], _islands(pub), live, at)]
        return [_EV_HIT, at, at in live]

    # ---- apply: the table of handlers base.Engine.apply dispatches through -----------------
    def phase(self, pub):
        """ACT while the side to play chooses, else the kind of action awaiting its answer."""
        pend = pub[_PENDING]
        return _ACT if pend is None else pend[_PEND_KIND]

    def apply_setup(self, pub, author, event):
        """The set-up event shows the player's islands (rule 2.2): [SETUP, islands, commit]."""
        if len(event) != 3:
            raise IllegalAction("malformed set-up event")
        if pub[_READY][author]:
            raise IllegalAction("player %d set up twice" % author)
        isl = _squares(event[_SETUP_PUBLIC], pub[_SIZE], pub[_ISLAND_COUNT])
        for s in isl:
            if not self.island_ok(pub, author, s):
                raise IllegalAction("no island may stand on %s" % name(s, pub[_SIZE]))
        pub[_ISLANDS][author] = sorted(isl)
        pub[_READY][author] = True

    def _h_move(self, pub, player, event):
        self._check_action(pub, player, event)
        path = event[_MOVE_PATH]
        open_ = unproved(pub, player)
        for s in path:
            if open_[s]:
                pub[_PENDING] = [_EV_MOVE, player, list(path)]
                return
        self._moved(pub, player, path, -1)

    def _h_sound(self, pub, player, event):
        self._check_action(pub, player, event)
        pub[_PENDING] = [_EV_SOUND, player, event[_SOUND_SQ]]

    def _h_depth(self, pub, player, event):
        self._check_action(pub, player, event)
        sq = event[_DEPTH_SQ]
        if known_empty(pub, player, sq):
            self._depth(pub, player, sq, False)
        else:
            pub[_PENDING] = [_EV_DEPTH, player, sq]

    def _h_mine(self, pub, author, event):
        if len(event) != 2:
            raise IllegalAction("malformed mine answer")
        actor, path = pub[_PENDING][_PEND_BY], pub[_PENDING][_PEND_AT]
        sq = event[_MINE_SQ]
        if not isinstance(sq, int) or isinstance(sq, bool):
            raise IllegalAction("malformed mine answer")
        n = pub[_SIZE]
        if sq != -1:
            _sq(sq, n)
            if sq not in path or known_empty(pub, actor, sq):
                raise IllegalAction("no mine can be at %s" % name(sq, n))
        pub[_PENDING] = None
        self._moved(pub, actor, path, sq)

    def _charge_answer(self, pub, event):
        """The charge an answer is about: it must name the pending one."""
        at = pub[_PENDING][_PEND_AT]
        if len(event) != 3 or _sq(event[_CHARGE_SQ], pub[_SIZE]) != at:
            raise IllegalAction("answer is not about the charge at %s" % name(at, pub[_SIZE]))
        return pub[_PENDING][_PEND_BY], at

    def _h_ping(self, pub, author, event):
        actor, at = self._charge_answer(pub, event)
        dists = event[_PING_TIMES]
        self._check_ping(pub, author, at, dists)
        rec = bytes([actor, at, len(pub[_DEAD][author])] + dists)
        if rec not in pub[_SONAR]:
            pub[_SONAR].append(rec)
        self._end_turn(pub, False)

    def _h_hit(self, pub, author, event):
        actor, at = self._charge_answer(pub, event)
        hit = event[_HIT_MINE]
        if hit is not True and hit is not False:
            raise IllegalAction("a depth charge answer is True or False")
        if hit and known_empty(pub, actor, at):
            raise IllegalAction("no mine can be at %s" % name(at, pub[_SIZE]))
        self._depth(pub, actor, at, hit)

    def _check_ping(self, pub, reporter, charge, dists):
        n = pub[_SIZE]
        if not isinstance(dists, list):
            raise IllegalAction("a ping report is a list of distances")
        if len(dists) > pub[_MINES] - len(pub[_DEAD][reporter]):
            raise IllegalAction("more pings than live mines")
        open_ = unproved(pub, 1 - reporter)
        can = bytearray(2 * n)
        for s in range(n * n):
            if open_[s]:
                can[distance(n, charge, s)] = 1
        last = -1
        for d in dists:
            if not isinstance(d, int) or isinstance(d, bool) or d <= last:
                raise IllegalAction("ping times must rise: %r" % (dists,))
            last = d
            if d >= 2 * n or not can[d]:
                raise IllegalAction("no mine of player %d can be %r away" % (reporter, d))

    # ---- consequences ----------------------------------------------------------------------
    def _moved(self, pub, player, path, mine):
        stop = path.index(mine) if mine >= 0 else len(path)
        n = pub[_SIZE]
        for s in path[:stop]:
            if side(s, n) != player and s not in pub[_CLEAR][player]:
                pub[_CLEAR][player].append(s)
        pub[_BOATS][player] = path[stop] if mine >= 0 else path[-1]
        if mine >= 0:
            pub[_END] = [1 - player, WON_STRUCK, mine]
        self._end_turn(pub, False)

    def _depth(self, pub, player, sq, hit):
        enemy = 1 - player
        if hit:
            pub[_DEAD][enemy].append(sq)
            if len(pub[_DEAD][enemy]) == pub[_MINES]:
                pub[_END] = [player, WON_MINES, sq]
        else:
            pub[_MISSED][player].append(sq)
            if len(pub[_MISSED][player]) >= _MISSES:
                pub[_END] = [enemy, WON_MISSES, sq]
        self._end_turn(pub, hit)

    def _end_turn(self, pub, destroyed):
        pub[_PENDING] = None
        pub[_TURNS] += 1
        pub[_QUIET] = 0 if destroyed else pub[_QUIET] + 1
        if pub[_END] is None and pub[_QUIET] >= pub[_CALM]:
            pub[_END] = [-1, DRAW_CALM, -1]
        pub[_TURN] = 1 - pub[_TURN]

    def result(self, pub):
        if pub.get(_CONCEDED) is not None:
            return ([1 - pub[_CONCEDED]], "conceded")
        end = pub[_END]
        if end is None:
            return None
        winner = end[_END_WINNER]
        return ([] if winner < 0 else [winner], end[_END_WHY])




Ashtapada.HANDLERS = {
    _ACT: {_EV_MOVE: Ashtapada._h_move, _EV_SOUND: Ashtapada._h_sound,
           _EV_DEPTH: Ashtapada._h_depth},
    _EV_MOVE: {_EV_MINE: Ashtapada._h_mine},       # the answer each pending action awaits
    _EV_SOUND: {_EV_PING: Ashtapada._h_ping},
    _EV_DEPTH: {_EV_HIT: Ashtapada._h_hit},
}

ENGINE = Ashtapada()
