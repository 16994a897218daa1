# PING on the unit. The main page is the location card drawn from board.py (letters where they
# sit, lines between neighbours) with what this captain knows: your submarine (inverted; only
# this unit knows it), a dot on every square where the adversary can still be (the tracker,
# from public facts only), and the highlighted choice drawn on the map (the move's destination,
# the torpedo's path, the deck gun's reach). A side strip holds the hand (the card the choice
# plays marked '>', disabled cards struck through), the play area (L: the card you played,
# R: the card you will take; inverted = face down) and the objectives (inverted: done by you,
# underlined: reported by the adversary); the bottom row is the choice. RIGHT/LEFT turn to the
# log and to the cards in words, where UP/DOWN scroll and OK/BACK return.
# Choices, UP/DOWN/OK and lines() keep the generic GameScreen semantics the test driver reads;
# the extra lines are '# ' lines, never read as choices.
from fathom.games.ping import board as B
from fathom.games.ping import track
from fathom.ui.play import GameScreen, describe
from fathom.ui.screen import CH, clip, cols, header, link_icon, rows, wrap

MAP, LOG, INFO = 0, 1, 2
_PAGES = 3
_PAGE_NAMES = ("", "log", "cards")
_U3 = ("PNG", "LIS", "TOR", "GUN", "ENC", "DIV")
_ACT = ("ping", "listen", "torp", "deck gun", "encrypt", "dive")
_SHORT = ("ping", "lstn", "tor", "gun", "enc", "dive")  # with the code: 8 columns at most
# A-Z in 3x5 pixels (15 bits, top row first, left bit high) for panels too small for 8x8 letters.
_TINY = (0x2BED, 0x6BAE, 0x3923, 0x6B6E, 0x79A7, 0x79A4, 0x396B, 0x5BED, 0x7497, 0x126A, 0x5BAD,
         0x4927, 0x5FED, 0x6B6D, 0x2B6A, 0x6BA4, 0x2B73, 0x6BAD, 0x388E, 0x7492, 0x5B6F, 0x5B6A,
         0x5BFD, 0x5AAD, 0x5A92, 0x72A7)


def code(c, n=4):
    """A card in n characters: 'MOVE 2 / PING' is '2PNG' (3: '2PN')."""
    steps, util = B.CARDS[c]
    return (str(steps) + _U3[util])[:n]


def label(seat, a, short=False):
    """A choice in words; short: for a 9-column panel."""
    if not isinstance(a, list):
        return "start " + B.name(a)
    kind = a[0]
    if kind == "report":
        return ("rep " if short else "report ") + B.name(seat.priv["sq"])
    if kind == "shuffle":
        return "shuffle" if short else "shuffle hand"
    if kind == "disable":
        return ("dis %d+%d" if short else "disable %d+%d") % (a[1] + 1, a[2] + 1)
    c = code(a[1], 3 if short else 4) + " "
    if kind == "repair":
        return c + ("fix" if short else "repair")
    if kind == "move":
        return c + ("" if short else "go ") + B.name(a[2]) + (("+r" if short else "+rep")
                                                            if a[3] else "")
    util = B.CARDS[a[1]][1]
    text = (_SHORT if short else _ACT)[util]
    if kind == "torpedo":
        text += ("" if short else " ") + B.DIR_NAMES[a[2]]
    return c + text


def used_card(a):
    """The card a choice plays, or -1."""
    if isinstance(a, list) and len(a) > 1 and a[0] not in ("shuffle", "disable"):
        return a[1]
    return -1


def targets(seat, a):
    """Squares the highlighted choice touches, framed on the map."""
    sq = seat.priv["sq"]
    if not isinstance(a, list):
        return [a]
    kind = a[0]
    if kind == "move":
        return [a[2]]
    if kind == "torpedo":
        return B.path(sq, a[2])
    if kind == "gun":
        return [sq] + B.squares(B.NB[sq])
    if kind in ("report", "ping", "encrypt"):
        return [sq]  # what the choice reveals or scores
    return []


