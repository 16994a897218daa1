# Periplus on the units: you point at the board. In the move phase the cursor jumps between
# your ships that can move (OK picks one), then between the squares it can reach (OK opens a
# short menu of the cards that take it there); in the fire phase it jumps between the enemy
# ships you can hit (OK: the cards and attackers that can). Pass and Halt close every menu.
# Set-up ships and discards are a row of cards; the defender answers from a two-line menu under
# the attack in words, with a countdown: nobody answering means "take the hit".
# The words (labels, the last event, what a square holds) come from say.py, rules-side.
from fathom.games import describe
from fathom.games.base import IllegalAction
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus import say as W
from fathom.games.periplus import fleet as F
from fathom.hal import clock
from fathom.ui.boardgrid import BoardGrid
from fathom.ui.cardrow import CardRow
from fathom.ui.dialog import show_help
from fathom.ui.font import CH, TH, put, tiny, tiny_adv
from fathom.ui.listview import ListView
from fathom.ui.gamebase import GameBase
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar
from fathom.compat import const

# The schema's names this module reads (the engine's, the fleet's, and base's): private
# copies that MicroPython folds into the code, so they cost no heap; a test holds each
# to its schema.
_TAG = const(0)
_DISCARD_CARD = const(1)
_EV_MOVE = const("move")
_MOVE_SHIP = const(2)
_EV_AHEAD = const("ahead")
_AHEAD_SHIP = const(2)
_EV_HALT = const("halt")
_EV_PASS = const("pass")
_EV_FIRE = const("fire")
_FIRE_TARGET = const(3)
_EV_TAKE = const("take")
_EV_DEFEND = const("defend")
_PHASE = const("phase")
_DECK = const("deck")
_DISCARDS = const("discard")
_PH_SETUP = const("setup")
_PH_DISCARD = const("discard")
_PH_MOVE = const("move")
_PH_AHEAD = const("ahead")
_PH_FIRE = const("fire")
_PH_DEFEND = const("defend")
_PH_OVER = const("over")
_HELD = const("hand")
_ROW = const("row")
_SHIPS = const("ships")
_ISLANDS = const("isl")
_QUINQ = const(3)
_NSHIPS = const(8)
_TYPE = const(0)
_SQUARE = const(1)
_LEFT = const(2)
_SHEARED = const(3)
_ISLE = const(255)      # in PeriplusScreen.occ: an island (a ship id + 1 is at most 16)

# Rows of the side panel the hand takes at most by name: what happened keeps the rest (a hand
# of five long names took four, and left it three); a longer hand goes in the help's codes.
HAND_ROWS = const(3)
# The defender's unit sends the default (take the hit) when nobody answers for this long,
ANSWER_TIMEOUT_MS = const(20000)
# or, where the prompt and the turn it ends take longer than that to turn round on the screen
# (a 72x40 panel turning a long turn: bench ux's reader had not seen its last event when the
# hit was taken), this long after they have gone round once, and never later than the most.
ANSWER_AFTER_READ_MS = const(8000)
ANSWER_MOST_MS = const(60000)
# No answer leaves before this, whatever the hand holds and however fast the thumb: an answer
# that came faster when there is no Defense card to play would tell the attacker so.
ANSWER_MIN_MS = const(1500)

# stages of one decision
_WAIT = const(0)     # nothing to choose
CARDS = const(1)     # a row of cards: set-up ship types, discards
PICK = const(2)      # board cursor on a first square (your ship; an enemy target)
AIM = const(3)       # board cursor on where the picked ship goes
MENU = const(4)      # the short list of what can be done at the square
_ANSWER = const(5)   # the defender's two answers

_HELP_FILE = const("games/periplus/help.txt")
LETTER = ("B", "T", "D", "Q")     # hull letters in the 3x5 font: Bi, Tr, quaDri, Qq
_PHASE_NAMES = {_PH_SETUP: "Set-up", _PH_DISCARD: "Discard", _PH_MOVE: "Move",
          _PH_AHEAD: "Fleet", _PH_FIRE: "Fire", _PH_DEFEND: "Defend", _PH_OVER: "Over"}
