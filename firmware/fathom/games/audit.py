# The end of a game's fair play: replay a seat's log as another player, with the salt, set-up
# choices and actions that player revealed, and check every event they authored and every
# state commitment they sent with one. It runs once per player at the end, so it is its own
# module, imported then: the seat it reads stays in the heap all game, this code does not.
from fathom.codec import encode
from fathom.compat import const
from fathom.journal import JournalError
from fathom.games.base import SETUP, IllegalAction
from fathom.games.seat import apply_event, commitment, fresh_state, state_commit, step_kind

_TURN_ACT = const("act")     # copies of seat.py's turn kinds
_TURN_ANSWER = const("answer")
_REVEAL_SALT = const(0)      # a reveal: [salt, set-up choices, actions]
_REVEAL_CHOICES = const(1)
_REVEAL_ACTIONS = const(2)
_REC_AUTHOR = const(1)       # copies of seat.py's names for its journal's event record
_REC_EVENT = const(2)
_REC_CK = const(4)
_SETUP_PUBLIC = const(1)     # copies of base.py's names for the set-up event
_SETUP_COMMIT = const(2)


def audit(seat, player, reveal, commits=True):
    """Replay `seat`'s log as `player` with their revealed [salt, choices, actions] (actions
    any iterable, read one at a time). None if every event they authored checks out, else
    (log index or -1 for set-up, reason): a rewritten hidden past is named at the first
    event it contradicts. commits=False skips the state commitments (tests only: it is the
    audit as it was before them, so a test can show a cheat they alone catch)."""
    actions = iter(reveal[_REVEAL_ACTIONS])
    try:
        return _audit(seat, player, reveal[_REVEAL_SALT], reveal[_REVEAL_CHOICES], actions,
                      commits)
    except IllegalAction as e:
        return (-1, "replay failed: " + str(e))
    except JournalError:
        raise  # our own journal failing is not the other player's fault
    except Exception as e:  # a revealed log too broken to replay is a failed audit, not a crash
        return (-1, "replay crashed: %r" % (e,))
    finally:
        if hasattr(actions, "close"):
            actions.close()  # a generator over the journal holds an open file


def _entries(seat):
    g = seat.records()
    try:
        for rec in g:
            yield rec[_REC_AUTHOR], rec[_REC_EVENT], rec[_REC_CK]
    finally:
        g.close()


def _audit(seat, player, salt, choices, actions, commits):
    engine = seat.engine.bind(seat.log)
    nplayers = seat.n
    pub, priv = fresh_state(engine, seat.opts, nplayers, seat.seed, player, salt)
    for c in choices:
        if c not in engine.setup_legal(pub, priv, player):
            return (-1, "set-up choice %r not legal" % (c,))
        engine.setup_apply(pub, priv, player, c)
    if engine.setup_legal(pub, priv, player):
        return (-1, "set-up incomplete")
    digest = commitment(salt, priv)
    public = engine.setup_public(pub, priv, player)
    setups = {}
    i = 0
    entries = _entries(seat)
    try:
        for author, event, ck in entries:
            kind = step_kind(engine, pub, author, event, nplayers, setups)
            if kind == SETUP:
                if author == player and (event[_SETUP_COMMIT] != digest or
                                         encode(event[_SETUP_PUBLIC]) != encode(public)):
                    return (i, "set-up does not match the commitment")
                engine.apply(pub, author, event)
                setups[author] = event[_SETUP_COMMIT]
            elif author == player and (kind == _TURN_ACT or kind == _TURN_ANSWER):
                if kind == _TURN_ANSWER:
                    expected = engine.answer(pub, priv, player)
                else:
                    a = _next(actions)
                    if a is _NONE:
                        return (i, "no action revealed for this event")
                    try:  # act() is the one check of an action's legality
                        expected = engine.act(pub, priv, player, a)
                    except IllegalAction:
                        return (i, "revealed action %r was not legal" % (a,))
                if encode(expected) != encode(event):
                    return (i, "event %d: sent %r, secrets give %r" % (i, event, expected))
            if kind != SETUP:
                apply_event(engine, pub, priv, player, author, event, kind)
            if commits and author == player and ck is not None and \
                    ck != state_commit(salt, i, priv):
                return (i, "event %d: hidden state differs from its commitment" % i)
            i += 1
    finally:
        entries.close()
    left = 0
    for _a in actions:
        left += 1
    if left:
        return (i, "%d revealed actions never played" % left)
    return None


_NONE = object()


def _next(it):
    try:  # not next(it, default): a board's MicroPython may be built without it
        return next(it)
    except StopIteration:
        return _NONE
