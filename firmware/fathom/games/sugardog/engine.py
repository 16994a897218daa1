# Sugar Dog: hidden submarines for 2 to 8 players, each on their own unit (docs/rules/sugar_dog.md).
#
# Secret per player: the submarine's square, its mines and mines left. Torpedoes are public
# (every square a torpedo enters is announced), so they live in pub. When something enters a
# square loudly (a cruising submarine, a torpedo), every other living player answers from its
# own secrets, in turn order, whether it has something there; the square resolves once all
# answers are in. Squares are ints y * size + x; x is the letter (A = 0), y + 1 the number.
from fathom.compat import const
from fathom.games import sugardog as D
from fathom.games import base
from fathom.games.base import Engine, IllegalAction

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_CONCEDED = const("conceded")
_TURN_ACT = const("act")
_TURN_ANSWER = const("answer")
_TAG = const(0)
_SETUP_PUBLIC = const(1)
_SETUP_COMMIT = const(2)

# ---- the schema ------------------------------------------------------------------------------
# Names that a screen, a bot or say.py imports have no leading underscore; the rest fold away
# when compiled. The strings are what saves, hashes and the link carry: they never change.
#
# Events (the rules page's "Events" table): EV_<X> is the tag, <X>_<SLOT> its slots. The tags
# keep one byte on the wire, which every answer of every player repeats.
_EV_QUIET = const("q")       # [EV_QUIET]: Silent Running or Place Mine (nobody can tell which)
_EV_CRUISE = const("c")      # a cruise step, announced:
_CRUISE_AT = const(1)        #   the square entered
_EV_STOP = const("n")        # [EV_STOP]: a cruise ends after its first square: no further contacts
_EV_FIRE = const("f")        # a torpedo launched:
_FIRE_AT = const(1)          #   its first square (it was launched from the one behind)
_FIRE_HEADING = const(2)     #   N, E, S or W
_EV_SONAR = const("s")       # an active sonar ping:
_SONAR_AT = const(1)         #   the pinger's square
_SONAR_MINES = const(2)      #   the pinger's mines, nearest to it first
_EV_ECHO = const("e")        # the answer to a ping, one from every other living player:
_ECHO_AT = const(1)          #   the answerer's square
_ECHO_MINES = const(2)       #   its mines, nearest to the ping first
_EV_ANSWER = const("a")      # the answer for squares entered loudly, one from every other player:
_ANSWER_SQUARES = const(1)   #   the announced squares up to the first where it has something
_ANSWER_RES = const(2)       #   CLEAR, or what is at the last of them: MINE_HIT or _SUB_HIT
_CLEAR = const(0)       # nothing of the answerer's in any square asked
_MINE_HIT = const(1)    # a mine of the answerer's at the last square named
_SUB_HIT = const(2)     # the answerer's submarine at the last square named

# Public state: pub[...]
_NPLAYERS = const("n")         # players (seats)
_SIZE = const("size")           # squares each way (map_size)
_CALM_LIMIT = const("calm_limit")  # the calm option: rounds without a loss before a draw
_READY = const("ready")        # per player: set-up committed (base.READY)
_ALIVE = const("alive")         # per player: submarine afloat
_FIRST = const("first")        # who played first (drawn from the joint seed)
_CUR = const("cur")            # whose turn it is
_TURN = const("turn")          # turns played
_CALM = const("calm")          # turns in a row without a submarine lost
_PHASE = const("ph")            # the turn machine's stage, one of the _PH_* below
_ASK = const("ask")            # during _PH_ANS: _ASK_CONTACT or _ASK_SONAR; else None
_SQS = const("sq")             # the squares asked now (a sonar: [the ping's square])
_WAIT = const("wait")          # the players still to answer, in turn order
_NEXT = const(0)               #   pub[_WAIT][_NEXT] answers now
_GOT = const("got")            # the impacts answered so far: [player, res, square] each
_ENT = const("ent")            # what entered the squares: a torpedo id, -1 the submarine
_REST = const("rest")          # the entering object's squares still to ask (groups)
_LOST = const("lost")          # the torpedo leaves the map after its last square asked
_THEN = const("then")          # what follows the query: _THEN_END, _THEN_C2 or _THEN_ADV
_ADV = const("adv")            # ids of the mover's torpedoes still to move this turn
_CZ = const("cz")              # the first cruise step's square (the second must touch it)
_TORPS = const("torps")         # the torpedoes afloat, each [id, owner, square, heading]:
_T_ID = const(0)                #   its id (pub[_TID] when it was fired)
_T_OWNER = const(1)             #   who fired it
_T_SQ = const(2)                #   where it is
_T_HEADING = const(3)           #   where it goes, N E S W
_TID = const("tid")            # the next torpedo's id
_G_WHO = const(0)              # pub[_GOT] entries: the answerer,
_G_RES = const(1)              #   MINE_HIT or _SUB_HIT,
_G_SQ = const(2)               #   the square

