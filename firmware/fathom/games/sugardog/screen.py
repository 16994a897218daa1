# Sugar Dog on the unit: the map with what this captain knows (own submarine, mines and
# torpedoes, the contacts noted from the log), letters across and numbers up, the highlighted
# choice drawn on the map, a status panel, and the command log as a scrollable page (RIGHT;
# while choosing the start square LEFT/RIGHT move a row instead).
# Choices, UP/DOWN/OK and lines() keep the generic GameScreen semantics the test driver reads.
from fathom.games.sugardog import engine as S
from fathom.ui.play import GameScreen, describe
from fathom.ui.screen import CH, clip, cols, header, rows, wrap

MAP, LOG = 0, 1
_MAX_CELL = 9
# 3x5 glyphs for the map's edge labels (A-J, 0-9): 15 bits each, top row first, left bit high.
_TINY = (0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7252, 0x7BEF, 0x7BCF,
         0x2BED, 0x6BAE, 0x3923, 0x6B6E, 0x79A7, 0x79A4, 0x396B, 0x5BED, 0x7497, 0x126A)


def tiny(d, text, x, y, c=1):
    """Digits and A-J in 3x5 pixels, 4 px apart: labels that fit a 5 px square."""
    for ch in text:
        o = ord(ch)
        g = _TINY[o - 48] if 48 <= o <= 57 else _TINY[10 + o - 65]
        for r in range(5):
            bits = (g >> (12 - 3 * r)) & 7
            for k in range(3):
                if bits & (4 >> k):
                    d.pixel(x + k, y + r, c)
        x += 4


def label(seat, choice):
    """A choice in words, short enough for a 9-column panel."""
    size = seat.pub["size"]
    if not isinstance(choice, list):
        return "start " + S.name(size, choice)
    kind = choice[0]
    if kind == "run":
        if choice[1] == seat.priv["pos"]:
            return "silent stay"
        return "silent " + S.name(size, choice[1])
    if kind == "mine":
        return "mine " + S.name(size, seat.priv["pos"])
    if kind == "cruise":
        return "cruise " + S.name(size, choice[1])
    if kind == "sonar":
        return "sonar ping"
    return "torpedo " + S.DIRS[choice[1]]


_SHORT = {"silent stay": "stay", "sonar ping": "sonar"}


def short(text):
    """A label for a 5-column panel: 'torp S', 'go C3', 'cru C3'."""
    if text in _SHORT:
        return _SHORT[text]
    return text.replace("torpedo", "torp").replace("silent", "go").replace("cruise", "cru")


def targets(seat, choice):
    """Squares the highlighted choice touches, drawn inverted on the map."""
    size = seat.pub["size"]
    pos = seat.priv["pos"]
    if not isinstance(choice, list):
        return [choice]
    kind = choice[0]
    if kind in ("run", "cruise"):
        return [choice[1]]
    if kind == "fire":
        out = []
        q = pos
        for _ in range(2):
            q = S.step(size, q, choice[1])
            if q < 0:
                break
            out.append(q)
        return out
    return [pos]


