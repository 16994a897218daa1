# Sugar Dog on the unit: point at the map, then choose. Arrows move a cursor over the map (the
# kit's BoardGrid: a window that follows it when the map does not fit); OK on a square offers
# only what can be done there (Stay put, Lay mine, Sonar ping on your own square; Sneak here,
# Cruise here, Torpedo on a square next to it), and acts at once when there is one choice
# (a start square, the second cruise step) unless that choice ends the cruise early: Stop here,
# on the submarine's own square where the cursor waits, is asked in its one-line menu. Beside the map: the square under the cursor, what
# happened last in words (games/sugardog/say.py), mines left. HELP opens the help page
# (help.txt, read only when opened); BACK pauses (the game log is there).
# Everything drawn per frame is worked out once per event (_refresh): a cursor move or a
# redraw builds no strings and walks no log.
from fathom.compat import const
from fathom.games.sugardog import engine as S
from fathom.games.sugardog import say
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.dialog import show_help
from fathom.ui.font import CH, TH, TW, number, put, tiny, tiny_len
from fathom.ui.listview import ListView, steps
from fathom.ui.gamebase import GameBase
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import title_room, top_bar

_HERE_TINY = max([tiny_len(w) for w in say.HERE_WORDS])   # say.HERE_MAX in 3x5 columns

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_TURN_ANSWER = const("answer")  # games/seat.py's turn kind
_SETUP = const("setup")
_TAG = const(0)
_SIZE = const("size")
_ALIVE = const("alive")
_PHASE = const("ph")
_TORPS = const("torps")
_T_OWNER = const(1)
_T_SQ = const(2)
_T_HEADING = const(3)
_PH_STEP2 = const("c2")
_POS = const("pos")
_MINES_LEFT = const("left")
_A_KIND = const(0)
_A_HEADING = const(1)
_G_NONE = const(32)
_G_SUB = const(115)
_G_TORP = const(116)
_G_MINE = const(109)
_G_CONTACT = const(99)

HELP = "games/sugardog/help.txt"
_LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")   # one-character strings made once, drawn free
_MIN_PX = 5       # a submarine, a mine and a torpedo stay told apart at 5 px squares
_SIDE_8X8 = 8     # side panel columns from which it uses the 8x8 font (else 3x5)
_G_PLAN = 84      # 'T': the planned torpedo on a lit square (beside engine's G_* glyphs)


