# Pinned Down on the unit: fleets and cards, no board. The main page says what just happened
# and how the game stands (or how the highlighted choice's fight would go, or the ship it
# touches), over a short list of choices grouped by what they are about: a card in the hand or
# a ship with several uses is one item, and OK on it opens a menu of just those uses. LEFT and
# RIGHT turn to the pages: the hand as a row of cards with each card's text scrolling below,
# every fleet, and the table (the fights as they stand, or the jump options). A long BACK
# (HELP) opens the help page. Words and forecasts come from say.py (the engine side); this
# module only lays them out with the widget kit.
from fathom.compat import const
from fathom.games import describe
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import say
from fathom.ui.cardrow import CardRow
from fathom.ui.dialog import draw_page, show_help
from fathom.ui.font import CH, TH, put, tiny_cols, tiny_len
from fathom.ui.listview import ListView, steps
from fathom.ui.gamebase import GameBase
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_PLAYER_COUNT = const("n")
_AFFILIATIONS = const("aff")
_PHASE = const("ph")
_TURN = const("turn")
_LOCATIONS = const("locs")
_JUMP_OPTIONS = const("lopts")
_PROPOSED = const("prop")
_FOES = const("foes")
_TABLE = const("tbl")
_SHIPS = const("ships")
_LAST_FIGHT = const("last")
_HAND_SIZES = const("hs")
_DECK_SIZES = const("dn")
_DESTROYED = const("dest")
_SHOWN = const("shown")
_PHASE_JUMP = const("jump")
_PHASE_JUMP_CONFIRM = const("jconf")
_HAND = const("hand")
_SHIP_OWNER = const(0)
_SHIP_CARD = const(1)
_SHIP_DAMAGE = const(2)
_SHIP_ABOARD = const(3)
_SHIP_ALIVE = const(4)
_ABOARD_OWNER = const(0)
_ABOARD_CARD = const(1)
_FOE_CARD = const(0)
_FOE_BEATEN = const(1)
_FIGHT_SHIPS = const(0)
_FIGHT_FOES = const(1)
_TOKEN_CARD = const(0)
_TOKEN_COUNT = const(1)
_SHOWN_TURN = const(0)
_SHOWN_CARDS = const(1)
_PLAY_CARD = const(1)
_PLAY_TARGET = const(2)
_TAG = const(0)


MAIN = const(0)
HAND = const(1)
FLEET = const(2)
TABLE = const(3)
_PAGES = const(4)
_PAGE_NAMES = ("", "hand", "fleets", "table")
_HELP_FILE = const("games/pinned_down/help.txt")
_ENDS = ("ready", "pass")     # the choices that end this player's part of a phase
# an item of the choice list: [label, [indices of its choices in the legal list]]
_LABEL = const(0)
_CHOICES = const(1)


def _home(pub, acts, item):
    """Where in item's choices a captain goes aboard his own ship (the rules reward it), or -1."""
    ch = item[_CHOICES]
    for n in range(len(ch)):
        a = acts[ch[n]]
        if isinstance(a, list) and a[_TAG] == "play" and len(a) > 2 and \
                isinstance(a[_PLAY_TARGET], int):
            cap = C.captain_of(a[_PLAY_CARD])
            if cap is not None and 0 <= a[_PLAY_TARGET] < len(pub[_SHIPS]) and \
                    pub[_SHIPS][a[_PLAY_TARGET]][_SHIP_CARD] == cap:
                return n
    return -1


def _called_power(acts, j):
    """The power of the ship choice j calls into play (Call to Arms), else 0."""
    a = acts[j]
    if isinstance(a, list) and a[_TAG] == "play" and len(a) > 2 and \
            isinstance(a[_PLAY_TARGET], str) and C.get(a[_PLAY_TARGET])[C.TYPE] == C.SHIP:
        return C.get(a[_PLAY_TARGET])[C.POWER]
    return 0


