# One player's seat at a game: the public state and log every unit shares, this player's
# secrets, the hash chain that finds a desync at the event where it happens, and the
# commit/reveal/replay audit. The device runner, `fathom sim` and the tests all play through it.
import hashlib

from fathom.codec import encode
from fathom.prng import Prng
from fathom.games.base import IllegalAction

SETUP = "setup"
CONCEDE = "concede"


def commitment(salt, priv):
    return hashlib.sha256(bytes(salt) + encode(priv)).digest()


def fresh_state(engine, opts, nplayers, seed, player):
    pub = engine.new_game(opts, nplayers, Prng(seed, b"game"))
    priv = engine.new_private(pub, player, Prng(seed, b"deal"))
    return pub, priv


def step_kind(engine, pub, author, event, nplayers, setups):
    """Check an incoming event is one its author may send now; return the turn kind."""
    if not isinstance(event, list) or not event or not isinstance(event[0], str):
        raise IllegalAction("malformed event")
    tag = event[0]
    if tag == SETUP:
        if author in setups:
            raise IllegalAction("player %d set up twice" % author)
        return SETUP
    if len(setups) < nplayers:
        raise IllegalAction("play before every set-up is in")
    if tag == CONCEDE:
        if engine.result(pub) is not None:
            raise IllegalAction("game already over")
        return CONCEDE
    t = engine.turn(pub)
    if t is None:
        raise IllegalAction("game is over")
    if t[0] != author:
        raise IllegalAction("out of turn: player %d sent, player %d to play" % (author, t[0]))
    return t[1]


def apply_event(engine, pub, priv, player, author, event, kind):
    if kind == CONCEDE:
        engine.concede(pub, author)
        return
    engine.apply(pub, author, event)
    engine.apply_private(pub, priv, player, author, event)


class Seat:
    def __init__(self, engine, opts, nplayers, seed, player, salt):
        self.engine = engine
        self.opts = opts
        self.n = nplayers
        self.seed = seed
        self.player = player
        self.salt = salt
        self.pub, self.priv = fresh_state(engine, opts, nplayers, seed, player)
        self.setup_choices = []
        self.actions = []
        self.log = []          # [(author, event)]
        self.setups = {}       # player -> commitment digest
        self.chain = hashlib.sha256(bytes(seed)).digest()
        self.hashes = []       # short hash after each event, to resend with the event

    # ---- set-up ----------------------------------------------------------------------------
    def setup_legal(self):
        if self.player in self.setups:
            return []
        return self.engine.setup_legal(self.pub, self.priv, self.player)

    def setup_choose(self, choice):
        if choice not in self.setup_legal():
            raise IllegalAction("set-up choice not legal: %r" % (choice,))
        self.engine.setup_apply(self.pub, self.priv, self.player, choice)
        self.setup_choices.append(choice)

    def setup_event(self):
        """The commit event once set-up is complete: the public part plus the commitment."""
        if self.engine.setup_legal(self.pub, self.priv, self.player):
            raise IllegalAction("set-up not finished")
        public = self.engine.setup_public(self.pub, self.priv, self.player)
        return [SETUP, public, commitment(self.salt, self.priv)]

    # ---- play ------------------------------------------------------------------------------
    def to_move(self):
        """(player, kind) that must author next, with kind 'setup' while set-ups are missing."""
        if self.player not in self.setups:
            return (self.player, SETUP)
        if len(self.setups) < self.n:
            return None
        return self.engine.turn(self.pub)

    def my_turn(self):
        t = self.to_move()
        return t is not None and t[0] == self.player

    def legal(self):
        t = self.to_move()
        if t is None or t[0] != self.player or t[1] != "act":
            return []
        return self.engine.legal(self.pub, self.priv, self.player)

    def author(self, action=None):
        """Author this player's next event: set-up commit, answer, or the given action.
        Records the action in the private log and applies the event locally."""
        t = self.to_move()
        if t is None or t[0] != self.player:
            raise IllegalAction("not your turn")
        kind = t[1]
        if kind == SETUP:
            event = self.setup_event()
        elif kind == "answer":
            event = self.engine.answer(self.pub, self.priv, self.player)
        else:
            if action not in self.engine.legal(self.pub, self.priv, self.player):
                raise IllegalAction("illegal action %r" % (action,))
            event = self.engine.act(self.pub, self.priv, self.player, action)
            self.actions.append(action)
        self._record(self.player, event, kind)
        return event

    def concede(self):
        event = [CONCEDE]
        self._record(self.player, event, CONCEDE)
        return event

    def receive(self, author, event):
        """Apply a peer's event; raises IllegalAction (nothing changed) if it may not be sent."""
        if author == self.player or not 0 <= author < self.n:
            raise IllegalAction("bad author %r" % (author,))
        kind = step_kind(self.engine, self.pub, author, event, self.n, self.setups)
        self._record(author, event, kind)

    def _record(self, author, event, kind):
        if kind == SETUP:
            if len(event) != 3 or not isinstance(event[2], bytes) or len(event[2]) != 32:
                raise IllegalAction("malformed set-up event")
            self.engine.apply(self.pub, author, event)
            self.setups[author] = event[2]
        else:
            apply_event(self.engine, self.pub, self.priv, self.player, author, event, kind)
        self.log.append((author, event))
        self.chain = hashlib.sha256(self.chain + encode(event) + encode(self.pub)).digest()
        self.hashes.append(self.chain[:8])

    def short_hash(self):
        return self.chain[:8]

    def result(self):
        if len(self.setups) < self.n:
            return None
        return self.engine.result(self.pub)

    # ---- fair play -------------------------------------------------------------------------
    def reveal(self):
        return [self.salt, self.setup_choices, self.actions]

    def audit(self, player, reveal):
        """Replay the whole log as `player` with their revealed secrets. None if every event
        they authored checks out, else (log index or -1 for set-up, reason)."""
        return audit(self.engine, self.opts, self.n, self.seed, self.log, player, reveal)

    # ---- persistence -----------------------------------------------------------------------
    def save(self):
        return {
            "opts": self.opts, "n": self.n, "seed": self.seed, "player": self.player,
            "salt": self.salt, "setup": self.setup_choices, "actions": self.actions,
            "log": [[a, e] for a, e in self.log],
        }


