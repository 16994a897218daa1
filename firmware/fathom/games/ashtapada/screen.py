# Lake Ashtapada on the unit: the lake (a kit BoardGrid, each player's own shore at the bottom)
# with what this player knows, a cursor that jumps between the squares where something can be
# done, and OK opening a short menu of just that (sound, depth charge, move here); OK on your own
# boat lists every action. A side panel in the 3x5 font says what just happened and what is
# under the cursor. A long BACK opens the help page. Words and rules come from say.py and the
# engine; this module only lays out and draws what they give, cached once per event.
from fathom.games.ashtapada import engine as A
from fathom.games.ashtapada import say
from fathom.ui.boardgrid import LETTERS, BoardGrid
from fathom.ui.dialog import draw_page
from fathom.ui.font import CH, TH, TW, number, tiny
from fathom.ui.listview import ListView
from fathom.ui.play import GameBase
from fathom.ui.screen import wrap
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar

HELP = "games/ashtapada/help.txt"
ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")
_PLAYER = ("P1", "P2")
_WIDE_MENU = 72     # a square's menu sits in the side panel when the panel is this wide


def read_help():
    """The help page's text, read line by line from the data file beside the game (it costs
    no heap until the page is opened)."""
    from fathom import res
    out = []
    with res.open_data(HELP) as fh:
        for line in fh:
            out.append(line.rstrip("\n"))
    return "\n".join(out)


