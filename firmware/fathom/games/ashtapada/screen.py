# Lake Ashtapada on the unit: the lake (a kit BoardGrid, each player's own shore at the bottom)
# with what this player knows, a cursor that jumps between the squares where something can be
# done, and OK opening a short menu of just that (sound, depth charge, move here); OK on your own
# boat opens a menu of kinds (Move..., Sound..., Depth...): one sends the cursor to the nearest
# square where that can be done and keeps it on such squares until BACK or the next event. On
# a 72x40 panel the lake is a window of 6-px squares that follows the cursor. A side panel in
# the 3x5 font says what just happened and what is under the cursor. A long BACK opens the help page. Words and rules come from say.py and the
# engine; this module only lays out and draws what they give, cached once per event.
from fathom.compat import const
from fathom.games.ashtapada import engine as A
from fathom.games.ashtapada import say
from fathom.ui.boardgrid import ARROWS, BoardGrid
from fathom.ui.dialog import draw_page, read_text
from fathom.ui.font import CH, TH, TW, number, tiny, tiny_adv, tiny_len
from fathom.ui.listview import ListView, steps
from fathom.ui.screen import wrap
from fathom.ui.gamebase import GameBase
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_TAG = const(0)
_SOUTH = const(0)
_NORTH = const(1)
_SIZE = const("size")
_BOATS = const("boats")
_CHOICE_SQ = const(1)
_EV_MOVE = const("move")
_MOVE_PATH = const(1)
_EV_SOUND = const("sound")
_EV_DEPTH = const("depth")
_CHARGE_SQ = const(1)
_MISSED = const("miss")
_MISSES = const(2)      # the depth-charge miss that loses (the engine's, rule 4.3)

HELP = "games/ashtapada/help.txt"
_PLAYER = ("P1", "P2")
_WIDE_MENU = 72     # a square's menu sits in the side panel in 8x8 letters when this wide,
_SMALL_MENU = 56    # and in the 3x5 font when this wide (14 characters)
# the boat's menu: a kind of action, then a square (its bit in say.kinds, its menu line)
_KINDS = (("move", say.MOVE, "Move..."), ("sound", say.SOUND, "Sound..."),
          ("depth", say.DEPTH, "Depth..."))