def layout(d, size):
    """(cell, x0, y0): the map as large as the screen allows, labels outside."""
    lw = 4 if size < 10 else 8
    cell = min(_MAX_CELL, (d.height - CH - 6) // size)
    cell = max(2, min(cell, (d.width - lw - 5 * CH) // size))
    return cell, lw, CH


class SugarDogScreen(GameScreen):
    def __init__(self, app, runner):
        GameScreen.__init__(self, app, runner)
        self.page = MAP
        self.top = None           # first log entry shown on the log page (None: the newest)
        self._mk = None
        self._marks = None
        self._ck = None           # state the cached choices belong to
        self._ch = []

    # ---- choices: words instead of engine lists --------------------------------------------
    def choices(self):
        # asked by draw, lines and key on every frame: built once per event
        s = self.runner.seat
        key = (len(s.log), len(s.setup_choices), len(s.actions))
        if key != self._ck:
            self._ck = key
            legal = s.setup_legal()
            if legal:
                self._ch = [(c, label(s, c)) for c in legal]
            else:
                self._ch = [(a, label(s, a)) for a in s.legal()]
        return self._ch

    def _map(self):
        # The engine walks the whole log for contacts: once per event, not once per frame.
        s = self.runner.seat
        key = (len(s.log), s.priv["pos"], len(s.priv["mines"]))
        if key != self._mk:
            self._mk = key
            self._marks = S.marks(s.pub, s.priv, s.log, s.player)
        return self._marks

    # ---- keys ------------------------------------------------------------------------------
    def key(self, k):
        if self.page == LOG:
            n = len(self.runner.seat.log)
            top = n - 1 if self.top is None else self.top
            if k == "UP":
                self.top = max(0, top - 1)
            elif k == "DOWN":
                self.top = None if top + 1 >= n - 1 else top + 1
            elif k in ("LEFT", "OK", "BACK"):
                self.page = MAP
            return
        s = self.runner.seat
        if k in ("LEFT", "RIGHT") and s.setup_legal():
            # choosing the start square: a row down or up (the log has nothing to show yet)
            n = len(s.setup_legal())
            step = s.pub["size"] if k == "RIGHT" else -s.pub["size"]
            self.cursor = (self.cursor + step) % n
            return
        if k == "RIGHT":
            self.page = LOG
            self.top = None
            return
        if k == "LEFT":
            return
        GameScreen.key(self, k)

    def lines(self):
        if self.page == LOG:
            s = self.runner.seat
            return [self.title + " log"] + ["%d %s" % (i + 1, describe(self.eng, s, a, e))
                                            for i, (a, e) in enumerate(s.log)]
        return GameScreen.lines(self)

    # ---- drawing ---------------------------------------------------------------------------
    def draw(self, d):
        s = self.runner.seat
        if self.page == LOG:
            self._draw_log(d, s)
            return
        header(d, "P%d %s" % (s.player + 1, self.brief()), self.app.link_state)
        ch = self.choices()
        if ch:
            self.cursor = min(self.cursor, len(ch) - 1)
        size = s.pub["size"]
        cell, x0, y0 = layout(d, size)
        self._draw_map(d, s, size, cell, x0, y0, ch[self.cursor][0] if ch else None)
        self._draw_panel(d, s, x0 + size * cell + 3, ch)

    def _draw_map(self, d, s, size, cell, x0, y0, choice):
        grid = self._map()
        hot = targets(s, choice) if choice is not None else ()
        for q in range(size * size):
            cx = x0 + (q % size) * cell
            cy = y0 + (size - 1 - q // size) * cell
            lit = q in hot
            if lit:
                d.fill_rect(cx, cy, cell, cell, 1)
            elif cell >= 5:
                d.pixel(cx, cy, 1)  # grid dots: squares can be counted
            glyph = grid[q]
            if lit and choice is not None:
                glyph = self._ghost(choice, glyph)
            if glyph != " ":
                self._glyph(d, s, glyph, q, cx, cy, cell, 0 if lit else 1)
        if isinstance(choice, list) and choice[0] == "sonar":
            p = s.priv["pos"]
            cx = x0 + (p % size) * cell
            cy = y0 + (size - 1 - p // size) * cell
            d.rect(cx - cell, cy - cell, 3 * cell, 3 * cell, 1)  # the ping goes out from here
        ly = y0 + size * cell + 1
        if ly + 5 <= d.height:
            for x in range(size):
                tiny(d, "ABCDEFGHIJ"[x], x0 + x * cell + (cell - 3) // 2, ly)
        every = 1 if cell >= 7 else 2  # 5 px digits need 7 px rows, else every other row
        for y in range(0, size, every):
            n = str(y + 1)
            tiny(d, n, x0 - 4 * len(n), y0 + (size - 1 - y) * cell + (cell - 5) // 2)

    def brief(self):
        """The status in a few characters for the header: 'move', 'P3 acts', 'P2 ans'."""
        r = self.runner
        if r.problem:
            return "problem"
        t = r.seat.to_move()
        if t is None:
            return "wait"
        if t[0] == r.seat.player:
            return "set up" if t[1] == "setup" else "move"
        return "P%d %s" % (t[0] + 1, "ans" if t[1] == "answer" else "acts")

    def _ghost(self, choice, glyph):
        if not isinstance(choice, list):
            return "s"
        kind = choice[0]
        if kind in ("run", "cruise"):
            return "s"
        if kind == "mine":
            return "m"
        if kind == "fire":
            return "T%d" % choice[1]
        return glyph

    def _glyph(self, d, s, g, q, cx, cy, cell, c):
        i = cell - 1
        x, y = cx + 1, cy + 1
        if i < 2:
            d.pixel(x, y, c)
            return
        if g == "s":  # a hull with rounded ends
            h = max(2, i - 2 * (i // 3))
            yy = y + (i - h) // 2
            d.fill_rect(x, yy, i, h, c)
            if i >= 5:
                d.pixel(x, yy, 1 - c)
                d.pixel(x + i - 1, yy, 1 - c)
                d.pixel(x, yy + h - 1, 1 - c)
                d.pixel(x + i - 1, yy + h - 1, 1 - c)
                d.vline(x + i // 2, yy - 1, 1, c)  # conning tower
        elif g == "m":  # a spiked mine
            d.line(x, y, x + i - 1, y + i - 1, c)
            d.line(x + i - 1, y, x, y + i - 1, c)
            if i >= 5:
                d.hline(x, y + i // 2, i, c)
                d.vline(x + i // 2, y, i, c)
        elif g == "c":  # a contact: something noted, an outline
            d.rect(x + (1 if i >= 5 else 0), y + (1 if i >= 5 else 0),
                   i - (2 if i >= 5 else 0), i - (2 if i >= 5 else 0), c)
        else:  # "t" own torpedo (direction from pub) or "T<d>" a planned one
            di = int(g[1]) if len(g) > 1 else self._torp_dir(s, q)
            if di in (S.N, S.S):
                d.vline(x + i // 2, y, i, c)
                tip = y if di == S.N else y + i - 1
                d.hline(x + i // 2 - 1, tip + (1 if di == S.N else -1), 3, c)
            else:
                d.hline(x, y + i // 2, i, c)
                tip = x + i - 1 if di == S.E else x
                d.vline(tip + (-1 if di == S.E else 1), y + i // 2 - 1, 3, c)

    def _torp_dir(self, s, q):
        for t in s.pub["torps"]:
            if t[2] == q and t[1] == s.player:
                return t[3]
        return S.E

    def _draw_panel(self, d, s, x0, ch):
        w = (d.width - x0) // CH
        if w < 3:
            return
        y = CH
        bottom = d.height
        if ch:
            text = ch[self.cursor][1]
            if w < 9:
                text = short(text)
            for part in wrap(text, w)[:2]:
                d.fill_rect(x0 - 1, y, d.width - x0 + 1, CH, 1)
                d.text(part, x0, y, 0)
                y += CH
            if y + CH <= bottom:
                d.text(clip("%d/%d" % (self.cursor + 1, len(ch)), w), x0, y, 1)
                y += CH
        if y + CH <= bottom and s.priv["pos"] is not None:
            alive = s.pub["alive"][s.player]
            d.text(clip(("mines %d" % s.priv["left"]) if alive else "sunk", w), x0, y, 1)
            y += CH
        # the newest log lines that still fit, oldest of them first
        room = (bottom - y) // CH
        if room <= 0 or not s.log:
            return
        lines = []
        i = len(s.log) - 1
        while i >= 0 and len(lines) < room:
            a, e = s.log[i]
            lines = wrap(describe(self.eng, s, a, e), w) + lines
            i -= 1
        for line in lines[-room:]:
            d.text(line, x0, y, 1)
            y += CH

    def _draw_log(self, d, s):
        n = len(s.log)
        header(d, "Log %d" % n, self.app.link_state)
        w = cols(d)
        room = rows(d) - 1
        if n == 0:
            d.text("empty", 0, CH, 1)
            return
        # The newest entry at the bottom unless scrolled: walk back from the last one shown.
        last = n - 1 if self.top is None else self.top
        out = []
        i = last
        while i >= 0 and len(out) < room:
            a, e = s.log[i]
            out = wrap("%d %s" % (i + 1, describe(self.eng, s, a, e)), w) + out
            i -= 1
        out = out[-room:]
        for k, line in enumerate(out):
            d.text(line, 0, (k + 1) * CH, 1)
        if n > room:  # scroll bar: where the window sits in the log
            h = d.height - CH
            y = CH + (h - 2) * last // max(1, n - 1)
            d.vline(d.width - 1, y, 2, 1)


def screen(app, runner):
    return SugarDogScreen(app, runner)
