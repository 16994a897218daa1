# Periplus on the units: the board with both fleets (yours filled at the bottom, the enemy's in
# outline), the highlighted choice drawn on the board, the hand and discard pages (LEFT/RIGHT),
# and the defender's prompt with its countdown: nobody answering means "take the hit".
from fathom.games.base import IllegalAction
from fathom.games.periplus import board as B
from fathom.games.periplus import cards as C
from fathom.games.periplus.fleet import (HITS, LEFT, NSHIPS, SHEARED, SHIP_ABBR, SHIP_NAMES,
                                         SQ, TYPE, ahead_dest, grid)
from fathom.hal import clock
from fathom.ui.play import GameBase, GameScreen, describe
from fathom.ui.screen import CH, clip, cols, header, rows, wrap

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

# The defender's unit sends the default (take the hit) when nobody answers for this long.
ANSWER_TIMEOUT_MS = const(20000)
# No answer leaves before this, whatever the hand holds and however fast the thumb: an answer
# that came faster when there is no Defense card to play would tell the attacker so.
ANSWER_MIN_MS = const(1500)

PLAY = const(0)
HAND = const(1)
DISCARD = const(2)
_PAGES = const(3)

# Card names cut to the 8 columns of the side panel, parallel to cards.CARDS.
SHORT = ("Row", "Row Row", "Row x3", "RamSpeed", "Periplus", "Prongs", "ReinfRam", "Ram",
         "ShearOar", "Hoplites", "Harpax", "Corvus", "Marines", "FullDeck", "Archers",
         "Javelins", "Slings", "GreekFir", "Ballista", "Catapult", "Trebuche", "TwArcher",
         "Parablem", "ReinHull", "Disengag")
_PHASE = {"setup": "Set-up", "discard": "Discard", "move": "Move", "ahead": "Fleet",
          "fire": "Fire", "defend": "Defend", "over": "Over"}


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

    def active(self):
        s = self.runner.seat
        return (s.result() is None and s.pub["phase"] == "defend"
                and s.to_move() == (s.player, "act"))

    def queue(self, action):
        self.queued = action

    def left_s(self):
        ms = ANSWER_TIMEOUT_MS - clock.ticks_diff(self.now, self.since)
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
            return True
        waited = clock.ticks_diff(now, self.since)
        if self.queued is not None and waited >= ANSWER_MIN_MS:
            self._send(self.queued)
            return True
        if self.queued is None and waited >= ANSWER_TIMEOUT_MS:
            s = self.runner.seat
            self._send(s.engine.default_action(s.pub, s.priv, s.player) or ["take"])
            return True
        return False

    def _send(self, action):
        self.queued = None
        self.at = -1
        try:
            self.runner.play(action)
        except IllegalAction as e:
            self.runner.problem = "not sent: %s" % e


# ---- words ------------------------------------------------------------------------------------
def ship_sq(pub, sid):
    return B.sq_name(pub["ships"][sid][SQ])


def ahead_to(pub, sid, n):
    return ahead_dest(pub, grid(pub), sid, n)


def next_square(seat):
    return B.back_row(seat.player) * B.SIZE + len(seat.priv["row"])


def label(seat, a):
    """One line per choice, for the list in lines() (what the test driver and a log read)."""
    pub = seat.pub
    if not isinstance(a, list):
        return "Place %s at %s" % (SHIP_NAMES[a], B.sq_name(next_square(seat)))
    tag = a[0]
    if tag == "discard":
        return "Discard " + C.name(a[1])
    if tag == "pass":
        return "Pass (no move)" if pub["phase"] == "move" else "Pass (no attack)"
    if tag == "move":
        return "%s: %s %s>%s" % (C.name(a[1]), SHIP_ABBR[pub["ships"][a[2]][TYPE]],
                                 ship_sq(pub, a[2]), B.sq_name(a[3]))
    if tag == "ahead":
        return "%s: fleet %s %s>%s" % (C.name(a[1]), SHIP_ABBR[pub["ships"][a[2]][TYPE]],
                                       ship_sq(pub, a[2]),
                                       B.sq_name(ahead_to(pub, a[2], C.rng(a[1]))))
    if tag == "also":
        return "Also %s %s>%s" % (SHIP_ABBR[pub["ships"][a[1]][TYPE]], ship_sq(pub, a[1]),
                                  B.sq_name(ahead_to(pub, a[1], pub["fleet"])))
    if tag == "halt":
        return "Halt the fleet"
    if tag == "fire":
        sh = pub["ships"]
        return "%s: %s %s>%s %s" % (C.name(a[1]), SHIP_ABBR[sh[a[2]][TYPE]], ship_sq(pub, a[2]),
                                    SHIP_ABBR[sh[a[3]][TYPE]], ship_sq(pub, a[3]))
    if tag == "take":
        return "Take the hit"
    if tag == "defend":
        return "Negate with " + C.name(a[1])
    return tag


