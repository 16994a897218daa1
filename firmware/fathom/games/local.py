# Plays a whole game between bots in one process, each player a separate Seat that sees only
# its own secrets: the `--link direct` path of `fathom sim`, and the engines' play-out tests.
from fathom.prng import Prng
from fathom.games.seat import Seat
from fathom.games.audit import audit


class Desync(Exception):
    pass


def make_seats(engine, opts, nplayers, seed):
    return [Seat(engine, opts, nplayers, seed, p, Prng(seed, b"salt%d" % p).token(16))
            for p in range(nplayers)]


def next_author(seats):
    for s in seats:
        t = s.to_move()
        if t is not None and t[0] == s.player:
            return s
    return None


def play(engine, opts, nplayers, seed, bots, max_events=20000, on_event=None,
         audit_once=False):
    """Returns a dict: result, events, audits (list of (auditor, player, outcome)).
    Any exception leaves with the seats attached (`e.seats`) so the log can be shown.
    audit_once: each player's reveal is replayed by the first other seat only, and its
    outcome stands for every auditor. Sound here: every seat was handed the same events and
    commitments, and the loop checked every seat's hash chain after every event, so the logs
    the audits read are the same. For the 6-8 player tests, whose n(n-1) replays of a long
    game are most of their time."""
    seats = make_seats(engine, opts, nplayers, seed)
    try:
        return _play(engine, seats, nplayers, bots, max_events, on_event, audit_once)
    except Exception as e:
        try:
            e.seats = seats
        except AttributeError:  # MicroPython exceptions may refuse attributes
            pass
        raise


def _play(engine, seats, nplayers, bots, max_events, on_event, audit_once):
    events = 0
    while seats[0].result() is None:
        s = next_author(seats)
        if s is None:
            raise Desync("nobody may move")
        bot = bots[s.player]
        while s.setup_legal():
            s.setup_choose(bot.setup(s))
        event = s.author(bot.act(s) if s.my_turn(acting=True) else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, event, s.ck)  # with its commitment, as the runner does
        if on_event:
            on_event(s.player, event)
        h = s.short_hash()
        for o in seats:
            if o.short_hash() != h:
                raise Desync("hash differs after event %d" % events)
        events += 1
        if events > max_events:
            raise Desync("no end after %d events" % events)
    reveals = [s.reveal() for s in seats]
    audits = []
    once = {}
    for s in seats:
        for p in range(nplayers):
            if p != s.player:
                if audit_once and p in once:
                    outcome = once[p]
                else:
                    outcome = once[p] = audit(s, p, reveals[p])
                audits.append((s.player, p, outcome))
    return {"result": seats[0].result(), "events": events, "audits": audits, "seats": seats}
