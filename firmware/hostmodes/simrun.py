# Headless bot matches on a unit for `fathom sim --link espnow|uart`: the same Connector,
# channel, runner and engines as a person's game, with a bot choosing and no screen. One JSON
# line per game on stdout ("fathom-sim {...}"); the host tallies them.
import binascii
import gc
import json
import os

from fathom import games
from fathom.hal.clock import now_ms, sleep_ms, ticks_add, ticks_diff
from fathom.games.seat import Seat
from fathom.hal.storage import Storage
from fathom.link import entropy
from fathom.link.connect import Connector, game_opts
from fathom.link.peer import open_transport
from fathom.runner import Runner

# A game that cannot even pair in this time (per partner the host pairs with, one after the
# other: a group's last partner waits for all before it) is reported and skipped.
PAIR_MS = 60000
DRAIN_MS = 1500       # keep the finished game's channel alive so the peer gets our last acks
# A finished unit keeps ticking (as a unit does on its result screen) until everything it queued
# was acknowledged, at most this long: a group's host has queued the reveals it relays, which
# take a while at 20 % loss, and a host that left at once had partners count them "withheld".
DELIVER_MS = 60000
# A game in progress says how far its log got at most this often ("fathom-sim-progress N"): the
# host stops a run only when no unit said anything for its limit, so a long game that moves (an
# 8-unit group of random bots, ~2,000 events, took longer than that limit on a loaded machine,
# and was stopped mid-game as though it had stalled) is not taken for a stalled one.
PROGRESS_MS = 15000


def _env(k, default=None):
    v = os.getenv(k)
    return default if v is None else v


def _hex(b):
    return binascii.hexlify(bytes(b)).decode()


def _bot(gid, level, seed, player):
    from fathom.games.bots import make_bot
    return make_bot(gid, level, seed, player)


class _Counted(Storage):
    """Storage that notes the largest whole-file write (a link's saved channel, mostly)."""
    biggest = 0

    def write(self, name, data):
        if len(data) > self.biggest:
            self.biggest = len(data)
        Storage.write(self, name, data)


def _pair(c, limit_ms, host_name=None):
    """Pair; the limit (stretched by the machine's pace) counts from the last step forward."""
    state, since = None, now_ms()
    while c.state not in ("ready", "failed"):
        now = now_ms()
        if c.state != state:
            state, since = c.state, now
        elif ticks_diff(now, since) > _pace.stretch(limit_ms):
            c.fail("pairing timed out in %s (machine pace x%.1f)" % (state, _pace.slow))
            break
        c.tick(now)
        c.autopilot(now, host_name)
        _pace.sleep(2)


_heap_at = [None]  # [log length, game over] at the peak
_heap = [0]   # FATHOM_SIM_HEAP=1: the live heap's peak after gc, sampled every loop that changed
_heap_play = [0]  # the same before the result (the peak is usually the reveals and audits)
_queued = [0]  # the most messages any one link held unacknowledged during the game

try:
    import fathomprobe  # the project's 32-bit runtimes: the largest heap block requested
except ImportError:
    fathomprobe = None


def _watch(changed, seat, peers):
    for p in peers:
        ch = getattr(p, "ch", None)
        if ch is not None and ch.pending() > _queued[0]:
            _queued[0] = ch.pending()
    if changed and _heap[0] >= 0:
        gc.collect()
        m = gc.mem_alloc()
        if m > _heap[0]:
            _heap[0] = m
            _heap_at[0] = [seat.n_log, seat.result() is not None]
        if m > _heap_play[0] and seat.result() is None:
            _heap_play[0] = m


