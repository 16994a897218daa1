# Lake Ashtapada: two PT boats hunt each other's secret mines on a square lake by sonar.
# Rules, gaps and interpretations: docs/rules/lake_ashtapada.md (section numbers quoted below).
# Player 0 is South and moves first. Squares are ints r*size+c, row 0 on the South shore.
from fathom.games import ashtapada as D
from fathom.games.base import Engine, IllegalAction
from fathom.compat import const

SOUTH = const(0)
NORTH = const(1)
STEPS = const(3)    # squares one manoeuvre may cover (rule 4.1)
MISSES = const(2)   # the depth-charge miss that loses (rule 4.3)
_LETTERS = "ABCDEFGHIJKL"
_SIDE = "SN"

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
    return SOUTH if sq // size < size // 2 else NORTH


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
    destroyed before it). Stored as bytes in pub['sonar'] to keep a long game small."""
    return [(b[0], b[1], list(b[3:]), b[2]) for b in pub["sonar"]]


def _islands(pub):
    return pub["islands"][0] + pub["islands"][1]


def unproved(pub, player):
    """bytearray over the lake: 1 where public facts alone (rule 6.2) leave room for a live
    enemy mine: the enemy half less islands, destroyed mines, `player`'s misses and the
    squares `player`'s boat crossed safely."""
    n = pub["size"]
    enemy = 1 - player
    out = bytearray(n * n)
    lo = (n // 2) * n if enemy == NORTH else 0
    for s in range(lo, lo + n * n // 2):
        out[s] = 1
    # _islands(pub) written out: this runs at the bottom of every answer's validation
    isl = pub["islands"]
    for s in isl[0] + isl[1] + pub["dead"][enemy] + pub["miss"][player] + pub["clear"][player]:
        out[s] = 0
    return out


def known_empty(pub, player, sq):
    """True when public facts prove no live enemy mine of `player`'s opponent is on `sq`."""
    return not unproved(pub, player)[sq]


# ---- deduction (rule 6.3: the overlay the UI may show, and SharpBot's eyes) ------------------
def candidates(pub, player):
    """bytearray over the lake: 1 where a live enemy mine of `player`'s opponent could still be.
    Sound and per square: a 0 is proved empty by the public record (if the opponent answered
    honestly); a 1 passes every test below but may still be impossible in combination with the
    other squares. Tests: enemy half, not an island, not a destroyed mine, not a miss, not
    crossed safely by `player`'s boat, and for each of `player`'s sounding charges either its
    distance was reported or its path could have been blocked (an island, a square still
    marked 1, or a mine destroyed after that report). Repeated to a fixed point."""
    n = pub["size"]
    enemy = 1 - player
    cand = unproved(pub, player)
    mine_reports = [r for r in reports(pub) if r[0] == player]
    dead = pub["dead"][enemy]
    isl = _islands(pub)
    changed = True
    while changed:
        changed = False
        for _who, c, dists, nd in mine_reports:
            block = bytearray(cand)
            for s in isl:
                block[s] = 1
            for s in dead[nd:]:
                block[s] = 1
            for s in range(n * n):
                if cand[s] and distance(n, c, s) not in dists and _reach(n, c, s, block) >= 0:
                    cand[s] = 0
                    changed = True
    return cand


def certain(pub, player, cand=None):
    """Squares that must hold a live enemy mine: the only square left that can explain some
    reported distance, or every candidate when exactly as many remain as live enemy mines."""
    n = pub["size"]
    enemy = 1 - player
    if cand is None:
        cand = candidates(pub, player)
    dead = pub["dead"][enemy]
    live = pub["mines"] - len(dead)
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
            "turn": SOUTH, "pend": None, "dead": [[], []], "miss": [[], []],
            "clear": [[], []], "sonar": [], "quiet": 0, "turns": 0, "end": None,
            "conceded": None,
        }

    def new_private(self, pub, player, rng):
        return {"islands": [], "mines": []}

    def island_ok(self, pub, player, sq):
        n = pub["size"]
        return side(sq, n) == player and not near_shore(sq, n)

    def setup_legal(self, pub, priv, player):
        n = pub["size"]
        if len(priv["islands"]) < pub["isl"]:
            return [["island", s] for s in range(n * n)
                    if self.island_ok(pub, player, s) and s not in priv["islands"]]
        if len(priv["mines"]) < pub["mines"]:
            return [["mine", s] for s in range(n * n) if side(s, n) == player
                    and s not in priv["islands"] and s not in priv["mines"]]
        return []

    def setup_apply(self, pub, priv, player, choice):
        if choice not in self.setup_legal(pub, priv, player):
            raise IllegalAction("set-up choice not legal: %r" % (choice,))
        priv["islands" if choice[0] == "island" else "mines"].append(choice[1])

    def setup_public(self, pub, priv, player):
        return sorted(priv["islands"])

    # ---- turns -----------------------------------------------------------------------------
    def turn(self, pub):
        if self.result(pub) is not None or not (pub["ready"][0] and pub["ready"][1]):
            return None
        if pub["pend"] is not None:
            return (1 - pub["pend"][1], "answer")
        return (pub["turn"], "act")

    def charge_squares(self, pub, player):
        """Where `player` may drop a charge now (rule 4.2)."""
        isl = _islands(pub)
        foe = pub["boats"][1 - player]
        return [s for s in neighbours(pub["boats"][player], pub["size"])
                if s != foe and s not in isl]

    def _walks(self, pub, player):
        n = pub["size"]
        start = pub["boats"][player]
        banned = _islands(pub) + [pub["boats"][1 - player], start]
        out = []
        todo = [[]]
        while todo:
            path = todo.pop()
            here = path[-1] if path else start
            for s in _steps(here, n):
                if s not in banned and s not in path:
                    p = path + [s]
                    out.append(p)
                    if len(p) < STEPS:
                        todo.append(p)
        return out

    def legal(self, pub, priv, player):
        if self.turn(pub) != (player, "act"):
            return []
        out = [["move", p] for p in self._walks(pub, player)]
        for s in self.charge_squares(pub, player):
            out.append(["sound", s])
        for s in self.charge_squares(pub, player):
            out.append(["depth", s])
        return out

    def _check_action(self, pub, player, action):
        if self.turn(pub) != (player, "act"):
            raise IllegalAction("not player %d's turn to act" % player)
        if not isinstance(action, list) or len(action) != 2:
            raise IllegalAction("malformed action")
        tag = action[0]
        n = pub["size"]
        if tag == "move":
            path = action[1]
            if not isinstance(path, list) or not 1 <= len(path) <= STEPS:
                raise IllegalAction("a manoeuvre is 1 to %d steps" % STEPS)
            _squares(path, n, len(path))
            here = pub["boats"][player]
            banned = _islands(pub) + [pub["boats"][1 - player], here]
            for s in path:
                if s not in _steps(here, n):
                    raise IllegalAction("%s is not one orthogonal step on" % name(s, n))
                if s in banned:
                    raise IllegalAction("cannot enter %s" % name(s, n))
                here = s
            return
        if tag in ("sound", "depth"):
            if _sq(action[1], n) not in self.charge_squares(pub, player):
                raise IllegalAction("cannot drop a charge on %s" % name(action[1], n))
            return
        raise IllegalAction("unknown action %r" % (tag,))

    def act(self, pub, priv, player, action):
        self._check_action(pub, player, action)
        if action[0] == "move":
            return ["move", list(action[1])]
        return [action[0], action[1]]

    # ---- answers from the mine owner's secrets (rules 4.1, 5, 4.3) --------------------------
    def live_mines(self, pub, priv, player):
        return [m for m in priv["mines"] if m not in pub["dead"][player]]

    def answer(self, pub, priv, player):
        pend = pub["pend"]
        if pend is None or pend[1] == player:
            raise IllegalAction("nothing for player %d to answer" % player)
        live = self.live_mines(pub, priv, player)
        if pend[0] == "move":
            for s in pend[2]:
                if s in live:
                    return ["mine", s]
            return ["mine", -1]
        if pend[0] == "sound":
            return ["ping", pend[2], report(pub["size"], _islands(pub), live, pend[2])]
        return ["hit", pend[2], pend[2] in live]

    # ---- apply -----------------------------------------------------------------------------
    def apply(self, pub, author, event):
        if not isinstance(author, int) or isinstance(author, bool) or author not in (0, 1):
            raise IllegalAction("bad author %r" % (author,))
        if not isinstance(event, list) or not event or not isinstance(event[0], str):
            raise IllegalAction("malformed event")
        if event[0] == "setup":
            return self._apply_setup(pub, author, event)
        t = self.turn(pub)
        if t is None:
            raise IllegalAction("no play now: game over or set-up missing")
        if t[0] != author:
            raise IllegalAction("out of turn: player %d to play" % t[0])
        if t[1] == "act":
            self._check_action(pub, author, event)
            self._apply_action(pub, author, event)
        else:
            self._apply_answer(pub, author, event)

    def _apply_setup(self, pub, author, event):
        if len(event) != 3:
            raise IllegalAction("malformed set-up event")
        if pub["ready"][author]:
            raise IllegalAction("player %d set up twice" % author)
        isl = _squares(event[1], pub["size"], pub["isl"])
        for s in isl:
            if not self.island_ok(pub, author, s):
                raise IllegalAction("no island may stand on %s" % name(s, pub["size"]))
        pub["islands"][author] = sorted(isl)
        pub["ready"][author] = True

    def _apply_action(self, pub, player, event):
        tag = event[0]
        if tag == "move":
            path = event[1]
            open_ = unproved(pub, player)
            for s in path:
                if open_[s]:
                    pub["pend"] = ["move", player, list(path)]
                    return
            self._moved(pub, player, path, -1)
        elif tag == "sound":
            pub["pend"] = ["sound", player, event[1]]
        elif known_empty(pub, player, event[1]):
            self._depth(pub, player, event[1], False)
        else:
            pub["pend"] = ["depth", player, event[1]]

    def _apply_answer(self, pub, author, event):
        pend = pub["pend"]
        kind, actor, what = pend
        n = pub["size"]
        tag = event[0]
        want = {"move": "mine", "sound": "ping", "depth": "hit"}[kind]
        if tag != want:
            raise IllegalAction("expected a %r answer, got %r" % (want, tag))
        if kind == "move":
            if len(event) != 2:
                raise IllegalAction("malformed mine answer")
            sq = event[1]
            if not isinstance(sq, int) or isinstance(sq, bool):
                raise IllegalAction("malformed mine answer")
            if sq != -1:
                _sq(sq, n)
                if sq not in what or known_empty(pub, actor, sq):
                    raise IllegalAction("no mine can be at %s" % name(sq, n))
            pub["pend"] = None
            self._moved(pub, actor, what, sq)
            return
        if len(event) != 3 or _sq(event[1], n) != what:
            raise IllegalAction("answer is not about the charge at %s" % name(what, n))
        if kind == "sound":
            dists = event[2]
            self._check_ping(pub, author, what, dists)
            rec = bytes([actor, what, len(pub["dead"][author])] + dists)
            if rec not in pub["sonar"]:
                pub["sonar"].append(rec)
            self._end_turn(pub, False)
            return
        hit = event[2]
        if hit is not True and hit is not False:
            raise IllegalAction("a depth charge answer is True or False")
        if hit and known_empty(pub, actor, what):
            raise IllegalAction("no mine can be at %s" % name(what, n))
        self._depth(pub, actor, what, hit)

    def _check_ping(self, pub, reporter, charge, dists):
        n = pub["size"]
        if not isinstance(dists, list):
            raise IllegalAction("a ping report is a list of distances")
        if len(dists) > pub["mines"] - len(pub["dead"][reporter]):
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
        n = pub["size"]
        for s in path[:stop]:
            if side(s, n) != player and s not in pub["clear"][player]:
                pub["clear"][player].append(s)
        pub["boats"][player] = path[stop] if mine >= 0 else path[-1]
        if mine >= 0:
            pub["end"] = [1 - player, WON_STRUCK, mine]
        self._end_turn(pub, False)

    def _depth(self, pub, player, sq, hit):
        enemy = 1 - player
        if hit:
            pub["dead"][enemy].append(sq)
            if len(pub["dead"][enemy]) == pub["mines"]:
                pub["end"] = [player, WON_MINES, sq]
        else:
            pub["miss"][player].append(sq)
            if len(pub["miss"][player]) >= MISSES:
                pub["end"] = [enemy, WON_MISSES, sq]
        self._end_turn(pub, hit)

    def _end_turn(self, pub, destroyed):
        pub["pend"] = None
        pub["turns"] += 1
        pub["quiet"] = 0 if destroyed else pub["quiet"] + 1
        if pub["end"] is None and pub["quiet"] >= pub["calm"]:
            pub["end"] = [-1, DRAW_CALM, -1]
        pub["turn"] = 1 - pub["turn"]

    def result(self, pub):
        if pub.get("conceded") is not None:
            return ([1 - pub["conceded"]], "conceded")
        end = pub["end"]
        if end is None:
            return None
        return ([] if end[0] < 0 else [end[0]], end[1])

    # ---- labels for the generic choice list (fathom.ui.play asks for them if present) -------
    def label(self, pub, priv, player, action):
        """'move D5-D6-E6', 'sound D4', 'depth E5'."""
        n = pub["size"]
        if action[0] == "move":
            return "move " + "-".join([name(s, n) for s in action[1]])
        return "%s %s" % (action[0], name(action[1], n))

    def setup_label(self, pub, priv, player, choice):
        """'island C3', 'mine B2'."""
        return "%s %s" % (choice[0], name(choice[1], pub["size"]))

    # ---- log lines -------------------------------------------------------------------------
    def describe(self, pub, author, event):
        """One log line of at most 21 characters, e.g. 'S sound D4: 2,3'."""
        n = pub["size"]
        tag = event[0] if isinstance(event, list) and event else "?"
        me = _SIDE[author] if author in (0, 1) else "?"
        foe = _SIDE[1 - author] if author in (0, 1) else "?"
        try:
            if tag == "setup":
                line = me + " ready"
            elif tag == "concede":
                line = me + " concedes"
            elif tag == "move":
                line = "%s move to %s" % (me, name(event[1][-1], n))
            elif tag in ("sound", "depth"):
                line = "%s %s %s" % (me, tag, name(event[1], n))
            elif tag == "mine":
                line = (foe + " safe passage" if event[1] < 0
                        else "%s hit mine %s" % (foe, name(event[1], n)))
            elif tag == "hit":
                line = "%s depth %s: %s" % (foe, name(event[1], n), "hit" if event[2] else "miss")
            elif tag == "ping":
                where = name(event[1], n)
                got = ",".join([str(d) for d in event[2]]) or "none"
                line = "%s sound %s: %s" % (foe, where, got)
                if len(line) > 21:
                    line = "%s %s:%s" % (foe, where, got)
            else:
                line = me + " " + str(tag)
        except (IndexError, TypeError, ValueError):
            line = me + " " + str(tag)
        return line if len(line) <= 21 else line[:20] + "+"


ENGINE = Ashtapada()