def restore(engine, saved):
    """Rebuild a seat by replaying its own saved log: the save holds inputs, never derived state,
    so a save cannot disagree with itself."""
    s = Seat(engine, saved["opts"], saved["n"], saved["seed"], saved["player"], saved["salt"])
    for c in saved["setup"]:
        s.setup_choose(c)
    actions = list(saved["actions"])
    s.actions = []
    for author, event in saved["log"]:
        if author == s.player:
            kind = s.to_move()[1] if event[0] != CONCEDE else CONCEDE
            if kind == "act":
                s.actions.append(actions.pop(0))
                s.engine.act(s.pub, s.priv, s.player, s.actions[-1])
            elif kind == "answer":
                s.engine.answer(s.pub, s.priv, s.player)
            s._record(author, event, kind)
        else:
            s.receive(author, event)
    return s


def audit(engine, opts, nplayers, seed, log, player, reveal):
    try:
        return _audit(engine, opts, nplayers, seed, log, player, reveal)
    except IllegalAction as e:
        return (-1, "replay failed: " + str(e))
    except Exception as e:  # a revealed log too broken to replay is a failed audit, not a crash
        return (-1, "replay crashed: %r" % (e,))


def _audit(engine, opts, nplayers, seed, log, player, reveal):
    salt, choices, actions = reveal
    pub, priv = fresh_state(engine, opts, nplayers, seed, player)
    for c in choices:
        if c not in engine.setup_legal(pub, priv, player):
            return (-1, "set-up choice %r not legal" % (c,))
        engine.setup_apply(pub, priv, player, c)
    if engine.setup_legal(pub, priv, player):
        return (-1, "set-up incomplete")
    digest = commitment(salt, priv)
    public = engine.setup_public(pub, priv, player)
    actions = list(actions)
    setups = {}
    for i, entry in enumerate(log):
        author, event = entry
        kind = step_kind(engine, pub, author, event, nplayers, setups)
        if kind == SETUP:
            if author == player and (event[2] != digest or encode(event[1]) != encode(public)):
                return (i, "set-up does not match the commitment")
            engine.apply(pub, author, event)
            setups[author] = event[2]
            continue
        if author == player and kind in ("act", "answer"):
            if kind == "answer":
                expected = engine.answer(pub, priv, player)
            else:
                if not actions:
                    return (i, "no action revealed for this event")
                a = actions.pop(0)
                if a not in engine.legal(pub, priv, player):
                    return (i, "revealed action %r was not legal" % (a,))
                expected = engine.act(pub, priv, player, a)
            if encode(expected) != encode(event):
                return (i, "event %d: sent %r, secrets give %r" % (i, event, expected))
        apply_event(engine, pub, priv, player, author, event, kind)
    if actions:
        return (len(log), "%d revealed actions never played" % len(actions))
    return None