class _Pace:
    """How busy the machine is, from the loop itself: a 1 ms sleep that takes 30 ms says other
    processes have the cores. The time limits stretch by that factor (a moving average, at
    least 1), so a game that is slow only because the machine is loaded is not failed."""

    def __init__(self):
        self.slow = 1.0

    def sleep(self, ms):
        t = now_ms()
        sleep_ms(ms)
        r = ticks_diff(now_ms(), t) / ms
        self.slow = max(1.0, self.slow * 0.98 + r * 0.02)

    def stretch(self, ms):
        return int(ms * self.slow)

    def limits(self, runner):
        """The runner's own time limits (a reveal's, a vanished partner's) stretched as the
        sim's: they stand for a device's seconds, and a unit running several times slower
        than one relays a group's reveals several times slower (an 8-unit group at 20 % loss
        on two cores loaded to 17 ruled reveals "withheld" that were still on their way)."""
        runner.reveal_ms = self.stretch(Runner.reveal_ms)
        runner.vanish_ms = self.stretch(Runner.vanish_ms)


_pace = _Pace()


def _progress(runner):
    """What changes while a game moves: its log, the set-up choices, the messages delivered
    (not the frames heard: a stalled game's links still exchange heartbeats, and then only
    the host's backstop, which knows nothing of the game, would ever stop it)."""
    s = runner.seat
    heard = 0
    for p in runner.peers:
        ch = getattr(p, "ch", None)
        if ch is not None:
            heard += ch.stats["delivered"]
    return (len(s.log), len(s.setup_choices), heard)


