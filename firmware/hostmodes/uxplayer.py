# Host only: a scripted player inside an emulated unit, for `fathom bench ux` and the end-to-end
# tests. It chooses like a person with a plan: a bot of the given level picks the action (a
# target square, then what to do there), the screen says which keys author it (keys_for), and
# those keys are pressed through the Pin twin, so the button driver, the app and the screen
# handle them exactly as they would a thumb's. It counts presses per action and reports them
# to the host as one JSON line (hub message "U") when the game ends, or at once when something
# goes wrong (keys that authored nothing, a screen or bot that raised, a partner that vanished).
#
# What a person would have read is measured from what the app draws, not from the screens'
# own account of themselves: every 8x8 string (the display's text) and every 3x5 one (font.tiny)
# of each frame is recorded (Drawn). An event's words (the game's line for it from this
# player's side, as the 'what happened' stack gets it) count as read once every word of them has
# been drawn since it came; before each of its own actions the player reads: it waits (at most
# READ_MS) until what came since its last action has been drawn, as a person watches the
# lines turn. The report adds events_unseen (events whose words were not all drawn before the
# player's next action) and cut_lines (distinct drawn lines ending in a cut, '~').
#
# FATHOM_UXPLAYER="level=sharp,path=PING/vs bot: sharp,moves=6,hold,read": `path` is the
# menu items to open from the home menu ("/"-separated label prefixes), `level` the bot that
# decides, `moves` (optional) how many choices to make before it stops and reports (a
# screenshot mid-game), `hold` (optional) keeps its hands off until the host creates the file
# uxplayer.go beside the unit's data folder (a test looks at the game's pages through the keys
# first), `read` (optional) records what is drawn and reads before acting, as above. With no
# path it waits for a game (a test pairs the units through the keys first) and plays it; once
# a game is reported, the next game that starts is played and reported afresh.
# `host` (optional, `fathom bench turn`) leaves the pressing to the host: each action is
# announced as {"ready": n, "keys": [...], "setup": bool} (hub message "U") and the host presses
# those keys, timing the last, which commits the action; the next announcement comes once the
# unit shows that action complete.
import json
import os
import sys

from fathom.games.bots import make_bot
from fathom.hal.clock import ticks_diff, ticks_ms
from fathom.ui.font import TH, TW
from fathom.ui.happened import DEAL

# How long keys may take to show as an authored choice once they are all pressed: a game may
# hold a choice back on purpose (Periplus sends a defender's answer no sooner than 1.5 s after
# its prompt, so the answer's timing says nothing), but never this long.
SETTLE_MS = 8000
READ_MS = 40000   # the longest a reader waits for the lines of a turn to come round
CUT = "~"
HYPHEN = "-"


class Drawn:
    """The text of every frame the app draws: wraps the display's text(), font.tiny (where
    every 3x5 string goes) and the app's redraw. A frame's strings are merged into runs where
    one continues the last on its row (a cut text is drawn a character at a time)."""

    def __init__(self, app):
        from fathom.ui import font
        self.runs = []
        self.words = set()        # every word drawn in the newest frame, upper case
        self.frames = 0
        self.cut = set()          # the distinct runs that end in (or hold) a cut
        self.tails = []           # the last frame's words split at a page's end: (y, x, step, part)
        self.on_frame = None      # called after each frame
        d = app.d
        text0 = d.text
        tiny0 = font.tiny
        redraw0 = app.redraw
        runs = self.runs

        def text(t, x, y, c=1):
            runs.append((y, x, t, 8, x + 8 * len(t)))
            text0(t, x, y, c)

        def tiny(dd, t, x, y, c=1):
            end = tiny0(dd, t, x, y, c)   # where the pen ends (3x5 glyphs vary in width)
            runs.append((y, x, t, font.TW, end))
            return end

        def redraw():
            del runs[:]
            redraw0()
            self._frame()

        d.text = text
        font.tiny = tiny
        self.patched = [font]
        for m in list(sys.modules.values()):   # those that took tiny by name before now
            if getattr(m, "tiny", None) is tiny0:
                m.tiny = tiny
                self.patched.append(m)
        app.redraw = redraw
        self._undo = (app, d, tiny0)

    def close(self):
        """Draw as before (a test's process goes on)."""
        app, d, tiny0 = self._undo
        for m in self.patched:
            m.tiny = tiny0
        del d.text
        del app.redraw

    def _frame(self):
        rows = {}
        for y, x, t, step, end in self.runs:
            rows.setdefault(y, []).append((x, t, step, end))
        words = set()
        starts = {}               # (y, x, step) -> the text of the run that starts there
        for y in rows:
            merged = []
            for x, t, step, end in sorted(rows[y]):
                if merged and merged[-1][2] == step and merged[-1][0] == x:
                    last = merged[-1]
                    merged[-1] = [end, last[1] + t, step, last[3]]
                else:
                    merged.append([end, t, step, x])
            for _end, t, step, x in merged:
                t = t.strip()
                starts[(y, x, step)] = t
                if t.endswith(CUT) or (CUT + " ") in t:
                    self.cut.add(t)
                for w in t.upper().split():
                    words.add(w)
        # a word the wrap split with a hyphen (ui/screen.wrap) reads whole: its next part
        # starts the next line at the same x, or, where the page ends on it, the next page
        # turned into the same box (a line at the same x, no lower than the split: a one-row
        # event line shows "Quinque-", then "reme c4")
        tails = []
        for (y, x, step), t in starts.items():
            w = t.split()[-1] if t.endswith(HYPHEN) else ""
            while w.endswith(HYPHEN):
                y += TH if step == TW else step
                nxt = starts.get((y, x, step))
                if not nxt:
                    tails.append((y - (TH if step == TW else step), x, step, w[:-1]))
                    break
                w = w[:-1] + nxt.split()[0]
            if w:
                words.add(w.upper())
        for (y, x, step), t in starts.items():
            for ty, tx, tstep, part in self.tails:
                if tx == x and tstep == step and y <= ty and t:
                    words.add((part + t.split()[0]).upper())
        self.tails = tails
        self.words = words
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(words)


