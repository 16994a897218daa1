# Host only: a scripted player inside an emulated unit, for `fathom bench ux` and the end-to-end
# tests. It chooses like a person with a plan: a bot of the given level picks the action (a
# target square, then what to do there), the screen says which keys author it (keys_for), and
# those keys are pressed through the Pin twin, so the button driver, the app and the screen
# handle them exactly as they would a thumb's. It counts presses per action and reports them
# to the host as one JSON line (hub message "U") when the game ends.
#
# FATHOM_UXPLAYER="level=sharp,path=PING/vs bot: sharp,moves=6": `path` is the menu items to
# open from the home menu ("/"-separated label prefixes), `level` the bot that decides, `moves`
# (optional) how many choices to make before it stops and reports (a screenshot mid-game). With
# no path it waits for a game (a test pairs the units through the keys first) and plays it.
import json

from fathom.games.bots import make_bot


def parse(spec):
    out = {"level": "sharp", "path": [], "moves": None}
    for part in spec.split(","):
        k, _, v = part.partition("=")
        if k == "path":
            out["path"] = [p for p in v.split("/") if p]
        elif k == "level":
            out["level"] = v
        elif k == "moves":
            out["moves"] = int(v)
        elif part:
            raise ValueError("FATHOM_UXPLAYER: unknown part %r" % part)
    return out


class UxPlayer:
    def __init__(self, hub, app, spec):
        cfg = parse(spec)
        self.hub = hub
        self.app = app
        self.level = cfg["level"]
        self.path = cfg["path"]
        self.moves = cfg["moves"]
        self.bot = None
        self.runner = None
        self.waiting = None      # (mark before, keys pressed): an action is being keyed in
        self.presses = []        # keys per authored action (set-up choices included)
        self.menu_presses = 0
        self.first_move = None   # presses from power-on to the first authored choice
        self.done = False

    def idle(self):
        """Called by the hub whenever no press is queued or playing."""
        if self.done:
            return
        if self.runner is not None and self._settled():
            return
        scr = self.app.stack[-1]
        runner = getattr(scr, "runner", None)
        if runner is not None and hasattr(scr, "keys_for"):
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
            before, n = self.waiting
            if _mark(s) == before:
                self._report({"error": "%d keys authored nothing on %s" % (
                    n, self.app.stack[-1].lines()[:2])})
                return True
            self.waiting = None
            self.presses.append(n)
            if self.first_move is None:
                self.first_move = self.menu_presses + n
        if s.result() is not None:
            self._report({"result": True})
            return True
        if self.moves is not None and len(self.presses) >= self.moves:
            self._report({"result": False})
            return True
        return False

    def _play(self, scr, runner):
        s = runner.seat
        if runner is not self.runner:
            self.runner = runner
            self.bot = make_bot(runner.gid, self.level, s.seed + s.salt, s.player)
        if s.setup_legal():
            action = self.bot.setup(s)
        elif s.my_turn() and s.to_move()[1] == "act":
            action = self.bot.act(s)
        else:
            return
        keys = scr.keys_for(action)
        self.waiting = (_mark(s), len(keys))
        self._press(keys)

    def _press(self, keys):
        for k in keys:
            self.hub.queue_key(k)

    def _report(self, extra):
        self.done = True
        out = {"game": self.runner.gid if self.runner else None, "presses": self.presses,
               "menu_presses": self.menu_presses, "first_move": self.first_move}
        out.update(extra)
        self.hub.send(b"U", json.dumps(out).encode())


def _mark(seat):
    # what an authored choice changes: the log (an action) or the set-up choices
    return (len(seat.log), len(seat.setup_choices))


def attach(hub, app, spec):
    hub.on_idle = UxPlayer(hub, app, spec).idle