class SugarDogScreen(GameBase):
    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        s = runner.seat
        self.size = size = s.pub[_SIZE]
        mid = (size // 2) * size + size // 2
        pos = s.priv[_POS]
        self.board = BoardGrid(size, size, mid if pos is None else pos, flip=True,
                               labels=True, min_px=_MIN_PX, max_px=9)
        self.me = "P%d" % (s.player + 1)
        self.menu = None          # ListView of the square's actions while open
        self.menu_at = -1
        self.menu_acts = []
        self.menu_title = ""
        self._seen = None         # (events, set-up choices, actions, problem) of the caches
        self._legal_seen = None
        self.at = {}              # square -> its legal actions (likelier first: _acts_at)
        self._ordered = []
        self.marks = S.Marks(s.player, size)  # what this captain knows, folded per event
        self.grid = self.marks.grid  # its G_* glyph per square, a bytearray made once
        self.line = ""            # what happened last, in words
        # what happened since your last move, newest first, in the side panel (8x8 or 3x5,
        # as it has room; ui/happened.py)
        self.hear(self._words, say.you_are(s.player, s.n), TextPage())
        self.why = ""             # why the last OK did nothing, until the cursor or game moves
        self.why_page = TextPage()  # the same, in the event's place in the side panel
        self._st = ("", "")    # (long, short) for the top bar
        self.hint = ""
        self.hot = ()             # squares the highlighted menu action touches
        self._cell_fn = self._cell  # bound once: a bound method per draw is an allocation
        self._refresh()

    # ---- per event ------------------------------------------------------------------------
    def _refresh(self):
        s = self.runner.seat
        r = self.runner
        nset = len(s.setup_choices)
        if self._seen is not None:
            n_log, n_set, n_act, problem = self._seen
            if n_log == s.n_log and n_set == nset and n_act == s.n_actions \
                    and problem is r.problem:
                return
        self._seen = (s.n_log, nset, s.n_actions, r.problem)
        size = self.size
        pos = s.priv[_POS]
        legal = s.setup_legal() or s.legal()
        second = s.pub[_PHASE] == _PH_STEP2
        if pos is None:  # the set-up: every square a start, itself its one action
            at = _Starts(len(legal))
        else:
            at = {}
            for a in legal:
                q = say.anchor(size, pos, a)
                at.setdefault(q, []).append(a)
        self.at = at
        self._ordered.clear()     # the squares whose actions _acts_at has put in menu order
        self.second = second
        if legal != self._legal_seen:      # a new choice: the cursor goes to the submarine
            self._legal_seen = legal
            self.close()
            if legal and pos is not None:
                self.board.cursor = pos
        self.marks.update(s.pub, s.priv, s.log)
        self.news()
        if not s.pub[_ALIVE][s.player] and self.happened.pin(
                "You are sunk: out of the game. The others play on."):
            self.said.set(self.happened.text)   # out of the game: read before the news
        self.line = self.happened.newest()
        self.why = ""
        self._st = self._status(s)
        if pos is None:
            self.hint = ""
        elif s.pub[_ALIVE][s.player]:
            self.hint = "mines %d" % s.priv[_MINES_LEFT]
        else:
            self.hint = "sunk"

    def _words(self, prev, a, e):
        s = self.runner.seat
        if e and e[_TAG] != _SETUP:
            return say.happened(self.size, s.player, a, e)
        return say.you_are(s.player, s.n)

    def _status(self, s):
        r = self.runner
        if r.problem:
            return ("Problem", "Problem")
        t = s.to_move()
        if t is None:
            return ("Waiting", "Wait")
        who, kind = t
        if not s.pub[_ALIVE][s.player]:
            return ("You are sunk", "Sunk")   # not "P2 to move": you never move again
        if who == s.player:
            return ("Your start", "Start") if kind == "setup" else ("Your move", "Move")
        p = "P%d" % (who + 1)
        if kind == _TURN_ANSWER:
            return (p + " answers", p + " ans")
        if kind == "setup":
            return (p + " starts", p + " set")
        return (p + " to move", p + " act")

    # ---- the square menu ------------------------------------------------------------------
    def _acts_at(self, sq):
        """The legal actions on square sq, likelier first, or None. Put in that order when a
        square is first asked for (once: a second sort could swap equals), not for every
        square at each event: a partner's move need not order menus nobody opened."""
        acts = self.at.get(sq)
        if acts is not None and len(acts) > 1 and sq not in self._ordered:
            acts.sort(key=say.order)
            self._ordered.append(sq)
        return acts

    def open(self, sq):
        s = self.runner.seat
        acts = self._acts_at(sq)
        pos = s.priv[_POS]
        labels = [say.label(pos, a, self.second) for a in acts]
        self.menu = ListView(labels, fit=True)  # 3x5 where 8x8 labels would be cut
        self.menu_acts = acts
        self.menu_at = sq
        self.menu_title = say.name(self.size, sq)
        self._hot()

    def close(self):
        self.menu = None
        self.menu_at = -1
        self.hot = ()

    def _hot(self):
        s = self.runner.seat
        self.hot = say.path(self.size, s.priv[_POS], self.menu_acts[self.menu.cursor])

    def _play(self, action):
        self.close()
        if self.runner.seat.setup_legal():
            self.runner.setup_choose(action)
        else:
            self.runner.play(action)
        self._refresh()

    # ---- keys -----------------------------------------------------------------------------
    def key(self, k):
        self._refresh()
        if k == "HELP":
            self.help()
            return
        m = self.menu
        if m is not None:
            if m.key(k):
                self._hot()
            elif k == "OK":
                self._play(self.menu_acts[m.cursor])
            elif k in ("BACK", "LEFT", "RIGHT"):
                self.close()
            return
        if k == "BACK":
            self.pause()
        elif k == "OK":
            acts = self._acts_at(self.board.cursor)
            if not acts:              # OK can do nothing here: the panel says why
                self.why = "Not your turn." if not self.at else \
                    "Nothing to do here: a dot marks where you can act."
                self.why_page.set(self.why)
                return
            if _at_once(acts):
                self._play(acts[0])
            else:
                self.open(self.board.cursor)
        else:
            self.board.key(k)
            self.why = ""

    def help(self):
        show_help(self.app, "Sugar Dog help", HELP)

    def keys_for(self, action):
        """The fewest keys that, from this state, author `action` (a legal action or set-up
        choice of this seat)."""
        self._refresh()
        s = self.runner.seat
        target = say.anchor(self.size, s.priv[_POS], action)
        acts = self._acts_at(target)
        if not acts or action not in acts:
            raise ValueError("not a legal action here: %r" % (action,))
        out = []
        if self.menu is not None and self.menu_at != target:
            out.append("BACK")
        if self.menu is None or self.menu_at != target:
            out += self.board.keys_to(target) + ["OK"]
            if _at_once(acts):
                return out
            cur = 0
        else:
            cur = self.menu.cursor
        out += steps(cur, acts.index(action), len(acts)) + ["OK"]
        return out

    # ---- drawing --------------------------------------------------------------------------
    def draw(self, d):
        self._refresh()
        link = self.app.link_state
        room = title_room(d.width, link, self.me)
        m = self.menu
        if m is not None:
            title = self.menu_title
        else:
            long, short = self._st
            title = long if len(long) <= room else short
        top_bar(d, title, link, self.me, fit=True)
        bh = d.height - CH
        bw = min(d.width - 36, bh + 8)    # the map's box: the side panel keeps 36 px or more
        side8 = (d.width - self.board.layout(0, CH, bw, bh) - 2) // CH >= _SIDE_8X8
        if m is not None and not side8:   # too narrow for both: the menu takes the panel
            m.draw(d, 0, CH, d.width, bh)
            return
        used = self.board.draw(d, 0, CH, bw, bh, self._cell_fn)
        x0 = used + 2
        w = d.width - x0
        if m is not None:
            m.draw(d, x0, CH, w, bh)
        elif side8:
            self._side(d, x0, w, bh, CH, CH, False)
        else:
            self._side(d, x0, w, bh, TW, TH, True)

    def _side(self, d, x0, w, bh, cw, lh, small):
        """The square under the cursor, what happened, mines left, in w px from x0."""
        cols = w // cw
        y = CH
        bottom = d.height
        c = self.board.cursor
        size = self.size
        if small:
            xx = tiny(d, _LETTERS[c % size], x0, y + 1)
            xx = number(d, c // size + 1, xx, y + 1, 1, True)
        else:
            d.text(_LETTERS[c % size], x0, y, 1)
            xx = number(d, c // size + 1, x0 + CH, y, 1)
        dy = 1 if small else 0             # 3x5 text sits a pixel below the 8x8 rows
        word = say.here(self.grid[c])
        room = cols - (xx - x0) // cw - 1
        # in 3x5 columns where small: its M is wider than a column ("your mi~" fit by count)
        wl = tiny_len if small else len
        if (_HERE_TINY if small else say.HERE_MAX) > room:   # a row of its own for the word
            y += lh               # rather than a cut ("your~"), on every square: the panel
            xx = x0 - cw          # below keeps one layout
            room = cols
        if word and wl(word) > room:   # a panel narrower than the word: a word a row
            i = word.find(" ")
            if i > 0:
                put(d, word[:i], xx + cw, y + dy, room, 1, small)
                y += lh
                word = word[i + 1:]
        if word:
            put(d, word, xx + cw, y + dy, room, 1, small)
        y += lh
        hint = self.hint
        if hint:
            bottom -= lh
            put(d, hint, x0, bottom + dy, cols, 1, small)
        said = self.why_page if self.why else self.said
        said.small = small
        said.draw(d, x0, y + dy, w, bottom - y - dy)

    def _cell(self, d, q, cx, cy, px):
        lit = q in self.hot
        g = self.grid[q]
        if lit:
            d.fill_rect(cx, cy, px - 1, px - 1, 1)
            g = self._ghost(g)
        else:
            d.pixel(cx, cy, 1)  # grid dots: squares can be counted
        if g != _G_NONE:
            self._glyph(d, g, q, cx, cy, px, 0 if lit else 1)
        elif not lit and q in self.at:   # something can be done here: a dot in the middle
            m = px // 2
            d.fill_rect(cx + m - 1, cy + m - 1, 2, 2, 1)

    def _ghost(self, g):
        """What the highlighted action would put on a lit square."""
        kind = self.menu_acts[self.menu.cursor] if self.menu is not None else None
        if not isinstance(kind, list):
            return _G_SUB
        kind = kind[_A_KIND]
        if kind in ("run", "cruise"):
            return _G_SUB
        if kind == "mine":
            return _G_MINE
        if kind == "fire":
            return _G_PLAN
        return g

    def _glyph(self, d, g, q, cx, cy, cell, c):
        i = cell - 1
        x, y = cx + 1, cy + 1
        if g == _G_SUB:  # a hull with rounded ends
            h = max(2, i - 2 * (i // 3))
            yy = y + (i - h) // 2
            d.fill_rect(x, yy, i - 1, h, c)
            if i >= 6:
                d.pixel(x, yy, 1 - c)
                d.pixel(x + i - 2, yy, 1 - c)
                d.pixel(x, yy + h - 1, 1 - c)
                d.pixel(x + i - 2, yy + h - 1, 1 - c)
                d.vline(x + i // 2, yy - 1, 1, c)  # conning tower
        elif g == _G_MINE:  # a spiked mine
            d.line(x, y, x + i - 2, y + i - 2, c)
            d.line(x + i - 2, y, x, y + i - 2, c)
        elif g == _G_CONTACT:  # a contact: something noted, an outline
            d.rect(x, y, i - 1, i - 1, c)
        else:  # own torpedo (heading from pub), or the planned one
            di = self._torp_dir(q) if g == _G_TORP else \
                self.menu_acts[self.menu.cursor][_A_HEADING]
            m = (i - 1) // 2
            if di in (S.N, S.S):
                d.vline(x + m, y, i - 1, c)
                tip = y if di == S.N else y + i - 2
                d.hline(x + m - 1, tip + (1 if di == S.N else -1), 3, c)
            else:
                d.hline(x, y + m, i - 1, c)
                tip = x + i - 2 if di == S.E else x
                d.vline(tip + (-1 if di == S.E else 1), y + m - 1, 3, c)

    def _torp_dir(self, q):
        s = self.runner.seat
        for t in s.pub[_TORPS]:
            if t[_T_SQ] == q and t[_T_OWNER] == s.player:
                return t[_T_HEADING]
        return S.E

    # ---- the screen in text, for tests and the emulator -----------------------------------
    def lines(self):
        """[title + status, then: with the square menu open, 'at C3' and one line per action
        ('>' the highlighted one); else 'at C3 <what is there>', '| what happened', '| mines',
        'acts' and the squares that have actions, '# ' map rows from the top]."""
        self._refresh()
        long, _short = self._st
        out = [self.title + " " + long]
        size = self.size
        if self.menu is not None:
            out.append("at " + self.menu_title)
            for i in range(self.menu.count()):
                out.append((">" if i == self.menu.cursor else " ") + self.menu.labels[i])
            return out
        c = self.board.cursor
        out.append(("at %s %s" % (say.name(size, c), say.here(self.grid[c]))).strip())
        out.append("| " + self.line)
        if self.why:
            out.append("# why " + self.why)
        if self.hint:
            out.append("| " + self.hint)
        out.append("acts " + " ".join([say.name(size, q) for q in sorted(self.at)]))
        for r in range(size - 1, -1, -1):
            row = bytes(self.grid[r * size:(r + 1) * size]).decode()
            out.append("# " + row.replace(" ", "."))
        return out


def screen(app, runner):
    return SugarDogScreen(app, runner)


def _at_once(acts):
    """OK plays the square's one action at once, unless it is the cruise's stop: the cursor
    starts on the submarine, so a stray OK must not end the cruise."""
    return len(acts) == 1 and acts[0] != ["stop"]


class _Starts:
    """The set-up's square -> actions: every square is a start and its own one action. A dict
    of one-item lists would be ~8 KB on a group's 18x18 map, a 1.8 KB table among them."""

    def __init__(self, n):
        self.n = n

    def __contains__(self, q):
        return isinstance(q, int) and 0 <= q < self.n

    def get(self, q, default=None):
        return [q] if q in self else default

    def __getitem__(self, q):
        if q not in self:
            raise KeyError(q)
        return [q]

    def __iter__(self):
        return iter(range(self.n))
