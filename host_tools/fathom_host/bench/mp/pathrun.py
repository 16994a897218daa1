# Run under the frozen 32-bit runtime by `fathom bench path`: the Python of a move's path between
# two units, without the loop waits, the radio or the screen. Two runners (real seats, journals,
# keyed channels, LinkPeers and file storage under ROOT, a RAM-backed folder so the figures are
# the interpreter's, not a disk's) play one game with sharp bots over an in-memory radio, in the
# app's order (tick, redraw, late()). For each move it times, on the wall clock:
#   a: the author's key to its frame out (the play, then its tick);
#   b: the partner's tick, which takes the frame in up to what its screen draws: with its
#      answer authored and sent when the rules ask for one (b_answer), or alone (b_move);
#   late: the partner's receipts after its redraw (the journal's records, channel save, ack);
# and counts the files each opens (a journal append, or a save's write) and renames (a save).
# Prints one JSON line.
import json
import os
import sys
import time

from fathom import games
from fathom.games.bots import make_bot
from fathom.games.seat import Seat
from fathom.hal.storage import Storage
from fathom.link.channel import Channel
from fathom.link.peer import LinkPeer, frame_sender
from fathom.runner import Runner
from hostmodes.wire import Air

GID, ROOT = sys.argv[1], sys.argv[2]
MOVES = int(sys.argv[3])
KEY = b"p" * 32
MACS = (b"\xaa" * 6, b"\xbb" * 6)
files = [0, 0]  # opens, renames


class Counted(Storage):
    def _open(self, path, mode):
        files[0] += 1
        return Storage._open(self, path, mode)

    def _rename(self, src, dst):
        files[1] += 1
        return Storage._rename(self, src, dst)


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def main():
    eng = games.engine(GID)
    air = Air()
    radios = [air.radio(MACS[0]), air.radio(MACS[1])]
    runners = []
    for p in range(2):
        root = "%s/u%d" % (ROOT, p)
        try:
            os.mkdir(root)
        except OSError:
            pass
        st = Counted(root)
        ch = Channel(frame_sender(radios[p], MACS[1 - p]), KEY, 7, 0, p)
        r = Runner(Seat(eng, eng.options(), 2, b"path", p, b"salt%d" % p),
                   [LinkPeer(radios[p], MACS[1 - p], ch, st, "espnow")], st, GID)
        r.draw_first = True
        runners.append(r)
    bots = [make_bot(GID, "sharp", b"path", p) for p in range(2)]
    a, b_answer, b_move, late = [], [], [], []
    files_a, files_answer, files_move, files_late = [], [], [], []
    now = 0
    while runners[0].seat.result() is None and len(a) < MOVES:
        now += 10
        for i, r in enumerate(runners):
            s = r.seat
            while s.setup_legal():
                r.setup_choose(bots[i].setup(s))
            t = s.to_move()
            if t is not None and t[0] == s.player and t[1] == "act" and r.my_turn():
                act = bots[i].act(s)
                other = runners[1 - i]
                files[:] = [0, 0]
                t0 = time.ticks_us()
                r.play(act)
                r.tick(now)
                t1 = time.ticks_us()
                fa = tuple(files)
                files[:] = [0, 0]
                n = other.seat.n_log
                other.tick(now)
                t2 = time.ticks_us()
                fb = tuple(files)
                files[:] = [0, 0]
                other.late(now)
                t3 = time.ticks_us()
                a.append(time.ticks_diff(t1, t0))
                files_a.append(fa)
                answered = other.seat.n_log > n + 1
                (b_answer if answered else b_move).append(time.ticks_diff(t2, t1))
                (files_answer if answered else files_move).append(fb)
                if not answered:
                    late.append(time.ticks_diff(t3, t2))
                    files_late.append(tuple(files))
            r.tick(now)
            r.late(now)
    print(json.dumps({
        "game": GID, "moves": len(a),
        "a_us": median(a), "b_answer_us": median(b_answer), "b_move_us": median(b_move),
        "late_us": median(late), "answered": len(b_answer),
        "files_a": median(files_a), "files_b_answer": median(files_answer),
        "files_b_move": median(files_move), "files_late": median(files_late)}))


main()
