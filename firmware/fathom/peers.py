# The other players as the runner sees them: each a peer with send(msg), recv() and tick(now).
# Every message crosses a codec round trip, so an in-unit bot shares no objects with the player
# and gets exactly what a second unit would get over the link.
from fathom.codec import decode, encode
from fathom.hal.clock import ticks_add, ticks_diff


class Pipe:
    """One end of an in-memory message pipe (tests, and the bot's side of BotPeer)."""

    def __init__(self):
        self.inbox = []
        self.other = None

    def send(self, msg):
        self.other.inbox.append(encode(msg))

    def recv(self):
        return decode(self.inbox.pop(0)) if self.inbox else None

    def tick(self, now):
        pass

    def save(self):
        return None


def pipe_pair():
    a, b = Pipe(), Pipe()
    a.other, b.other = b, a
    return a, b


class BotPeer:
    """A bot playing another seat inside this unit through its own Runner and Seat, as if it
    were a second unit: the same engine calls, the same reveal and audit at the end. With
    storage, the bot's seat keeps its own journal file (runner.side_name), so a reboot gives
    it back its secrets and actions; without, an in-memory one."""
    THINK_MS = 250  # a pause before each bot action so a person can follow the game

    def __init__(self, runner_cls, seat, bot, level, storage=None, gid="", runner=None):
        self.near, far = pipe_pair()
        if runner is None:
            from fathom.runner import side_name
            runner = runner_cls(seat, [far], storage, gid, {"vs": "bot", "level": level},
                                name=side_name(seat.player))
        else:
            runner.peers = [far]
        self.runner = runner
        self.bot = bot
        self.level = level
        self.ready_at = None

    def send(self, msg):
        self.near.send(msg)

    def recv(self):
        return self.near.recv()

    def tick(self, now):
        r = self.runner
        r.tick(now)
        s = r.seat
        while s.setup_legal():
            r.setup_choose(self.bot.setup(s))
        r.tick(now)
        if s.result() is None and s.my_turn(acting=True):
            if self.ready_at is None:
                self.ready_at = ticks_add(now, self.THINK_MS)
            if ticks_diff(now, self.ready_at) >= 0:
                self.ready_at = None
                r.play(self.bot.act(s))
                r.tick(now)

    def save(self):
        # Fixed at the start: the bot's seat journals itself under its own name.
        return {"kind": "bot", "level": self.level, "player": self.runner.seat.player}

    def clear(self):
        self.runner.clear()

    @staticmethod
    def restore(runner_cls, storage, engine_for, saved, make_bot):
        """The bot peer from its saved descriptor and its own journal; raises if that is
        missing or does not replay (the caller sets the game aside)."""
        from fathom.runner import load, side_name
        r = load(storage, engine_for, side_name(saved["player"]))
        if r is None:
            raise ValueError("the bot's journal %s is missing" % side_name(saved["player"]))
        return BotPeer(runner_cls, r.seat, make_bot(r.seat), saved["level"], runner=r)


def vs_bots(runner_cls, storage, gid, opts, level, seed, n):
    """A new game saved to storage: this unit's player 0 against (or with) n-1 bots, each
    behind its own runner and seat, as the game menu starts it; the runner is returned. Every
    seat is on this unit, so the options that protect one unit from another are off."""
    from fathom import games
    from fathom.games.base import local_options
    from fathom.games.bots import make_bot
    from fathom.games.seat import Seat
    from fathom.link import entropy
    eng = games.engine(gid)
    opts = local_options(opts)
    me = Seat(eng, opts, n, seed, 0, entropy.token(16))
    runner = runner_cls(me, [], storage, gid, {"vs": "bot", "level": level})
    for p in range(1, n):
        bot_seat = Seat(eng, opts, n, seed, p, entropy.token(16))
        runner.peers.append(BotPeer(runner_cls, bot_seat, make_bot(gid, level, seed, p), level,
                                    storage, gid))
    runner.save()
    return runner
