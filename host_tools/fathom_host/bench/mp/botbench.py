# Run under the frozen 32-bit runtime by `fathom bench bots`: times every decision of a bot
# level in local games against the sharp bot (the level's own seat alternating) and prints one
# JSON line per game id and level, with the pace kernel's median time (pace.py), run after every
# PACE_EVERY-th decision, from which the host scales the times to the ESP32 estimate.
# The figures live in fixed space (a long game such as Periplus makes tens of thousands of
# decisions, and a list that grows with them runs out of heap in the middle of the bench): the
# count and the worst are exact, the median comes from a sample of at most SAMPLE decisions
# that is halved (every other kept) each time it fills. Time is bounded too: a level stops at the
# first decision after its budget (the game in progress ends there), so `games` counts the games
# begun.
import gc
import json
import sys
import time
from array import array

from fathom import games
from fathom.games.bots import LEVELS, make_bot
from fathom.games.local import play
from pace import kernel   # (this folder: the script's own)

SAMPLE = 1024
PACE_EVERY = 16


class Timings:
    def __init__(self):
        self.buf = array("I", bytes(4 * SAMPLE))
        self.n = 0        # decisions timed
        self.kept = 0     # of them in buf
        self.stride = 1   # buf keeps every stride-th decision
        self.worst = 0

    def add(self, us):
        self.worst = max(self.worst, us)
        if self.n % self.stride == 0:
            if self.kept == SAMPLE:
                for i in range(SAMPLE // 2):
                    self.buf[i] = self.buf[2 * i]
                self.kept = SAMPLE // 2
                self.stride *= 2
            if self.n % self.stride == 0:
                self.buf[self.kept] = us
                self.kept += 1
        self.n += 1

    def median(self):
        if not self.kept:
            return 0
        s = sorted(self.buf[:self.kept])
        return s[self.kept // 2]


class Spent(Exception):
    """The level's time is up: the game in progress ends here, its decisions timed so far."""


class Timed:
    def __init__(self, inner, timings, paces, until):
        self.inner = inner
        self.timings = timings
        self.paces = paces
        self.until = until   # ticks_ms after which the next decision ends the level

    def setup(self, seat):
        return self.inner.setup(seat)

    def act(self, seat):
        if self.timings.n and time.ticks_diff(time.ticks_ms(), self.until) > 0:
            raise Spent()  # (at least one decision is timed, however slow the machine)
        t = time.ticks_us()
        a = self.inner.act(seat)
        self.timings.add(time.ticks_diff(time.ticks_us(), t))
        if self.timings.n % PACE_EVERY == 1:
            self.paces.add(kernel())
        return a


def main(gids, n_games, budget_s):
    for gid in gids:
        eng = games.engine(gid)
        n = max(2, eng.PLAYERS[0])   # Pinned Down: the bot as a partner, as "with bot" plays
        for level in LEVELS:
            # time bounds the bench as the sample bounds its memory: a slow game on a busy
            # machine reports fewer decisions rather than none
            tm = Timings()
            paces = Timings()
            until = time.ticks_add(time.ticks_ms(), budget_s * 1000)
            played = 0
            for g in range(n_games):
                seed = b"bench%d" % g
                bots = [make_bot(gid, "sharp", seed, p) for p in range(n)]
                me = g % n
                bots[me] = Timed(make_bot(gid, level, seed, me), tm, paces, until)
                played += 1
                try:
                    play(eng, eng.options(), n, seed, bots)
                except Spent:
                    break
                finally:
                    gc.collect()
            print(json.dumps({"game": gid, "level": level, "games": played, "moves": tm.n,
                              "median_ms": tm.median() / 1000, "worst_ms": tm.worst / 1000,
                              "kernel_us": paces.median()}))


main(sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]))