def _rank(acts, item):
    """Where a play goes in the list, after a captain going home: the strongest first (the
    power the card adds; a card that calls a ship, that ship's), then ships, which raise the
    threat most, the most power for their threat first; every other choice after the plays,
    in the rules' order."""
    a = acts[item[_CHOICES][0]]
    if not (isinstance(a, list) and a[_TAG] == "play"):
        return 10000
    c = C.get(a[_PLAY_CARD])
    if c[C.TYPE] == C.SHIP:
        return 1000 - c[C.POWER] * 100 // max(1, c[C.THREAT])
    return -max([_called_power(acts, j) for j in item[_CHOICES]] + [c[C.POWER]])


def _ends(acts, item):
    a = acts[item[_CHOICES][0]]
    return isinstance(a, list) and a[_TAG] in _ENDS


class PinnedDownScreen(GameBase):
    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        self.page = MAIN
        self.view = ListView(fixed=True, fit=True, whole=True)  # the items: single choices and groups
        self.sub = None              # the open group's menu (a ListView), or None
        self.sub_of = -1             # the item the menu belongs to
        self.row = CardRow(0, 0, 3)  # the hand page
        self.text = TextPage()       # the fleet and table pages
        self._nl = self._ns = self._na = -1  # the state everything below was built for
        self._key = 0                # counts the builds: the pages' cache key
        self._acts = []              # the legal choices
        self._setup = False          # they are set-up choices (labelled by setup_label)
        self._items = []             # [label, [choice indices]]
        self._news = ""
        self._stat = ""               # distance, threat, place: in full, and for a 3x5 line
        self._tstat = ""
        self._doc = ""
        self._brief = ""
        self._fc = []                # the second line per choice, built once per event (None:
                                     # not yet, until the event's first frame has shown)
        self._fc_none = None         # ... and for a group's item (no one choice highlighted)
        self._fc_one = None          # (choice, its line) for that first frame
        self._shown = -1             # the _key of the choices the last frame drew
        self._hand = []              # the hand page: card ids, short labels, full texts
        self._short = []
        self._texts = []
        self._dk = None
        self._me = "P%d" % (runner.seat.player + 1)
        # what happened since your last move, newest first, on the news line a row at a time
        # in turn (ui/happened.py)
        s = runner.seat
        self.hear(self._words, say.news(s.pub, s.player, -1, ["setup"]), TextPage("", True))

    # ---- choices, grouped: built once per event ----------------------------------------
    def build(self):
        s = self.runner.seat
        # three ints, not a tuple: a redraw calls this and must allocate nothing
        if len(s.log) == self._nl and len(s.setup_choices) == self._ns and \
                len(s.actions) == self._na:
            return
        self._rebuild(s)

    # apart from build(): a function with many locals gets its frame from the heap on each
    # call, and build() runs on every redraw
    def _rebuild(self, s):
        self._nl = len(s.log)
        self._ns = len(s.setup_choices)
        self._na = len(s.actions)
        self._key += 1
        self._items = []                # the old lists go before the new ones are built
        self._setup = bool(s.setup_legal())
        acts = list(s.setup_legal()) if self._setup else s.legal()
        self._acts = acts
        labels = [self._label(i) for i in range(len(acts))]  # for the items; not kept
        items = []
        where = {}
        for i in range(len(acts)):
            sub = say.subject(acts[i]) if isinstance(acts[i], list) else None
            if sub is None:
                items.append([labels[i], [i]])
            elif sub in where:
                grp = items[where[sub]][_CHOICES]
                if not [1 for j in grp if acts[j] == acts[i]]:  # legal() may repeat one
                    grp.append(i)
            else:
                where[sub] = len(items)
                items.append([say.subject_name(s.pub, sub), [i]])
        for it in items:
            if len(it[_CHOICES]) == 1:
                it[_LABEL] = labels[it[_CHOICES][0]]
            else:
                it[_LABEL] = "%s (%d)" % (it[_LABEL], len(it[_CHOICES]))
        # A captain who can go aboard his own ship goes first, his menu opening on that ship:
        # the play the rules reward, where the cursor rests. The other plays follow strongest
        # first (_rank: a newcomer's likely play within a press or two, where the hand's order
        # put it up to four presses down). Ending the turn (or passing a fight) goes last: the
        # cursor starts on the first item, and one OK on a new turn must not end it.
        # A card that calls a ship into play lists the ships strongest first (not in the
        # deck's order, which says nothing).
        home = []
        for it in items:
            ch = it[_CHOICES]
            pw = [_called_power(acts, j) for j in ch]
            if len(ch) > 1 and max(pw):   # (the index in the key: MicroPython's sort is not stable)
                order = sorted(range(len(ch)), key=lambda i: (-pw[i], i))
                it[_CHOICES] = [ch[i] for i in order]
            n = _home(s.pub, acts, it)
            if n >= 0:
                ch = it[_CHOICES]
                ch.insert(0, ch.pop(n))
                home.append(it)
        rest = [it for it in items if it not in home and not _ends(acts, it)]
        rank = [_rank(acts, it) for it in rest]
        order = sorted(range(len(rest)), key=lambda i: (rank[i], i))
        items = home + [rest[i] for i in order] + [it for it in items if _ends(acts, it)]
        # kept all turn, so as tuples: a list keeps room for four items, twice the blocks
        items = [(it[_LABEL], tuple(it[_CHOICES])) for it in items]
        self._items = items
        self.view.set([it[_LABEL] for it in items])
        self.sub = None
        self.sub_of = -1
        self.news()
        self._news = self.happened.newest()
        self._stat = say.status(s.pub, 40)
        self._tstat = say.status(s.pub, tiny_cols(self.app.hw.display.width))
        self._dk = None
        self._brief = self.brief()
        # Every choice's second line once per event, not on each cursor move: a forecast sums
        # the fleet and the attackers (~1.3 KB of short-lived blocks a unit), and a cursor move
        # must allocate nothing. The highlighted choice's line alone for the frame that shows
        # the event, the others at the next tick, once it shows (tick(): a partner's move
        # reaches the panel sooner, as the runner's receipts wait for late()).
        self._fc = None
        self._fc_one = None
        self._fc_none = say.choice_line(s.pub, s.player, None, None)

    def choices(self):
        """[(choice, label)] of every legal choice (the generic screen's shape)."""
        self.build()
        return [(self._acts[i], self._label(i)) for i in range(len(self._acts))]

    def _label(self, i):
        """Choice i's label, made when shown: a turn's labels all kept took up to 1.9 KB, and
        only a group's open menu shows them one by one (a single item's is its item's)."""
        return say.action(self.runner.seat.pub, self._acts[i])

    def current(self):
        """The highlighted choice (in the open menu, or a single item's), or None."""
        i = self._current_index()
        return None if i < 0 else self._acts[i]

    def _current_index(self):
        self.build()
        if not self._items:
            return -1
        it = self._items[min(self.view.cursor, len(self._items) - 1)]
        if self.sub is not None:
            return it[_CHOICES][min(self.sub.cursor, len(it[_CHOICES]) - 1)]
        return it[_CHOICES][0] if len(it[_CHOICES]) == 1 else -1

    def _words(self, prev, au, ev):
        s = self.runner.seat
        try:
            return say.news(s.pub, s.player, au, ev)
        except Exception:  # a news line must never take the screen down
            return describe(self.eng, s, au, ev)

    def line2(self):
        """The second status line: the highlighted choice's fight forecast, else the ship it
        touches, else None (distance, threat and place), all built once per event."""
        i = self._current_index()
        if i < 0:
            return self._fc_none
        if self._fc is not None:
            return self._fc[i]
        one = self._fc_one
        if one is None or one[0] != i:
            one = self._fc_one = (i, say.choice_line(self.runner.seat.pub, self.runner.seat.player,
                                                     self._acts[i], None))
        return one[1]

    def tick(self, now):
        self.build()              # (a new event: its choices, whose frame has not shown)
        if self._fc is None and self._shown == self._key:
            # the event's frame is on the panel: every choice's line now, for the cursor
            s = self.runner.seat
            self._fc = say.choice_lines(s.pub, s.player, self._acts)
            self._fc_one = None
        return GameBase.tick(self, now)

    def brief(self):
        """The top bar's title: whose turn and which phase, in a few characters."""
        r = self.runner
        if r.problem:
            return "Problem"
        s = r.seat
        t = s.to_move()
        if t is None:
            return "Over" if s.result() is not None else "Waiting"
        who, kind = t
        ph = "Set up" if kind == "setup" else say.phase_words(s.pub)
        if who != s.player:       # who, then the phase: "P2: Main" beside "You: Main" (a
            return "P%d: %s" % (who + 1, ph)   # "T1 Main" read as a seat; the distance
        return "You: %s" % ph if s.pub[_TURN] else ph   # says how far the fleet has come

    # ---- keys ----------------------------------------------------------------------------
    def key(self, k):
        self.build()
        if k == "HELP":
            show_help(self.app, "Help", _HELP_FILE)
            return
        if self.page == HAND:
            self._hand_key(k)
        elif self.page != MAIN:
            if self.text.key(k):
                return
            if k in ("LEFT", "RIGHT"):
                self.turn(1 if k == "RIGHT" else -1)
            elif k in ("OK", "BACK"):
                self.page = MAIN
        elif self.sub is not None:
            if k == "BACK":
                self.sub = None
            elif k == "OK":
                it = self._items[self.sub_of]
                self.choose(it[_CHOICES][min(self.sub.cursor, len(it[_CHOICES]) - 1)])
            else:
                self.sub.key(k)
        elif k == "BACK":
            self.pause()
        elif k in ("LEFT", "RIGHT"):
            self.turn(1 if k == "RIGHT" else -1)
        elif not self._items:
            return
        elif k == "OK":
            self.open(min(self.view.cursor, len(self._items) - 1))
        else:
            self.view.key(k)

    def open(self, i):
        """OK on item i: play it, or open the menu of its uses."""
        it = self._items[i]
        self.view.cursor = i
        if len(it[_CHOICES]) == 1:
            self.choose(it[_CHOICES][0])
            return
        self.sub = ListView([self._label(j) for j in it[_CHOICES]], fixed=True, fit=True, whole=True)
        self.sub_of = i

    def choose(self, j):
        a = self._acts[j]
        if self.runner.seat.setup_legal():
            self.runner.setup_choose(a)
        else:
            self.runner.play(a)
        self.sub = None
        self.view.cursor = 0
        self.page = MAIN

    def turn(self, step):
        self.page = (self.page + step) % _PAGES
        self.sub = None
        self.text.top = 0
        self._dk = None
        if self.page == HAND:
            self._hand_build()
            self.row.cursor = 0 if step > 0 else max(0, self.row.n - 1)

    def _hand_key(self, k):
        r = self.row
        if k == "RIGHT" and r.cursor == r.n - 1 or k == "LEFT" and r.cursor == 0 or not r.n \
                and k in ("LEFT", "RIGHT"):
            self.turn(1 if k == "RIGHT" else -1)
        elif k in ("LEFT", "RIGHT", "UP", "DOWN"):
            r.key(k)
        elif k == "BACK":
            self.page = MAIN
        elif k == "OK" and r.n:
            i = self._item_of((say.CARD, self._hand[r.cursor]))
            if i >= 0:
                self.page = MAIN
                self.open(i)

    def _item_of(self, sub):
        for i in range(len(self._items)):
            a = self._acts[self._items[i][_CHOICES][0]]
            if isinstance(a, list) and say.subject(a) == sub:
                return i
        return -1

    # ---- key presses per choice (the ux bench counts them) -------------------------------
    def keys_for(self, action):
        """The shortest keys that, pressed from the screen as it is, play `action`."""
        self.build()
        where = -1
        for i in range(len(self._items)):
            for j in self._items[i][_CHOICES]:
                if self._acts[j] == action:
                    where, pos = i, self._items[i][_CHOICES].index(j)
        if where < 0:
            raise ValueError("not a legal choice now: %r" % (action,))
        out = []
        if self.page != MAIN:
            out.append("BACK")
        elif self.sub is not None:
            if self.sub_of == where:
                return self.sub.keys_to(pos) + ["OK"]
            out.append("BACK")
        out += self.view.keys_to(where) + ["OK"]
        n = len(self._items[where][_CHOICES])
        if n > 1:
            out += steps(0, pos, n) + ["OK"]
        return out

    # ---- drawing -------------------------------------------------------------------------
    def draw(self, d):
        self.build()
        self._shown = self._key
        if self.page == HAND:
            self.draw_hand(d)
            return
        if self.page != MAIN:
            self.text.set(self.doc())
            draw_page(d, self.page_title(), self.app.link_state, self.text)
            return
        top_bar(d, self._brief, self.app.link_state, self._me, fit=True, small=d.width < 128)
        w, h = d.width, d.height
        y = CH + 1
        self.said.draw(d, 0, y, w, TH - 1)
        y += TH
        if h - (y + TH) >= 2 * CH:   # the second line where two rows of choices stay
            l2 = self.line2()
            n = tiny_cols(w)      # a forecast longer than the line gives way to the status
            put(d, l2 if l2 and tiny_len(l2) <= n else self._tstat, 0, y, n, 1, True)
            y += TH
        y += 1
        if self.sub is not None:
            d.hline(0, y - 1, w, 1)  # a rule over the open menu: its rows are one item's
            self.sub.draw(d, 0, y, w, h - y)
        elif self._items:
            self.view.draw(d, 0, y, w, h - y)

    def draw_hand(self, d):
        r = self.row
        self._hand_build()
        if r.n:
            top_bar(d, "Hand", self.app.link_state, None, r.cursor + 1, r.n, small=d.width < 128)
        else:
            top_bar(d, "Hand", self.app.link_state, "EMPTY", small=d.width < 128)
        r.draw(d, 0, CH + 1, d.width, d.height - CH - 1, self._short_of, self._text_of)

    def _short_of(self, i):
        return self._short[i]

    def _text_of(self, i):
        return self._texts[i]

    def _hand_build(self):
        hand = self.runner.seat.priv[_HAND]
        if self._hand == hand and len(self._texts) == len(hand):
            return
        self._hand = list(hand)
        self._short = [C.get(c)[C.NAME][:3] for c in hand]
        self._texts = [say.card_words(c) for c in hand]
        self.row.set(len(hand))

    # ---- the fleet and table pages: words, built once per event --------------------------
    def page_title(self):
        s = self.runner.seat
        if self.page == FLEET:
            return "Fleets" if s.pub[_PLAYER_COUNT] > 1 else "Fleet"
        return "Jump" if s.pub[_PHASE] in (_PHASE_JUMP, _PHASE_JUMP_CONFIRM) else "Table"

    def doc(self):
        key = (self.page, self._key)
        if key != self._dk:
            self._dk = key
            self._doc = ""
            self._doc = "\n".join(self.fleet_doc() if self.page == FLEET else self.table_doc())
        return self._doc

    def fleet_doc(self):
        s = self.runner.seat
        pub = s.pub
        out = []
        for p in [s.player] + [q for q in range(pub[_PLAYER_COUNT]) if q != s.player]:
            out.append("P%d%s (%s): hand %d, deck %d" % (
                p + 1, " you" if p == s.player else "", pub[_AFFILIATIONS][p], pub[_HAND_SIZES][p],
                pub[_DECK_SIZES][p]))
            for i in range(len(pub[_SHIPS])):
                ship = pub[_SHIPS][i]
                if ship[_SHIP_OWNER] != p or not ship[_SHIP_ALIVE]:
                    continue
                out.append(" " + say.ship_line(pub, i))
                for at in ship[_SHIP_ABOARD]:
                    owner = at[_ABOARD_OWNER]
                    out.append("  with " + C.get(at[_ABOARD_CARD])[C.NAME] + (
                        "" if owner == p else " (P%d)" % (owner + 1)))
                for dm in ship[_SHIP_DAMAGE]:
                    out.append("  damage: %s %d%%" % (C.get(dm)[C.NAME], C.get(dm)[C.CLS]))
            for cid in pub[_DESTROYED][p]:
                out.append(" lost: " + C.get(cid)[C.NAME])
            sh = pub[_SHOWN][p]
            if p != s.player and sh is not None:
                out.append(" showed (turn %d): %s" % (sh[_SHOWN_TURN], ", ".join(
                    C.get(c)[C.NAME] for c in sh[_SHOWN_CARDS])))
        return out

    def table_doc(self):
        s = self.runner.seat
        pub = s.pub
        out = [self._stat]
        if pub[_PHASE] in (_PHASE_JUMP, _PHASE_JUMP_CONFIRM):
            for i in range(len(pub[_JUMP_OPTIONS])):
                cid = pub[_JUMP_OPTIONS][i]
                out.append("%s%s: distance +%d" % ("Proposed: " if pub[_PHASE] == _PHASE_JUMP_CONFIRM and
                                                   i == pub[_PROPOSED] else "",
                                                   C.get(cid)[C.NAME], C.get(cid)[C.POWER]))
                if C.text(cid):
                    out.append(" " + C.text(cid))
            return out
        a = self.current()
        a = a if isinstance(a, list) else None
        fights = say.preview(pub, a)
        for k in range(len(fights)):
            out.append(say.forecast_words(pub, k, fights[k], 0))
            for i in fights[k][_FIGHT_SHIPS]:
                if pub[_SHIPS][i][_SHIP_ALIVE]:
                    out.append(" " + say.ship_line(pub, i))
            for f in fights[k][_FIGHT_FOES]:
                out.append(" vs %s: power %d" % (C.get(pub[_FOES][f][_FOE_CARD])[C.NAME],
                                                 FT.foe_power(pub, f)))
        used = []
        for fight in fights:
            used.extend(fight[_FIGHT_FOES])
        for f in range(len(pub[_FOES])):
            if f not in used and not pub[_FOES][f][_FOE_BEATEN]:
                out.append("Attacker %s: power %d" % (C.get(pub[_FOES][f][_FOE_CARD])[C.NAME],
                                                      FT.foe_power(pub, f)))
        if pub[_LAST_FIGHT]:
            k, pp, ep, res = pub[_LAST_FIGHT]
            out.append("Last: fight %d, %d vs %d, %s" % (k + 1, pp, ep, say.RESULT[res]))
        if not fights and not pub[_FOES]:
            out.append("No attackers")
        for t in pub[_TABLE]:
            out.append("On the table: %s (%d)" % (C.get(t[_TOKEN_CARD])[C.NAME],
                                                      t[_TOKEN_COUNT]))
        for cid in pub[_LOCATIONS]:
            out.append("Passed %s: +%d" % (C.get(cid)[C.NAME], C.get(cid)[C.POWER]))
        return out

    # ---- semantic text: title, '| ' what happened, '# ' state, then the choices ----------
    def lines(self):
        self.build()
        if self.page == HAND:
            self._hand_build()
            out = ["%s hand" % self.title]
            for i in range(len(self._hand)):
                parts = self._texts[i].split("\n")
                out.append("# " + ("> " if i == self.row.cursor else "") + parts[0])
                for p in parts[1:]:
                    out.append("# " + p)
            return out
        if self.page != MAIN:
            return ["%s %s" % (self.title, _PAGE_NAMES[self.page])] + [
                "# " + line for line in self.doc().split("\n")]
        out = ["%s %s" % (self.title, self.brief()), "| " + self._news, "# " + self._stat]
        if self.line2():
            out.append("# " + self.line2())
        if self.sub is not None:
            out.append("# menu: " + self._items[self.sub_of][_LABEL])
            labels, cur = self.sub.labels, self.sub.cursor
        else:
            labels, cur = self.view.labels, self.view.cursor
        for i in range(len(labels)):
            out.append((">" if i == cur else " ") + labels[i])
        return out


def screen(app, runner):
    return PinnedDownScreen(app, runner)