# Phases (pub[PHASE]).
_PH_SETUP = const("setup")     # start squares being chosen
_PH_CMD = const("cmd")         # the current player gives the turn's command
_PH_STEP2 = const("c2")         # the current player chooses the second cruise step
_PH_ANS = const("ans")         # the players in pub[_WAIT] answer, one at a time
_PH_RUN = const("run")         # inside the machine only: nobody is asked anything yet
_PH_OVER = const("over")       # the game is over
_ASK_CONTACT = const("c")      # the squares were entered loudly: answer with EV_ANSWER
_ASK_SONAR = const("s")        # a ping: answer with EV_ECHO
_THEN_END = const("end")       # the turn ends
_THEN_C2 = const("c2")         # the second cruise step comes
_THEN_ADV = const("adv")       # the next of the mover's torpedoes moves

# Private state: priv[...]
_POS = const("pos")             # the submarine's square (None before the set-up)
_FROM = const("from")          # where the cruise started (the second step may not go back)
_OWN_MINES = const("mines")     # the squares of the player's mines
_MINES_LEFT = const("left")     # mines still to lay

# Actions (legal(), act()): [kind, ...], the kind a word.
_A_KIND = const(0)      # "run", "mine", "cruise", "stop", "sonar" or "fire"
_A_TO = const(1)        # "run", "cruise": the square the submarine goes to
_A_HEADING = const(1)   # "fire": the torpedo's heading

N, E, S, W = 0, 1, 2, 3
DIRS = "NESW"
MINES = 3              # mines each submarine starts with


def map_size(nplayers):
    return 6 + 2 * (nplayers - 2)


def step(size, sq, d):
    """The square one step from sq in direction d, or -1 off the map."""
    x = sq % size
    y = sq // size
    if d == N:
        y += 1
    elif d == E:
        x += 1
    elif d == S:
        y -= 1
    else:
        x -= 1
    if 0 <= x < size and 0 <= y < size:
        return y * size + x
    return -1


def back(d):
    """The heading opposite d: a torpedo's launch square is one step back from its first."""
    return (d + 2) % 4


def neighbours(size, sq):
    out = []
    for d in range(4):
        t = step(size, sq, d)
        if t >= 0:
            out.append(t)
    return out


