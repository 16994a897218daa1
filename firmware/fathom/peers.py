# The other players as the runner sees them: each a peer with send(msg), recv() and tick(now).
# Every message crosses a codec round trip, so an in-unit bot shares no objects with the player
# and gets exactly what a second unit would get over the link.
from fathom.codec import decode, encode


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
    were a second unit: the same engine calls, the same reveal and audit at the end."""
    THINK_MS = 250  # a pause before each bot action so a person can follow the game

    def __init__(self, runner_cls, seat, bot, level):
        self.near, far = pipe_pair()
        self.runner = runner_cls(seat, [far])
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
        if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
            if self.ready_at is None:
                self.ready_at = now + self.THINK_MS
            if now - self.ready_at >= 0:
                self.ready_at = None
                r.play(self.bot.act(s))
                r.tick(now)

    def save(self):
        # The bot's log is the player's log: only its own inputs are saved, and the seat is
        # rebuilt from the player's saved game (half the bytes written on every event).
        r = self.runner
        s = r.seat
        return {"kind": "bot", "level": self.level, "player": s.player, "salt": s.salt,
                "setup": s.setup_choices, "actions": s.actions, "reveals": r.reveals,
                "revealed": r.revealed}

    @staticmethod
    def restore(runner_cls, engine, saved, make_bot, game):
        """`game` is the player's Seat.save(): same options, seed and log."""
        from fathom.games.seat import restore
        d = dict(game)
        for k in ("player", "salt", "setup", "actions"):
            d[k] = saved[k]
        seat = restore(engine, d)
        peer = BotPeer(runner_cls, seat, make_bot(seat), saved["level"])
        peer.runner.reveals = saved.get("reveals", {})
        peer.runner.revealed = saved.get("revealed", False)
        return peer
