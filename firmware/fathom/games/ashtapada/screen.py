# Lake Ashtapada on the unit: the lake with what this player knows (own islands and mines, both
# boats, own charges and their reports, destroyed mines), the deduction overlay (rule 6.3), the
# highlighted choice drawn on the lake, a status panel, and log / sonar pages on LEFT/RIGHT.
# The choice list and lines() keep the generic GameScreen semantics, so tests drive it as text.
from fathom.games.ashtapada import engine as A
from fathom.ui.play import GameScreen, describe
from fathom.ui.screen import CH, clip, cols, header, link_icon, rows, wrap

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

# One byte per square, rebuilt once per event: a base glyph in the high nibble (drawn alone),
# else flags in the low nibble (drawn together).
_CAND = const(1)      # an enemy mine may still be here (overlay dot)
_CERT = const(2)      # an enemy mine must be here
_SOUND = const(4)     # this player dropped a sounding charge here
_MISS = const(8)      # a depth charge missed here (either side's)
_ISLAND = const(0x10)
_MINE = const(0x20)   # own live mine
_DEAD = const(0x30)   # a destroyed mine (own or enemy)

MAP, LOG, SONAR = 0, 1, 2
_STEP = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}  # (row, column)
PAGES = ("map", "log", "sonar")
_SHORT = {"sound": "?", "depth": "*", "move": ">", "island": "#", "mine": "o"}


def short_label(choice, n):
    """A choice in at most 4 characters for narrow panels: '?D4' sound, '*D4' depth,
    '>E6' move (its end square), '#C3' island, 'oB2' mine."""
    sq = choice[1][-1] if choice[0] == "move" else choice[1]
    return _SHORT.get(choice[0], "?") + A.name(sq, n)


def _order(choice):
    # Soundings first (the usual turn), then depth charges, then moves: short ones first.
    tag = choice[0]
    if tag == "move":
        return (2, len(choice[1]), choice[1][-1], choice[1])
    return (0 if tag == "sound" else 1, 0, choice[1], [])