def panel_words(seat, a, small=False):
    """The highlighted choice in up to three lines of 8 characters for the side panel, or two
    of 4 for a small panel (card and target: the board shows the rest)."""
    if small:
        w = panel_words(seat, a)
        if not isinstance(a, list):
            return (w[1][:2], w[2][-2:])
        if len(w) < 3:
            return (w[-1 if a[0] == "discard" else 0][:4],)
        return (w[0][:4], w[2][-3:])
    pub = seat.pub
    if not isinstance(a, list):
        return ("Place", SHIP_ABBR[a] + " %dhp" % HITS[a], "at " + B.sq_name(next_square(seat)))
    tag = a[0]
    sh = pub["ships"]
    if tag == "discard":
        return ("Discard", SHORT[a[1]])
    if tag == "move":
        return (SHORT[a[1]], SHIP_ABBR[sh[a[2]][TYPE]] + " " + ship_sq(pub, a[2]),
                ">" + B.sq_name(a[3]))
    if tag == "ahead":
        return (SHORT[a[1]], SHIP_ABBR[sh[a[2]][TYPE]] + " " + ship_sq(pub, a[2]),
                "fleet>" + B.sq_name(ahead_to(pub, a[2], C.rng(a[1]))))
    if tag == "also":
        return ("Also", SHIP_ABBR[sh[a[1]][TYPE]] + " " + ship_sq(pub, a[1]),
                ">" + B.sq_name(ahead_to(pub, a[1], pub["fleet"])))
    if tag == "fire":
        return (SHORT[a[1]], SHIP_ABBR[sh[a[2]][TYPE]] + " " + ship_sq(pub, a[2]),
                ">" + SHIP_ABBR[sh[a[3]][TYPE]] + " " + ship_sq(pub, a[3]))
    if tag == "halt":
        return ("Halt", "fleet")
    if tag == "pass":
        return ("Pass",)
    return (tag,)


def card_note(k):
    """Type and range in two characters: m2 move 2, s3 shot 3, N knight, -S negates shots."""
    t = C.ctype(k)
    r = C.rng(k)
    if t == C.DEFENSE:
        return "-" + r
    if r == C.KNIGHT:
        return t.lower() + "N"
    return t.lower() + str(r)


def prompt(seat, wide, full=True):
    """The defender's question: the attack, the answer OK gives, and the default. The screen
    (full=False) lists the answers below it, so it leaves them out."""
    pub = seat.pub
    k, s, t = pub["pending"]
    d = C.defense_for(k)
    held = d in seat.priv["hand"]
    tgt = pub["ships"][t]
    if wide:
        text = "Attack on your %s %s by %s: " % (SHIP_NAMES[tgt[TYPE]], B.sq_name(tgt[SQ]),
                                                  C.name(k))
        if held:
            return text + "negate with %s?%s" % (C.name(d), " OK=yes / take hit" if full else "")
        return text + "no %s in hand.%s" % (C.name(d), " OK=take hit" if full else "")
    return "%s>%s %s" % (SHORT[k], SHIP_ABBR[tgt[TYPE]], B.sq_name(tgt[SQ]))


def fleet_words(pub, owner):
    out = []
    for sid in range(owner * NSHIPS, (owner + 1) * NSHIPS):
        sh = pub["ships"][sid]
        if sh[SQ] >= 0:
            out.append("%s %s %d%s" % (SHIP_ABBR[sh[TYPE]], B.sq_name(sh[SQ]), sh[LEFT],
                                       "*" if sh[SHEARED] else ""))
    return ", ".join(out)


def tally(cards_, newest_first=False):
    """[(kind, count)] of a list of kinds: in order of first sight (or last, newest first)."""
    out = []
    seq = cards_[::-1] if newest_first else cards_
    for k in seq:
        for i in range(len(out)):
            if out[i][0] == k:
                out[i] = (k, out[i][1] + 1)
                break
        else:
            out.append((k, 1))
    return out