def dist(size, a, b):
    return abs(a % size - b % size) + abs(a // size - b // size)


def by_distance(size, source, squares):
    """Nearest to the sonar source first, ties by square number, so the order is canonical.
    The key's multiplier exceeds every square (324 on the 18x18 map of eight players)."""
    return sorted(squares, key=lambda q: dist(size, source, q) * 1024 + q)


def name(size, sq):
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[sq % size] + str(sq // size + 1)


class SugarDog(Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS

    # ---- setup -----------------------------------------------------------------------------
    def new_game(self, opts, nplayers, rng):
        lo, hi = D.PLAYERS
        if type(nplayers) is not int or not lo <= nplayers <= hi:
            raise IllegalAction("Sugar Dog takes %d to %d players" % (lo, hi))
        first = rng.below(nplayers)
        return {
            _NPLAYERS: nplayers, _SIZE: map_size(nplayers), _CALM_LIMIT: opts["calm"],
            _READY: [False] * nplayers, _ALIVE: [True] * nplayers,
            _FIRST: first, _CUR: first, _TURN: 0, _CALM: 0,
            _PHASE: _PH_SETUP, _ASK: None, _SQS: [], _WAIT: [], _GOT: [], _ENT: None,
            _REST: [], _LOST: False, _THEN: None, _ADV: [], _CZ: -1,
            _TORPS: [], _TID: 0,
        }

    def new_private(self, pub, player, rng):
        return {_POS: None, _FROM: None, _OWN_MINES: [], _MINES_LEFT: MINES}

    def setup_legal(self, pub, priv, player):
        if priv[_POS] is not None:
            return []
        # A range, not a list: 324 squares on the 18x18 map would be a 2 KB block on a unit
        # (the budget: no allocation over 1 KB in play); it answers `in`, len() and indexing.
        return range(pub[_SIZE] * pub[_SIZE])

    def setup_apply(self, pub, priv, player, choice):
        # Set-up: any square, even one another submarine starts on (nothing entered it loudly).
        if priv[_POS] is not None or type(choice) is not int or \
                not 0 <= choice < pub[_SIZE] ** 2:
            raise IllegalAction("start square not legal: %r" % (choice,))
        priv[_POS] = choice

    # ---- whose move ------------------------------------------------------------------------
    def turn(self, pub):
        ph = pub[_PHASE]
        if ph == _PH_SETUP or ph == _PH_OVER or self.result(pub) is not None:
            return None
        if ph == _PH_ANS:
            return (pub[_WAIT][_NEXT], _TURN_ANSWER)
        return (pub[_CUR], _TURN_ACT)

    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t != (player, _TURN_ACT):
            return []
        size = pub[_SIZE]
        pos = priv[_POS]
        if pub[_PHASE] == _PH_STEP2:   # Cruise: the second step may not go back where it began,
            out = [["cruise", q] for q in neighbours(size, pos) if q != priv[_FROM]]
            out.append(["stop"])       # or the cruise ends here: "no further contacts"
            return out
        out = [["run", pos]]
        for q in neighbours(size, pos):
            out.append(["run", q])
        if priv[_MINES_LEFT] > 0 and pos not in priv[_OWN_MINES]:
            out.append(["mine"])
        for q in neighbours(size, pos):
            out.append(["cruise", q])
        out.append(["sonar"])
        for d in range(4):
            if step(size, pos, d) >= 0:   # a torpedo may not be fired straight off the map
                out.append(["fire", d])
        return out

    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("illegal action %r" % (action,))
        kind = action[_A_KIND]
        size = pub[_SIZE]
        pos = priv[_POS]
        # Silent Running and Place Mine send the same event: laying a mine is as quiet as
        # running silent (rules: "A turn", Place Mine [gap]).
        if kind == "run":
            priv[_POS] = action[_A_TO]
            return [_EV_QUIET]
        if kind == "mine":
            priv[_OWN_MINES].append(pos)
            priv[_MINES_LEFT] -= 1
            return [_EV_QUIET]
        if kind == "cruise":
            priv[_FROM] = pos
            priv[_POS] = action[_A_TO]
            return [_EV_CRUISE, action[_A_TO]]
        if kind == "stop":
            return [_EV_STOP]
        if kind == "sonar":
            return [_EV_SONAR, pos, by_distance(size, pos, priv[_OWN_MINES])]
        d = action[_A_HEADING]
        return [_EV_FIRE, step(size, pos, d), d]

    def answer(self, pub, priv, player):
        if pub[_ASK] == _ASK_SONAR:
            ping, = pub[_SQS]
            return [_EV_ECHO, priv[_POS], by_distance(pub[_SIZE], ping, priv[_OWN_MINES])]
        # Contacts: the squares up to the first where I have something, and what: the
        # submarine before a mine of mine in the same square.
        sqs = pub[_SQS]
        for i in range(len(sqs)):
            q = sqs[i]
            if priv[_POS] == q:
                return [_EV_ANSWER, sqs[:i + 1], _SUB_HIT]
            if q in priv[_OWN_MINES]:
                return [_EV_ANSWER, sqs[:i + 1], _MINE_HIT]
        return [_EV_ANSWER, list(sqs), _CLEAR]

    def apply_private(self, pub, priv, player, author, event):
        # An answer naming an impact is always the square that blows: my mines there are gone.
        if author == player and event[_TAG] == _EV_ANSWER and event[_ANSWER_RES] != _CLEAR:
            q = event[_ANSWER_SQUARES][-1]
            priv[_OWN_MINES] = [m for m in priv[_OWN_MINES] if m != q]

    # ---- events ----------------------------------------------------------------------------
    # Engine.apply checks shape, author and turn, then runs HANDLERS[phase(pub)][tag].
    def seats(self, pub):
        return pub[_NPLAYERS]

    def phase(self, pub):
        return pub[_PHASE]

    def apply_setup(self, pub, author, event):
        """A start square committed: nothing public but the commitment (rules: "Set-up"). The
        first turn starts once every player is in."""
        base.check_size(event, 3)
        if event[_SETUP_PUBLIC] is not None or not isinstance(event[_SETUP_COMMIT], bytes):
            raise IllegalAction("malformed set-up event")
        if pub[_READY][author]:
            raise IllegalAction("player %d set up twice" % author)
        pub[_READY][author] = True
        if False not in pub[_READY]:
            self._start_turn(pub)
            self._run(pub)

    def _square(self, pub, v):
        return base.check_int(v, 0, pub[_SIZE] ** 2, "square")

    def _sonar_list(self, pub, event, at, mined, source):
        """A ping or an echo (at, mined): a square, then at most MINES distinct mines, nearest
        to the ping's square (source) first (rules: "A turn", Active Sonar), so the order tells
        nothing more."""
        base.check_size(event, 3)
        if not isinstance(mined, list) or len(mined) > MINES:
            raise IllegalAction("malformed sonar report")
        self._square(pub, at)
        for m in mined:
            self._square(pub, m)
        if mined != by_distance(pub[_SIZE], source, mined) or len(set(mined)) != len(mined):
            raise IllegalAction("sonar contacts must be distinct and nearest first")

    def _quiet(self, pub, author, event):
        """Silent Running or Place Mine: nothing announced, nothing collides (rules: "A turn"),
        so the turn simply ends; so does a cruise stopped after its first square (EV_STOP)."""
        base.check_size(event, 1)
        self._end_turn(pub)
        self._run(pub)

    def _cruise(self, pub, author, event):
        """Cruise: up to two announced steps, each answered before the next is chosen; the
        second next to the first (rules: "A turn", Cruise). An impact on the first ends the
        cruise; so may its mover, with EV_STOP instead of the second step."""
        base.check_size(event, 2)
        q = self._square(pub, event[_CRUISE_AT])
        if pub[_PHASE] == _PH_STEP2:
            if dist(pub[_SIZE], q, pub[_CZ]) != 1:
                raise IllegalAction("second cruise step must be next to the first")
            then = _THEN_END
        else:
            then = _THEN_C2
        pub[_CZ] = q
        self._query(pub, [q], -1, False, then)
        self._run(pub)

    def _fire(self, pub, author, event):
        """Fire Torpedo: launched from the square behind its first, which must be on the map;
        it flies its 2 squares at once, each announced (rules: "A turn", "Torpedoes")."""
        base.check_size(event, 3)
        d = base.check_int(event[_FIRE_HEADING], 0, 4, "heading")
        q = self._square(pub, event[_FIRE_AT])
        launch = step(pub[_SIZE], q, back(d))
        if launch < 0:
            raise IllegalAction("torpedo must be launched from a square on the map")
        t = [pub[_TID], author, launch, d]
        pub[_TID] += 1
        pub[_TORPS].append(t)
        self._launch(pub, t, _THEN_END)
        self._run(pub)

    def _sonar(self, pub, author, event):
        """Active Sonar: the pinger's square and mines, then one echo from every other living
        player in turn order (rules: "A turn", Active Sonar [gap])."""
        base.check_size(event, 3)
        at = event[_SONAR_AT]
        self._sonar_list(pub, event, at, event[_SONAR_MINES], at)
        pub[_PHASE] = _PH_ANS
        pub[_ASK] = _ASK_SONAR
        pub[_SQS] = [at]
        pub[_WAIT] = self._others(pub, author)
        pub[_THEN] = _THEN_END
        self._run(pub)

    def _echo(self, pub, author, event):
        """One player's echo to the ping; the turn ends with the last."""
        if pub[_ASK] != _ASK_SONAR:
            raise IllegalAction("no sonar ping to answer")
        base.check_size(event, 3)
        ping, = pub[_SQS]
        self._sonar_list(pub, event, event[_ECHO_AT], event[_ECHO_MINES], ping)
        pub[_WAIT].pop(0)
        if not pub[_WAIT]:
            pub[_PHASE] = _PH_RUN
        self._run(pub)

    def _answer(self, pub, author, event):
        """One player's answer for squares entered loudly (rules: "Contacts"): clear for all of
        them, or the squares up to the first holding its mine or submarine. The squares
        resolve once every answer is in."""
        base.check_size(event, 3)
        if pub[_ASK] != _ASK_CONTACT or not isinstance(event[_ANSWER_SQUARES], list):
            raise IllegalAction("malformed contact answer")
        sqs, res = event[_ANSWER_SQUARES], event[_ANSWER_RES]
        base.check_int(res, _CLEAR, _SUB_HIT + 1, "answer")
        if not sqs or sqs != pub[_SQS][:len(sqs)]:
            raise IllegalAction("answer must name a prefix of the announced squares")
        if res == _CLEAR and len(sqs) != len(pub[_SQS]):
            raise IllegalAction("a clear answer covers every announced square")
        pub[_WAIT].pop(0)
        if res != _CLEAR:
            pub[_GOT].append([author, res, sqs[-1]])
        if not pub[_WAIT]:
            self._resolve(pub)
        self._run(pub)

    # ---- the turn machine ------------------------------------------------------------------
    def _others(self, pub, side):
        """Living players other than `side`, in turn order starting after the current player."""
        n = pub[_NPLAYERS]
        out = []
        for k in range(1, n + 1):
            p = (pub[_CUR] + k) % n
            if p != side and pub[_ALIVE][p]:
                out.append(p)
        return out

    def _foe_torp(self, pub, sq, side):
        for t in pub[_TORPS]:
            if t[_T_SQ] == sq and t[_T_OWNER] != side:
                return True
        return False

    def _query(self, pub, squares, tid, lost, then):
        """Ask every other living player about squares entered by the current player's object
        (tid -1: the submarine). With several answerers the squares go one at a time, so no
        answer can name a square the mover never reached (rules: "Contacts", Efficiency)."""
        wait = self._others(pub, pub[_CUR])
        if len(wait) > 1:
            pub[_SQS], pub[_REST] = squares[:1], squares[1:]
        else:
            pub[_SQS], pub[_REST] = squares, []
        pub[_PHASE] = _PH_ANS
        pub[_ASK] = _ASK_CONTACT
        pub[_WAIT] = wait
        pub[_GOT] = []
        pub[_ENT] = tid
        pub[_LOST] = lost
        pub[_THEN] = then
        if not wait:
            self._resolve(pub)

    def _launch(self, pub, t, then):
        """Start torpedo t's two squares for this turn; False if it is lost at once. Its squares
        stop at the first holding another player's torpedo, where it must blow up."""
        size = pub[_SIZE]
        path = []
        q = t[_T_SQ]
        lost = False
        for _i in range(2):
            q = step(size, q, t[_T_HEADING])
            if q < 0:
                lost = True
                break
            path.append(q)
            if self._foe_torp(pub, q, t[_T_OWNER]):
                break
        if not path:
            pub[_TORPS].remove(t)
            return False
        self._query(pub, path, t[_T_ID], lost, then)
        return True

    def _torp(self, pub, tid):
        for t in pub[_TORPS]:
            if t[_T_ID] == tid:
                return t
        return None

    def _resolve(self, pub):
        """Every answer is in: an impact if any answer named one or another player's torpedo
        is in the square (rules: "Contacts", 3 and 4)."""
        side = pub[_CUR]
        tid = pub[_ENT]
        last = pub[_SQS][-1]
        hit = -1
        for g in pub[_GOT]:
            hit = g[_G_SQ]
        if hit < 0 and self._foe_torp(pub, last, side):
            hit = last
        t = self._torp(pub, tid) if tid >= 0 else None
        pub[_PHASE] = _PH_RUN
        pub[_WAIT] = []
        if hit < 0:
            if t is not None:
                t[_T_SQ] = last
            if pub[_REST]:
                self._query(pub, pub[_REST], tid, pub[_LOST], pub[_THEN])
            elif t is not None and pub[_LOST]:
                pub[_TORPS].remove(t)    # off the map: lost to the void
            return
        # Impact: the entering object and everything of every other side in the square go;
        # a sunk player's torpedoes go with them (rules: "Sunk submarines").
        dead = []
        if t is not None:
            pub[_TORPS].remove(t)
        else:
            dead.append(side)
        for g in pub[_GOT]:
            if g[_G_RES] == _SUB_HIT:
                dead.append(g[_G_WHO])
        pub[_TORPS] = [x for x in pub[_TORPS] if x[_T_SQ] != hit or x[_T_OWNER] == side]
        for p in dead:
            pub[_ALIVE][p] = False
            pub[_TORPS] = [x for x in pub[_TORPS] if x[_T_OWNER] != p]
        if dead:
            pub[_CALM] = 0
        if side in dead:
            pub[_THEN] = _THEN_END

    # The machine is one loop that nothing re-enters: a turn's end starts the next turn's
    # torpedoes in the same loop instead of calling back into it, so an event costs the same
    # C stack however many turns it runs through (an ESP32 task has 16 KB of it).
    def _run(self, pub):
        """Advance the machine until someone must author the next event."""
        while True:
            if self.result(pub) is not None:
                pub[_PHASE] = _PH_OVER
                return
            ph = pub[_PHASE]
            if ph == _PH_ANS or ph == _PH_CMD or ph == _PH_STEP2:
                return
            then = pub[_THEN]
            if then == _THEN_ADV:
                if not self._next_torp(pub):
                    pub[_PHASE] = _PH_CMD
            elif then == _THEN_C2:
                pub[_PHASE] = _PH_STEP2
            else:
                self._end_turn(pub)

    def _next_torp(self, pub):
        while pub[_ADV]:
            t = self._torp(pub, pub[_ADV].pop(0))
            if t is not None and self._launch(pub, t, _THEN_ADV):
                return True
        return False

    def _end_turn(self, pub):
        """The next living player in player order moves (rules: "Set-up", turn order)."""
        pub[_TURN] += 1
        pub[_CALM] += 1
        pub[_ASK] = None
        pub[_SQS] = []
        pub[_GOT] = []
        n = pub[_NPLAYERS]
        for k in range(1, n + 1):
            p = (pub[_CUR] + k) % n
            if pub[_ALIVE][p]:
                pub[_CUR] = p
                break
        self._start_turn(pub)

    def _start_turn(self, pub):
        # Torpedoes move at the start of their owner's turn, oldest first, before the command
        # (rules: "A turn", 1).
        pub[_ADV] = [t[_T_ID] for t in pub[_TORPS] if t[_T_OWNER] == pub[_CUR]]
        pub[_PHASE] = _PH_RUN
        pub[_THEN] = _THEN_ADV

    # ---- outcome ---------------------------------------------------------------------------
    def result(self, pub):
        """The last afloat wins; all sunk at once, or `calm` rounds without a loss, is a draw
        (rules: "End")."""
        alive = []  # a loop, not a comprehension: that is one more frame on the deepest path
        for p in range(pub[_NPLAYERS]):
            if pub[_ALIVE][p]:
                alive.append(p)
        if _CONCEDED in pub:
            return ([p for p in alive if p != pub[_CONCEDED]], "conceded")
        if False in pub[_READY]:
            return None
        if len(alive) == 1:
            return (alive, "last afloat")
        if not alive:
            return ([], "all sunk")
        if pub[_CALM] >= pub[_CALM_LIMIT] * len(alive):
            return ([], "calm")
        return None

    def concede(self, pub, player):
        Engine.concede(self, pub, player)
        pub[_PHASE] = _PH_OVER


# Which handler plays an event, by the turn machine's phase and the event's tag: the current
# player's command, the second cruise step (or its stop), the answers of the players asked.
SugarDog.HANDLERS = {
    _PH_CMD: {_EV_QUIET: SugarDog._quiet, _EV_CRUISE: SugarDog._cruise, _EV_FIRE: SugarDog._fire,
              _EV_SONAR: SugarDog._sonar},
    _PH_STEP2: {_EV_CRUISE: SugarDog._cruise, _EV_STOP: SugarDog._quiet},
    _PH_ANS: {_EV_ECHO: SugarDog._echo, _EV_ANSWER: SugarDog._answer},
}


# The map's glyphs, one byte a square (marks() fills a bytearray: a square's glyph is read as
# an int without allocating, where indexing a str makes a new one-char str on MicroPython).
G_NONE = const(32)       # ' ' nothing known
G_SUB = const(115)       # 's' own submarine
G_TORP = const(116)      # 't' own torpedo
G_MINE = const(109)      # 'm' own mine
G_CONTACT = const(99)    # 'c' a contact noted from the log


class Marks:
    """One player's map as the source draws it, kept across events: the log is folded one new
    event at a time (where each other submarine was last announced, the mines announced and
    not yet spent), and the map is a bytearray made once and repainted per event, so the
    per-event cost does not grow with the game (a screen keeps one)."""

    def __init__(self, player, size):
        self.player = player
        self.size = size
        self.grid = bytearray(size * size)
        self.n = 0          # the log entries folded so far
        self.seen = {}      # player -> square last announced
        self.mines = {}     # square -> the player who announced a mine there

    def update(self, pub, priv, log):
        """Fold the log's new events in, repaint and return the grid (G_* per square):
        G_SUB, G_TORP, G_MINE own things, G_CONTACT another submarine where it was last
        announced, an announced mine or another player's torpedo, G_NONE nothing known."""
        n = len(log)
        if n < self.n:                  # a shorter log is another game: start again
            self.n = 0
            self.seen = {}
            self.mines = {}
        i = self.n
        while i < n:
            author, ev = log[i]
            self._fold(author, ev)
            i += 1
        self.n = n
        return self._paint(pub, priv)

    def _fold(self, author, ev):
        if author == self.player or not ev:
            return
        seen = self.seen
        mines = self.mines
        tag = ev[_TAG]
        if tag == _EV_CRUISE:
            seen[author] = ev[_CRUISE_AT]
        elif tag == _EV_FIRE:
            seen[author] = step(self.size, ev[_FIRE_AT], back(ev[_FIRE_HEADING]))
        elif tag == _EV_SONAR or tag == _EV_ECHO:     # an echo has a ping's shape
            seen[author] = ev[_SONAR_AT]
        if tag == _EV_SONAR or tag == _EV_ECHO:     # a ping or echo lists all the sender's mines
            for q in [q for q in mines if mines[q] == author]:
                del mines[q]
            for q in ev[_SONAR_MINES]:
                mines[q] = author
        elif tag == _EV_ANSWER and ev[_ANSWER_RES] != _CLEAR and mines.get(ev[_ANSWER_SQUARES][-1]) == author:
            del mines[ev[_ANSWER_SQUARES][-1]]   # an impact spends the mine there

    def _paint(self, pub, priv):
        grid = self.grid
        alive = pub[_ALIVE]
        player = self.player
        mines = self.mines
        seen = self.seen
        for i in range(len(grid)):
            grid[i] = G_NONE
        for q in mines:
            if alive[mines[q]]:
                grid[q] = G_CONTACT
        for p in seen:
            if alive[p]:
                grid[seen[p]] = G_CONTACT
        for t in pub[_TORPS]:
            grid[t[_T_SQ]] = G_TORP if t[_T_OWNER] == player else G_CONTACT
        for q in priv[_OWN_MINES]:
            grid[q] = G_MINE
        if alive[player] and priv[_POS] is not None:
            grid[priv[_POS]] = G_SUB
        return grid


def marks(pub, priv, log, player):
    """The player's map from the whole log, once (a screen keeps a Marks instead): a bytearray
    of G_* glyphs, one per square."""
    return Marks(player, pub[_SIZE]).update(pub, priv, log)


ENGINE = SugarDog()