class AshtapadaScreen(GameScreen):
    def __init__(self, app, runner):
        GameScreen.__init__(self, app, runner)
        self.page = MAP
        self._ck = None       # state key the cached choices belong to
        self._ch = []
        self._mk = None       # state key the cached map belongs to
        self._map = None
        self._cert = 0
        self._last = ""

    # ---- caches: the engine is asked once per event, never per redraw ----------------------
    def _key(self):
        s = self.runner.seat
        return (len(s.log), len(s.setup_choices))

    def choices(self):
        k = self._key()
        if k != self._ck:
            s = self.runner.seat
            eng = self.eng
            if s.setup_legal():
                ch = s.setup_legal()
                ch.sort(key=self._reading)
                self._ch = [(c, eng.setup_label(s.pub, s.priv, s.player, c)) for c in ch]
            else:
                ch = s.legal()
                ch.sort(key=_order)
                self._ch = [(a, eng.label(s.pub, s.priv, s.player, a)) for a in ch]
            self._ck = k
        return self._ch

    def _cell(self, sq):
        """(display row, display column) of a square: each player's own shore at the bottom,
        as on a real table where North sits across from South."""
        n = self.runner.seat.pub["size"]
        r, c = divmod(sq, n)
        if self.runner.seat.player == A.SOUTH:
            return n - 1 - r, c
        return r, n - 1 - c

    def _reading(self, choice):
        i, j = self._cell(choice[1])
        return i * 64 + j

    def _build(self):
        s = self.runner.seat
        pub, me = s.pub, s.player
        foe = 1 - me
        n = pub["size"]
        m = bytearray(n * n)
        for sq in pub["miss"][0] + pub["miss"][1]:
            m[sq] = _MISS
        last = ""
        for who, c, dists, _nd in A.reports(pub):
            if who == me:
                m[c] |= _SOUND
        for author, ev in s.log:
            if author == foe and ev[0] == "ping":
                last = "%s:%s" % (A.name(ev[1], n), ",".join([str(x) for x in ev[2]]) or "-")
        self._cert = 0
        if pub["ready"][0] and pub["ready"][1] and pub["end"] is None:
            cand = A.candidates(pub, me)
            for sq in range(n * n):
                if cand[sq]:
                    m[sq] |= _CAND
            cert = A.certain(pub, me, cand)
            for sq in cert:
                m[sq] |= _CERT
            self._cert = len(cert)
        for sq in s.priv["mines"]:
            m[sq] = _MINE
        for sq in pub["dead"][0] + pub["dead"][1]:
            m[sq] = _DEAD
        for sq in pub["islands"][0] + pub["islands"][1] + s.priv["islands"]:
            m[sq] = _ISLAND
        self._map = m
        self._last = last
        self._mk = self._key()

    # ---- keys ------------------------------------------------------------------------------
    def key(self, k):
        if self.runner.seat.setup_legal() and self.choices():
            # Set-up is a cursor on the lake as drawn: LEFT/RIGHT along a displayed row,
            # UP/DOWN along a displayed column, and it stays put after a square is laid.
            if k in _STEP:
                self._setup_step(_STEP[k])
                return
            if k == "OK":
                ch = self.choices()
                at = ch[min(self.cursor, len(ch) - 1)][0][1]
                GameScreen.key(self, k)
                if self.runner.seat.setup_legal():
                    self.cursor = self._nearest(at)
                return
        if k in ("LEFT", "RIGHT"):
            self.page = (self.page + (1 if k == "RIGHT" else -1)) % len(PAGES)
            return
        GameScreen.key(self, k)

    def _setup_step(self, step):
        """Move the set-up cursor one way on the lake as drawn: to the nearest choice straight
        that way (over laid squares), else to the nearest one off to the side (a row or column
        of the lake with nothing left to lay); nothing that way: it stays."""
        di, dj = step
        ch = self.choices()
        i, j = self._cell(ch[min(self.cursor, len(ch) - 1)][0][1])
        best, bkey = self.cursor, None
        for idx in range(len(ch)):
            ci, cj = self._cell(ch[idx][0][1])
            ahead = (ci - i) * di + (cj - j) * dj    # squares along the step's axis
            if ahead <= 0:
                continue
            off = (cj - j) if di else (ci - i)      # squares across it
            side = off if off >= 0 else -off
            key = (1 if side else 0, ahead + 2 * side, side, off)
            if bkey is None or key < bkey:
                best, bkey = idx, key
        self.cursor = best

    def _nearest(self, sq):
        """Index of the choice nearest square sq as drawn (after it was laid): the same row to
        the right first on ties, so repeated OKs lay squares along the row."""
        ch = self.choices()
        i, j = self._cell(sq)
        best, bkey = 0, None
        for idx in range(len(ch)):
            ci, cj = self._cell(ch[idx][0][1])
            di = ci - i if ci >= i else i - ci
            dj = cj - j if cj >= j else j - cj
            key = (di + dj, di, 0 if cj >= j else 1)
            if bkey is None or key < bkey:
                best, bkey = idx, key
        return best

    # ---- drawing ---------------------------------------------------------------------------
    def draw(self, d):
        if self._mk != self._key() or self._map is None:
            self._build()
        if self.page == LOG:
            self._draw_text(d, "Log", self._log_lines(rows(d) - 2))
        elif self.page == SONAR:
            self._draw_text(d, "Sonar", self._sonar_lines(rows(d) - 2))
        else:
            self._draw_map(d)

    def _current(self):
        ch = self.choices()
        if not ch:
            return None, ""
        c = ch[min(self.cursor, len(ch) - 1)]
        return c[0], c[1]

    def _draw_text(self, d, title, lines):
        header(d, "%s %d/%d" % (title, self.page + 1, len(PAGES)), self.app.link_state)
        w = cols(d)
        for i, line in enumerate(lines):
            d.text(clip(line, w), 0, (i + 1) * CH, 1)
        choice, label = self._current()
        y = d.height - CH
        if choice is not None:
            d.fill_rect(0, y, d.width, CH, 1)
            d.text(clip(">" + label, w), 0, y, 0)
        else:
            d.text(clip(self.status(), w), 0, y, 1)

    def _log_lines(self, n):
        s = self.runner.seat
        return [describe(self.eng, s, a, e) for a, e in s.log[-n:]] if n > 0 else []

    def _sonar_lines(self, n):
        s = self.runner.seat
        size = s.pub["size"]
        out = []
        for who, c, dists, _nd in A.reports(s.pub):
            if who == s.player:
                out.append("%s: %s" % (A.name(c, size), ",".join([str(x) for x in dists])
                                        or "none"))
        if not out:
            out.append("no soundings yet")
        return out[-n:] if n > 0 else []

    def _geometry(self, d, n):
        pitch = (d.height - 1) // n
        if pitch < 2:
            pitch = 2
        return pitch, n * pitch + 1

    def _draw_map(self, d):
        s = self.runner.seat
        pub = s.pub
        n = pub["size"]
        pitch, side = self._geometry(d, n)
        k = pitch - 1
        d.rect(0, 0, side, side, 1)
        y = (n // 2) * pitch
        for x in range(2, side - 1, 2):
            d.pixel(x, y, 1)
        m = self._map
        cell = self._cell
        for sq in range(n * n):
            code = m[sq]
            if code:
                i, j = cell(sq)
                _glyph(d, 1 + j * pitch, 1 + i * pitch, k, code, 1)
        me = s.player
        for p in (0, 1):
            i, j = cell(pub["boats"][p])
            _boat(d, 1 + j * pitch, 1 + i * pitch, k, p == me, 1)
        choice, label = self._current()
        if choice is not None:
            self._highlight(d, choice, pitch, k)
        self._panel(d, side + 2, label, choice)

    def _highlight(self, d, choice, pitch, k):
        tag = choice[0]
        squares = choice[1] if tag == "move" else [choice[1]]
        code = {"sound": _SOUND, "depth": _DEAD, "island": _ISLAND, "mine": _MINE}.get(tag, 0)
        for idx, sq in enumerate(squares):
            i, j = self._cell(sq)
            x, y = 1 + j * pitch, 1 + i * pitch
            if k < 4:
                d.rect(x - 1, y - 1, k + 2, k + 2, 1)
                continue
            d.fill_rect(x, y, k, k, 1)
            if tag == "island":   # an inverted island would vanish: a ring inside instead
                d.rect(x + 1, y + 1, k - 2, k - 2, 0)
            elif tag == "move":
                if idx == len(squares) - 1:
                    _boat(d, x, y, k, True, 0)
                else:
                    d.pixel(x + (k - 1) // 2, y + (k - 1) // 2, 0)
            else:
                _glyph(d, x, y, k, code, 0)

    def _panel(self, d, x0, label, choice):
        w = (d.width - x0) // CH
        if w < 2:
            return
        nrow = rows(d)
        wide = w >= 8
        info = self._info(wide)
        n = self.runner.seat.pub["size"]
        text = wrap(label, w) if wide else [short_label(choice, n) if choice else ""]
        if len(text) > 2 and choice[0] == "move":  # the lake shows the path itself
            text = ["move %d" % len(choice[1]), "to " + A.name(choice[1][-1], n)]
        if wide and len(text) == 1 and choice is not None:
            text.append("%d/%d" % (min(self.cursor, len(self.choices()) - 1) + 1,
                                   len(self.choices())))
        text = text[:2]
        keep = nrow - len(text) if choice is not None else nrow
        for r in range(min(len(info), keep)):
            line = clip(info[r], w - (1 if r == 0 and self.app.link_state else 0))
            if r == 0 and self.runner.my_turn() and choice is not None:
                d.fill_rect(x0 - 1, 0, d.width - x0 + 1, CH, 1)
                d.text(line, x0, 0, 0)
            else:
                d.text(line, x0, r * CH, 1)
        if self.app.link_state:
            d.fill_rect(d.width - 9, 0, 9, CH, 0)
            link_icon(d, d.width - 8, self.app.link_state)
        if choice is None:
            return
        y = (nrow - len(text)) * CH
        d.fill_rect(x0 - 1, y, d.width - x0 + 1, len(text) * CH, 1)
        for r in range(len(text)):
            d.text(clip(text[r], w), x0, y + r * CH, 0)

    def _info(self, wide):
        """Status lines for the panel, most important first."""
        s = self.runner.seat
        pub, me = s.pub, s.player
        foe = 1 - me
        if s.setup_legal():
            isl, mines = len(s.priv["islands"]), len(s.priv["mines"])
            if not wide:
                return ["Set", "#%d" % (pub["isl"] - isl), "o%d" % (pub["mines"] - mines)]
            return ["Set up", "Isle %d/%d" % (isl, pub["isl"]),
                    "Mine %d/%d" % (mines, pub["mines"]), "<>^v: go", "OK: lay"]
        t = s.to_move()
        if t is None:
            word = "Wait" if wide else "..."
        elif pub["end"] is not None or pub.get("conceded") is not None:
            word = "Over"
        elif t[0] == me and t[1] == "act":
            word = "Your go" if wide else "Go"
        else:
            word = "Waiting" if wide else "..."
        foe_left = pub["mines"] - len(pub["dead"][foe])
        own_left = pub["mines"] - len(pub["dead"][me])
        miss = len(pub["miss"][me])
        if not wide:
            return [word, "F%d" % foe_left, "X%d" % miss]
        out = [word, "Foe  %d/%d" % (foe_left, pub["mines"]),
               "Mine %d/%d" % (own_left, pub["mines"]), "Miss %d/%d" % (miss, A.MISSES),
               "Calm %d" % (pub["calm"] - pub["quiet"])]
        if self._last:
            out.insert(4, self._last)
        return out


# ---- glyphs: (x, y) is a square's inner top-left, k its inner size; col 0 draws inverted -----
def _glyph(d, x, y, k, code, col):
    base = code & 0xF0
    if k < 4:
        _small(d, x, y, k, code, col)
        return
    s = k if k & 1 else k - 1
    m = s // 2
    if base == _ISLAND:
        d.fill_rect(x, y, k, k, col)
    elif base == _MINE:           # a ball with its four horns
        d.fill_rect(x + 1, y + 1, s - 2, s - 2, col)
        d.pixel(x + m, y, col)
        d.pixel(x + m, y + s - 1, col)
        d.pixel(x, y + m, col)
        d.pixel(x + s - 1, y + m, col)
    elif base == _DEAD:           # a cross: destroyed
        d.line(x, y, x + s - 1, y + s - 1, col)
        d.line(x + s - 1, y, x, y + s - 1, col)
    else:
        if code & _SOUND:
            d.rect(x + m - 1, y + m - 1, 3, 3, col)
        if code & _MISS:
            d.hline(x, y + m, s, col)
        if code & _CERT:          # a thin plus: a mine must be here
            d.hline(x, y + m, s, col)
            d.vline(x + m, y, s, col)
        if code & _CAND:
            d.pixel(x + m, y + m, col)


def _small(d, x, y, k, code, col):
    base = code & 0xF0
    if base == _ISLAND:
        d.fill_rect(x, y, k, k, col)
    elif base == _MINE:
        d.line(x, y, x + k - 1, y + k - 1, col)
    elif base == _DEAD:
        d.line(x + k - 1, y, x, y + k - 1, col)
    else:
        if code & _MISS:
            d.hline(x, y + k - 1, k, col)
        if code & _SOUND:
            d.hline(x, y, k, col)
        if code & _CERT:
            d.line(x, y, x + k - 1, y + k - 1, col)
        elif code & _CAND:
            d.pixel(x, y, col)


def _boat(d, x, y, k, mine, col):
    """Own boat: a sail over a hull; the enemy's: a hollow diamond. Tiny squares use the grid
    lines too, so a boat stays visible at 3 px."""
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
