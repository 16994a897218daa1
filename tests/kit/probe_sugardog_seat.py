# Run under the 32-bit MicroPython (runner/test_sugardog_group_memory.py): ONE seat of a Sugar Dog
# group game, as a unit holds it, fed the other players' events from a transcript made on
# CPython. The seat journals into storage (the unit's FileJournal), its own bot decides from
# its view, every event it authors must equal the transcript's, and at the end it audits every
# other player from their reveals. Prints one line "seatprobe {json}": events, the live heap
# after gc at every event (the largest, and after the imports), the largest heap block and the
# C stack peak (with the project runtime's fathomprobe), and the verdicts.
# Transcript records (each a 2-byte big-endian length, then the codec encoding):
#   [seed, n, calm, bot level]; [author, event, ck] per event; then per player
#   ["r", player, salt, set-up choices, k] and its k actions, one record each (streamed into
#   the audit, as a unit receives a reveal in chunks: no list of a whole game's actions).
import gc
import json
import sys
import time

from fathom.codec import decode
from fathom.games.bots import make_bot
from fathom.games.seat import Seat
from fathom.games.sugardog.engine import ENGINE
from fathom.hal.storage import Storage
from fathom.journal import FileJournal
from fathom.prng import Prng
from fathom.games.audit import audit

try:
    import fathomprobe
except ImportError:
    fathomprobe = None


def records(path):
    with open(path, "rb") as f:
        while True:
            head = f.read(2)
            if not head:
                return
            yield decode(f.read(head[0] << 8 | head[1]))


def take(it, k):
    for _i in range(k):
        yield next(it)


def live():
    gc.collect()
    return gc.mem_alloc()


def main(path, me, root):
    it = records(path)
    seed, n, calm, level = next(it)
    bot = make_bot("sugardog", level, seed, me)   # loads the bot module, as a unit's menu does
    base = live()
    if fathomprobe:
        fathomprobe.reset()
    opts = ENGINE.options({"calm": calm})
    store = Storage(root)
    journal = FileJournal.create(store, "game", ["sugardog-probe", me])
    seat = Seat(ENGINE, opts, n, seed, me, Prng(seed, b"salt%d" % me).token(16), journal)
    peak = live()
    audit_alloc = None
    events = 0
    verdicts = {}
    t0 = time.ticks_ms()
    for rec in it:
        if rec[0] == "r":
            if audit_alloc is None and fathomprobe:
                play_alloc = fathomprobe.max_alloc()
                fathomprobe.reset()
            audit_alloc = 0
            acts = take(it, rec[4])
            if rec[1] != me:
                verdicts[rec[1]] = audit(seat, rec[1], [rec[2], rec[3], acts])
                peak = max(peak, live())
            for _a in acts:   # whatever the audit left unread
                pass
            continue
        author, event, ck = rec
        if author == me:
            while seat.setup_legal():
                seat.setup_choose(bot.setup(seat))
            t = seat.to_move()
            mine = seat.author(bot.act(seat) if t[1] == "act" else None)
            if mine != event or seat.ck != ck:
                raise AssertionError("event %d: the seat authored %r, the transcript has %r"
                                     % (events, mine, event))
        else:
            seat.receive(author, event, ck)
        events += 1
        peak = max(peak, live())
    out = {"player": me, "ms": time.ticks_diff(time.ticks_ms(), t0), "events": events, "result": list(seat.result()),
           "base": base, "peak": peak, "peak_over_base": peak - base,
           "verdicts": [[p, verdicts[p]] for p in sorted(verdicts)],
           "play_alloc": play_alloc if fathomprobe else None,
           "audit_alloc": fathomprobe.max_alloc() if fathomprobe else None,
           "stack_peak": fathomprobe.stack_peak() if fathomprobe else None}
    print("seatprobe " + json.dumps(out))


main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