class Reading:
    """What came since this player's last action, each event's words and which of them have
    been drawn since it came; unseen counts the events not read by the next action."""

    def __init__(self, drawn):
        self.drawn = drawn
        drawn.on_frame = self.saw
        self.n = 0                # events looked at
        self.pending = []         # (line, words left to see) per event
        self.unseen = 0
        self.events = 0
        self.examples = []

    def look(self, scr, seat):
        h = getattr(scr, "happened", None)
        n = seat.n_log
        if h is not None and n > self.n:
            prev = seat.log[self.n - 1] if self.n else None
            for rec in seat.records(self.n, n):
                author, ev = rec[1], rec[2]
                if author == seat.player and len(rec) > 5:
                    self.act()
                elif ev[0] in DEAL:
                    self._want("Sealed deal")
                else:
                    self._want(h.words(prev, author, ev) or ev[0])
                prev = (author, ev)
        self.n = n

    def saw(self, words):
        for _line, left in self.pending:
            for w in list(left):
                if w in words:
                    left.discard(w)

    def _want(self, line):
        self.events += 1
        # what is on the panel now counts: the frame with the event may be drawn already
        left = set(line.upper().split()) - self.drawn.words
        self.pending.append((line, left))

    def read(self):
        return all(not left for _l, left in self.pending)

    def act(self):
        for line, left in self.pending:
            if left:
                self.unseen += 1
                if len(self.examples) < 5:
                    self.examples.append(line)
        del self.pending[:]


def parse(spec):
    out = {"level": "sharp", "path": [], "moves": None, "hold": False, "host": False,
           "read": False}
    for part in spec.split(","):
        k, _, v = part.partition("=")
        if k == "path":
            out["path"] = [p for p in v.split("/") if p]
        elif k == "level":
            out["level"] = v
        elif k == "moves":
            out["moves"] = int(v)
        elif part == "hold":
            out["hold"] = True
        elif part == "host":
            out["host"] = True
        elif part == "read":
            out["read"] = True
        elif part:
            raise ValueError("FATHOM_UXPLAYER: unknown part %r" % part)
    return out


def go_file():
    """The file the host creates to let a held player play (tests: drive.release)."""
    d = os.getenv("FATHOM_DIR")
    if not d:
        raise ValueError("FATHOM_UXPLAYER hold: no FATHOM_DIR to find uxplayer.go beside")
    return d.rstrip("/").rsplit("/", 1)[0] + "/uxplayer.go"


