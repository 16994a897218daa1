# Sugar Dog: hidden submarines for 2 to 8 players, each on their own unit (docs/rules/sugar_dog.md).
#
# Secret per player: the submarine's square, its mines and mines left. Torpedoes are public
# (every square a torpedo enters is announced), so they live in pub. When something enters a
# square loudly (a cruising submarine, a torpedo), every other living player answers from its
# own secrets, in turn order, whether it has something there; the square resolves once all
# answers are in. Squares are ints y * size + x; x is the letter (A = 0), y + 1 the number.
from fathom.games import sugardog as D
from fathom.games.base import Engine, IllegalAction

N, E, S, W = 0, 1, 2, 3
DIRS = "NESW"
MINES = 3
_ANSWERS = ("a", "e")


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


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class SugarDog(Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS
    # A draw after this many rounds in a row without a submarine lost: the game always ends.

    # ---- setup -----------------------------------------------------------------------------
    def new_game(self, opts, nplayers, rng):
        lo, hi = D.PLAYERS
        if not _is_int(nplayers) or not lo <= nplayers <= hi:
            raise IllegalAction("Sugar Dog takes %d to %d players" % (lo, hi))
        first = rng.below(nplayers)
        return {
            "n": nplayers, "size": map_size(nplayers), "calm_limit": opts["calm"],
            "ready": [False] * nplayers, "alive": [True] * nplayers,
            "first": first, "cur": first, "turn": 0, "calm": 0,
            "ph": "setup", "ask": None, "sq": [], "wait": [], "got": [], "ent": None,
            "rest": [], "lost": False, "then": None, "adv": [], "cz": -1,
            "torps": [], "tid": 0,
        }

    def new_private(self, pub, player, rng):
        return {"pos": None, "from": None, "mines": [], "left": MINES}

    def setup_legal(self, pub, priv, player):
        if priv["pos"] is not None:
            return []
        # A range, not a list: 324 squares on the 18x18 map would be a 2 KB block on a unit
        # (the budget: no allocation over 1 KB in play); it answers `in`, len() and indexing.
        return range(pub["size"] * pub["size"])

    def setup_apply(self, pub, priv, player, choice):
        if priv["pos"] is not None or not _is_int(choice) or not 0 <= choice < pub["size"] ** 2:
            raise IllegalAction("start square not legal: %r" % (choice,))
        priv["pos"] = choice

    # ---- whose move ------------------------------------------------------------------------
    def turn(self, pub):
        ph = pub["ph"]
        if ph in ("setup", "over") or self.result(pub) is not None:
            return None
        if ph == "ans":
            return (pub["wait"][0], "answer")
        return (pub["cur"], "act")

    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t != (player, "act"):
            return []
        size = pub["size"]
        pos = priv["pos"]
        if pub["ph"] == "c2":
            return [["cruise", q] for q in neighbours(size, pos) if q != priv["from"]]
        out = [["run", pos]]
        for q in neighbours(size, pos):
            out.append(["run", q])
        if priv["left"] > 0 and pos not in priv["mines"]:
            out.append(["mine"])
        for q in neighbours(size, pos):
            out.append(["cruise", q])
        out.append(["sonar"])
        for d in range(4):
            if step(size, pos, d) >= 0:
                out.append(["fire", d])
        return out

    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("illegal action %r" % (action,))
        kind = action[0]
        size = pub["size"]
        pos = priv["pos"]
        if kind == "run":
            priv["pos"] = action[1]
            return ["q"]
        if kind == "mine":
            priv["mines"].append(pos)
            priv["left"] -= 1
            return ["q"]
        if kind == "cruise":
            priv["from"] = pos
            priv["pos"] = action[1]
            return ["c", action[1]]
        if kind == "sonar":
            return ["s", pos, by_distance(size, pos, priv["mines"])]
        return ["f", step(size, pos, action[1]), action[1]]

    def answer(self, pub, priv, player):
        if pub["ask"] == "s":
            return ["e", priv["pos"], by_distance(pub["size"], pub["sq"][0], priv["mines"])]
        sqs = pub["sq"]
        for i in range(len(sqs)):
            q = sqs[i]
            if priv["pos"] == q:
                return ["a", sqs[:i + 1], 2]
            if q in priv["mines"]:
                return ["a", sqs[:i + 1], 1]
        return ["a", list(sqs), 0]

    def apply_private(self, pub, priv, player, author, event):
        # An answer naming an impact is always the square that blows: my mines there are gone.
        if author == player and event[0] == "a" and event[2]:
            q = event[1][-1]
            priv["mines"] = [m for m in priv["mines"] if m != q]

    # ---- events ----------------------------------------------------------------------------
    def apply(self, pub, author, event):
        if not isinstance(event, list) or not event or not isinstance(event[0], str):
            raise IllegalAction("malformed event")
        if not _is_int(author) or not 0 <= author < pub["n"]:
            raise IllegalAction("bad author %r" % (author,))
        tag = event[0]
        if tag == "setup":
            self._check_setup(pub, author, event)
            pub["ready"][author] = True
            if False not in pub["ready"]:
                self._start_turn(pub)
                self._run(pub)
            return
        t = self.turn(pub)
        if t is None:
            raise IllegalAction("no move expected now")
        if t[0] != author:
            raise IllegalAction("out of turn: player %d sent, player %d to play" % (author, t[0]))
        if (t[1] == "answer") != (tag in _ANSWERS):
            raise IllegalAction("event %r not expected now" % (tag,))
        getattr(self, "_ev_" + tag if tag in "qcsfae" and len(tag) == 1 else "_ev_bad")(
            pub, author, event)

    def _check_setup(self, pub, author, event):
        if len(event) != 3 or event[1] is not None or not isinstance(event[2], bytes):
            raise IllegalAction("malformed set-up event")
        if pub["ready"][author]:
            raise IllegalAction("player %d set up twice" % author)

    def _ev_bad(self, pub, author, event):
        raise IllegalAction("unknown event %r" % (event[0],))

    def _square(self, pub, v):
        if not _is_int(v) or not 0 <= v < pub["size"] ** 2:
            raise IllegalAction("not a square: %r" % (v,))
        return v

    def _sonar_list(self, pub, event, source):
        if len(event) != 3 or not isinstance(event[2], list) or len(event[2]) > MINES:
            raise IllegalAction("malformed sonar report")
        self._square(pub, event[1])
        for m in event[2]:
            self._square(pub, m)
        if event[2] != by_distance(pub["size"], source, event[2]) or \
                len(set(event[2])) != len(event[2]):
            raise IllegalAction("sonar contacts must be distinct and nearest first")

    def _ev_q(self, pub, author, event):
        if len(event) != 1 or pub["ph"] != "cmd":
            raise IllegalAction("malformed silent turn")
        self._end_turn(pub)
        self._run(pub)

    def _ev_c(self, pub, author, event):
        if len(event) != 2:
            raise IllegalAction("malformed cruise step")
        q = self._square(pub, event[1])
        if pub["ph"] == "c2":
            if dist(pub["size"], q, pub["cz"]) != 1:
                raise IllegalAction("second cruise step must be next to the first")
            then = "end"
        else:
            then = "c2"
        pub["cz"] = q
        self._query(pub, [q], -1, False, then)
        self._run(pub)

    def _ev_f(self, pub, author, event):
        if len(event) != 3 or pub["ph"] != "cmd" or not _is_int(event[2]) or \
                not 0 <= event[2] < 4:
            raise IllegalAction("malformed torpedo launch")
        q = self._square(pub, event[1])
        launch = step(pub["size"], q, (event[2] + 2) % 4)
        if launch < 0:
            raise IllegalAction("torpedo must be launched from a square on the map")
        t = [pub["tid"], author, launch, event[2]]
        pub["tid"] += 1
        pub["torps"].append(t)
        self._launch(pub, t, "end")
        self._run(pub)

    def _ev_s(self, pub, author, event):
        if pub["ph"] != "cmd":
            raise IllegalAction("sonar only as a command")
        self._sonar_list(pub, event, event[1] if len(event) == 3 else -1)
        pub["ph"] = "ans"
        pub["ask"] = "s"
        pub["sq"] = [event[1]]
        pub["wait"] = self._others(pub, author)
        pub["then"] = "end"
        self._run(pub)

    def _ev_e(self, pub, author, event):
        if pub["ask"] != "s":
            raise IllegalAction("no sonar ping to answer")
        self._sonar_list(pub, event, pub["sq"][0])
        pub["wait"].pop(0)
        if not pub["wait"]:
            pub["ph"] = "run"
        self._run(pub)

    def _ev_a(self, pub, author, event):
        if pub["ask"] != "c" or len(event) != 3 or not isinstance(event[1], list):
            raise IllegalAction("malformed contact answer")
        sqs, res = event[1], event[2]
        if not _is_int(res) or not 0 <= res <= 2 or not sqs or sqs != pub["sq"][:len(sqs)]:
            raise IllegalAction("answer must name a prefix of the announced squares")
        if res == 0 and len(sqs) != len(pub["sq"]):
            raise IllegalAction("a clear answer covers every announced square")
        pub["wait"].pop(0)
        if res:
            pub["got"].append([author, res, sqs[-1]])
        if not pub["wait"]:
            self._resolve(pub)
        self._run(pub)

    # ---- the turn machine ------------------------------------------------------------------
    def _others(self, pub, side):
        """Living players other than `side`, in turn order starting after the current player."""
        n = pub["n"]
        out = []
        for k in range(1, n + 1):
            p = (pub["cur"] + k) % n
            if p != side and pub["alive"][p]:
                out.append(p)
        return out

    def _foe_torp(self, pub, sq, side):
        for t in pub["torps"]:
            if t[2] == sq and t[1] != side:
                return True
        return False

    def _query(self, pub, squares, tid, lost, then):
        """Ask every other living player about squares entered by the current player's object
        (tid -1: the submarine). With several answerers the squares go one at a time, so no
        answer can name a square the mover never reached."""
        wait = self._others(pub, pub["cur"])
        if len(wait) > 1:
            pub["sq"], pub["rest"] = squares[:1], squares[1:]
        else:
            pub["sq"], pub["rest"] = squares, []
        pub["ph"] = "ans"
        pub["ask"] = "c"
        pub["wait"] = wait
        pub["got"] = []
        pub["ent"] = tid
        pub["lost"] = lost
        pub["then"] = then
        if not wait:
            self._resolve(pub)

    def _launch(self, pub, t, then):
        """Start torpedo t's two squares for this turn; False if it is lost at once."""
        size = pub["size"]
        path = []
        q = t[2]
        lost = False
        for _i in range(2):
            q = step(size, q, t[3])
            if q < 0:
                lost = True
                break
            path.append(q)
            if self._foe_torp(pub, q, t[1]):
                break
        if not path:
            pub["torps"].remove(t)
            return False
        self._query(pub, path, t[0], lost, then)
        return True

    def _torp(self, pub, tid):
        for t in pub["torps"]:
            if t[0] == tid:
                return t
        return None

    def _resolve(self, pub):
        side = pub["cur"]
        tid = pub["ent"]
        last = pub["sq"][-1]
        hit = -1
        for g in pub["got"]:
            hit = g[2]
        if hit < 0 and self._foe_torp(pub, last, side):
            hit = last
        t = self._torp(pub, tid) if tid >= 0 else None
        pub["ph"] = "run"
        pub["wait"] = []
        if hit < 0:
            if t is not None:
                t[2] = last
            if pub["rest"]:
                self._query(pub, pub["rest"], tid, pub["lost"], pub["then"])
            elif t is not None and pub["lost"]:
                pub["torps"].remove(t)
            return
        # Impact: the entering object and everything of every other side in the square go.
        dead = []
        if t is not None:
            pub["torps"].remove(t)
        else:
            dead.append(side)
        for g in pub["got"]:
            if g[1] == 2:
                dead.append(g[0])
        pub["torps"] = [x for x in pub["torps"] if x[2] != hit or x[1] == side]
        for p in dead:
            pub["alive"][p] = False
            pub["torps"] = [x for x in pub["torps"] if x[1] != p]
        if dead:
            pub["calm"] = 0
        if side in dead:
            pub["then"] = "end"

    # The machine is one loop that nothing re-enters: a turn's end starts the next turn's
    # torpedoes in the same loop instead of calling back into it, so an event costs the same
    # C stack however many turns it runs through (issue 14: the C stack budget).
    def _run(self, pub):
        """Advance the machine until someone must author the next event."""
        while True:
            if self.result(pub) is not None:
                pub["ph"] = "over"
                return
            if pub["ph"] in ("ans", "cmd", "c2"):
                return
            then = pub["then"]
            if then == "adv":
                if not self._next_torp(pub):
                    pub["ph"] = "cmd"
            elif then == "c2":
                pub["ph"] = "c2"
            else:
                self._end_turn(pub)

    def _next_torp(self, pub):
        while pub["adv"]:
            t = self._torp(pub, pub["adv"].pop(0))
            if t is not None and self._launch(pub, t, "adv"):
                return True
        return False

    def _end_turn(self, pub):
        pub["turn"] += 1
        pub["calm"] += 1
        pub["ask"] = None
        pub["sq"] = []
        pub["got"] = []
        n = pub["n"]
        for k in range(1, n + 1):
            p = (pub["cur"] + k) % n
            if pub["alive"][p]:
                pub["cur"] = p
                break
        self._start_turn(pub)

    def _start_turn(self, pub):
        # Torpedoes move at the start of their owner's turn, oldest first, before the command.
        pub["adv"] = [t[0] for t in pub["torps"] if t[1] == pub["cur"]]
        pub["ph"] = "run"
        pub["then"] = "adv"

    # ---- outcome ---------------------------------------------------------------------------
    def result(self, pub):
        alive = []  # a loop, not a comprehension: that is one more frame on the deepest path
        for p in range(pub["n"]):
            if pub["alive"][p]:
                alive.append(p)
        if "conceded" in pub:
            return ([p for p in alive if p != pub["conceded"]], "conceded")
        if False in pub["ready"]:
            return None
        if len(alive) == 1:
            return (alive, "last afloat")
        if not alive:
            return ([], "all sunk")
        if pub["calm"] >= pub["calm_limit"] * len(alive):
            return ([], "calm")
        return None

    def concede(self, pub, player):
        pub["conceded"] = player
        pub["ph"] = "over"

    # ---- log lines in the source's notation ------------------------------------------------
    def describe(self, pub, author, event):
        who = "P%d " % (author + 1)
        size = pub["size"]
        tag = event[0] if isinstance(event, list) and event else "?"
        try:
            if tag == "setup":
                return who + "ready"
            if tag == "concede":
                return who + "concedes"
            if tag == "q":
                return who + "runs silent"
            if tag == "c":
                return who + "contact " + name(size, event[1])
            if tag == "f":
                return who + "torpedo %s>%s" % (name(size, event[1]), DIRS[event[2]])
            if tag in ("s", "e"):
                line = who + ("ping " if tag == "s" else "echo ") + name(size, event[1])
                if event[2]:
                    line += " m:" + ",".join([name(size, m) for m in event[2]])
                return line
            if tag == "a":
                where = ",".join([name(size, q) for q in event[1]])
                if event[2] == 0:
                    return who + "clear " + where
                return who + "impact %s %s" % (name(size, event[1][-1]),
                                               "sub" if event[2] == 2 else "mine")
        except (IndexError, TypeError, ValueError, OverflowError):  # shown, never trusted
            pass
        return who + str(tag)


# The map's glyphs, one byte a square (marks() fills a bytearray: a square's glyph is read as
# an int without allocating, where indexing a str makes a new one-char str on MicroPython).
G_NONE = 32        # ' ' nothing known
G_SUB = 115        # 's' own submarine
G_TORP = 116       # 't' own torpedo
G_MINE = 109       # 'm' own mine
G_CONTACT = 99     # 'c' a contact noted from the log


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
        tag = ev[0]
        if tag in ("c", "s", "e"):
            seen[author] = ev[1]
        elif tag == "f":
            seen[author] = step(self.size, ev[1], (ev[2] + 2) % 4)
        if tag in ("s", "e"):
            for q in [q for q in mines if mines[q] == author]:
                del mines[q]
            for q in ev[2]:
                mines[q] = author
        elif tag == "a" and ev[2] and mines.get(ev[1][-1]) == author:
            del mines[ev[1][-1]]

    def _paint(self, pub, priv):
        grid = self.grid
        alive = pub["alive"]
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
        for t in pub["torps"]:
            grid[t[2]] = G_TORP if t[1] == player else G_CONTACT
        for q in priv["mines"]:
            grid[q] = G_MINE
        if alive[player] and priv["pos"] is not None:
            grid[priv["pos"]] = G_SUB
        return grid


def marks(pub, priv, log, player):
    """The player's map from the whole log, once (a screen keeps a Marks instead): a bytearray
    of G_* glyphs, one per square."""
    return Marks(player, pub["size"]).update(pub, priv, log)


ENGINE = SugarDog()