class AshtapadaScreen(GameBase):
    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        s = runner.seat
        self.n = n = s.pub["size"]
        self.me = s.player
        # South sees row 1 at the bottom, North the lake turned round: its own shore at the
        # bottom and the columns mirrored, so grid cell (r, c) is square (r, n-1-c) for North
        letters = LETTERS[:n]
        if self.me != A.SOUTH:
            letters = "".join([LETTERS[n - 1 - i] for i in range(n)])
        self.grid = BoardGrid(n, n, 0, flip=self.me == A.SOUTH, labels=True, min_px=4,
                              max_px=9, letters=letters)
        self.menu = None          # ListView of the actions on one square, while open
        self.acts = None          # the actions that menu lists
        self.full = False         # the menu lists every action (opened on the boat)
        self.help = None          # TextPage while the help page is open
        self._at = None           # log length and set-up count the caches belong to
        self._legal = []
        self._kinds = None
        self._map = None
        self._said = ""
        self._status = []
        self._wrapped = None      # (chars, lines) of the event line in the panel
        self._ok_play = self._can_play    # bound once: a bound method allocates per access
        self._ok_setup = self._can_lay
        self._refresh()
        self.grid.cursor = self._cell(self._start())

    # ---- squares and grid cells --------------------------------------------------------------
    def _cell(self, sq):
        """Grid cell of a square, and (the mapping is its own inverse) square of a cell."""
        if self.me == A.SOUTH:
            return sq
        n = self.n
        return (sq // n) * n + n - 1 - sq % n

    def here(self):
        """The square under the cursor."""
        return self._cell(self.grid.cursor)

    # ---- caches: the engine is asked once per event, never per redraw or cursor move ---------
    def _refresh(self):
        s = self.runner.seat
        key = len(s.log) * 256 + len(s.setup_choices)
        if key == self._at:
            return False
        self._at = key
        pub = s.pub
        setup = s.setup_legal()
        self._legal = setup if setup else say.order(s.legal())
        self._kinds = say.kinds(self._legal, self.n * self.n)
        self._map, _ = say.lake(pub, s.priv, self.me)
        self._said = say.event(pub, self.me, s.log)
        self._wrapped = None
        self._status = say.setup_status(pub, s.priv) if setup else say.status(pub, self.me)
        self.close_menu()
        if self._legal and not self._can(self.grid.cursor):
            self.grid.cursor = self._cell(self._start())
        return True

    def _start(self):
        """Where the cursor goes when the player has a choice and the cursor is on none: the
        first free square in reading order in set-up, else the boat."""
        s = self.runner.seat
        if s.setup_legal():
            best, bkey = 0, None
            for c in self._legal:
                cell = self._cell(c[1])
                r = self.n - 1 - cell // self.n if self.grid.flip else cell // self.n
                k = r * 64 + cell % self.n
                if bkey is None or k < bkey:
                    best, bkey = c[1], k
            return best
        return s.pub["boats"][self.me]

    def _setup_phase(self):
        return self._legal and self._legal[0][0] in ("island", "mine")

    def _can_lay(self, cell):
        return self._kinds[self._cell(cell)] != 0

    def _can_play(self, cell):
        sq = self._cell(cell)
        return self._kinds[sq] != 0 or sq == self.runner.seat.pub["boats"][self.me]

    def _can(self, cell):
        if not self._legal:
            return True
        return self._can_lay(cell) if self._setup_phase() else self._can_play(cell)

    def _ok_fn(self):
        if not self._legal:
            return None
        return self._ok_setup if self._setup_phase() else self._ok_play

    # ---- the menu of one square ----------------------------------------------------------------
    def _menu_for(self, sq):
        """(actions, labels) for the menu on square sq; every action on the boat's square."""
        s = self.runner.seat
        if sq == s.pub["boats"][self.me]:
            acts = self._legal
            eng = self.eng
            return acts, [eng.label(s.pub, s.priv, self.me, a) for a in acts], True
        acts = say.at(self._legal, sq)
        paths = 0
        for a in acts:
            if a[0] == "move":
                paths += 1
        return acts, [say.menu_label(s.pub, a, paths) for a in acts], False

    def open_menu(self):
        acts, labels, full = self._menu_for(self.here())
        if not acts:
            return
        self.acts = acts
        self.full = full
        self.menu = ListView(labels)

    def close_menu(self):
        self.menu = None
        self.acts = None
        self.full = False

    # ---- keys ----------------------------------------------------------------------------------
    def key(self, k):
        self._refresh()
        if self.help is not None:
            if not self.help.key(k) and k in ("BACK", "OK", "HELP"):
                self.help = None
            return
        if k == "HELP":
            self.help = TextPage(read_help())
            return
        if self.menu is not None:
            if k == "OK":
                self._play(self.acts[self.menu.cursor])
            elif k == "BACK":
                self.close_menu()
            elif not self.menu.key(k) and k in ARROWS:
                self.close_menu()           # LEFT/RIGHT: back on the lake, and move
                self.grid.key(k, self._ok_fn())
            return
        if k == "BACK":
            self.pause()
        elif k in ARROWS:
            self.grid.key(k, self._ok_fn())
        elif k == "OK" and self._legal:
            if self._setup_phase():
                self._lay()
            else:
                self.open_menu()
                if self.menu is not None and self.menu.count() == 1 and not self.full:
                    self._play(self.acts[0])    # one thing to do there: no menu to confirm

    def _lay(self):
        sq = self.here()
        cell = self.grid.cursor
        for c in self._legal:
            if c[1] == sq:
                self.runner.setup_choose(c)
                self._refresh()
                if self._legal and self._setup_phase():
                    self.grid.cursor = self._nearest(cell)
                return

    def _nearest(self, cell):
        """The free cell nearest `cell` as drawn: the same row to the right first on ties, so
        repeated OKs lay squares along the row."""
        n = self.n
        i, j = cell // n, cell % n
        best, bkey = cell, None
        for c in self._legal:
            cc = self._cell(c[1])
            ci, cj = cc // n, cc % n
            di = ci - i if ci >= i else i - ci
            dj = cj - j if cj >= j else j - cj
            key = (di + dj) * 64 + di * 2 + (0 if cj >= j else 1)
            if bkey is None or key < bkey:
                best, bkey = cc, key
        return best

    def _play(self, action):
        self.close_menu()
        self.runner.play(action)
        self._refresh()

    # ---- key presses per action (the ux bench, and tests that press them) -----------------------
    def keys_for(self, action):
        """The shortest list of keys that, pressed from the screen as it is now, authors
        `action` (a legal action or set-up choice of this seat)."""
        self._refresh()
        pre = []
        if self.help is not None:
            pre.append("BACK")
        if self.menu is not None:
            if action in self.acts:
                return pre + _menu_keys(self.acts.index(action), len(self.acts)) + ["OK"]
            pre.append("BACK")
        start = self.grid.cursor
        if self._setup_phase():
            return pre + self._path(start, self._cell(action[1])) + ["OK"]
        best = None
        for sq in (say.target(action), self.runner.seat.pub["boats"][self.me]):
            acts = self._menu_for(sq)[0]
            if action not in acts:
                continue
            way = self._path(start, self._cell(sq))
            if way is None:
                continue
            keys = way + ["OK"]
            if len(acts) > 1 or sq != say.target(action):
                keys += _menu_keys(acts.index(action), len(acts)) + ["OK"]
            if best is None or len(keys) < len(best):
                best = keys
        if best is None:
            raise ValueError("not a legal action here: %r" % (action,))
        return pre + best

    def _path(self, start, goal):
        """Arrow keys from cell start to cell goal as the grid moves (a breadth-first search
        over its own key(), jumping squares where nothing can be done); None if unreachable."""
        g = self.grid
        ok = self._ok_fn()
        keep = g.cursor
        prev = {start: None}
        todo = [start]
        i = 0
        while i < len(todo) and goal not in prev:
            here = todo[i]
            i += 1
            for k in ARROWS:
                g.cursor = here
                g.key(k, ok)
                if g.cursor not in prev:
                    prev[g.cursor] = (here, k)
                    todo.append(g.cursor)
        g.cursor = keep
        if goal not in prev:
            return None
        out = []
        at = goal
        while prev[at] is not None:
            at, k = prev[at]
            out.append(k)
        out.reverse()
        return out

    # ---- drawing -------------------------------------------------------------------------------
    def _title(self):
        return self.status()

    def draw(self, d):
        self._refresh()
        if self.help is not None:
            draw_page(d, "Help", self.app.link_state, self.help)
            return
        menu = self.menu
        bh = d.height - CH
        bw = min(bh + 8, d.width - 36)
        wide = self.grid.layout(0, CH, bw, bh) + 2
        if menu is not None and (self.full or d.width - wide < _WIDE_MENU):
            # a long list, or no room beside the lake: the list takes the whole body
            if menu.fits(bh):
                top_bar(d, self._title(), self.app.link_state, _PLAYER[self.me])
            else:
                top_bar(d, self._title(), self.app.link_state, None, menu.cursor + 1,
                        menu.count())
            menu.draw(d, 0, CH, d.width, bh)
            return
        top_bar(d, self._title(), self.app.link_state, _PLAYER[self.me])
        self.grid.draw(d, 0, CH, bw, bh, self._square)
        g = self.grid
        d.rect(g.x0 - 1, g.y0 - 1, g.vc * g.px + 2, g.vr * g.px + 2, 1)
        if menu is not None:
            self._mark_action(d, self.acts[menu.cursor])
            menu.draw(d, wide, CH, d.width - wide, bh)
        else:
            self._panel(d, wide, CH, d.width - wide, bh)

    def _square(self, d, cell, x, y, px):
        sq = self._cell(cell)
        k = px - 2                   # one pixel clear on every side for the cursor frame
        code = self._map[sq]
        if code:
            _glyph(d, x + 1, y + 1, k, code, 1)
        boats = self.runner.seat.pub["boats"]
        if sq == boats[0] or sq == boats[1]:
            _boat(d, x + 1, y + 1, k, sq == boats[self.me], 1)

    def _mark_action(self, d, action):
        """The highlighted menu action on the lake: its squares inverted (a move's path)."""
        g = self.grid
        sqs = action[1] if action[0] == "move" else (action[1],)
        for sq in sqs:
            at = g.where(self._cell(sq))
            if at is not None:
                d.fill_rect(at[0], at[1], g.px - 1, g.px - 1, 1)

    def _panel(self, d, x, y, w, h):
        """The side panel in the 3x5 font: what just happened, what is under the cursor, the
        status; as many lines as fit, in that order of importance."""
        chars = w // TW
        rows = h // TH
        if chars < 4 or rows < 1:
            return
        if self._wrapped is None or self._wrapped[0] != chars:
            self._wrapped = (chars, wrap(self._said, chars))
        said = self._wrapped[1]
        n_said = min(len(said), max(1, rows - (1 if chars < 12 else 2)))
        yy = y
        i = 0
        while i < n_said:
            tiny(d, said[i], x, yy)
            yy += TH
            i += 1
        if yy + TH <= y + h:          # the square under the cursor, and what it holds
            d.hline(x, yy, w - 1, 1)
            yy += 2
            xx = tiny(d, self.grid.letters[self.grid.cursor % self.n], x, yy)
            xx = number(d, self.here() // self.n + 1, xx, yy, 1, True) + TW
            text = say.here(self._map[self.here()])
            if self._kinds[self.here()] and not self._setup_phase():
                text = "OK: act here"
            elif self.here() == self.runner.seat.pub["boats"][self.me]:
                text = "your boat: OK all" if self._legal else "your boat"
            if xx + len(text) * TW <= x + w:
                tiny(d, text, xx, yy)
            yy += TH
        i = 0
        st = self._status
        while i < len(st) and yy + TH <= y + h and len(st[i]) <= chars:
            tiny(d, st[i], x, yy)
            yy += TH
            i += 1

    def lines(self):
        """Semantic text: the title with the status, "| " the last event in words, "# " the
        square under the cursor, then the choices: the open menu's items, or one line for what
        OK does where the cursor is (">" marks the highlighted one)."""
        self._refresh()
        if self.help is not None:
            return ["Help"] + self.help.text.split("\n")
        s = self.runner.seat
        out = [self.title + " " + self.status(), "| " + self._said]
        here = self.here()
        out.append("# %s %s" % (A.name(here, self.n), say.here(self._map[here])))
        if self.menu is not None:
            v = self.menu
            for i in range(v.count()):
                out.append((">" if i == v.cursor else " ") + v.labels[i])
        elif self._legal:
            if self._setup_phase():
                for c in self._legal:
                    if c[1] == here:
                        out.append(">" + self.eng.setup_label(s.pub, s.priv, self.me, c))
            elif here == s.pub["boats"][self.me]:
                out.append(">%s: every action" % A.name(here, self.n))
            elif self._kinds[here]:
                k = self._kinds[here]
                out.append(">%s: %s" % (A.name(here, self.n), ", ".join(
                    [w for b, w in ((say.SOUND, "sound"), (say.DEPTH, "depth"),
                                    (say.MOVE, "move")) if k & b])))
        return out

    def tick(self, now):
        if GameBase.tick(self, now):
            return True
        return self._refresh()


def _menu_keys(i, n):
    """Keys from a list's first row to row i of n (the list wraps round its ends)."""
    return ["DOWN"] * i if i <= n - i else ["UP"] * (n - i)


# ---- glyphs: (x, y) is a square's inner top-left, k its inner size; col 0 draws inverted -----
def _glyph(d, x, y, k, code, col):
    base = code & 0xF0
    if k < 4:
        _small(d, x, y, k, code, col)
        return
    s = k if k & 1 else k - 1
    m = s // 2
    if base == say.ISLAND:
        d.fill_rect(x, y, k, k, col)
    elif base == say.MINE:        # a ball with its four horns
        d.fill_rect(x + 1, y + 1, s - 2, s - 2, col)
        d.pixel(x + m, y, col)
        d.pixel(x + m, y + s - 1, col)
        d.pixel(x, y + m, col)
        d.pixel(x + s - 1, y + m, col)
    elif base == say.DEAD:        # a cross: destroyed
        d.line(x, y, x + s - 1, y + s - 1, col)
        d.line(x + s - 1, y, x, y + s - 1, col)
    else:
        if code & say.SOUNDED:
            d.rect(x + m - 1, y + m - 1, 3, 3, col)
        if code & say.MISSED:
            d.hline(x, y + m, s, col)
        if code & say.CERT:       # a thin plus: a mine must be here
            d.hline(x, y + m, s, col)
            d.vline(x + m, y, s, col)
        if code & say.CAND:
            d.pixel(x + m, y + m, col)


def _small(d, x, y, k, code, col):
    base = code & 0xF0
    if base == say.ISLAND:
        d.fill_rect(x, y, k, k, col)
    elif base == say.MINE:
        d.line(x, y, x + k - 1, y + k - 1, col)
    elif base == say.DEAD:
        d.line(x + k - 1, y, x, y + k - 1, col)
    else:
        if code & say.MISSED:
            d.hline(x, y + k - 1, k, col)
        if code & say.SOUNDED:
            d.hline(x, y, k, col)
        if code & say.CERT:
            d.line(x, y, x + k - 1, y + k - 1, col)
        elif code & say.CAND:
            d.pixel(x, y, col)


def _boat(d, x, y, k, mine, col):
    """Own boat: a sail over a hull; the enemy's: a hollow diamond. Tiny squares use the
    square's clear margin too, so a boat stays visible at 2-3 px."""
    if k < 4:
        if mine:
            d.fill_rect(x - 1, y - 1, k + 2, k + 2, col)
        else:
            d.fill_rect(x - 1, y, k + 2, k, col)
            d.fill_rect(x, y - 1, k, k + 2, col)
        return
    s = k if k & 1 else k - 1
    m = s // 2
    if mine:                      # a sail, the deck, the hull: not symmetric like a mine
        d.vline(x + m, y, m, col)
        d.vline(x + m + 1, y + m - 1, 1, col)
        d.hline(x, y + m, s, col)
        d.hline(x + 1, y + m + 1, s - 2, col)
        return
    for i in range(s):
        w = m - (i - m if i >= m else m - i)
        d.pixel(x + m - w, y + i, col)
        d.pixel(x + m + w, y + i, col)


def screen(app, runner):
    return AshtapadaScreen(app, runner)