# What the player is asked, per phase and stage, in words short enough for a 72-px bar.
_ASK = {(_PH_MOVE, PICK): ("Ship?", "Move: ship?"), (_PH_MOVE, AIM): ("To?", "Move: to?"),
        (_PH_MOVE, MENU): ("Card?", "Move: card?"),
        (_PH_FIRE, PICK): ("Target?", "Fire: target?"),
        (_PH_FIRE, MENU): ("With?", "Fire: with?"),
        (_PH_AHEAD, PICK): ("Follow?", "Follow ahead?"),
        (_PH_AHEAD, MENU): ("Follow?", "Follow ahead?"),
        (_PH_DISCARD, CARDS): ("Discard", "Discard one"),
        (_PH_SETUP, CARDS): ("Place", "Place a ship")}
_KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


def screen(app, runner):
    return PeriplusScreen(app, runner)


class AnswerClock:
    """A service: times the defender's prompt, sends a queued answer no sooner than
    ANSWER_MIN_MS after the prompt appeared, and the engine's default at ANSWER_TIMEOUT_MS. It
    runs whichever screen is on top, so a paused game still answers."""

    def __init__(self, runner):
        self.runner = runner
        self.at = -1          # log length when the current prompt appeared
        self.since = 0
        self.now = 0
        self.queued = None
        self.read_ms = 0      # the prompt's words go round once in this long (read())

    def active(self):
        s = self.runner.seat
        return (s.result() is None and s.pub[_PHASE] == _PH_DEFEND
                and s.my_turn(acting=True))

    def queue(self, action):
        self.queued = action

    def read(self, ms):
        """The screen showing the prompt turns its words round once in `ms`."""
        self.read_ms = ms

    def limit_ms(self):
        """How long after the prompt appeared the default answer leaves."""
        return min(ANSWER_MOST_MS, max(ANSWER_TIMEOUT_MS, self.read_ms + ANSWER_AFTER_READ_MS))

    def left_s(self):
        ms = self.limit_ms() - clock.ticks_diff(self.now, self.since)
        return max(0, (ms + 999) // 1000)

    def tick(self, now):
        self.now = now
        if not self.active():
            self.at = -1
            self.queued = None
            return False
        n = len(self.runner.seat.log)
        if n != self.at:
            self.at = n
            self.since = now
            self.queued = None
            self.read_ms = 0
            return True
        waited = clock.ticks_diff(now, self.since)
        if self.queued is not None and waited >= ANSWER_MIN_MS:
            self._send(self.queued)
            return True
        if self.queued is None and waited >= self.limit_ms():
            s = self.runner.seat
            self._send(s.engine.default_action(s.pub, s.priv, s.player) or [_EV_TAKE])
            return True
        return False

    def _send(self, action):
        self.queued = None
        self.at = -1
        try:
            self.runner.play(action)
        except IllegalAction as e:
            self.runner.problem = "not sent: %s" % e


class Choices:
    """One decision's legal actions sorted by the squares that choose them: `first` maps a
    first square to its actions, or (move) to {goal square: actions}; `extra` closes every
    menu (Pass, Halt); `items` is a card row's choices."""

    def __init__(self, seat, acts):
        pub = seat.pub
        self.acts = acts
        self.first = {}
        self.extra = []
        self.items = []
        self.two = False
        ph = pub[_PHASE]
        if seat.setup_legal():
            self.stage = CARDS
            self.items = acts
            return
        if not acts:
            self.stage = _WAIT
            return
        if ph == _PH_DISCARD:
            self.stage = CARDS
            self.items = acts
            return
        if ph == _PH_DEFEND:
            self.stage = _ANSWER
            self.items = acts[1:] + acts[:1]   # the Defense card first: OK = yes, negate it
            return
        self.two = ph == _PH_MOVE
        for a in acts:
            tag = a[_TAG]
            if tag == _EV_PASS or tag == _EV_HALT:
                self.extra.append(a)
                continue
            s, t = W.squares(pub, seat.player, (), a)
            if tag == _EV_FIRE:
                s = t                     # aim first: the target is the square you point at
            if self.two:
                goals = self.first.setdefault(s, {})
                goals.setdefault(t, []).append(a)
            else:
                self.first.setdefault(s, []).append(a)
        self.stage = PICK if self.first else MENU


class PeriplusScreen(GameBase):
    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        s = runner.seat
        self.me = s.player
        self.answer = AnswerClock(runner)
        runner.services.append(self.answer)
        app.services.append(self.answer)
        # your back row at the bottom: the board turned round for player 2
        self.grid = BoardGrid(8, 8, 0, self.me == 0, True, 6, 7, "ABCDEFGH", self.me != 0)
        self.row = CardRow(0, 0, 3)
        # the card's words in 3x5, as the side panel's others: "Quinquereme, 5 hits: goes to
        # h1" whole in two rows of a 72-px panel, where 8x8 showed "Goes to" cut
        self.row.page.small = True
        # 3x5 where 8x8 labels would be cut; a row longer still wraps ("Reinforced Ram b4" in a
        # side panel), never "Reinforced Ram ~"
        self.view = ListView(fixed=True, fit=True, whole=True)
        self.page = TextPage()    # the defender's prompt
        # what happened, in the 3x5 font wherever it shows: the side panel holds 8 columns of
        # 8x8, too few for "Quinquereme" or "Parablemata" whole (and one line a page)
        self.news_page = TextPage("", True)
        self.hand_page = TextPage("", True)  # your hand by name, at the panel's foot
        self.hand_named = True
        self.ck = 0               # counts decisions (tick() redraws when it moves on)
        self.ck_log = self.ck_setup = -1
        self.ck_q = True
        self.ch = None
        self.stage = _WAIT
        self.cur = -1             # board square under the cursor
        self.sel = -1             # the ship picked in the move phase
        self.last_ship = -1       # ship id last moved, target id last fired at: where to start
        self.last_target = -1
        self.shown_s = -1
        self.last_news = ""       # the newest line of what happened
        self.where = ""           # the cursor square in words (drawn every frame: cached)
        self.where_t = ""         # the same for the 3x5 font
        self.who = self.who2 = ""  # whose ship is there, by name (and its oars), in 3x5
        self.labels = []          # the open menu's or row's words
        self.menu_acts = []
        self.status_text = ""
        self.hi_a = self.hi_b = -1
        self.occ = bytearray(64)  # square -> ship id + 1 or _ISLE, refilled per frame (no
                                  # allocation): a square's glyph found in one lookup
        self._row_at = -1         # per frame: the square of the set-up row's first ship (-1:
        self._aim = ()            # no row drawn), and the aimed ship's first squares
        self.bar = ""
        self.wide = False         # the last panel drawn was 128 wide: longer words in the bar
        self._lay = None
        # bound once: a bound method made during a redraw is an allocation
        self.cell_fn = self._draw_cell
        self.label_fn = self._card_label
        self.text_fn = self._card_text
        # what happened since your last move, newest first (ui/happened.py)
        self.hear(self._words, W.news(s.pub, [], self.me), self.news_page)
        self.refresh()

    def _words(self, prev, author, ev):
        return W.news(self.runner.seat.pub, [prev, (author, ev)] if prev else [(author, ev)],
                      self.me)

    # ---- the decision and its stages ------------------------------------------------------
    def refresh(self):
        """Rebuilds the choices when the decision changed (a new event, a set-up step)."""
        s = self.runner.seat
        # three plain compares, not a tuple: this runs on every redraw, which allocates nothing
        n = len(s.log)
        m = len(s.setup_choices)
        q = self.answer.queued is None
        if self.ch is not None and n == self.ck_log and m == self.ck_setup and q == self.ck_q:
            return self.ch
        self.ck_log = n
        self.ck_setup = m
        self.ck_q = q
        self.ck += 1
        if s.log:
            a, e = s.log[-1]
            tag = e[_TAG]
            if a == self.me and tag == _EV_MOVE:
                self.last_ship = e[_MOVE_SHIP]
            elif a == self.me and tag == _EV_AHEAD:
                self.last_ship = e[_AHEAD_SHIP]
            elif a == self.me and tag == _EV_FIRE:
                self.last_target = e[_FIRE_TARGET]
        self.news()
        self.last_news = self.happened.newest()
        self.hand_page.set("Hand: " + ", ".join([C.name(k) for k in s.priv[_HELD]]))
        self.hand_named = True    # by name until the panel finds it longer than HAND_ROWS
        acts = [] if self.answer.queued is not None else (s.setup_legal() or s.legal())
        self.ch = Choices(s, acts)
        self._enter(self.ch.stage)
        self.status_text = self._status()
        self._retitle()
        return self.ch

    def _enter(self, stage):
        ch = self.ch
        self.stage = stage
        if stage == CARDS:
            self.row.set(len(ch.items))
            self.row.cursor = 0
            self.labels = [self._card_code(x) for x in ch.items]
        elif stage == PICK:
            self.sel = -1
            self.cur = self._start()
        elif stage == AIM:
            goals = ch.first[self.sel]
            self.cur = self._start_goal(self.sel, goals)
        elif stage in (MENU, _ANSWER):
            self.menu_acts = self._menu_of(stage, self.cur, self.sel)
            pub = self.runner.seat.pub
            self.labels = [self._menu_word(pub, a) for a in self.menu_acts]
            self.view.set(self.labels)
            self.view.cursor = 0
        self._where()

    def _menu_word(self, pub, a):
        if self.stage == _ANSWER:
            return "Negate" if a[_TAG] == _EV_DEFEND else "Take hit"
        return W.choice(pub, a)

    def _card_code(self, x):
        if isinstance(x, list):
            return W.CODE[x[_DISCARD_CARD]]
        return F.SHIP_ABBR[x]

    def _start(self):
        """The first square the cursor rests on: the ship you moved last, the ship you fired
        at last, the enemy Quinquereme, else the first in the rules' order."""
        pub = self.runner.seat.pub
        first = self.ch.first
        for sid in (self.last_target, self.last_ship):
            if sid >= 0 and pub[_SHIPS][sid][_SQUARE] in first:
                return pub[_SHIPS][sid][_SQUARE]
        foe = (1 - self.me) * _NSHIPS
        for sid in range(foe, foe + _NSHIPS):
            if pub[_SHIPS][sid][_TYPE] == _QUINQ and pub[_SHIPS][sid][_SQUARE] in first:
                return pub[_SHIPS][sid][_SQUARE]
        for a in self.ch.acts:
            s, t = W.squares(pub, self.me, (), a)
            if s in first:
                return s
            if t in first:
                return t
        return -1

    def _start_goal(self, sq, goals):
        """The goal furthest toward the enemy, straight ahead first."""
        grid = self.grid
        x0 = grid.screen_col(sq)
        y0 = grid.screen_row(sq)
        best = -1
        bv = -999
        for g in goals:
            v = 4 * (y0 - grid.screen_row(g)) - abs(grid.screen_col(g) - x0)
            if v > bv:
                bv = v
                best = g
        return best

    def _where(self):
        """The cursor square in words: the square and hits left in 8x8 ("c3 2/3"), whose ship
        it is by name under it in 3x5 ("FOE TRIREME", then "OARS SHEARED"), where a wide
        side panel has the room; in 8 characters of the 3x5 font on a narrow one, the ship by
        its board letter ("C3 T2/3", the one the help's first lines teach)."""
        sq = self.cur
        self.where = self.where_t = self.who = self.who2 = ""
        self._mark()
        if self.stage not in (PICK, AIM, MENU) or sq < 0:
            return
        pub = self.runner.seat.pub
        for sid in range(2 * _NSHIPS):
            sh = pub[_SHIPS][sid]
            if sh[_SQUARE] == sq:
                hp = "%d/%d" % (sh[_LEFT], F.HITS[sh[_TYPE]])
                self.where = "%s %s" % (B.sq_name(sq), hp)
                self.who = "%s %s" % ("your" if sid // _NSHIPS == self.me else "foe",
                                      F.SHIP_NAMES[sh[_TYPE]])
                self.who2 = "oars sheared" if sh[_SHEARED] else ""
                self.where_t = "%s %s%s" % (B.sq_name(sq), F.SHIP_ABBR[sh[_TYPE]], hp)
                return
        self.where = self.where_t = B.sq_name(sq) + (" isle" if sq in pub[_ISLANDS] else "")

    def _status(self):
        r = self.runner
        s = r.seat
        if r.gone():
            return "partner gone"
        if r.problem:
            return r.problem
        if self.answer.active():
            if self.answer.queued is not None:
                return "answering: " + W.label(s.pub, self.me, (), self.answer.queued)
            return "defend: take hit in %ds" % self.answer.left_s()
        if s.setup_legal():
            return "set-up"
        who = r.waiting_for()
        if who is None:
            return "waiting"
        if who == self.me:
            return _PHASE_NAMES.get(s.pub[_PHASE], "").lower()
        return "wait for P%d" % (who + 1)

    def status(self):
        self.refresh()
        return self.status_text

    def _retitle(self):
        """The bar's words: the question of this stage, or the status when there is none."""
        s = self.runner.seat
        ph = _PH_SETUP if s.setup_legal() else s.pub[_PHASE]
        ask = _ASK.get((ph, self.stage))
        if ask is None or self.runner.problem:
            self.bar = self.status_text
            if not self.wide and self.bar.startswith("wait for "):
                # 'P2 plays': whole in a 72-px bar; the side panel's own bar beside the board
                # (a 40-px panel) has 24 px after the link icon: 'P2 up' ("P2 pla~" before)
                lay = self._lay
                narrow = lay is not None and lay[2] == 0 and lay[5] - 9 < tiny_adv("P2 plays")
                self.bar = self.bar[9:] + (" up" if narrow else " plays")
        else:
            self.bar = ask[1] if self.wide else ask[0]

    # ---- keys -----------------------------------------------------------------------------
    def _state(self):
        return (self.stage, self.cur, self.sel, self._pos())

    def _pos(self):
        if self.stage == CARDS:
            return self.row.cursor
        if self.stage in (MENU, _ANSWER):
            return self.view.cursor
        return 0

    def step(self, st, k):
        """Where key k leads from UI state st = (stage, cursor square, picked ship, list
        position): a new state, ("play", action), ("pause",) or None (no effect). Pure: key()
        and keys_for() both walk it."""
        stage, cur, sel, pos = st
        ch = self.ch
        if k == "BACK":
            if stage == AIM:
                return (PICK, sel, -1, 0)
            if stage == MENU and ch.first:
                return (AIM, cur, sel, 0) if ch.two else (PICK, cur, -1, 0)
            return ("pause",)
        if stage == CARDS:
            n = len(ch.items)
            if k in ("LEFT", "RIGHT"):
                return (stage, cur, sel, (pos + (1 if k == "RIGHT" else -1)) % n)
            if k == "OK":
                return ("play", ch.items[pos])
            return None
        if stage in (MENU, _ANSWER):
            acts = self._menu_of(stage, cur, sel)
            n = len(acts)
            if k in ("UP", "DOWN"):
                return (stage, cur, sel, (pos + (1 if k == "DOWN" else -1)) % n)
            if k == "OK":
                return ("play", acts[pos])
            return None
        if stage == PICK:
            if k == "OK":
                if ch.two:
                    return (AIM, self._start_goal(cur, ch.first[cur]), cur, 0)
                return (MENU, cur, -1, 0)
            return (stage, self._toward(cur, k, ch.first), sel, 0)
        if stage == AIM:
            goals = ch.first[sel]
            if k == "OK":
                return (MENU, cur, sel, 0)
            return (stage, self._toward(cur, k, goals), sel, 0)
        return None

    def _toward(self, cur, k, cells):
        """The square an arrow lands on among `cells`: the nearest lying that way on screen,
        straight lines first; cur when none does."""
        return self.grid.move(cur, k, lambda c: c in cells, True)

    def _menu_of(self, stage, cur, sel):
        ch = self.ch
        if stage == _ANSWER:
            return ch.items
        if not ch.first:
            return ch.extra
        if ch.two:
            return ch.first[sel][cur] + ch.extra
        return ch.first[cur] + ch.extra

    def key(self, k):
        if k == "HELP":
            self.help()
            return
        ch = self.refresh()
        if ch.stage == _WAIT:
            if k == "BACK":
                self.pause()
            return
        if self.stage == CARDS and k in ("UP", "DOWN"):
            self.row.key(k)            # the card's words scroll
            return
        got = self.step(self._state(), k)
        if got is None:
            return
        if got[0] == "pause":
            self.pause()
        elif got[0] == "play":
            self._author(got[1])
        else:
            stage, cur, sel, pos = got
            same = stage == self.stage
            self.cur = cur
            self.sel = sel
            if not same:
                self.stage = stage
                if stage in (MENU, _ANSWER):
                    self._enter(stage)
            if stage == CARDS:
                self.row.cursor = pos
            elif stage in (MENU, _ANSWER):
                self.view.cursor = pos
            self._where()
            self._retitle()

    def _author(self, a):
        s = self.runner.seat
        try:
            if s.setup_legal():
                self.runner.setup_choose(a)
            elif s.pub[_PHASE] == _PH_DEFEND:
                self.answer.queue(a)
            else:
                self.runner.play(a)
        except IllegalAction as e:
            self.runner.problem = "refused: %s" % e
        self.refresh()

    def keys_for(self, action):
        """The fewest keys that, pressed now, author `action` (a legal action, or a set-up
        ship type); None when no key sequence does."""
        ch = self.refresh()
        if ch.stage == _WAIT:
            return None
        from fathom.ui.keysearch import shortest

        def step(st, k):
            got = self.step(st, k)
            if got is None or got[0] == "pause" or got[0] == "play" and got[1] != action:
                return None        # a dead end: nothing follows a pause or another action
            return got

        return shortest(self._state(), _KEYS, step, lambda st: st[0] == "play")

    def help(self):
        show_help(self.app, "Periplus help", _HELP_FILE)

    def tick(self, now):
        if GameBase.tick(self, now):
            return True
        old = self.ck
        self.refresh()
        if self.ck != old:
            return True
        if self.answer.active():
            left = self.answer.left_s()
            if left != self.shown_s:
                self.shown_s = left
                self.status_text = self._status()
                self._retitle()
                return True
        return False

    # ---- semantic text --------------------------------------------------------------------
    def lines(self):
        s = self.runner.seat
        pub = s.pub
        self.refresh()
        out = [self.title + " P%d %s" % (self.me + 1, self._status()), "= " + self.last_news]
        for a, e in s.log[-3:]:
            out.append("| " + describe(self.eng, s, a, e))
        if self.stage == _ANSWER:
            out.append("! " + W.prompt(pub, s.priv[_HELD], self.me))
        out.append("# you " + W.fleet_words(pub, self.me))
        out.append("# foe " + W.fleet_words(pub, 1 - self.me))
        out.append("# hand " + ", ".join(C.name(k) for k in s.priv[_HELD]))
        out.append("# discard %d, deck %d" % (len(pub[_DISCARDS]), pub[_DECK]))
        if self.stage in (PICK, AIM, MENU) and self.cur >= 0:
            out.append("@ " + " ".join([x for x in (self.where, self.who, self.who2) if x]))
        # Choice lines (">" the one OK takes): the open menu's, else the one thing under the
        # cursor, so a driver that reads choices and presses OK always moves the game on.
        if self.stage == CARDS:
            out.append("cards: " + " ".join(
                ("[%s]" if i == self.row.cursor else "%s") % self.labels[i]
                for i in range(len(self.labels))))
            out.append("~ " + self._card_text(self.row.cursor))
            out.append(">" + self.labels[self.row.cursor])
        elif self.stage in (PICK, AIM):
            out.append(">" + self.where)
        elif self.stage in (MENU, _ANSWER):
            for i in range(len(self.labels)):
                out.append((">" if i == self.view.cursor else " ") + self.labels[i])
        return out

    def said_page(self):
        """The page that shows what happened: the prompt's while an attack waits for you."""
        return self.page if self.stage == _ANSWER else self.news_page

    def _card_text(self, i):
        x = self.ch.items[i]
        if isinstance(x, list):
            return W.card_words(x[_DISCARD_CARD])
        row = self.runner.seat.priv[_ROW]
        return "%s, %d hits: goes to %s" % (F.SHIP_NAMES[x], F.HITS[x],
                                            B.sq_name(W.next_square(self.me, row)))

    # ---- drawing --------------------------------------------------------------------------
    def layout(self, d):
        """(top, board w, side x, side w, 8x8 side text) for this panel, once per size."""
        w = d.width
        h = d.height
        if self._lay is None or self._lay[0] != w or self._lay[1] != h:
            # below 64 px the board keeps every row (6 of 8 at 72x40, not 5) and the bar
            # covers the side panel only
            top = CH if h >= 64 else 0
            bw = 58 if (w >= 128 and h >= 64) else (50 if w >= 128 else 38)
            sx = self.grid.layout(0, top, bw, h - top) + 1
            self._lay = (w, h, top, bw, sx, w - sx, w - sx >= 72)
            self.wide = w >= 128 and top > 0
            self._retitle()
        return self._lay

    def draw(self, d):
        self.refresh()
        _w, h, top, bw, sx, sw, big = self.layout(d)
        if self.stage == _ANSWER or (self.answer.queued is not None):
            self.draw_answer(d)
            return
        right = "P1" if self.me == 0 else "P2"
        alone = (self.stage == CARDS or self.stage == MENU) and not big  # no board drawn
        if top or alone:
            top_bar(d, self.bar, self.app.link_state, right, fit=True, small=not self.wide)
        else:   # a short panel keeps every row for the board: a bar over the side panel only,
            # all of it for the question ("Target?", not "Targ~"; the side says whose ships)
            top_bar(d, self.bar, self.app.link_state, None, 0, 0, sx, sw, True, True)
        if alone:                 # no side panel: what happened over the cards or menu
            if self.stage == CARDS:
                # two rows: the other side's turn is read here, at the discard that starts
                # yours (the card's text keeps its rows under the 3x5 card labels); one at
                # the set-up, where nothing happened yet and the ship's words take two
                n = 1 if self.runner.seat.setup_legal() else 2
                self.news_page.draw(d, 0, CH + 1, d.width, n * TH - 1)
                self.row.draw(d, 0, CH + n * TH + 1, d.width, h - CH - n * TH - 1,
                              self.label_fn, self.text_fn)
            else:
                self.news_page.draw(d, 0, CH + 1, d.width, TH - 1)
                self.view.draw(d, 0, CH + TH, d.width, h - CH - TH)
            return
        self.grid.cursor = self.cur if self.cur >= 0 else 0
        occ = self.occ
        s = self.runner.seat
        pub = s.pub
        ships = pub[_SHIPS]
        for i in range(64):
            occ[i] = 0
        for sid in range(2 * _NSHIPS):
            if ships[sid][_SQUARE] >= 0:
                occ[ships[sid][_SQUARE]] = sid + 1
        for sq in pub[_ISLANDS]:
            occ[sq] = _ISLE           # (over a ship: an island's cross is what shows)
        # what every square asked of the state, asked once a frame (64 squares' questions
        # were a third of a partner's redraw)
        self._row_at = B.back_row(self.me) * 8 if pub[_PHASE] == _PH_SETUP and \
            self.me not in s.setups else -1
        self._aim = self.ch.first[self.sel] if self.stage == AIM else ()
        self.grid.draw(d, 0, top, bw, h - top, self.cell_fn,
                       self.stage in (PICK, AIM, MENU) and self.cur >= 0)
        y = top if top else CH
        if self.stage == CARDS:
            # the cards and two rows of the card's words; what happened below them, every row
            # left (one row turned through a turn told by name for longer than the panel
            # stays lit, and a key then only woke it)
            yn = y + 1 + self.row.size(sw - 1)[1] + 2 + 2 * TH
            if yn < h:   # a 32-row panel has no room below them
                self.news_page.draw(d, sx + 1, yn + 1, sw - 1, h - yn - 1)
                h = yn
        elif self.stage == MENU:
            # what happened, one row at the side panel's foot (turned when longer)
            self.news_page.draw(d, sx + 1, h - TH + 1, sw - 1, TH - 1)
            h -= TH
        if self.stage == CARDS:
            self.row.draw(d, sx + 1, y + 1, sw - 1, h - y - 1, self.label_fn, self.text_fn)
            return
        if self.stage == MENU:
            y = self._draw_where(d, sx, y)
            self.view.draw(d, sx, y, sw, h - y)
            return
        if big:
            y = self._draw_where(d, sx, y)
            yh = h
            if h >= 64:                    # room for the hand, by name, at the foot
                # laid out for the whole panel's height (one wrap per width), drawn from
                # where its last line ends at the foot
                n = len(self.hand_page.lines(sw - 1, h))
                if n > HAND_ROWS and self.hand_named:   # no room for the names: the codes
                    self.hand_named = False
                    self.hand_page.set("Hand " + " ".join(
                        [W.CODE[k] for k in self.runner.seat.priv[_HELD]]))
                    n = len(self.hand_page.lines(sw - 1, h))
                yh = h - n * TH
                self.hand_page.draw(d, sx + 1, yh + 1, sw - 1, h)
            self.news_page.draw(d, sx + 1, y + 1, sw - 1, yh - y - 1)
        else:
            if self.where_t:
                tiny(d, self.where_t, sx + 1, y + 1)
                y += TH + 1
            self.news_page.draw(d, sx + 1, y, sw - 1, h - y)

    def _draw_where(self, d, x, y):
        """The cursor square (8x8) and whose ship is there by name (3x5); the y under them."""
        if self.where:
            put(d, self.where, x, y, (d.width - x) // CH)
            y += CH
        if self.who:
            tiny(d, self.who, x + 1, y)
            y += TH
        if self.who2:
            tiny(d, self.who2, x + 1, y)
            y += TH
        return y

    def _card_label(self, i):
        return self.labels[i]

    def _draw_cell(self, d, sq, x, y, px):
        """One square, from what draw() worked out for the frame (occ, _row_at, _aim)."""
        sz = px - 1
        o = self.occ[sq]
        if o == _ISLE:
            d.line(x, y, x + sz - 1, y + sz - 1, 1)
            d.line(x, y + sz - 1, x + sz - 1, y, 1)
            return
        if o:
            sid = o - 1
            sh = self.runner.seat.pub[_SHIPS][sid]
            _ship(d, x, y, sz, sh[_TYPE], sh[_LEFT], sh[_SHEARED], sid // _NSHIPS == self.me, 1)
            return
        if self._row_at >= 0:
            row = self.runner.seat.priv[_ROW]
            i = sq - self._row_at
            if 0 <= i < len(row):
                _ship(d, x, y, sz, row[i], F.HITS[row[i]], 0, True, 1)
                return
            if self.stage == CARDS and i == len(row):
                t = self.ch.items[self.row.cursor]
                _ship(d, x, y, sz, t, F.HITS[t], 0, True, 1)
                return
        if sq == self.hi_a or sq == self.hi_b or sq in self._aim:
            d.rect(x + sz // 2 - 1, y + sz // 2 - 1, 3, 3, 1)
        else:
            d.pixel(x + sz // 2, y + sz // 2, 1)

    def _mark(self):
        """The squares marked at their corners, worked out once per state, not per square
        drawn: the picked ship, the highlighted menu choice's two squares, the next set-up
        square."""
        st = self.stage
        s = self.runner.seat
        self.hi_a = self.hi_b = -1
        if st == AIM:
            self.hi_a = self.sel
        elif st == MENU and self.menu_acts:
            self.hi_a, self.hi_b = W.squares(s.pub, self.me, (), self.menu_acts[
                min(self.view.cursor, len(self.menu_acts) - 1)])
        elif st == CARDS and s.setup_legal():
            self.hi_a = W.next_square(self.me, s.priv[_ROW])
        # the grid marks them at their corners, in the gap round the square: glyphs stay
        self.grid.marks = (self.hi_a, self.hi_b)

    def draw_answer(self, d):
        s = self.runner.seat
        h = d.height
        right = "P1" if self.me == 0 else "P2"
        q = self.answer.queued
        if q is not None:      # answered: it leaves once the minimum time is up
            top_bar(d, "Answered", self.app.link_state, right, fit=True, small=not self.wide)
            d.fill_rect(0, h - CH, d.width, CH, 1)
            put(d, "Negate" if q[_TAG] == _EV_DEFEND else "Take the hit", 0, h - CH,
                d.width // CH, 0)
            return
        n = len(self.labels)
        y = h - n * CH
        # the prompt, then what else happened since your last move (turned when longer); on a
        # short panel in the 3x5 font: two rows of 9 characters went round too slowly to be
        # read before the default answer
        self.page.set(W.prompt(s.pub, s.priv[_HELD], self.me) + "\n" + self.happened.text)
        self.page.small = h < 64
        y0 = CH + 1 if self.page.small else CH
        self.page.draw(d, 0, y0, d.width, y - y0)
        self.answer.read(self.page.round_ms())   # wrapped for this box by the draw
        left = self.answer.left_s()
        top_bar(d, "Hit in %ds" % left, self.app.link_state, right, fit=True,
                small=not self.wide)
        # the time left, also as a line along the title bar's foot that shrinks to the left
        d.hline(d.width * left // (self.answer.limit_ms() // 1000), CH - 1, d.width, 0)
        self.view.draw(d, 0, y, d.width, n * CH)


def _ship(d, x, y, sz, t, left, sheared, own, c):
    """A ship: its hull letter (B T D Q) and a bar as tall as its hit points left; yours
    inverted. A ship whose oars are sheared has a broken bar."""
    if sz < 5:                                  # too small for a letter: filled or hollow
        if own:
            d.fill_rect(x, y, sz, sz, c)
        else:
            d.rect(x, y, sz, sz, c)
        return
    ink = c
    if own:
        d.fill_rect(x, y, sz, sz, c)
        ink = 1 - c
    oy = y + (sz - 5) // 2
    tiny(d, LETTER[t], x + (0 if own else 0), oy, ink)
    bx = x + sz - 1
    for i in range(min(left, sz)):
        if not sheared or i % 2 == 0:
            d.pixel(bx, y + sz - 1 - i, ink)