def slots(pub, me):
    """(left, right): the play-area card I played (the adversary takes it) and the one I take,
    each [owner, card or -1 face down, mode or -1, utility hint] or None."""
    left = right = None
    for slot in (pub["area"], pub["out"]):
        if slot is None:
            continue
        if slot[0] == me:
            left = slot
        elif slot[0] == 1 - me or (slot[0] < 0 and me == 0):
            right = slot  # the dealt card sits on player 1's right
        elif slot[0] < 0:
            left = slot
    return left, right


def slot_words(seat, slot, known):
    """('2PNG', face_down, mode): a slot as shown; known = this unit knows the face-down card."""
    if slot is None:
        return "", False, -1
    c, mode = slot[1], slot[2]
    if c >= 0:
        return code(c), False, mode
    if known >= 0:
        return code(known), True, -1
    if slot[3] >= 0:
        return "?" + _U3[slot[3]], True, mode
    return "?", True, -1


def known_down(seat, slot):
    """The card under my own face-down slot (or the dealt card player 1 will take), else -1."""
    if slot is None or slot[1] >= 0:
        return -1
    if slot[0] == seat.player and seat.priv["last"] is not None:
        return seat.priv["last"][0]
    if slot[0] < 0 and seat.player == 0:
        return seat.priv["inc"]
    return -1


def tiny(d, ch, x, y, c):
    g = _TINY[ord(ch) - 65]
    for r in range(5):
        bits = (g >> (12 - 3 * r)) & 7
        for k in range(3):
            if bits & (4 >> k):
                d.pixel(x + k, y + r, c)


def _brackets(d, box, n):
    x, y, w, h = box
    for cx, dx in ((x, 1), (x + w - 1, -1)):
        for cy, dy in ((y, 1), (y + h - 1, -1)):
            d.hline(min(cx, cx + dx * n), cy, n + 1, 1)
            d.vline(cx, min(cy, cy + dy * n), n + 1, 1)


def cell(big, px, py, sq):
    """Top left of a square's letter on the map."""
    c, r = B.col_row(sq)
    return (c * px, 2 + r * py) if big else (1 + c * px, 1 + r * py)


def boxes(big, x, y):
    """(submarine box, target frame) around the letter at x, y, each (x, y, w, h)."""
    if big:  # the 8x8 font inks columns 1..7 and rows 0..6
        return (x, y - 1, 9, 9), (x - 1, y - 2, 11, 11)
    return (x - 1, y - 1, 5, 7), (x - 1, y - 1, 5, 7)


def dot(big, x, y):
    """(x, y, size) of the tracker's dot: up and right of the letter, clear of the lines."""
    return (x + 10, y - 2, 2) if big else (x + 4, y - 1, 1)


