# Run under the MicroPython unix port by `fathom bench bots`: times every bot decision in
# local games (bot vs random) and prints one JSON line per game id and level.
import gc
import json
import sys
import time

from fathom import games
from fathom.games.bots import LEVELS, RandomBot, make_bot
from fathom.games.local import play


class Timed:
    def __init__(self, inner, times):
        self.inner = inner
        self.times = times

    def setup(self, seat):
        return self.inner.setup(seat)

    def act(self, seat):
        t = time.ticks_us()
        a = self.inner.act(seat)
        self.times.append(time.ticks_diff(time.ticks_us(), t))
        return a


def main(gids, n_games):
    for gid in gids:
        eng = games.engine(gid)
        n = eng.PLAYERS[0]
        for level in LEVELS:
            times = []
            for g in range(n_games):
                seed = b"bench%d" % g
                bots = [RandomBot(seed, p) for p in range(n)]
                me = g % n
                bots[me] = Timed(make_bot(gid, level, seed, me), times)
                play(eng, eng.options(), n, seed, bots)
                gc.collect()
            times.sort()
            print(json.dumps({"game": gid, "level": level, "moves": len(times),
                              "median_ms": times[len(times) // 2] / 1000 if times else 0,
                              "worst_ms": times[-1] / 1000 if times else 0}))


main(sys.argv[1].split(","), int(sys.argv[2]))