# ---- drawing ----------------------------------------------------------------------------------
def draw_ship(d, x, y, sz, t, own, dmg, sheared, c):
    """A hull sized by type (Bireme smallest, Quinquereme widest), filled for your own fleet,
    in outline for the enemy's, and one pip per hit taken along the bottom."""
    big = sz >= 7
    inner = sz - 1
    w = min(inner, ((3, 4, 5, 6) if big else (2, 3, 4, 4))[t])
    hh = 4 if big else (3 if t == 3 else 2)
    hx = x + (inner - w) // 2
    hy = y
    if own:
        d.fill_rect(hx, hy, w, hh, c)
    else:
        d.hline(hx, hy, w, c)
        d.vline(hx, hy, hh, c)
        d.vline(hx + w - 1, hy, hh, c)
        if hh >= 3:
            d.hline(hx, hy + hh - 1, w, c)
    if sheared:  # a broken hull: the oars are gone
        d.vline(hx + w // 2, hy, hh, 1 - c)
    step = 2 if 2 * dmg - 1 <= inner else 1
    for i in range(dmg):
        d.pixel(x + step * i, y + inner - 1, c)


class PeriplusScreen(GameScreen):
    def __init__(self, app, runner):
        GameScreen.__init__(self, app, runner)
        self.page = PLAY
        self.ck = None
        self.acts = []
        self.answer = AnswerClock(runner)
        runner.services.append(self.answer)
        app.services.append(self.answer)
        self.shown_s = -1

    # ---- choices --------------------------------------------------------------------------
    def actions(self):
        s = self.runner.seat
        if self.answer.queued is not None:
            return []
        key = (len(s.log), len(s.setup_choices))
        if key != self.ck:
            self.ck = key
            acts = s.setup_legal() or s.legal()
            if acts and s.pub["phase"] == "defend":
                acts = acts[1:] + acts[:1]  # the Defense card first: OK = yes, negate it
            self.acts = acts
        return self.acts

    def choices(self):
        s = self.runner.seat
        return [(a, label(s, a)) for a in self.actions()]

    def current(self):
        acts = self.actions()
        if not acts:
            return None
        self.cursor = min(self.cursor, len(acts) - 1)
        return acts[self.cursor]

    def defending(self):
        return self.answer.active() and self.answer.at >= 0

    def status(self):
        r = self.runner
        s = r.seat
        me = "P%d " % (s.player + 1)
        if r.problem:
            return me + clip(r.problem, 40)
        if self.answer.active():
            if self.answer.queued is not None:
                return me + "answering: " + label(s, self.answer.queued)
            return me + "defend: take hit in %ds" % self.answer.left_s()
        if s.setup_legal():
            return me + "set-up"
        who = r.waiting_for()
        if who is None:
            return me + "waiting"
        if who == s.player:
            return me + _PHASE.get(s.pub["phase"], "").lower()
        return me + "wait for P%d" % (who + 1)

    # ---- keys -----------------------------------------------------------------------------
    def key(self, k):
        if k == "BACK":
            self.pause()
            return
        if k in ("LEFT", "RIGHT"):
            self.page = (self.page + (1 if k == "RIGHT" else -1)) % _PAGES
            return
        acts = self.actions()
        if not acts:
            return
        if k == "UP":
            self.cursor = (self.cursor - 1) % len(acts)
        elif k == "DOWN":
            self.cursor = (self.cursor + 1) % len(acts)
        elif k == "OK":
            a = self.current()
            s = self.runner.seat
            self.cursor = 0
            try:
                if s.setup_legal():
                    self.runner.setup_choose(a)
                elif s.pub["phase"] == "defend":
                    self.answer.queue(a)
                else:
                    self.runner.play(a)
            except IllegalAction as e:
                self.runner.problem = "refused: %s" % e

    def tick(self, now):
        if GameBase.tick(self, now):
            return True
        if self.answer.active():
            left = self.answer.left_s()
            if left != self.shown_s:
                self.shown_s = left
                return True
        return False

    # ---- semantic text --------------------------------------------------------------------
    def lines(self):
        s = self.runner.seat
        pub = s.pub
        out = [self.title + " " + self.status()]
        for a, e in s.log[-3:]:
            out.append("| " + describe(self.eng, s, a, e))
        if self.defending() and self.answer.queued is None:
            out.append("! " + prompt(s, True))
        foe = 1 - s.player
        out.append("# you " + fleet_words(pub, s.player))
        out.append("# foe " + fleet_words(pub, foe))
        if self.page == HAND:
            out.append("# hand " + ", ".join(C.name(k) for k in s.priv["hand"]))
        elif self.page == DISCARD:
            out.append("# discard " + ", ".join(C.name(k) for k in pub["discard"]))
        acts = self.actions()
        self.current()  # clamps the cursor to the list
        for i in range(len(acts)):
            out.append((">" if i == self.cursor else " ") + label(s, acts[i]))
        return out

    # ---- drawing --------------------------------------------------------------------------
    def draw(self, d):
        if self.page == HAND:
            self.draw_hand(d)
        elif self.page == DISCARD:
            self.draw_discard(d)
        elif self.defending():
            self.draw_prompt(d)
        else:
            self.draw_play(d)

    def top_bar(self, d, text, right=""):
        header(d, text, self.app.link_state)
        if right:
            x = d.width - (9 if self.app.link_state else 0) - len(right) * CH
            d.fill_rect(x - 1, 0, len(right) * CH + 1, CH, 1)
            d.text(right, x, 0, 0)

    def draw_play(self, d):
        s = self.runner.seat
        pub = s.pub
        top = CH if d.height >= 8 * 7 + CH else 0
        sz = min((d.height - top) // 8, 7)
        acts = self.actions()
        a = self.current()
        if top:
            count = "%d/%d" % (self.cursor + 1, len(acts)) if acts else ""
            self.top_bar(d, self.status()[:cols(d) - len(count) - 1], count)
        src, dst = self.squares(a)
        preview = a if not isinstance(a, list) else None
        self.draw_board(d, 0, top, sz, src, dst, preview)
        px = 8 * sz + (2 if sz >= 7 else 0)
        if sz >= 7:
            d.vline(8 * sz, top, 8 * sz, 1)
        pc = (d.width - px) // CH
        if pc <= 0:
            return
        n = (d.height - top) // CH
        ph = _PHASE.get(pub["phase"], "")
        if s.setup_legal():
            ph = "Set-up"
        elif not acts:
            ph = "Wait"
        me = s.player
        small = pc < 7
        if small:
            info = [ph[:4], "H%d" % pub["hand"][me]]
        else:
            info = [ph, "Hand %d" % pub["hand"][me], "Deck %d" % pub["deck"],
                    "Disc %d" % len(pub["discard"])]
        if a is not None:
            info.extend(panel_words(s, a, small))
        elif s.log:
            au, ev = s.log[-1]
            info.extend(wrap(describe(self.eng, s, au, ev), pc))
        for i in range(min(n, len(info))):
            d.text(info[i][:pc] if small else clip(info[i], pc), px, top + i * CH, 1)

    def squares(self, a):
        """The (source, target) squares the highlighted choice touches, -1 for none."""
        s = self.runner.seat
        pub = s.pub
        sh = pub["ships"]
        if a is None:
            if pub["phase"] == "defend" and pub["pending"]:
                return sh[pub["pending"][1]][SQ], sh[pub["pending"][2]][SQ]
            return -1, -1
        if not isinstance(a, list):
            return next_square(s), -1
        tag = a[0]
        if tag == "move":
            return sh[a[2]][SQ], a[3]
        if tag == "ahead":
            return sh[a[2]][SQ], ahead_to(pub, a[2], C.rng(a[1]))
        if tag == "also":
            return sh[a[1]][SQ], ahead_to(pub, a[1], pub["fleet"])
        if tag == "fire":
            return sh[a[2]][SQ], sh[a[3]][SQ]
        if tag in ("take", "defend") and pub["pending"]:
            return sh[pub["pending"][1]][SQ], sh[pub["pending"][2]][SQ]
        return -1, -1

    def draw_board(self, d, x0, y0, sz, src, dst, preview):
        """Your back row at the bottom (the board turns for player 2); highlighted squares are
        drawn inverted."""
        s = self.runner.seat
        pub = s.pub
        me = s.player
        inner = sz - 1
        occ = bytearray(64)  # square -> ship id + 1: one pass over the fleets, not 64
        for sid in range(2 * NSHIPS):
            if pub["ships"][sid][SQ] >= 0:
                occ[pub["ships"][sid][SQ]] = sid + 1
        for sq in range(64):
            r, c = divmod(sq, 8)
            x = x0 + (c if me == 0 else 7 - c) * sz
            y = y0 + (7 - r if me == 0 else r) * sz
            on = 1
            if sq == src or sq == dst:
                d.fill_rect(x, y, inner, inner, 1)
                on = 0
            drawn = False
            if sq in pub["isl"]:
                d.line(x, y, x + inner - 1, y + inner - 1, on)
                d.line(x, y + inner - 1, x + inner - 1, y, on)
                drawn = True
            if occ[sq]:
                sid = occ[sq] - 1
                sh = pub["ships"][sid]
                draw_ship(d, x, y, sz, sh[TYPE], sid // NSHIPS == me,
                          HITS[sh[TYPE]] - sh[LEFT], sh[SHEARED], on)
                drawn = True
            if not drawn and pub["phase"] == "setup" and me not in s.setups:
                row = s.priv["row"]
                i = sq - B.back_row(me) * 8
                if 0 <= i < len(row):
                    draw_ship(d, x, y, sz, row[i], True, 0, 0, on)
                    drawn = True
                elif sq == src and preview is not None:
                    draw_ship(d, x, y, sz, preview, True, 0, 0, on)
                    drawn = True
            if not drawn and on:
                d.pixel(x + inner // 2, y + inner // 2, 1)

    def draw_prompt(self, d):
        s = self.runner.seat
        w = cols(d)
        left = self.answer.left_s()
        wide = w >= 16
        q = self.answer.queued
        if q is not None:  # answered: it leaves once the minimum time is up
            self.top_bar(d, "Answered")
            words = ("Negate" if q[0] == "defend" else "Take the hit")
            d.fill_rect(0, d.height - CH, d.width, CH, 1)
            d.text(clip(words, w), 0, d.height - CH, 0)
            return
        self.top_bar(d, ("Take hit in %ds" if wide else "Take %ds") % left)
        # the time left, also as a line along the title bar's foot that shrinks to the left
        d.hline(d.width * left // (ANSWER_TIMEOUT_MS // 1000), CH - 1, d.width, 0)
        acts = self.actions()
        text = wrap(prompt(s, wide, False), w)
        y = CH
        for line in text[:max(0, rows(d) - 1 - len(acts))]:
            d.text(line, 0, y, 1)
            y += CH
        y = d.height - len(acts) * CH
        for i in range(len(acts)):
            if acts[i][0] == "defend":
                words = "Yes, negate it" if wide else "Negate"
            else:
                words = ("No, take hit" if len(acts) > 1 else "Take the hit") if wide else "Take hit"
            if i == self.cursor:
                d.fill_rect(0, y, d.width, CH, 1)
                d.text(clip(">" + words, w), 0, y, 0)
            else:
                d.text(clip(" " + words, w), 0, y, 1)
            y += CH

    def list_page(self, d, title, entries, mark):
        """A full-width list of (kind, count); kinds in `mark` get a '>'."""
        header(d, title, self.app.link_state)
        w = cols(d)
        n = rows(d) - 1
        for i in range(min(n, len(entries))):
            k, count = entries[i]
            if i == n - 1 and len(entries) > n:
                d.text("+%d more" % (len(entries) - i), 0, (i + 1) * CH, 1)
                break
            lead = (">" if k in mark else " ") + (str(count) if count > 1 else " ")
            note = card_note(k)
            d.text(clip(lead + C.name(k), w - len(note) - 1), 0, (i + 1) * CH, 1)
            d.text(note, d.width - len(note) * CH, (i + 1) * CH, 1)
        if not entries:
            d.text("(none)", 0, CH, 1)

    def draw_hand(self, d):
        s = self.runner.seat
        a = self.current()
        mark = (a[1],) if isinstance(a, list) and len(a) > 1 and a[0] != "also" else ()
        title = "Hand %d" % len(s.priv["hand"])
        if cols(d) >= 16:
            title += "  deck %d" % s.pub["deck"]
        self.list_page(d, title, tally(s.priv["hand"]), mark)

    def draw_discard(self, d):
        pub = self.runner.seat.pub
        self.list_page(d, ("Discard %d" if cols(d) >= 16 else "Disc %d") % len(pub["discard"]),
                       tally(pub["discard"], True), ())