def layout(d):
    """(big, px, py, side_x): 8x8 letters on a 12x11 pitch when the panel allows, else 3x5
    letters on 6x6; the side strip starts right of the map."""
    py = min(11, (d.height - CH) // B.NROWS)
    big = py >= 10 and d.width >= 7 * 12 + 4 * CH
    px = 12 if big else 6
    if not big:
        py = 6
    return big, px, py, B.COLS * px + (0 if big else 2)


class PingScreen(GameScreen):
    def __init__(self, app, runner):
        GameScreen.__init__(self, app, runner)
        self.page = MAP
        self.scroll = 0
        self._ck = None           # state the cached choices belong to
        self._ch = []
        self._tk = None           # state the cached tracker mask belongs to
        self._foe = 0

    # ---- choices: built once per event, not once per frame --------------------------------
    def choices(self):
        s = self.runner.seat
        key = (len(s.log), len(s.setup_choices), len(s.actions))
        if key != self._ck:
            self._ck = key
            self._ch = []  # the old list goes before the new one is built
            legal = s.setup_legal()
            if legal:
                self._ch = [(c, label(s, c)) for c in legal]
            else:
                self._ch = self._play_choices(s)
        return self._ch

    def _play_choices(self, s):
        legal = s.legal()
        if legal and legal[0][0] == "shuffle":
            # The victim shuffles blind: one choice, the order drawn here (rules §7).
            import os
            from fathom.prng import Prng
            return [(legal[Prng(os.urandom(16), b"shuffle").below(len(legal))],
                     "shuffle hand")]
        out = []
        seen = []
        for a in legal:
            text = label(s, a)
            if text in seen:  # cards 0 and 1 are twins: one entry for both
                continue
            seen.append(text)
            out.append((a, text))
        return out

    def current(self):
        ch = self.choices()
        if not ch:
            return None
        self.cursor = min(self.cursor, len(ch) - 1)
        return ch[self.cursor][0]

    def foe(self):
        """Bitmask of the squares where the adversary can still be."""
        s = self.runner.seat
        if len(s.log) != self._tk:
            self._tk = len(s.log)
            self._foe = track.possible(s.pub, 1 - s.player)
        return self._foe

    def brief(self):
        """The status in four characters for the strip's bar."""
        r = self.runner
        s = r.seat
        if r.problem:
            return "prob"
        t = s.to_move()
        if t is None:
            return "over" if s.result() is not None else "wait"
        if t[0] != s.player:
            return "wait"
        if t[1] == "setup":
            return "set"
        q = s.pub["q"]
        return "shuf" if q == "shuf" else ("aim" if q == "pick" else ("ans" if t[1] == "answer"
                                                                       else "turn"))

    # ---- keys ------------------------------------------------------------------------------
    def key(self, k):
        if k in ("LEFT", "RIGHT"):
            self.page = (self.page + (1 if k == "RIGHT" else -1)) % _PAGES
            self.scroll = -1  # the log opens at its newest line, the cards page at the top
            return
        if self.page == MAP:
            GameScreen.key(self, k)
            return
        if k == "UP":
            self.scroll = max(0, self._top() - 1)
        elif k == "DOWN":
            self.scroll = self._top() + 1
        elif k in ("OK", "BACK"):
            self.page = MAP

    def _top(self):
        doc = self.doc(cols(self.app.hw.display))
        room = rows(self.app.hw.display) - 1
        last = max(0, len(doc) - room)
        if self.scroll < 0:
            self.scroll = last if self.page == LOG else 0
        self.scroll = min(self.scroll, last)
        return self.scroll

    # ---- the map ---------------------------------------------------------------------------
    def draw(self, d):
        if self.page != MAP:
            self.draw_page(d)
            return
        s = self.runner.seat
        big, px, py, sx = layout(d)
        a = self.current()
        self.draw_map(d, s, big, px, py, a)
        self.draw_side(d, s, big, sx, a)
        self.draw_bottom(d, s, big)

    def draw_map(self, d, s, big, px, py, a):
        lw, lh = (8, 8) if big else (3, 5)
        mid = 3 if big else 2       # the glyph's middle row
        for sq in range(B.NSQ):     # lines: to the neighbour east and south of each square
            x, y = cell(big, px, py, sq)
            if B.step(sq, B.E) >= 0:
                d.hline(x + lw, y + mid, px - lw, 1)
            if B.step(sq, B.S) >= 0:
                d.vline(x + (4 if big else 1), y + lh, py - lh, 1)
        foe = self.foe()
        hot = targets(s, a) if a is not None else ()
        me = s.priv["sq"]
        one = foe and not foe & (foe - 1)  # the adversary located on a single square
        for sq in range(B.NSQ):
            x, y = cell(big, px, py, sq)
            box, hot_box = boxes(big, x, y)
            ink = 1
            if sq == me:  # your submarine: only this unit knows where it is
                d.fill_rect(box[0], box[1], box[2], box[3], 1)
                ink = 0
            if sq in hot:  # what the highlighted choice touches
                d.rect(hot_box[0], hot_box[1], hot_box[2], hot_box[3], 1)
            if one and foe >> sq & 1:  # the adversary located: corner brackets, a target lock
                _brackets(d, hot_box, 2 if big else 1)
            if big:
                d.text(B.name(sq), x, y, ink)
            else:
                tiny(d, B.name(sq), x, y, ink)
            if foe >> sq & 1:  # the adversary can be here
                dx, dy, dw = dot(big, x, y)
                d.fill_rect(dx, dy, dw, dw, 1)
        if isinstance(a, list) and a[0] == "torpedo" and me >= 0:
            self._arrow(d, big, px, py, me, a[2])

    def _arrow(self, d, big, px, py, sq, di):
        """A short arrow from your square the way the torpedo runs."""
        c, r = B.col_row(sq)
        cx = c * px + (4 if big else 2)
        cy = r * py + (5 if big else 3)
        n = px // 2 if di in (B.E, B.W) else py // 2
        dx = (0, 1, 0, -1)[di]
        dy = (-1, 0, 1, 0)[di]
        for k in range(2):  # a thick stub along the line: it reads at 1 px a side
            ex, ey = cx + dx * n + (k if dy else 0), cy + dy * n + (k if dx else 0)
            d.line(cx + (k if dy else 0), cy + (k if dx else 0), ex, ey, 1)

    # ---- the side strip --------------------------------------------------------------------
    def draw_side(self, d, s, big, sx, a):
        w = (d.width - sx) // CH
        if w < 3:
            return
        y = 0
        if big:
            d.fill_rect(sx, 0, d.width - sx, CH, 1)
            room = w - (1 if self.app.link_state else 0)
            d.text(clip(self.brief(), room), sx, 0, 0)
            if self.app.link_state:
                d.fill_rect(d.width - 9, 0, 9, CH, 0)
                link_icon(d, d.width - 8, self.app.link_state)
            y = CH
        mark = used_card(a)
        n = 4 if big else 3
        hand = s.priv["hand"]
        for i in range(3):
            if i < len(hand):
                c, dis = hand[i]
                text = code(c, n)
                if big:
                    d.text(">" if c == mark else " ", sx, y, 1)
                    d.text(text, sx + CH, y, 1)
                    if dis:
                        d.hline(sx + CH, y + 3, len(text) * CH, 1)
                else:
                    ink = 1
                    if c == mark:
                        d.fill_rect(sx, y, len(text) * CH, CH, 1)
                        ink = 0
                    d.text(text, sx, y, ink)
                    if dis:
                        d.hline(sx, y + 3, len(text) * CH, ink)
            y += CH
        left, right = slots(s.pub, s.player)
        if big:
            self._slot(d, s, "L", left, sx, y, w)
            y += CH
        if y + CH <= d.height - CH:
            self._slot(d, s, "R" if big else "", right, sx, y, w)
            y += CH
        if big and y + CH <= d.height - CH:
            self._objectives(d, s, sx, y)

    def _slot(self, d, s, tag, slot, x, y, w):
        text, down, mode = slot_words(s, slot, known_down(s, slot))
        if tag:
            d.text(tag, x, y, 1)
            x += CH
            w -= 1
        if not text:
            return
        text = text[:w]
        ink = 1
        if down:  # a card back: inverted
            d.fill_rect(x, y, len(text) * CH, CH, 1)
            ink = 0
        d.text(text, x, y, ink)
        if mode == B.MOVEMENT:  # underline the half that was played
            d.hline(x, y + 7, CH - 1, ink)
        elif mode == B.UTILITY and len(text) > 1:
            d.hline(x + CH, y + 7, (len(text) - 1) * CH - 1, ink)

    def _objectives(self, d, s, x, y):
        done = s.priv["done"]
        rep = s.pub["rep"][1 - s.player]
        for i in range(5):
            xx = x + i * CH
            ink = 1
            if done >> i & 1:
                d.fill_rect(xx, y, CH, CH, 1)
                ink = 0
            d.text(B.name(B.OBJECTIVES[i]), xx, y, ink)
            if rep >> i & 1:
                d.hline(xx, y + 7, CH - 1, ink)

    # ---- the bottom row: the choice, or what happened last ---------------------------------
    def draw_bottom(self, d, s, big):
        w = cols(d)
        y = d.height - CH
        ch = self.choices()
        if ch:
            text = ch[self.cursor][1] if big else label(s, ch[self.cursor][0], True)
            count = "%d/%d" % (self.cursor + 1, len(ch))
            d.fill_rect(0, y, d.width, CH, 1)
            d.text(">" + clip(text, w - 1), 0, y, 0)
            if len(text) + len(count) + 2 <= w:
                d.text(count, d.width - len(count) * CH, y, 0)
            return
        if s.log:
            au, ev = s.log[-1]
            text = describe(self.eng, s, au, ev)
        else:
            text = "waiting"
        d.text(clip(text, w), 0, y, 1)

    # ---- pages -----------------------------------------------------------------------------
    def doc(self, w):
        s = self.runner.seat
        if self.page == LOG:
            out = []
            for i in range(len(s.log)):
                a, e = s.log[i]
                out.extend(wrap("%d %s" % (i + 1, describe(self.eng, s, a, e)), w))
            return out or ["(no events)"]
        return self.info(s, w)

    def info(self, s, w):
        """The cards page: everything the strip abbreviates, in words."""
        pub, priv = s.pub, s.priv
        out = ["turn %d  P%d at %s" % (pub["turns"] + 1, s.player + 1,
                                      B.name(priv["sq"]) if priv["sq"] >= 0 else "-")]
        mark = used_card(self.current())
        for c, dis in priv["hand"]:
            out.append(("x" if dis else (">" if c == mark else " ")) + B.card_name(c))
        left, right = slots(pub, s.player)
        for tag, slot in (("L ", left), ("R ", right)):
            text, down, mode = slot_words(s, slot, known_down(s, slot))
            if text:
                if mode >= 0 and not text.startswith("?"):  # the half that was played
                    steps, util = B.CARDS[slot[1]]
                    text += " " + ("MOVE %d" % steps if mode == B.MOVEMENT else (
                        "repair" if mode == B.REPAIR else B.UTIL_NAMES[util]))
                out.append(tag + text + (" down" if down else ""))
        out.append("obj " + self._objs(s))
        foe = B.squares(self.foe())
        out.extend(wrap("foe %d: %s" % (len(foe), "".join(B.name(q) for q in foe)), w))
        return out

    def _objs(self, s):
        """'AE P2 M': the objectives you completed, then those the adversary reported."""
        done = "".join(B.name(B.OBJECTIVES[i]) for i in range(5) if s.priv["done"] >> i & 1)
        rep = "".join(B.name(B.OBJECTIVES[i]) for i in range(5)
                      if s.pub["rep"][1 - s.player] >> i & 1)
        return (done or "-") + " P%d " % (2 - s.player) + (rep or "-")

    def draw_page(self, d):
        w = cols(d)
        doc = self.doc(w)
        top = self._top()
        room = rows(d) - 1
        more = ("^" if top > 0 else "") + ("v" if top + room < len(doc) else "")
        title = ("Log %d" % len(self.runner.seat.log)) if self.page == LOG else "Cards"
        header(d, clip(title, w - len(more) - 1) + " " * max(0, w - len(title) - len(more)) + more,
               self.app.link_state)
        y = CH
        for line in doc[top:top + room]:
            d.text(clip(line, w), 0, y, 1)
            y += CH

    # ---- semantic text ---------------------------------------------------------------------
    def lines(self):
        w = cols(self.app.hw.display)
        if self.page != MAP:
            return ["%s %s" % (self.title, _PAGE_NAMES[self.page])] + [
                "# " + l for l in self.doc(w)]
        out = GameScreen.lines(self)
        s = self.runner.seat
        info = ["# you " + (B.name(s.priv["sq"]) if s.priv["sq"] >= 0 else "-"),
                "# hand " + " ".join(("x" if dis else "") + code(c) for c, dis in s.priv["hand"])]
        left, right = slots(s.pub, s.player)
        area = []
        for tag, slot in (("L:", left), ("R:", right)):
            text, down, _mode = slot_words(s, slot, known_down(s, slot))
            if text:
                area.append(tag + text + ("(down)" if down else ""))
        info.append("# area " + " ".join(area))
        info.append("# obj " + self._objs(s))
        info.append("# foe " + "".join(B.name(q) for q in B.squares(self.foe())))
        k = 1
        while k < len(out) and out[k].startswith("| "):
            k += 1
        return out[:k] + info + out[k:]


def screen(app, runner):
    return PingScreen(app, runner)
