# PING on the unit, pointed at the map: a BoardGrid of the 7x5 location card (letters where
# they sit, reefs blank) with your submarine inverted and a line under every square where the
# adversary can still be (the tracker, from public facts only). The cursor starts on your
# submarine; OK on a square opens a short menu of what can be done there (a move to it, a
# torpedo that runs through it, on your own square the report and every card's action), so an
# action is a few arrows, OK, a step or two in the menu and OK. When hit, the shuffle is one OK
# and the attacker's pick is a CardRow. A side strip shows the hand (struck through: disabled),
# the card you will take and the objectives; the bottom line (the side strip's head on a
# 32-pixel panel) says in words what happened since your last move, newest first
# (ui/happened.py); where it is longer than the line, the line shows it a row of whole words
# at a time, in turn, so it reads whole on a 72x40 panel too without a key. A long press of
# BACK opens the help page.
# Words come from say.py (the rules' side); nothing here knows a rule beyond what it draws.
from fathom.compat import const
from fathom.games.ping import board as B
from fathom.games.ping import say as W
from fathom.games.ping import track
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.cardrow import CardRow
from fathom.ui.dialog import draw_page, read_text
from fathom.ui.font import CH, TH, TW, put, tiny, tiny_cols, tiny_width
from fathom.ui.listview import ListView, steps
from fathom.ui.gamebase import GameBase
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import title_room, top_bar

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_TAG = const(0)
_AREA = const("area")
_OUT = const("out")
_REPORTED = const("rep")
_SLOT_OWNER = const(0)
_SLOT_CARD = const(1)
_SLOT_UTIL = const(3)
_HAND_CARDS = const("hand")
_SUB_AT = const("sq")
_DONE = const("done")
_LAST = const("last")
_INCOMING = const("inc")
_LAST_CARD = const(0)
_EV_SHUFFLE = const("shuffle")
_EV_DISABLE = const("disable")
_EV_END = const("end")
_PHASE = const("q")       # pub: the stage of the turn (engine.py)
_LATE = const("late")    #   the action done, the square public on an objective
_A_MOVE = const("move")
_MOVE_DEST = const(2)
_MOVE_REPORT = const(3)
_A_REPORT = const("report")

BOARD = const(0)        # the screen's modes: the board and its cursor,
MENU = const(1)         # the list of what can be played,
_PICKING = const(2)     # picking a square for it,
_HELP_PAGE = const(3)   # the help page
HELP_FILE = "games/ping/help.txt"
_LETTERS = tuple([chr(65 + i) for i in range(B.NSQ)])  # drawn every frame: never rebuilt
_SEAT = ("P1", "P2")
_START = const(12)           # the cursor's square before you have one: M, the centre
ASK_WAIT_MS = const(600)     # a key this soon after the turn's report is offered was not for it
_LOW = const(40)             # panels this tall have the event line under the board


