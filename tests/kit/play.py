# Driving games in tests (CPython and MicroPython alike): runners ticked with bots (the device's
# path: runner, journal, reveal, audit), seats played in one process (local.play's loop, for
# tests that give a seat its own engine or seat class, or look at every event as it goes), and
# seats played by hand, one chosen event at a time (rules and screen tests).
from fathom.games.local import Desync, make_seats, next_author


def bot_step(runner, bot, now):
    """One loop of a bot-driven runner: finish its set-up, tick it, and act when it must."""
    s = runner.seat
    while s.setup_legal():
        runner.setup_choose(bot.setup(s))
    runner.tick(now)
    if s.result() is None and runner.my_turn() and s.to_move()[1] == "act":
        runner.play(bot.act(s))


def drive(runners, bots, until=None, limit=5000, now=0, step=1, order=None, on_step=None):
    """Step every runner with its bot (in `order`, default by index), the clock `step` ms a
    round from `now`, until `until()` (default: every runner finished, audits in). Returns the
    clock then; AssertionError with each runner's log length if it never gets there."""
    order = order or list(range(len(runners)))
    until = until or (lambda: all(r.finished() for r in runners))
    for _ in range(limit):
        now += step
        for i in order:
            bot_step(runners[i], bots[i], now)
        if on_step:
            on_step()
        if until():
            return now
    raise AssertionError("never got there: logs %r" % [r.seat.n_log for r in runners])


