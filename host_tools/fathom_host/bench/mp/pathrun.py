# Run under the frozen 32-bit runtime by `fathom bench path`: the Python of a move's path between
# two units, without the loop waits or the radio. Two runners (real seats, journals, keyed
# channels, LinkPeers and file storage under ROOT, a RAM-backed folder so the figures are the
# interpreter's, not a disk's), each with its game's own screen on a 128x64 SSD1306 driver whose
# I2C bus takes the bytes and does nothing (their time on the wire is the estimate's I2C term),
# play one game with sharp bots over an in-memory radio, in the app's order (tick, the screen's
# tick and redraw, late()). For each move it times, on the wall clock:
#   a: the author's key to its frame out (the play, then its tick);
#   b: the partner's tick, which takes the frame in up to what its screen draws: with its
#      answer authored and sent when the rules ask for one (b_answer), or alone (b_move);
#   redraw: the partner's screen then (App.step and App.redraw: the screen's tick, fill(0),
#      its draw, which works out what the event changed, and show(), which finds the bytes
#      that changed), after a move it answered (redraw_answer) or only took in (redraw_move);
#   late: the partner's receipts after its redraw (the journal's records, channel save, ack);
# and counts the files each opens (a journal append, or a save's write) and renames (a save).
# Two things keep the figures the interpreter's own on a shared machine whose speed moves by a
# third within a second: the time spent inside the file system's calls is taken out (on a board
# those are the flash writes, which the estimate counts apart), and every move's times are
# scaled to one reference pace by a fixed piece of work timed just before and after it
# (kernel(), tied to pystone in pace.py). Prints one JSON line.
import json
import os
import sys
import time

from fathom import games
from fathom.games.bots import make_bot
from fathom.games.seat import Seat
from fathom.hal.display import SSD1306
from fathom.hal.storage import Storage
from fathom.link.channel import Channel
from fathom.link.peer import LinkPeer, frame_sender
from fathom.runner import Runner
from hostmodes.wire import Air
from pace import REF_PYSTONES, REF_US, kernel   # (this folder: the script's own)

GID, ROOT = sys.argv[1], sys.argv[2]
MOVES = int(sys.argv[3])
KEY = b"p" * 32
MACS = (b"\xaa" * 6, b"\xbb" * 6)
files = [0, 0]  # opens, renames
fs_us = [0]     # time inside the file system's calls


def _timed(f, *a):
    t0 = time.ticks_us()
    try:
        return f(*a)
    finally:
        fs_us[0] += time.ticks_diff(time.ticks_us(), t0)


class TimedFile:
    def __init__(self, f):
        self.f = f

    def __getattr__(self, name):
        m = getattr(self.f, name)
        return lambda *a: _timed(m, *a)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        return iter(self.f)


class Counted(Storage):
    def _open(self, path, mode):
        files[0] += 1
        return TimedFile(_timed(Storage._open, self, path, mode))

    def _rename(self, src, dst):
        files[1] += 1
        return _timed(Storage._rename, self, src, dst)


class Bus:
    """The panel's I2C bus: the bytes' time on the wire is the estimate's I2C term."""

    def writeto(self, addr, buf):
        pass

    def writevto(self, addr, bufs):
        pass


class Flow:
    """The screens around a game (flow/play.py): the bench times the game's own screen; at
    the game's end (the last move) the result screen would replace it, which it leaves."""

    def ended(self, app, runner):
        pass

    def silent_partner(self, app, game):
        pass


class Hw:
    pass