class UxPlayer:
    def __init__(self, hub, app, spec):
        cfg = parse(spec)
        self.hub = hub
        self.app = app
        self.level = cfg["level"]
        self.path = cfg["path"]
        self.moves = cfg["moves"]
        self.go = go_file() if cfg["hold"] else None
        self.host = cfg["host"]
        self.announced = 0
        self.menu_presses = 0
        # what was drawn, only when asked (`fathom bench ux`): a linked game's heap figures
        # and the end-to-end tests run the player without it
        self.drawn = Drawn(app) if cfg["read"] else None
        self._new_game(None)

    def _new_game(self, runner):
        self.runner = runner
        self.bot = None
        self.last = None         # the reported game's salt: a later game has another
        self.waiting = None      # [mark before, keys pressed, ms when all were pressed]
        self.presses = []        # keys per authored action (set-up choices included)
        self.first_move = None   # presses from power-on to the first authored choice
        self.done = False
        self.reading = Reading(self.drawn) if self.drawn is not None else None
        self.read_from = None    # when the player began to read before its next choice

    def idle(self):
        """Called by the hub whenever no press is queued or playing. Whatever raises here is
        the player's failure, reported as such: the unit itself goes on."""
        try:
            self._idle()
        except Exception as e:
            self._report({"error": "%s: %s on %s" % (type(e).__name__, e, self._top())})

    def _idle(self):
        if self.go is not None:
            try:
                os.stat(self.go)
            except OSError:
                return
            self.go = None
        st = self.app.stack
        scr = st[-1]
        if getattr(scr, "wait", 0):
            return                # a question that takes no key yet: a person reads it first
        if len(st) > 1 and getattr(st[-2], "asking", None) is scr:
            scr = st[-2]          # the game's own question over it: the game says which keys
        runner = getattr(scr, "runner", None)
        if self.done:
            # a later game (a second session, a rematch): play it too, unless told to stop
            if self.moves is not None or runner is None or runner.seat.salt == self.last or \
                    not hasattr(scr, "keys_for"):
                return
            self._new_game(None)
        if self.runner is not None and self._settled():
            return
        if getattr(scr, "title", None) == "Saved game" and runner is None:
            # the notice of a cut save, over the game until read: a person reads it and goes
            # on (one OK per notice: a second would land on the game)
            if getattr(self, "notice", None) is not scr:
                self.notice = scr
                self._press(["OK"])
        elif getattr(scr, "title", None) == "Partner vanished":
            # a person would see the partner's unit has gone: in a test or a bench that is
            # the failure, not something to wait out
            self._report({"error": "the partner vanished: %s" % self._top()})
        elif runner is not None and hasattr(scr, "keys_for"):
            self._play(scr, runner)
        elif self.path and hasattr(scr, "keys_for"):
            keys = scr.keys_for(self.path.pop(0))
            self.menu_presses += len(keys)
            self._press(keys)

    def _settled(self):
        """Count the keys just pressed once they authored their action; True when the game is
        over (reported) or the keys authored nothing (a failure, reported)."""
        s = self.runner.seat
        if self.waiting is not None:
            before, n, pressed = self.waiting
            if _mark(s) == before:
                now = ticks_ms()
                if pressed is None:      # the first look since the last key was played
                    self.waiting[2] = now
                elif ticks_diff(now, pressed) >= SETTLE_MS * (30 if self.host else 1):
                    self._report({"error": "%d keys authored nothing on %s" % (
                        n, self._top())})
                return True
            self.waiting = None
            self.presses.append(n)
            if self.first_move is None:
                self.first_move = self.menu_presses + n
        if s.result() is not None:
            self._report({"result": True})
            return True
        return False

    def _play(self, scr, runner):
        s = runner.seat
        if runner is not self.runner:
            self.runner = runner
            self.bot = make_bot(runner.gid, self.level, s.seed + s.salt, s.player)
        rd = self.reading
        if rd is not None:
            rd.look(scr, s)
        if not s.setup_legal() and not (runner.my_turn() and s.my_turn(acting=True)):
            return
        if rd is not None and not rd.read():
            now = ticks_ms()
            if self.read_from is None:
                self.read_from = now
            if ticks_diff(now, self.read_from) < READ_MS:
                return            # still reading what came since the last choice
        self.read_from = None
        refresh = getattr(scr, "refresh", None)
        if refresh is not None:
            refresh()             # the loop may get here before the screen's own tick has seen
            #                       the partner's move: its offer below must be of this turn
        if getattr(scr, "offer", None) is not None:
            return                # a question the game puts up at its next tick comes first
        if self.moves is not None and len(self.presses) >= self.moves:
            # stop at the choice after the last: the game waits for this player (a screenshot
            # shows what a person looks at while choosing, the turn's question up if it asks:
            # `asking` names it, since a key pressed next is the question's, not the game's)
            q = getattr(scr, "asking", None)
            self._report({"result": False, "asking": q.title if q is not None else None})
            return
        action = self.bot.setup(s) if s.setup_legal() else self.bot.act(s)
        keys = scr.keys_for(action)
        self.waiting = [_mark(s), len(keys), None]
        if self.host:
            self.announced += 1
            self.hub.send(b"U", json.dumps({"ready": self.announced, "keys": keys,
                                            "setup": bool(s.setup_legal())}).encode())
        else:
            self._press(keys)

    def _press(self, keys):
        for k in keys:
            self.hub.queue_key(k)

    def _top(self):
        try:
            return self.app.stack[-1].lines()[:2]
        except Exception as e:  # the report must go out even when the screen cannot say
            return ["(no lines: %s)" % e]

    def _report(self, extra):
        self.done = True
        r = self.runner
        out = {"game": r.gid if r else None, "player": r.seat.player if r else None,
               "level": self.level, "presses": self.presses,
               "menu_presses": self.menu_presses, "first_move": self.first_move}
        rd = self.reading
        if rd is not None:
            out.update({"events": rd.events, "events_unseen": rd.unseen,
                        "unseen_examples": rd.examples, "cut_lines": len(self.drawn.cut),
                        "cut_examples": sorted(self.drawn.cut)[:8]})
        out.update(extra)
        self.hub.send(b"U", json.dumps(out).encode())
        # Keep only what tells this game from a later one: holding the finished runner and
        # the bot kept the whole game on the heap at the home menu, which no board does.
        if r is not None:
            self.last = r.seat.salt
        self.runner = self.bot = None


def _mark(seat):
    # what an authored choice changes: the log (an action) or the set-up choices
    return (len(seat.log), len(seat.setup_choices))


def attach(hub, app, spec):
    hub.app = app  # the heap watch's breakdown reads the app's structures
    hub.on_idle = UxPlayer(hub, app, spec).idle
    return hub.on_idle
