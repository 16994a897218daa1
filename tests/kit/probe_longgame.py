# Run under a 32-bit MicroPython (tests/runner/test_journal_memory.py): one long game, the player's
# Runner and Seat with storage against an in-unit bot (its own journal too), random bots.
# Prints one line "longgame {json}": the events, the largest single write to storage and the
# largest in the first and second halves of the game, and with the fathomprobe module (the
# project's runtime build) the largest heap block requested during play, resume and audit.
import gc
import json
import os
import sys

from fathom import games
from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.hal.storage import Storage
from fathom.peers import BotPeer
from fathom.runner import Runner, load
from kit.play import bot_step

try:
    import fathomprobe
except ImportError:
    fathomprobe = None


class _Counted:
    def __init__(self, f, st):
        self.f = f
        self.st = st

    def write(self, data):
        n = len(data)
        if n > self.st.biggest:
            self.st.biggest = n
        return self.f.write(data)

    def read(self, *a):
        return self.f.read(*a)

    def seek(self, *a):
        return self.f.seek(*a)

    def close(self):
        self.f.close()


class Counted(Storage):
    biggest = 0

    def _open(self, path, mode):
        return _Counted(Storage._open(self, path, mode), self)


def peak():
    return fathomprobe.max_alloc() if fathomprobe else None


def reset():
    gc.collect()
    if fathomprobe:
        fathomprobe.reset()


def main(gid, root, min_events):
    eng = games.engine(gid)
    st = Counted(root)
    seed = b"long-" + gid.encode()
    while True:
        me = Runner(Seat(eng, eng.options(), 2, seed, 0, b"salt-zero-000000"), [], st, gid,
                    {"vs": "bot"})
        me.peers.append(BotPeer(Runner, Seat(eng, eng.options(), 2, seed, 1, b"salt-one-0000000"),
                                RandomBot(seed, 1), "random", st, gid))
        me.save()
        bot = RandomBot(seed, 0)
        out = {"gid": gid, "halves": [0, 0], "play_alloc": [0, 0]}
        now = 0
        reset()
        half = 0
        while not (me.finished() and me.peers[0].runner.finished()):
            now += 300
            s = me.seat
            bot_step(me, bot, now)
            if half == 0 and s.n_log >= 60:   # the first events, then everything after
                out["halves"][0] = st.biggest
                out["play_alloc"][0] = peak()
                st.biggest = 0
                reset()
                half = 1
            if now > 300 * 200000:
                raise AssertionError("no end")
        out["halves"][1] = st.biggest
        out["play_alloc"][1] = peak()
        out["events"] = me.seat.n_log
        out["actions"] = me.seat.n_actions
        out["journal_bytes"] = os.stat(root + "/game")[6]
        out["verdicts"] = [me.verdicts, me.peers[0].runner.verdicts]
        if me.seat.n_log >= min_events:
            break
        me.clear()
        seed += b"+"
    del me
    reset()
    back = load(st, games.engine)
    out["resume_alloc"] = peak()
    out["resumed_equal"] = back.seat.n_log == out["events"]
    reset()
    back.verdicts = {}
    back._audit_pending()
    out["audit_alloc"] = peak()
    out["audit_again"] = back.verdicts
    print("longgame " + json.dumps(out))


main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