class App:
    """What a game screen reads of the app (fathom/app.py): the display, the link's state, the
    screen stack and the services a screen may add (Periplus's answer clock, not ticked here:
    the bots answer)."""

    def __init__(self):
        self.hw = Hw()
        self.hw.display = SSD1306(Bus(), 128, 64)
        self.link_state = "linked"
        self.services = []
        self.stack = []
        self.rows = 8
        self.settings = {}
        self.flow = Flow()

    def game_flow(self):
        return self.flow

    def push(self, screen):   # a sealed deal's progress over the game (ui/gamebase.py)
        self.stack.append(screen)

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()

    def replace(self, screen):
        self.stack[-1] = screen

    def redraw(self, now):
        """App.step's screen tick, then App.redraw."""
        scr = self.stack[-1]
        scr.tick(now)
        d = self.hw.display
        d.fill(0)
        scr.draw(d)
        d.show()


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def p90_us(xs):
    """The 90th percentile: the bad case's redraw (a move that changes more of the screen)."""
    xs = sorted(xs)
    return round(xs[len(xs) * 9 // 10]) if xs else None


def median_us(xs):
    m = median(xs)
    return None if m is None else round(m)


GAMES = 12  # games played, new seeds each, until MOVES moves are timed (a Sugar Dog game
            # between two sharp bots can end in four moves)
LISTS = ("a", "b_answer", "b_move", "late", "paces", "redraw_answer", "redraw_move",
         "files_a", "files_answer", "files_move", "files_late")


def play(g, m):
    """One game under seed g, its moves' figures appended to the lists in m."""
    eng = games.engine(GID)
    seed = b"path%d" % g
    air = Air()
    radios = [air.radio(MACS[0]), air.radio(MACS[1])]
    runners = []
    apps = []
    for p in range(2):
        root = "%s/g%du%d" % (ROOT, g, p)
        os.mkdir(root)
        st = Counted(root)
        ch = Channel(frame_sender(radios[p], MACS[1 - p]), KEY, 7, 0, p)
        r = Runner(Seat(eng, eng.options(), 2, seed, p, b"salt%d" % p),
                   [LinkPeer(radios[p], MACS[1 - p], ch, st, "espnow")], st, GID)
        r.draw_first = True
        r.services = [r]  # as flow/play.show leaves them, before the screen is built
        runners.append(r)
        app = App()
        app.stack.append(games.part(GID, "screen").screen(app, r))
        app.redraw(0)
        apps.append(app)
    bots = [make_bot(GID, "sharp", seed, p) for p in range(2)]
    now = 0
    while runners[0].seat.result() is None and len(m["a"]) < MOVES:
        now += 10
        for i, r in enumerate(runners):
            s = r.seat
            while s.setup_legal():
                r.setup_choose(bots[i].setup(s))
            t = s.to_move()
            if t is not None and t[0] == s.player and t[1] == "act" and r.my_turn():
                act = bots[i].act(s)
                other = runners[1 - i]
                k0 = kernel()
                files[:] = [0, 0]
                fs_us[0] = 0
                t0 = time.ticks_us()
                r.play(act)
                r.tick(now)
                t1 = time.ticks_us()
                fa, fs_a = tuple(files), fs_us[0]
                apps[i].redraw(now)   # the author's own screen, after its frame is out
                tb = time.ticks_us()
                files[:] = [0, 0]
                fs_us[0] = 0
                n = other.seat.n_log
                other.tick(now)
                t2 = time.ticks_us()
                fb, fs_b = tuple(files), fs_us[0]
                files[:] = [0, 0]
                fs_us[0] = 0
                apps[1 - i].redraw(now)
                t2d = time.ticks_us()
                other.late(now)
                t3 = time.ticks_us()
                fs_late = fs_us[0]
                scale = 2 * REF_US / (k0 + kernel())  # this move's times at the reference pace
                m["paces"].append(REF_PYSTONES * scale)
                m["a"].append((time.ticks_diff(t1, t0) - fs_a) * scale)
                m["files_a"].append(fa)
                answered = other.seat.n_log > n + 1
                b = (time.ticks_diff(t2, tb) - fs_b) * scale
                m["b_answer" if answered else "b_move"].append(b)
                m["files_answer" if answered else "files_move"].append(fb)
                m["redraw_answer" if answered else "redraw_move"].append(
                    time.ticks_diff(t2d, t2) * scale)
                if not answered:
                    m["late"].append((time.ticks_diff(t3, t2d) - fs_late) * scale)
                    m["files_late"].append(tuple(files))
            if r.tick(now):
                apps[i].redraw(now)   # (App.step: a change redraws, then late())
            r.late(now)


def main():
    m = {k: [] for k in LISTS}
    g = 0
    while len(m["a"]) < MOVES and g < GAMES:
        play(g, m)
        g += 1
    print(json.dumps({
        "game": GID, "games": g, "moves": len(m["a"]), "pystones": median_us(m["paces"]),
        "a_us": median_us(m["a"]), "b_answer_us": median_us(m["b_answer"]),
        "b_move_us": median_us(m["b_move"]), "late_us": median_us(m["late"]),
        "redraw_answer_us": median_us(m["redraw_answer"]),
        "redraw_move_us": median_us(m["redraw_move"]),
        "redraw_answer_p90_us": p90_us(m["redraw_answer"]),
        "redraw_move_p90_us": p90_us(m["redraw_move"]),
        "answered": len(m["b_answer"]),
        "files_a": median(m["files_a"]), "files_b_answer": median(m["files_answer"]),
        "files_b_move": median(m["files_move"]), "files_late": median(m["files_late"])}))


main()