class PingScreen(GameBase):
    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        s = runner.seat
        me = s.priv[_SUB_AT]
        self.grid = BoardGrid(B.COLS, B.NROWS, B.cell(me if me >= 0 else _START),
                              min_px=6, max_px=10)
        # its long labels wrapped once, not per cursor move; 3x5 on a narrow panel
        self.menu = ListView(fixed=True, fit=True, whole=True)
        self.row = CardRow(0, 0, 3)
        self.mode = BOARD
        self.page = None          # the help page, only while it is open
        self.at = -1              # the square the menu was opened on
        self.menu_title = ""
        self.items = []           # the menu's actions, in its order
        self._is_sq = _is_square  # passed to the grid on every arrow: no bound method per key
        self._cellfn = self._cell
        self._n = (-1, -1, -1)    # the seat's counts the caches below belong to
        self.acts = []            # the legal choices, one per label (twin cards are one)
        self.labels = []
        self.foe = 0
        self.event = ""           # the newest line of what happened (ui/happened.py)
        self.side = []            # the side strip's rows of words
        self.side_short = []      # the same in at most 6 characters (a 72-px panel)
        self.obj_line = ""        # the objectives in one row (128x32)
        self.codes = []           # the hand as 4-character codes (128x32)
        self.dis = []
        self.title_long = self.title_short = ""
        self.back_to = BOARD      # the mode the help page returns to
        self.why = ""             # why the last OK did nothing, until the cursor or the game moves
        self.why_page = TextPage("", True)  # the same where the event heads the strip
        self.status_page = TextPage("", True)  # the status, heading a 72x40 side strip
        self.moved = False        # the cursor moved since the screen opened: a start is chosen
        self.offer = None         # the report to offer when the turn starts (tick asks it)
        self.asking = None        # that question, while it is over the board
        self.asked_n = 0          # the seat's actions when it was asked
        self.why_report = ""      # its last line
        # what happened since your last move, newest first: the bottom line (the side strip's
        # head on a 32-px panel), a row at a time in turn when it is longer
        self.hear(self._words, W.line([], runner.seat.player), TextPage("", True))

    def _words(self, prev, author, ev):
        return W.line([prev, (author, ev)] if prev else [(author, ev)],
                      self.runner.seat.player)

    # ---- caches, rebuilt when an event or a choice changes the seat -----------------------
    # Split in two: a function with many locals gets its frame from the heap under
    # MicroPython, so the per-frame check stays small and the rebuild runs only on a change.
    def refresh(self):
        s = self.runner.seat
        n = self._n
        if len(s.log) != n[0] or len(s.setup_choices) != n[1] or len(s.actions) != n[2]:
            self._rebuild(s)

    def _rebuild(self, s):
        a = len(s.log)
        mine_before = bool(self.acts)
        self._n = (a, len(s.setup_choices), len(s.actions))
        self.acts = []
        self.labels = []
        legal = s.setup_legal()
        if not legal:
            legal = s.legal()
            if legal and legal[0][_TAG] == _EV_SHUFFLE:
                # The victim shuffles blind: one choice, the order drawn here (rules §7).
                import os
                from fathom.prng import Prng
                legal = [legal[Prng(os.urandom(16), b"shuffle").below(len(legal))]]
        seen = []
        for act in legal:
            text = self._label(act)
            if not isinstance(act, list):
                twin = _LETTERS[act]
            else:
                twin = text + _LETTERS[act[_MOVE_DEST]] if act[_TAG] == _A_MOVE else text
            if twin in seen:
                continue  # cards 0 and 1 are twins: one entry for both
            seen.append(twin)
            self.acts.append(act)
            self.labels.append(text)
        me = s.priv[_SUB_AT]
        pick = self.acts and isinstance(self.acts[0], list) and self.acts[0][_TAG] in (
            _EV_SHUFFLE, _EV_DISABLE)
        if self.acts and not mine_before and me >= 0:
            # your turn: the cursor on your boat, or where nothing can be done on the boat's
            # square, on the nearest square where something can (OK there opens a menu)
            sq = me
            if isinstance(self.acts[0], list) and not pick and not self._acts_at(me):
                sq = self._nearest_with_actions(me)
            self.grid.cursor = B.cell(sq)
            # a turn that starts on an objective not yet reported asks first whether to report
            # it (most do: it is how the game is won), the cursor on Not now
            self.offer = None
            if not pick and not self.runner.meta.get("autoplay"):   # a person plays it
                for a in self.acts:
                    if isinstance(a, list) and a[_TAG] == _A_REPORT and self._hides(a):
                        self.offer = a
        elif not self.acts:
            self.offer = None
        if pick:
            self.mode = _PICKING
            self.row.set(len(self.acts))
        elif self.mode in (MENU, _PICKING):
            self.mode = BOARD
        self.foe = track.possible(s.pub, 1 - s.player)
        self.news()
        self.event = self.happened.newest()
        self.why = ""
        self._side(s)
        st = self._status()
        self.title_long = "PING " + st
        self.title_short = st[:1].upper() + st[1:]

    def _status(self):
        if self.acts and self.acts[-1] == [_EV_END]:
            return "may report"   # the action is done: report objective or end turn, on your boat
        return self.status()

    def _side(self, s):
        hand = s.priv[_HAND_CARDS]
        self.codes = [W.code(c) for c, _d in hand]
        self.dis = [d for _c, d in hand]
        rows = [W.card(c) for c, _d in hand]
        left, right = slots(s.pub, s.player)
        rows.append("TAKE " + slot_words(right, known_down(s, right)))
        rows.append("OBJ " + obj_names(s.priv[_DONE]))
        rows.append(_SEAT[1 - s.player] + " OBJ " + obj_names(s.pub[_REPORTED][1 - s.player]))
        self.obj_line = "OBJ %s %s %s" % (obj_names(s.priv[_DONE]), _SEAT[1 - s.player],
                                          obj_names(s.pub[_REPORTED][1 - s.player]))
        self.side = rows
        short = [W.card_short(c) for c, _d in hand]
        # the card you take next on two rows of the 7 columns at 72x40, as the hand's are
        # said ('1 LSTN', the help's short form), not a code of its own ('TK 1LST')
        short.append("TAKE")
        short.append(slot_short(right, known_down(s, right)))
        short.append("ME " + obj_names(s.priv[_DONE]))
        short.append(_SEAT[1 - s.player] + " " + obj_names(s.pub[_REPORTED][1 - s.player]))
        self.side_short = short

    def tick(self, now):
        st = self.app.stack
        top = st[-1] if st else None
        if top is self:
            self.asking = None    # answered: its screen is not kept
        changed = GameBase.tick(self, now)
        # asked in the step that brought the turn: nothing (a key, the ux bench's player)
        # sees the turn without its question
        if top is not self or st[-1] is not self:
            return changed
        self.refresh()
        a = self.offer
        if a is None or self.mode != BOARD:
            return changed
        self.offer = None
        s = self.runner.seat
        sq = s.priv[_SUB_AT]
        self.asked_n = s.n_actions
        self.why_report = "A report shows %s your submarine at %s." % (_SEAT[1 - s.player],
                                                                     _LETTERS[sq])
        from fathom.ui.confirm import ask
        # what came since your last move heads it, as the board's event line says it: the
        # question covers the board, and what the other player just did is what a report is
        # weighed against. It comes up by itself: keys typed for the board just before it (a
        # cursor moved while the other player's turn ran) do nothing to it for ASK_WAIT_MS.
        ask(self.app, "Report %s?" % _LETTERS[sq], self._report_words(), "Report",
            lambda app: self._play(a), "Not now", ASK_WAIT_MS, self._watch_report)
        self.asking = self.app.stack[-1]
        return True

    def _report_words(self):
        return self.news() + "\n" + self.why_report

    def _watch_report(self, q):
        """The turn's report question, while it is up: closed once the seat acted by other
        means or the game ended; what comes meanwhile (a card of yours taken and shown) added
        to its words, which the board's event line under it would have said."""
        r = self.runner
        if r.seat.n_actions != self.asked_n or r.result() is not None or r.desync is not None:
            self.app.pop()        # the board says what came instead
            return True
        before = self.happened.text
        if self.news() != before:
            q.page.set(self._report_words())
            return True
        return False

    # ---- drawing ---------------------------------------------------------------------------
    def draw(self, d):
        self.refresh()
        link = self.app.link_state
        if self.mode == _HELP_PAGE:
            draw_page(d, "PING help", link, self.page)
            return
        if self.mode == MENU:
            v = self.menu
            top_bar(d, self.menu_title, link, None, v.cursor + 1, v.count(), small=d.width < 128)
            v.draw(d, 0, CH, d.width, d.height - CH)
            return
        low = d.height >= _LOW    # room for the event line under the board
        if low and d.width < 128 and self.mode == BOARD:
            self._draw_narrow(d, link)
        else:
            # one font a size, whatever the status: 3x5 below 128 px; 8x8 at 128, "PING may
            # report" too long for it giving way to "May report"
            title = self.title_long
            if d.width < 128 or len(title) > title_room(d.width, link, _SEAT[self.runner.seat.player]):
                title = self.title_short
            top_bar(d, title, link, _SEAT[self.runner.seat.player], fit=True, small=d.width < 128)
            bh = d.height - CH - (TH if low else 0)
            if self.mode == _PICKING:
                self._draw_pick(d, bh)
            else:
                used = self.grid.draw(d, 0, CH, d.width, bh, self._cellfn)
                self._draw_side(d, used + 1, low)
        if low:
            if self.why:          # why OK did nothing, in the event's place
                put(d, self.why, 0, d.height - 5, (d.width + 1) // TW, 1, True)
            else:
                self.said.draw(d, 0, d.height - 5, d.width, 5)

    def _draw_narrow(self, d, link):
        """72x40: the map keeps all its rows (6 px each: 5 rows and the top bar and the event
        line do not fit in 40), so the bar is over the side strip only, as Periplus's on a
        short panel; the status heads the strip in words, the hand below it."""
        used = self.grid.draw(d, 0, 0, d.width, d.height - TH, self._cellfn)
        top_bar(d, "", link, _SEAT[self.runner.seat.player], x=used, w=d.width - used)
        x = used + 1
        st = self.status_page
        st.set(self.title_short)
        y = st.draw(d, x, CH + 1, d.width - x, 2 * TH - 1)
        self._rows(d, x, y, tiny_cols(d.width - x), d.height - TH)

    def _cell(self, d, cell, x, y, px):
        sq = B.at(cell)
        if sq < 0:
            return                # a reef
        ink = 1
        if sq == self.runner.seat.priv[_SUB_AT]:  # your submarine: only this unit knows it
            d.fill_rect(x, y, px, px - 1, 1)
            ink = 0
        if px >= 9:
            d.text(_LETTERS[sq], x + (px - 8) // 2, y + (px - 9) // 2, ink)
        else:
            tiny(d, _LETTERS[sq], x + max(0, (px - 1 - tiny_width(_LETTERS[sq])) // 2), y, ink)
        if self.foe >> sq & 1:    # the adversary may be here: a line under an 8x8 letter; in
            if px >= 9:           # 3x5, where a line under it would touch the next row's
                d.hline(x + 1, y + px - 1, px - 2, 1)   # letter, a low bar at the square's
            else:                 # right, a pixel clear of both letters beside it
                d.vline(x + px - 1, y + 2, 3, 1)

    def _draw_side(self, d, x, low):
        n = tiny_cols(d.width - x)
        if n < 3:
            return
        y = CH + 1
        bottom = d.height - (TH if low else 0)
        if not low:               # a 32-pixel panel: the event heads the strip, in two lines
            page = self.said
            if self.why:          # why OK did nothing, in the event's place
                page = self.why_page
                page.set(self.why)
            y = page.draw(d, x, y, d.width - x, 2 * TH - 1)
            xx = x
            for i in range(len(self.codes)):   # the hand on one row
                if xx + 4 * TW > d.width:
                    break
                tiny(d, self.codes[i], xx, y)
                if self.dis[i]:
                    d.hline(xx, y + 2, 4 * TW - 1, 1)
                xx += 5 * TW
            y += TH
            if y + TH - 1 <= bottom:
                put(d, self.obj_line, x, y, n, 1, True)
            return
        self._rows(d, x, y, n, bottom)

    def _rows(self, d, x, y, n, bottom):
        """The side strip's rows of words (in n columns) from y down to bottom."""
        rows = self.side if n >= 12 else self.side_short
        k = len(self.dis)
        for i in range(len(rows)):
            if y + TH - 1 > bottom:
                break
            put(d, rows[i], x, y, n, 1, True)
            if i < k and self.dis[i]:          # a disabled card: struck through
                d.hline(x, y + 2, min(n * TW - 1, tiny_width(rows[i])), 1)
            y += TH

    def _draw_pick(self, d, bh):
        shuffle = self.acts[0][_TAG] == _EV_SHUFFLE
        put(d, "HIT: OK SHUFFLES" if shuffle else "PICK 2 TO DISABLE", 0, CH + 2,
            d.width // TW, 1, True)
        self.row.draw(d, 0, CH + 2 + TH + 1, d.width, bh - TH - 3, self._pick_label)

    def _pick_label(self, i):
        return "OK" if self.acts[i][_TAG] == _EV_SHUFFLE else _PAIRS[i]

    # ---- keys ------------------------------------------------------------------------------
    def key(self, k):
        self.refresh()
        if k == "HELP":
            d = self.app.hw.display  # 3x5 below 128x64: see dialog.show_help
            self.page = TextPage(read_text(HELP_FILE), d.width < 128 or d.height < 64)
            self.back_to = self.mode
            self.mode = _HELP_PAGE
            return
        m = self.mode
        if m == _HELP_PAGE:
            if not self.page.key(k) and k in ("BACK", "OK"):
                self.page = None
                self.mode = self.back_to if self.back_to != _HELP_PAGE else BOARD
            return
        if m == MENU:
            if self.menu.key(k):
                return
            if k == "OK":
                self._choose(self.items[self.menu.cursor])
            elif k == "BACK":
                self.mode = BOARD
            return
        if k == "BACK":
            self.pause()
            return
        if m == _PICKING:
            if k == "OK":
                self._play(self.acts[self.row.cursor])
            else:
                self.row.key(k)
            return
        if self.grid.key(k, self._is_sq):
            self.why = ""
            self.moved = True
            return
        if k == "OK":
            self.open(B.at(self.grid.cursor))

    def open(self, sq):
        """OK on square sq: at set-up it is your start; in play, the menu of what can be done
        there (nothing opens where nothing can be done)."""
        if sq < 0 or not self.acts:
            # (each within the 18 characters of a 72x40 bottom line)
            self.why = "A reef." if sq < 0 else "Not your turn."
            return
        if not isinstance(self.acts[0], list):
            if self.moved:
                self._play(sq)
            else:   # an OK before any arrow: the start is chosen, not taken where it opened
                self._ask(sq, "Start at %s?" % _LETTERS[sq], "Your submarine starts at %s, "
                          "hidden from the other player." % _LETTERS[sq], "Choose again")
            return
        items = self.menu_at(sq)
        if not items:
            self.why = "No card reaches %s." % _LETTERS[sq]  # OK did nothing: say why
            return
        self.why = ""
        self.at = sq
        self.menu_title = "At " + _LETTERS[sq]
        self.items = items
        self.menu.set([self._label(a) for a in items])
        self.menu.cursor = 0
        self.mode = MENU

    def _label(self, a):
        return W.label(a, self.app.hw.display.width < 128)

    def _nearest_with_actions(self, me):
        best, far = me, 99
        mc = B.cell(me)
        for a in self.acts:
            for sq in W.squares_of(a, me):
                c = B.cell(sq)
                d = abs(c % B.COLS - mc % B.COLS) + abs(c // B.COLS - mc // B.COLS)
                if d < far:
                    best, far = sq, d
        return best

    def _acts_at(self, sq):
        """Whether any action is offered on square sq (menu_at's list not built: ordering it
        was a fifth of a partner's redraw after a move)."""
        me = self.runner.seat.priv[_SUB_AT]
        for a in self.acts:
            if sq in W.squares_of(a, me):
                return True
        return False

    def menu_at(self, sq):
        """The actions offered on square sq, in the menu's order."""
        me = self.runner.seat.priv[_SUB_AT]
        here = [a for a in self.acts if sq in W.squares_of(a, me)]
        out = []
        # a quiet move first (what a square other than yours is most often pointed at for),
        # then by rank in the engine's order (a stable sort), and what shows your square last
        # (a report; a shot that surfaces you is ranked after the move): the menu never
        # opens on a step that gives your square away
        for group in (0, 1, 2):
            for r in range(W.RANKS):
                for a in here:
                    if W.rank(a) == r and _group(a) == group:
                        out.append(a)
        return out

    def _choose(self, a):
        """OK on a menu's action: one that shows your square asks first."""
        if not self._hides(a):
            self._play(a)
            return
        sq = a[_MOVE_DEST] if a[_TAG] == _A_MOVE else self.runner.seat.priv[_SUB_AT]
        self._ask(a, "Report?", "The report shows the other player your submarine at %s."
                  % _LETTERS[sq], "Keep it hidden", "Report")

    def _hides(self, a):
        """The action shows the other player a square of yours still hidden: a report, but
        not the late one, whose turn waits only where your square is public already."""
        return _shows_square(a) and self.runner.seat.pub[_PHASE] != _LATE

    def _ask(self, a, title, text, safe, step=None):
        from fathom.ui.confirm import ask
        ask(self.app, title, text, step or title[:-1], lambda app: self._play(a), safe)

    def _play(self, a):
        r = self.runner
        if r.seat.setup_legal():
            r.setup_choose(a)
        else:
            r.play(a)
        self.mode = BOARD

    # ---- the ux bench's question: which keys author this action ----------------------------
    def keys_for(self, action):
        """The shortest list of keys that, pressed from here, authors `action` (a legal action
        of this seat, as a bot returns it; a twin card counts as its twin)."""
        self.refresh()
        want = self._label(action)
        pre = []
        mode = self.mode
        if mode == _HELP_PAGE:
            pre = ["BACK"]
            mode = self.back_to
        if mode == _PICKING:
            if self.acts[0][_TAG] == _EV_SHUFFLE:
                return pre + ["OK"]
            return pre + self.row.keys_to(self.labels.index(want)) + ["OK"]
        q = self.asking
        if q is not None and self.app.stack[-1] is q:   # the turn's report offered
            if _shows_square(action) and action[_TAG] == _A_REPORT:
                return q.keys_for("Report")
            pre = q.keys_for("Not now")
        ask = ["DOWN", "OK"] if self._hides(action) else []  # the question's step
        if mode == MENU:
            labels = [self._label(a) for a in self.items]
            if want in labels and self._same(action, self.at):
                return pre + self.menu.keys_to(labels.index(want)) + ["OK"] + ask
            pre = pre + ["BACK"]
        me = self.runner.seat.priv[_SUB_AT]
        g = self.grid
        if not isinstance(action, list):
            if g.cursor == B.cell(action) and not self.moved:
                return pre + ["OK", "DOWN", "OK"]   # the start, asked
            return pre + g.keys_to(B.cell(action), _is_square) + ["OK"]
        best = None
        for sq in W.squares_of(action, me):
            labels = [self._label(a) for a in self.menu_at(sq)]
            keys = g.keys_to(B.cell(sq), _is_square) + ["OK"] + steps(
                0, labels.index(want), len(labels)) + ["OK"] + ask
            if best is None or len(keys) < len(best):
                best = keys
        return pre + best

    def _same(self, action, sq):
        return sq in W.squares_of(action, self.runner.seat.priv[_SUB_AT])

    # ---- semantic text ---------------------------------------------------------------------
    def lines(self):
        self.refresh()
        s = self.runner.seat
        if self.mode == _HELP_PAGE:
            d = self.app.hw.display  # the box draw_page lays it out in (under the top bar)
            return ["PING help"] + ["# " + l for l in self.page.lines(d.width, d.height - CH)]
        me = s.priv[_SUB_AT]
        out = ["PING " + self._status(), "| " + self.event,
               "# you " + (_LETTERS[me] if me >= 0 else "-"),
               "# cursor " + _LETTERS[B.at(self.grid.cursor)],
               "# hand " + " ".join([("x" if self.dis[i] else "") + self.codes[i]
                                     for i in range(len(self.codes))]),
               "# take " + self.side[-3][5:],
               "# obj " + self.obj_line[4:],
               "# foe " + "".join([_LETTERS[q] for q in B.squares(self.foe)])]
        if self.why:
            out.append("# why " + self.why)
        if self.mode == MENU:
            out.append("# at " + _LETTERS[self.at])
            labels = self.menu.labels
            for i in range(len(labels)):
                out.append((">" if i == self.menu.cursor else " ") + labels[i])
        elif self.mode == _PICKING:
            for i in range(len(self.labels)):
                out.append((">" if i == self.row.cursor else " ") + self.labels[i])
        return out


_PAIRS = ("1+2", "1+3", "2+3")


def _group(a):
    """The menu's three parts: 0 a quiet move, 2 a report, 1 the rest."""
    if _shows_square(a):
        return 2
    return 0 if isinstance(a, list) and a[_TAG] == _A_MOVE else 1


def _shows_square(a):
    """A report (alone or after a move): it shows the other player your square."""
    return isinstance(a, list) and (a[_TAG] == _A_REPORT or a[_TAG] == _A_MOVE and
                                    a[_MOVE_REPORT])


def _is_square(cell):
    return B.at(cell) >= 0


def obj_names(mask):
    return "".join([_LETTERS[B.OBJECTIVES[i]] for i in range(5) if mask >> i & 1]) or "-"


def slots(pub, me):
    """(left, right): the play-area card I played (the adversary takes it) and the one I take,
    each [owner, card or -1 face down, mode or -1, utility hint] or None."""
    left = right = None
    for slot in (pub[_AREA], pub[_OUT]):
        if slot is None:
            continue
        owner = slot[_SLOT_OWNER]
        if owner == me:
            left = slot
        elif owner == 1 - me or (owner < 0 and me == 0):
            right = slot  # the dealt card sits on player 1's right
        elif owner < 0:
            left = slot
    return left, right


def known_down(seat, slot):
    """The card under my own face-down slot (or the dealt card player 1 will take), else -1."""
    if slot is None or slot[_SLOT_CARD] >= 0:
        return -1
    last = seat.priv[_LAST]
    if slot[_SLOT_OWNER] == seat.player and last is not None:
        return last[_LAST_CARD]
    if slot[_SLOT_OWNER] < 0 and seat.player == 0:
        return seat.priv[_INCOMING]
    return -1


def slot_words(slot, known):
    """A play-area card as the side strip says it: 'M2 PING', '?' face down, '? PING' when
    only its action is public."""
    if slot is None:
        return "-"
    if slot[_SLOT_CARD] >= 0:
        return W.card(slot[_SLOT_CARD])
    if known >= 0:
        return W.card(known)
    if slot[_SLOT_UTIL] >= 0:
        return "? " + W.util_short(slot[_SLOT_UTIL])
    return "?"


def slot_short(slot, known):
    """slot_words in at most 6 characters ('2 PING', the hand's form), for a narrow strip."""
    if slot is None:
        return "-"
    if slot[_SLOT_CARD] >= 0:
        return W.card_short(slot[_SLOT_CARD])
    if known >= 0:
        return W.card_short(known)
    if slot[_SLOT_UTIL] >= 0:
        return "? " + W.util_short(slot[_SLOT_UTIL])
    return "?"


def screen(app, runner):
    return PingScreen(app, runner)