def play_seats(seats, bots, on_event=None, until=None, limit=5000):
    """local.play's loop over seats made by the caller (each may run its own engine or be a
    tampered Seat): the next author finishes its set-up, authors its event, every other seat
    receives it with its commitment, and the hashes must agree. on_event(seats, author,
    event, before) after each event, `before` the seats' private states before it (copies);
    stops at the end or when until() holds. Returns the number of events."""
    n = 0
    while seats[0].result() is None and not (until and until()):
        s = next_author(seats)
        if s is None:
            raise Desync("nobody may move")
        bot = bots[s.player]
        while s.setup_legal():
            s.setup_choose(bot.setup(s))
        before = [_copy(o.priv) for o in seats] if on_event else None
        ev = s.author(bot.act(s) if s.to_move()[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, ev, s.ck)
        h = s.short_hash()
        for o in seats:
            if o.short_hash() != h:
                raise Desync("hash differs after event %d" % n)
        if on_event:
            on_event(seats, s.player, ev, before)
        n += 1
        if n > limit:
            raise Desync("no end after %d events" % n)
    return n


def _copy(v):
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


# ---- seats played by hand: one event at a time, delivered in-process ------------------------
def deliver(seats, s, ev):
    """Every seat but s receives s's event `ev`, with s's state commitment (as a runner sends
    it)."""
    for o in seats:
        if o is not s:
            o.receive(s.player, ev, s.ck)


def send(seats, s, action=None):
    """Seat s authors its next event (`action` for a command; None for a set-up commit or an
    answer) and every other seat receives it. Returns the event."""
    ev = s.author(action)
    deliver(seats, s, ev)
    return ev


def answers(seats):
    """Every answer owed now, authored by its seat and delivered, in turn:
    [[author, event], ...]."""
    out = []
    while True:
        t = seats[0].to_move()
        if t is None or t[1] != "answer":
            return out
        out.append([t[0], send(seats, seats[t[0]])])


def do(seats, action):
    """The player to act does `action`: [[author, event], ...], the answers it asks included,
    up to the next command."""
    t = seats[0].to_move()
    assert t[1] == "act", t
    return [[t[0], send(seats, seats[t[0]], action)]] + answers(seats)


def settle(seats, in_order=False):
    """Author and deliver whatever needs no decision: a set-up commit once the seat's set-up
    choices are made (with in_order, only as event number `player`: the seats before it
    first) and the answers owed."""
    moved = True
    while moved:
        moved = False
        for s in seats:
            t = s.to_move()
            if t is None or t[0] != s.player or s.result() is not None:
                continue
            if (t[1] == "setup" and not s.setup_legal()
                    and (not in_order or len(s.log) == s.player)) or t[1] == "answer":
                send(seats, s)
                moved = True


def catch_up(seats):
    """Bring every seat's log up to the longest one (the link's job on a unit): for events a
    seat authored through its screen's keys."""
    for a in seats:
        for b in seats:
            while len(b.log) < len(a.log):
                au, ev = a.log[len(b.log)]
                b.receive(au, ev)


def seed_for(engine, n, first, prefix):
    """A session seed, `prefix` and a number, whose joint randomness makes `first` the first
    player of an n-player game (the engine's pub["first"])."""
    from fathom.prng import Prng
    i = 0
    while True:
        seed = prefix + b"%d" % i
        if engine.new_game(engine.options(), n, Prng(seed, b"game"))["first"] == first:
            return seed
        i += 1


def started(engine, opts, starts, seed):
    """Seats of len(starts) players, each set up with its one choice from `starts` and every
    set-up committed and delivered, in player order."""
    seats = make_seats(engine, opts, len(starts), seed)
    for s, start in zip(seats, starts):
        s.setup_choose(start)
    for s in seats:
        send(seats, s)
    return seats


# ---- a game against in-unit bots, and its journal ----------------------------------------------
def solo(gid, seed, store, bot_storage=True):
    """Player 0 against the game's fewest other players as in-unit random bots, as the game
    menu's "vs bot" builds it, everything journalled in `store`. Returns (runner, its bot)."""
    from fathom import games
    from fathom.games.bots import RandomBot
    from fathom.games.seat import Seat
    from fathom.peers import BotPeer
    from fathom.runner import Runner
    from fathom.games.base import local_options
    eng = games.engine(gid)
    n = max(2, eng.PLAYERS[0])
    opts = local_options(eng.options())  # as the menu starts it: nothing sealed in one unit
    me = Runner(Seat(eng, opts, n, seed, 0, b"salt0"), [], store, gid, {"vs": "bot"})
    for p in range(1, n):
        bs = Seat(eng, opts, n, seed, p, b"salt%d" % p)
        me.peers.append(BotPeer(Runner, bs, RandomBot(seed, p), "random",
                                store if bot_storage else None, gid))
    me.save()
    return me, RandomBot(seed, 0)


def same_seat(a, b):
    """Two seats hold the same game: hashes, states, inputs, the log and its hash chain."""
    from fathom.codec import encode
    assert a.short_hash() == b.short_hash()
    assert encode(a.pub) == encode(b.pub) and encode(a.priv) == encode(b.priv)
    assert (a.n_log, a.n_actions) == (b.n_log, b.n_actions)
    assert a.setup_choices == b.setup_choices
    assert a.log == b.log and a.actions == b.actions
    assert [r[3] for r in a.records()] == [r[3] for r in b.records()]  # the short hashes


def check_resume(store, live):
    """The runner and its bots' seats loaded back from `store` equal the live ones."""
    from fathom import games
    from fathom.games.bots import RandomBot
    from fathom.peers import BotPeer
    from fathom.runner import Runner, load
    back = load(store, games.engine)
    same_seat(back.seat, live.seat)
    assert back.revealed == live.revealed
    assert back.verdicts == live.verdicts
    assert sorted(back.reveals) == sorted(live.reveals)
    for saved, peer in zip(back.saved_peers, live.peers):
        bp = BotPeer.restore(Runner, store, games.engine, saved, lambda s: RandomBot(b"", 1))
        same_seat(bp.runner.seat, peer.runner.seat)


def event_of_action(seat, k):
    """The log index of seat's k-th action (its journal records carry the action)."""
    n = -1
    for i, rec in enumerate(seat.records()):
        if rec[1] == seat.player and len(rec) > 5:
            n += 1
            if n == k:
                return i
    raise AssertionError("no action %d" % k)


class Recorder:
    """A bot that also notes, before each of its seat's choices, what was legal then and (with
    states=True) copies of the seat's public and private states."""

    def __init__(self, bot, states=False):
        self.bot = bot
        self.states = states
        self.legal = []        # per action: the legal actions then
        self.at = []           # per action: (pub, priv) copies, with states=True
        self.setup_legal = []  # per set-up choice: the legal choices then

    def setup(self, s):
        self.setup_legal.append(list(s.setup_legal()))
        return self.bot.setup(s)

    def act(self, s):
        self.legal.append(s.legal())
        if self.states:
            self.at.append((_copy(s.pub), _copy(s.priv)))
        return self.bot.act(s)