class AshtapadaScreen(GameBase):
    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        s = runner.seat
        self.n = n = s.pub[_SIZE]
        self.me = s.player
        # South sees row 1 at the bottom, North the lake turned round: its own shore at the
        # bottom (grid cells are squares either way)
        south = self.me == _SOUTH
        self.grid = BoardGrid(n, n, 0, flip=south, labels=True, min_px=4, max_px=9,
                              mirror=not south)
        self.menu = None          # ListView of the actions on one square, while open
        self._menu_w = 0
        self._wrap_n = 0          # the side panel's words wrapped for this many characters
        self._wraps = {}
        self.acts = None          # the actions that menu lists
        self.full = False         # the menu is the boat's (kinds, and the boat's square)
        self.only = 0             # a kind bit: the cursor keeps to squares where it can be done
        self.help = None          # TextPage while the help page is open
        self._at = None           # log length and set-up count the caches belong to
        self._legal = []
        self._sorted = None       # _legal in menu order, made when a menu first needs it
        self._kinds = None
        self._map = None
        self._deduced = None      # (say.deduce_key, (candidates, certain squares)) of the map
        self._drawn = None        # a byte per square, 0 where _square draws nothing
        self._cand = None         # the deduction's candidates at the last event (say.lake)
        self._boats = None        # the boats' squares, for the squares of one redraw
        self._square_fn = self._square  # bound once: a bound method a redraw allocates
        # what happened since your last move, newest first, in the panel (ui/happened.py)
        self.hear(self._words, say.event(runner.seat.pub, self.me, []), TextPage("", True))
        self._why = ""            # why the last OK did nothing, until the cursor or game moves
        self._why_page = TextPage("", True)  # the same, in the event's place in the panel
        self._status = []
        self._ok_only = self._can_kind
        self._left = -1           # the cursor's square as this player's last action left it
        self._refresh()
        self.grid.cursor = self._start()

    def here(self):
        """The square under the cursor."""
        return self.grid.cursor

    # ---- caches: the engine is asked once per event, never per redraw or cursor move ---------
    def _refresh(self):
        s = self.runner.seat
        key = len(s.log) * 256 + len(s.setup_choices)
        if key == self._at:
            return False
        self._at = key
        pub = s.pub
        setup = s.setup_legal()
        # in the engine's order: only a square's menu (say.at) lists them, in menu order
        # (_in_order); the rest asks what is where (kinds), which order does not change
        self._legal = setup if setup else s.legal()
        self._sorted = setup or None
        self._kinds = say.kinds(self._legal, self.n * self.n)
        # the deduction starts from the last event's candidates (0.57 ms of a partner's redraw
        # after each move, about a third of it so): a square proved empty stays so; and it
        # runs only when what it reads changed (most of a partner's moves leave it)
        dk = say.deduce_key(pub, self.me)
        known = self._deduced
        known = known[1] if known is not None and known[0] == dk else None
        self._map, cert, self._cand = say.lake(pub, s.priv, self.me, self._cand, known)
        self._deduced = (dk, (self._cand, cert))
        drawn = self._drawn = bytearray(self._map)
        for b in pub[_BOATS]:
            drawn[b] = 1
        self.news()
        self._why = ""
        self._status = say.setup_status(pub, s.priv) if setup else say.status(pub, self.me)
        self.close_menu()
        self.only = 0
        if self._legal and self.grid.cursor == self._left and not setup:
            # your turn again, the cursor where your last action left it (the square just
            # sounded, whose OK would now move the boat there): where the next action starts
            self.grid.cursor = self._turn_start()
        if self._legal:
            self._left = -1
        if self._legal and not self._can(self.grid.cursor):
            self.grid.cursor = self._start()
        return True

    def _turn_start(self):
        """The nearest square where a mine must be, for the charge; else the boat, whose OK
        opens every kind."""
        boat = self.runner.seat.pub[_BOATS][self.me]
        sure = self._first_of(say.DEPTH, boat, say.CERT)
        return sure if sure >= 0 else boat

    def _start(self):
        """Where the cursor goes when the player has a choice and the cursor is on none: in
        set-up the free square nearest the middle of the free squares as drawn (any square
        of the shore is a few presses away), else the boat."""
        s = self.runner.seat
        if s.setup_legal():
            g = self.grid
            r0 = c0 = 99
            r1 = c1 = -1
            for c in self._legal:
                r, k = g.screen_row(c[1]), g.screen_col(c[1])
                r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, k), max(c1, k)
            best, bkey = 0, None
            for c in self._legal:
                dr = 2 * g.screen_row(c[1]) - r0 - r1
                dc = 2 * g.screen_col(c[1]) - c0 - c1
                k = (dr if dr >= 0 else -dr) + (dc if dc >= 0 else -dc)
                if bkey is None or k < bkey:
                    best, bkey = c[1], k
            return best
        return s.pub[_BOATS][self.me]

    def _setup_phase(self):
        return self._legal and self._legal[0][0] in ("island", "mine")

    def _can_lay(self, sq):
        return self._kinds[sq] != 0

    def _can_play(self, sq):
        return self._kinds[sq] != 0 or sq == self.runner.seat.pub[_BOATS][self.me]

    def _can_kind(self, sq):
        return self._kinds[sq] & self.only

    def _can(self, cell):
        if not self._legal:
            return True
        return self._can_lay(cell) if self._setup_phase() else self._can_play(cell)

    def _ok_fn(self):
        """Which squares an arrow may stop on: every one (a square a press at a time, as the
        player counts them), or, once the player chose a kind from the boat's menu, that
        kind's squares only (few, and the nearest that way)."""
        return self._ok_only if self.only and self._legal else None

    # ---- the menu of one square ----------------------------------------------------------------
    def _menu_for(self, sq, only=-1):
        """(actions, labels, boat's) for the menu on square sq: what can be done there (of
        kind `only` when a kind is chosen); on the boat's own square, also a kind per entry
        (a str) that leads to its squares."""
        s = self.runner.seat
        if only < 0:
            only = self.only
        acts = say.at(self._in_order(), sq)
        if only:
            acts = [a for a in acts if _bit(a) & only]
        paths = 0
        for a in acts:
            if a[_TAG] == _EV_MOVE:
                paths += 1
        labels = [say.menu_label(s.pub, a, paths) for a in acts]
        boat = sq == s.pub[_BOATS][self.me] and not only
        if boat:
            for tag, bit, text in _KINDS:
                if self._first_of(bit, sq) >= 0:
                    acts.append(tag)
                    labels.append(text)
        return acts, labels, boat

    def _in_order(self):
        """The legal actions in menu order (say.order), sorted once an event, when asked."""
        if self._sorted is None:
            self._sorted = say.order(self._legal)
        return self._sorted

    def _first_of(self, bit, frm, known=0):
        """The square nearest `frm` (as drawn) where kind `bit` can be done (and the lake's
        code has a `known` bit, when given), or -1."""
        g = self.grid
        i, j = g.screen_row(frm), g.screen_col(frm)
        best, far = -1, 0
        k = self._kinds
        m = self._map
        for c in range(len(k)):
            if k[c] & bit and (not known or m[c] & known):
                ci, cj = g.screen_row(c), g.screen_col(c)
                dd = (ci - i if ci >= i else i - ci) + (cj - j if cj >= j else j - cj)
                if best < 0 or dd < far:
                    best, far = c, dd
        return best

    def open_menu(self):
        acts, labels, full = self._menu_for(self.here())
        if not acts:
            return
        self.acts = acts
        self.full = full
        self.menu = ListView(labels, fit=True)
        self._menu_w = max([len(x) for x in labels])  # its longest line, in characters

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
            d = self.app.hw.display  # 3x5 below 128x64: see dialog.show_help
            self.help = TextPage(read_text(HELP), d.width < 128 or d.height < 64)
            return
        if self.menu is not None:
            if k == "OK":
                self._choose(self.acts[self.menu.cursor])
            elif k == "BACK":
                self.close_menu()
            elif not self.menu.key(k) and k in ARROWS:
                self.close_menu()           # LEFT/RIGHT: back on the lake, and move
                self.grid.key(k, self._ok_fn(), self.only != 0)
            return
        if k == "BACK":
            if self.only:
                self.only = 0           # out of the chosen kind, back to every square
            else:
                self.pause()
        elif k in ARROWS:       # a chosen kind's squares are few: the nearest that way
            self.grid.key(k, self._ok_fn(), self.only != 0)
            self._why = ""
        elif k == "OK" and self._legal:
            if not self._can(self.here()):
                self._say_why(self._why_not())  # OK did nothing: the panel says why
            elif self._setup_phase():
                self._lay()
            else:
                self.open_menu()
                if self.menu is not None and self.menu.count() == 1 and not self.full:
                    self._choose(self.acts[0])  # one thing to do there: no menu to confirm
        elif k == "OK":
            self._say_why("Not your turn: wait.")

    def _say_why(self, text):
        self._why = text
        self._why_page.set(text)

    def _why_not(self):
        """One line: why OK on the square under the cursor can do nothing."""
        s = self.runner.seat
        here = self.here()
        if self._setup_phase():
            if self._legal[0][0] == "island":
                return "Islands go on your half, off the shore."
            if A.side(here, self.n) != self.me:
                return "Mines go on your own half."
            return "Already taken."
        if self.only:
            return "Not that kind here: BACK for every kind."
        if here == s.pub[_BOATS][self.me]:
            return "Nothing to do here."
        return "Out of reach of your boat."

    def _lay(self):
        sq = self.here()
        for c in self._legal:
            if c[1] == sq:
                self.runner.setup_choose(c)
                self._refresh()
                if self._legal and self._setup_phase():
                    self.grid.cursor = self._nearest(sq)
                return

    def _nearest(self, sq):
        """The free square nearest `sq` as drawn: the same row to the right first on ties, so
        repeated OKs lay squares along the row."""
        g = self.grid
        i, j = g.screen_row(sq), g.screen_col(sq)
        best, bkey = sq, None
        for c in self._legal:
            cc = c[1]
            ci, cj = g.screen_row(cc), g.screen_col(cc)
            di = ci - i if ci >= i else i - ci
            dj = cj - j if cj >= j else j - cj
            key = (di + dj) * 64 + di * 2 + (0 if cj >= j else 1)
            if bkey is None or key < bkey:
                best, bkey = cc, key
        return best

    def _wasted(self, action):
        """A depth charge where no enemy mine can be: a miss known before it is dropped."""
        return not isinstance(action, str) and action[_TAG] == _EV_DEPTH and not (
            self._map[action[_CHARGE_SQ]] & (say.CAND | say.CERT))

    def _choose(self, action):
        """A depth charge on a known miss says what it costs first, the cursor on Hold fire."""
        if not self._wasted(action):
            self._play(action)
            return
        from fathom.ui.confirm import ask
        name = A.name(action[_CHARGE_SQ], self.n)
        left = _MISSES - len(self.runner.seat.pub[_MISSED][self.me])
        ask(self.app, "Known miss", "No mine can be at %s: %s." % (
            name, "this miss loses the game" if left <= 1 else
            "a miss there uses one of your %d" % left), "Charge " + name,
            lambda app: self._play(action), "Hold fire")

    def _play(self, action):
        self.close_menu()
        if isinstance(action, str):     # a kind from the boat's menu: now its squares
            for tag, bit, _t in _KINDS:
                if tag == action:
                    self.only = bit
                    self.grid.cursor = self._first_of(bit, self.here())
            return
        self.runner.play(action)
        self._refresh()
        self._left = self.grid.cursor

    # ---- key presses per action (the ux bench, and tests that press them) -----------------------
    def keys_for(self, action):
        """The shortest list of keys that, pressed from the screen as it is now, authors
        `action` (a legal action or set-up choice of this seat)."""
        keys = self._keys_for(action)
        return keys + ["DOWN", "OK"] if self._wasted(action) else keys  # the question's step

    def _keys_for(self, action):
        self._refresh()
        pre = []
        if self.help is not None:
            pre.append("BACK")
        if self.menu is not None:
            if action in self.acts:
                return pre + self.menu.keys_to(self.acts.index(action)) + ["OK"]
            pre.append("BACK")
        if self._setup_phase():
            return pre + self.grid.keys_to(action[_CHOICE_SQ], self._ok_fn()) + ["OK"]
        bit = _bit(action)
        best = None
        if self.only == bit:                     # on the chosen kind's squares already
            best = self._keys_on(action, self.grid.cursor, bit)
        else:
            if self.only:
                pre.append("BACK")               # out of the other kind first
            best = self._keys_on(action, self.grid.cursor, 0)   # straight to the square,
            boat = self.runner.seat.pub[_BOATS][self.me]       # or boat, kind, square
            way = self.grid.keys_to(boat)
            acts = self._menu_for(boat, 0)[0]
            tag = action[_TAG]
            if way is not None and tag in acts:
                tail = self._keys_on(action, self._first_of(bit, boat), bit)
                if tail is not None:
                    keys = way + ["OK"] + steps(0, acts.index(tag), len(acts)) + ["OK"] + tail
                    if best is None or len(keys) < len(best):
                        best = keys
        if best is None:
            raise ValueError("not a legal action here: %r" % (action,))
        return pre + best

    def _keys_on(self, action, start, only):
        """Arrows from `start` to the action's square (keeping to kind `only` when set), OK,
        and the steps in the menu that opens there; None when no arrows get there."""
        sq = say.target(action)
        ok = None
        if only:
            self.only, keep = only, self.only    # _can_kind reads it: set while searching
            ok = self._ok_only
        try:
            way = self.grid.keys_to(sq, ok, only != 0, start)
            acts = self._menu_for(sq, only)[0]
        finally:
            if only:
                self.only = keep
        if way is None or action not in acts:
            return None
        keys = way + ["OK"]
        if len(acts) > 1 or (sq == self.runner.seat.pub[_BOATS][self.me] and not only):
            keys += steps(0, acts.index(action), len(acts)) + ["OK"]
        return keys

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
        self.grid.min_px = 6 if d.width < 128 else 4  # a 72x40 lake: a window of readable squares
        wide = self.grid.layout(0, CH, bw, bh) + 2
        side = d.width - wide
        room = (side // TW if side < _WIDE_MENU else side // CH) - 1  # as the list counts
        if menu is not None and (side < _SMALL_MENU or self._menu_w > room):
            # no room beside the lake, or a line (a long way round) that would be cut there:
            # the list takes the whole body; the lake is hidden, so the bar names the square
            title = "At " + A.name(self.here(), self.n)
            if menu.fits(bh):
                top_bar(d, title, self.app.link_state, _PLAYER[self.me], fit=True,
                        small=d.width < 128)
            else:
                top_bar(d, title, self.app.link_state, None, menu.cursor + 1, menu.count(),
                        fit=True, small=d.width < 128)
            menu.fit = True
            menu.draw(d, 0, CH, d.width, bh)
            return
        # one font a size (3x5 below 128 px): "Set up" and "Your move" never flip between two
        top_bar(d, self._title(), self.app.link_state, _PLAYER[self.me], fit=True,
                small=d.width < 128)
        g = self.grid             # laid out above: its frame first, so a hidden side's dots
        d.rect(g.x0 - 1, g.y0 - 1, g.vc * g.px + 2, g.vr * g.px + 2, 1)   # show on it
        self._boats = self.runner.seat.pub[_BOATS]   # read once a redraw, not once a square
        self.grid.draw(d, 0, CH, bw, bh, self._square_fn, True, True, self._drawn)
        if menu is not None:
            self._mark_action(d, self.acts[menu.cursor])
            menu.fit = False
            menu.small = side < _WIDE_MENU
            menu.draw(d, wide, CH, side, bh)
        else:
            self._panel(d, wide, CH, d.width - wide, bh)

    def _square(self, d, sq, x, y, px):
        k = px - 2                   # one pixel clear on every side for the cursor frame
        code = self._map[sq]
        if code == say.CAND and k >= 4:   # most marked squares: _glyph's dot, without the call
            m = (k if k & 1 else k - 1) // 2
            d.pixel(x + 1 + m, y + 1 + m, 1)
        elif code:
            _glyph(d, x + 1, y + 1, k, code, 1)
        boats = self._boats
        if sq == boats[_SOUTH] or sq == boats[_NORTH]:
            _boat(d, x + 1, y + 1, k, sq == boats[self.me], 1)

    def _mark_action(self, d, action):
        """The highlighted menu action on the lake: its squares inverted (a move's path)."""
        if isinstance(action, str):   # a kind (the boat's menu): no square yet
            return
        g = self.grid
        sqs = action[_MOVE_PATH] if action[_TAG] == _EV_MOVE else (action[_CHARGE_SQ],)
        for sq in sqs:
            at = g.where(sq)
            if at is not None:
                d.fill_rect(at[0], at[1], g.px - 1, g.px - 1, 1)

    def _panel(self, d, x, y, w, h):
        """The side panel in the 3x5 font: what just happened, what is under the cursor, the
        status; as many lines as fit, in that order of importance."""
        chars = w // TW
        rows = h // TH
        if chars < 4 or rows < 1:
            return
        said = self._why_page if self._why else self.said   # why OK did nothing, while so
        yy = said.draw(d, x, y, w, max(1, rows - (1 if chars < 12 else 2)) * TH - 1)
        if yy + TH <= y + h:          # the square under the cursor, and what it holds
            d.hline(x, yy, w - 1, 1)
            yy += 2
            xx = tiny(d, self.grid.letters[self.grid.cursor % self.n], x, yy)
            xx = number(d, self.here() // self.n + 1, xx, yy, 1, True) + TW
            text = say.here(self._map[self.here()])
            if self.here() == self.runner.seat.pub[_BOATS][self.me]:
                text = "your boat: OK menu" if self._legal else "your boat"
            elif self._kinds[self.here()] and not self._setup_phase():
                text = "OK: act here"
            if tiny_len(text) <= (x + w - xx + 1) // TW:
                tiny(d, text, xx, yy)
                yy += TH
            else:                     # whole words on the rows below, never cut
                for row in self._wrapped(text, chars):
                    yy += TH
                    if yy + TH > y + h:
                        break
                    tiny(d, row, x, yy)
                yy += TH
        i = 0
        st = self._status
        while i < len(st) and yy + TH <= y + h and tiny_len(st[i]) <= chars:
            tiny(d, st[i], x, yy)
            yy += TH
            i += 1

    def _wrapped(self, text, chars):
        """`text` (one of say.here's constant words) in rows of `chars`, wrapped once."""
        if chars != self._wrap_n:
            self._wrap_n = chars
            self._wraps = {}
        rows = self._wraps.get(text)
        if rows is None:
            rows = self._wraps[text] = wrap(text, chars * TW, tiny_adv)
        return rows

    def lines(self):
        """Semantic text: the title with the status, "| " the last event in words, "# " the
        square under the cursor, then the choices: the open menu's items, or one line for what
        OK does where the cursor is (">" marks the highlighted one)."""
        self._refresh()
        if self.help is not None:
            return ["Help"] + self.help.text.split("\n")
        s = self.runner.seat
        out = [self.title + " " + self.status(), "| " + self.happened.newest()]
        here = self.here()
        out.append("# %s %s" % (A.name(here, self.n), say.here(self._map[here])))
        if self._why:
            out.append("# why " + self._why)
        if self.menu is not None:
            v = self.menu
            for i in range(v.count()):
                out.append((">" if i == v.cursor else " ") + v.labels[i])
        elif self._legal:
            if self._setup_phase():
                for c in self._legal:
                    if c[1] == here:
                        out.append(">" + say.setup_label(s.pub, c))
            elif here == s.pub[_BOATS][self.me] and not self.only:
                out.append(">%s: your boat, a menu of kinds" % A.name(here, self.n))
            elif self._kinds[here]:
                k = self._kinds[here]
                out.append(">%s: %s" % (A.name(here, self.n), ", ".join(
                    [w for b, w in ((say.SOUND, "sound"), (say.DEPTH, "depth"),
                                    (say.MOVE, "move")) if k & b])))
        return out

    def _words(self, prev, author, ev):
        return say.event(self.runner.seat.pub, self.me,
                         [prev, (author, ev)] if prev else [(author, ev)])

    def tick(self, now):
        if GameBase.tick(self, now):
            return True
        return self._refresh()


def _bit(action):
    """The kind bit (say.kinds) of an action."""
    t = action[_TAG]
    return say.SOUND if t == _EV_SOUND else say.DEPTH if t == _EV_DEPTH else say.MOVE


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