def _play(runner, bot, limit_ms):
    """Play to the end. The limit is on a game that stopped moving: `limit_ms` (stretched by
    the machine's pace) without a new event or a message delivered, not on a long game."""
    s = runner.seat
    mark, since = None, now_ms()
    told, told_at = 0, since
    while not runner.finished() and runner.desync is None:
        now = now_ms()
        m = _progress(runner)
        if m != mark:
            mark, since = m, now
            if s.n_log > told and ticks_diff(now, told_at) >= PROGRESS_MS:
                told, told_at = s.n_log, now
                print("fathom-sim-progress %d" % told)
        elif ticks_diff(now, since) > _pace.stretch(limit_ms):
            return "no progress for %d s (machine pace x%.1f)" % (
                ticks_diff(now, since) // 1000, _pace.slow)
        while s.setup_legal():
            runner.setup_choose(bot.setup(s))
        _pace.limits(runner)
        _watch(runner.tick(now), s, runner.peers)
        if s.result() is None and runner.my_turn() and s.my_turn(acting=True):
            runner.play(bot.act(s))
        _pace.sleep(1)
    return None


def _drain(runner, ms):
    end = ticks_add(now_ms(), DELIVER_MS)  # now_ms wraps like ticks_ms: compare with ticks_diff
    while ticks_diff(now_ms(), end) < 0 and any(
            p.ch.pending() for p in runner.peers if hasattr(p, "ch")):
        _pace.limits(runner)
        runner.tick(now_ms())
        sleep_ms(2)
    end = ticks_add(now_ms(), ms)
    while ticks_diff(now_ms(), end) < 0:
        runner.tick(now_ms())
        sleep_ms(2)


def main(profile, root):
    gid = _env("FATHOM_SIM")
    lead = _env("FATHOM_SIM_LEAD") == "1"
    n_games = int(_env("FATHOM_SIM_GAMES", "1"))
    level = _env("FATHOM_SIM_BOT", "random")
    timeout_ms = int(_env("FATHOM_SIM_TIMEOUT_MS", "600000"))
    kind = _env("FATHOM_LINK", "espnow")
    opts = json.loads(_env("FATHOM_SIM_OPTS", "{}")) if lead else None
    players = int(_env("FATHOM_SIM_PLAYERS", "2"))
    lent = _env("FATHOM_SIM_LENT") == "1" and not lead  # lent as a bot opponent
    storage = _Counted(root)
    _heap[0] = 0 if _env("FATHOM_SIM_HEAP") == "1" else -1
    t = open_transport(kind, profile)
    name = "SIM" + _env("FATHOM_UNIT", "0")
    for g in range(n_games):
        out = {"game": g}
        join = players > 2 and not lead and not lent  # a group's partners join the lead unit
        if lent:  # as "Play as bot" does: whoever hails it, a group's host too
            from fathom.link.lent import LentConnector
            c = LentConnector(t, kind, name, storage, now_ms())
        else:
            c = Connector(t, kind, name, storage, gid if lead or join else None, opts, now_ms(),
                          players=players if lead else 2, join=join)
        _pair(c, PAIR_MS * max(1, players - 1), "SIM0" if join else None)
        if c.state != "ready":
            out["error"] = "pairing: %s" % c.error
            print("fathom-sim " + json.dumps(out))
            continue
        game = c.setup.game if c.setup is not None else c.gid
        eng = games.engine(game)
        opts_used = c.setup.opts if c.setup is not None else c.opts
        seat = Seat(eng, eng.options(game_opts(opts_used)), c.group(), c.seed, c.player,
                    entropy.token(16))
        peers = c.peers(storage)
        # The journal in a file, as on a unit, when measuring the heap or for a large group
        # (in RAM it holds every event: an 8-player game's 2,000 outgrew a 4 MB heap).
        on_file = _heap[0] >= 0 or seat.n > 4
        runner = Runner(seat, peers, storage if on_file else None, game,
                        relay=len(peers) > 1)
        bot = _bot(game, level, c.seed + seat.salt, seat.player)
        c = None  # as the app does once the game starts: the pairing's state leaves the heap
        gc.collect()
        _queued[0] = storage.biggest = 0
        if fathomprobe is not None:
            fathomprobe.reset()
        err = _play(runner, bot, timeout_ms)
        peer = peers[0]
        if err:
            ch = peer.ch
            err = "%s: log %d, to move %r, result %r, verdicts %r, channel %s pending %d %r" % (
                err, len(seat.log), seat.to_move(), seat.result(), runner.verdicts, ch.state,
                ch.pending(), ch.stats)
        _drain(runner, DRAIN_MS)
        res = seat.result()
        st = {}
        for k in ("frames_sent", "bytes_sent", "retransmits"):
            st[k] = sum(p.ch.stats[k] for p in peers)
        out.update({
            "player": seat.player, "bot": level, "error": err,
            "winners": res[0] if res else None, "reason": res[1] if res else None,
            "desync": list(runner.desync) if runner.desync else None,
            "verdicts": [[p, v if v is None or isinstance(v, str) else list(v)]
                         for p, v in runner.verdicts.items()],
            "hash": seat.short_hash().hex(), "events": len(seat.log),
            "turns": len(seat.actions), "frames": st["frames_sent"], "bytes": st["bytes_sent"],
            "retransmits": st["retransmits"], "problem": runner.problem,
            "links": [[p.ch.stats["retransmits"], p.ch.stats["frames_sent"],
                       p.ch.stats["delivered"]] for p in peers],
        })
        out["max_queued"] = _queued[0]
        out["max_write"] = storage.biggest
        if fathomprobe is not None:
            out["max_alloc"] = fathomprobe.max_alloc()  # the game and its drain, twins held
        if _heap[0] >= 0:
            out["peak_heap"] = _heap[0]
            out["peak_at"] = _heap_at[0]
            out["peak_play"] = _heap_play[0]
            _heap[0] = _heap_play[0] = 0
        print("fathom-sim " + json.dumps(out))
        if on_file:
            runner.clear()
        if _env("FATHOM_SIM_DUMP") == "1":  # what this unit holds, for the secrecy tests
            print("fathom-sim-seat " + json.dumps({
                "game": g, "gid": game, "player": seat.player, "seed": _hex(seat.seed),
                "salt": _hex(seat.salt), "opts": seat.opts}))
        # As the app does when its player leaves the result: the next pairing starts with the
        # game's heap free (a host pairing its second game beside the first one's runner and
        # seven channels ran out of a 96 KB heap, which no unit does).
        runner = seat = peers = peer = bot = out = st = None
        gc.collect()
    t.close()
