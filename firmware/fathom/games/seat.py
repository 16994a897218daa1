# One player's seat at a game: the public state and log every unit shares, this player's
# secrets, the hash chain that finds a desync at the event where it happens, and the
# commitments and reveal that the audit (audit.py) checks at the end. The device runner,
# `fathom sim` and the tests all play through it.
# Every event a player authors carries a short commitment to that player's private state after
# it (state_commit): the audit checks the whole hidden path, not only the set-up and answers.
# Nothing here grows with the game in RAM: the log is in the seat's journal (journal.py) and
# is read back one event at a time, by the audit's replay too.
import hashlib

from fathom.codec import encode, feed
from fathom.compat import const
from fathom.journal import JournalError, MemJournal
from fathom.prng import Prng
from fathom.games.base import CONCEDE, SETUP, IllegalAction, event_tag

# The turn kinds (Engine.turn, Seat.to_move: (player, kind)), named here once. On the wire and in
# saves they are these strings. Modules a unit runs keep private copies (`_TURN_ACT =
# const("act")`: folded, no global on a unit's heap), held to these by tests/source.
TURN_ACT = const("act")        # the player chooses an action
TURN_ANSWER = const("answer")  # the player answers the pending query from its secrets

# The journal's records of a seat (Seat's docstring), their slots named: the runner, its
# streams, the audit and the replay read them too, each with its own private copies of these
# names (MicroPython folds them: no global), which tests/source holds to these values.
_REC_TAG = const(0)      # "e": an event, "c": a set-up choice (the runner adds its own tags)
_REC_AUTHOR = const(1)   # ["e", author, event, hash8, ck(, action)]
_REC_EVENT = const(2)
_REC_HASH = const(3)     # the chain's head after the event, 8 bytes
_REC_CK = const(4)       # the author's state commitment after it (None: unchecked, tests)
_REC_ACTION = const(5)   # this player's own act events: the action chosen
_REC_CHOICE = const(1)   # ["c", choice]
_SETUP_COMMIT = const(2)  # [SETUP, public part, commitment] (games/base.py)
_WHOSE = const(0)        # a turn (Engine.turn, Seat.to_move): (player, kind)
_KIND = const(1)


def commitment(salt, priv):
    h = hashlib.sha256(bytes(salt))
    feed(h, priv)
    return h.digest()


CK = 8   # bytes of a per-event commitment


def state_hash(pub):
    """SHA-256 of the public state, fed in pieces: encoded whole, the state would be a game's
    largest allocation and grow with it."""
    h = hashlib.sha256()
    feed(h, pub)
    return h.digest()


def chain_next(chain, before, event, after=None):
    """The hash chain's next head: H(head [|| state_hash(the public state the event applies
    to), except for an answer] || enc(event) [|| state_hash(the state it leaves), for the
    event that ends the game]). The state an event applies to, not the one it leaves: a unit
    hashes the state after a move once the move is on its screen and sent, so the hash, the
    largest part of a seat's work, is off the path from a press to the partner's panel
    (docs/ARCHITECTURE.md, "A press to the partner's panel"). An answer leaves it out: the
    partner answers in the tick the move arrives, and the state the answer leaves is in the
    next move's hash, so a state that differs is still found, one or two events on, and the
    last one by the end's own fold."""
    h = hashlib.sha256(chain)
    if before is not None:
        h.update(before)
    feed(h, event)
    if after is not None:
        h.update(after)
    return h.digest()


def state_commit(salt, index, priv):
    """The commitment an author sends with log event `index`: its private state after it.
    Salted with the seat's secret salt (revealed only at the end), so a listener cannot test
    guesses of a small state (PING's square); the index makes every commitment fresh, so two
    equal states give unrelated bytes and the commitments show nothing, not even "unchanged".
    8 bytes: the author fixes its salt at set-up (inside the set-up commitment) and the game
    then fixes the handful of states it could want to swap between, so a forger needs two of
    those to collide in 64 bits at one index: about k*k / 2**64, not a birthday search."""
    h = hashlib.sha256(salt)  # fed in parts: no copy of the encoded state joined to the salt
    h.update(encode(index))
    feed(h, priv)
    return h.digest()[:CK]


def fresh_state(engine, opts, nplayers, seed, player, salt=None):
    """A player's starting states. An engine with `seal` (a sealed deal, docs/SEALED_DEAL.md)
    gets the seat's salt: its card secrets must come from the salt (fresh from the hardware
    generator, revealed only at the end), never from the joint seed the other units know.
    Without a salt (tests reading a seeded deal) a sealed game fails loudly at its first step."""
    pub = engine.new_game(opts, nplayers, Prng(seed, b"game"))
    priv = engine.new_private(pub, player, Prng(seed, b"deal"))
    seal = getattr(engine, "seal", None)
    if seal is not None and salt is not None:
        seal(pub, priv, salt)
    return pub, priv


def step_kind(engine, pub, author, event, nplayers, setups):
    """The turn kind of an incoming event (SETUP, CONCEDE, TURN_ACT or TURN_ANSWER; None for
    one its author may not send now), for the hash chain, which leaves the state out of an
    answer's link. Whether the event may be sent is Engine.apply's one check (its shape, author, the
    set-ups in, the game not over, the author's turn), made as it is applied; here only what
    apply never sees: a seat's second set-up, and a concession (Engine.concede is no event of
    the rules)."""
    tag = event_tag(event)
    if tag == SETUP:
        if author in setups:
            raise IllegalAction("player %d set up twice" % author)
        return SETUP
    if tag == CONCEDE:
        if len(setups) < nplayers:
            raise IllegalAction("play before every set-up is in")
        if engine.result(pub) is not None:
            raise IllegalAction("game already over")
        return CONCEDE
    t = engine.turn(pub) if len(setups) == nplayers else None
    return t[_KIND] if t is not None and t[_WHOSE] == author else None


def apply_event(engine, pub, priv, player, author, event, kind):
    if kind == CONCEDE:
        engine.concede(pub, author)
        return
    engine.apply(pub, author, event)
    engine.apply_private(pub, priv, player, author, event)


RECENT = 4      # newest log entries kept in RAM (~170 B of heap each): what screens read (the
                # last 3 at most) and what a group host feeds its partners next
RECENT_BYTES = 400  # and no more byte strings than this in them (2 entries kept at least): a
                    # sealed deal's shuffle event is ~430 B of heap, 8 of them were 3.4 KB
MARKS = 32      # at most this many bookmarks (journal positions) into the journal


class Seat:
    """A player's view. RAM holds only what the engine needs (states, chain head, counts) and
    a few recent events; the log itself lives in the journal, one record per event:
    ["e", author, event, hash8, ck] (+ [action] for this player's own act events), ck being
    the author's state commitment (None when an in-process caller handed the event over
    without it: the runner never does), and ["c", choice] for each set-up choice. Old events
    are read back from it one at a time.

    Why every authored event carries a commitment, not only those that change the author's
    secrets: whether one is present would itself tell the others that the hidden state moved
    (a PING face-down card that was a move, not an encrypt). Events of OTHER players that change
    this player's secrets (a card taken, a mine blown) need none: apply_private derives them
    from the public event and the prior state, so the audit's replay recomputes them and the
    author's next commitment covers the result."""

    def __init__(self, engine, opts, nplayers, seed, player, salt, journal=None):
        self.engine = engine
        self.opts = opts
        self.n = nplayers
        self.seed = seed
        self.player = player
        self.salt = salt
        self.pub, self.priv = fresh_state(engine, opts, nplayers, seed, player, salt)
        self.setup_choices = []    # bounded by the game's set-up, not by its length
        self.setups = {}           # player -> commitment digest
        self.chain = hashlib.sha256(bytes(seed)).digest()
        self.settled = None        # state_hash(pub) once settle() has taken it, until the next
                                   # event changes pub: what that event chains on
        self.journal = MemJournal() if journal is None else journal
        self.n_log = 0
        self.n_actions = 0
        self.ck = None             # the commitment sent with this player's newest event
        self._recent = []          # the newest RECENT event records (RECENT_BYTES)
        self._rw = 0               # their _weight
        self._marks = []           # journal pos of events 0, _stride, 2 * _stride, ...: plain
                                   # ints, where (index, pos) pairs took a 16 B tuple each
        self._stride = 4
        self._cur = None           # (event index, pos): reading for that event may start here
        self.log = LogView(self)
        self.engine = engine.bind(self.log)  # an engine may read earlier events back (sealed deal)
        self.actions = ActionsView(self)

    # ---- set-up ----------------------------------------------------------------------------
    def setup_legal(self):
        if self.player in self.setups:
            return []
        return self.engine.setup_legal(self.pub, self.priv, self.player)

    def settle(self, kind=None):
        """Hash the public state as it stands, for the next event (of `kind`) to chain on,
        unless that is an answer, which chains without it (chain_next). The runner calls it
        once a change is on the screen and sent (Runner.late); otherwise the next event
        does, before anything changes pub."""
        if kind != TURN_ANSWER and self.settled is None:
            self.settled = state_hash(self.pub)
        return self.settled

    def setup_choose(self, choice, journal=True):
        self.settle()  # an engine's set-up may touch pub: the hash is of the state as it was
        if choice not in self.setup_legal():
            raise IllegalAction("set-up choice not legal: %r" % (choice,))
        self.engine.setup_apply(self.pub, self.priv, self.player, choice)
        self.setup_choices.append(choice)
        if journal:
            self.journal.append(["c", choice])

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

    def my_turn(self, acting=False):
        """This player must author next; acting=True: and choose an action (its turn is not a
        set-up or an answer)."""
        t = self.to_move()
        return t is not None and t[_WHOSE] == self.player and (not acting or t[_KIND] == TURN_ACT)

    def legal(self):
        return self.engine.legal(self.pub, self.priv, self.player) if self.my_turn(acting=True) else []

    def author(self, action=None):
        """Author this player's next event: set-up commit, answer, or the given action.
        Journals it (with the action) and applies the event locally."""
        t = self.to_move()
        if t is None or t[_WHOSE] != self.player:
            raise IllegalAction("not your turn")
        kind = t[_KIND]
        self.settle(kind)  # before act() changes pub
        if kind == SETUP:
            event = self.setup_event()
        elif kind == TURN_ANSWER:
            event = self.engine.answer(self.pub, self.priv, self.player)
        else:  # act() refuses an illegal action (the engine's one check of it), before pub changes
            event = self.engine.act(self.pub, self.priv, self.player, action)
        self._record(self.player, event, kind, action if kind == TURN_ACT else None)
        return event

    def concede(self):
        event = [CONCEDE]
        self.settle()
        self._record(self.player, event, CONCEDE)
        return event

    def receive(self, author, event, ck=None):
        """Apply a peer's event and keep its state commitment `ck` for the audit; raises
        IllegalAction (nothing changed) if it may not be sent. ck None is for in-process
        callers (engine tests) only: that event's hidden state goes unchecked."""
        if author == self.player or not 0 <= author < self.n:
            raise IllegalAction("bad author %r" % (author,))
        if ck is not None and (not isinstance(ck, bytes) or len(ck) != CK):
            raise IllegalAction("malformed state commitment")
        kind = step_kind(self.engine, self.pub, author, event, self.n, self.setups)
        self.settle(kind)
        self._record(author, event, kind, None, None, ck)

    def _record(self, author, event, kind, action=None, pos=None, ck=None):
        """Apply an event and journal it (pos None), or note where the journal has it. The
        caller settled the state hash before anything changed pub, unless it is an answer."""
        before = None
        if kind != TURN_ANSWER:
            before = self.settled
            if before is None:
                raise RuntimeError("an event recorded before the state hash was settled")
        self.settled = None
        if kind == SETUP:
            if len(event) != 3 or not isinstance(event[_SETUP_COMMIT], bytes) or \
                    len(event[_SETUP_COMMIT]) != 32:
                raise IllegalAction("malformed set-up event")
            self.engine.apply(self.pub, author, event)
            self.setups[author] = event[_SETUP_COMMIT]
        else:
            apply_event(self.engine, self.pub, self.priv, self.player, author, event, kind)
        after = None
        if self.result() is not None:  # the game's last state has no next event to carry it
            after = self.settle()
        self.chain = chain_next(self.chain, before, event, after)
        if author == self.player:
            ck = self.ck = state_commit(self.salt, self.n_log, self.priv)
        rec = ["e", author, event, self.chain[:8], ck]
        if kind == TURN_ACT and author == self.player:
            rec.append(action)
            self.n_actions += 1
        if pos is None:
            pos = self.journal.append(rec)
        self._note(pos, rec)

    def recent_from(self):
        """The index of the oldest event still in RAM: older ones are read from the journal."""
        return self.n_log - len(self._recent)

    def _note(self, pos, rec):
        i = self.n_log
        self.n_log = i + 1
        r = self._recent
        r.append(rec)
        self._rw += _weight(rec[_REC_EVENT])
        while len(r) > RECENT or (len(r) > 2 and self._rw > RECENT_BYTES):
            self._rw -= _weight(r.pop(0)[_REC_EVENT])
        self._mark(i, pos)

    def _mark(self, i, pos):
        if i % self._stride == 0:
            self._marks.append(pos)
            if len(self._marks) > MARKS:  # thin out: the bookmarks never outgrow MARKS
                self._marks = self._marks[::2]
                self._stride *= 2

    def rejournal(self, journal):
        """Move to `journal` (the runner's file, once it has storage): the records so far are
        copied over one at a time and the bookmarks re-pointed."""
        old = self.journal
        self.journal = journal
        self._marks, self._cur, self._stride = [], None, 4
        i = 0
        for _p, _e, rec in old.read():
            pos = journal.append(rec)
            if rec[_REC_TAG] == "e":
                self._mark(i, pos)
                i += 1

    def short_hash(self):
        return self.chain[:8]

    def result(self):
        if len(self.setups) < self.n:
            return None
        return self.engine.result(self.pub)

    # ---- the log, read back from the journal -----------------------------------------------
    def _start(self, i):
        """(event index, journal pos) from which reading reaches event i soonest."""
        m = self._marks
        k = min(i // self._stride, len(m) - 1)
        best = (k * self._stride, m[k]) if k >= 0 else (0, None)
        c = self._cur
        if c is not None and best[0] < c[0] <= i:
            best = c
        return best

    def records(self, start=0, stop=None):
        """Yield the journal's event records ["e", author, event, hash8, ck(, action)] from event
        `start` to `stop` (default: the end), one at a time."""
        stop = self.n_log if stop is None else min(stop, self.n_log)
        if start >= stop:
            return
        old = self.n_log - len(self._recent)
        if start < old:
            j, pos = self._start(start)
            it = self.journal.read(pos)
            try:
                for _p, end, rec in it:
                    if rec[_REC_TAG] != "e":
                        continue
                    if j >= start:
                        self._cur = (j + 1, end)
                        yield rec
                    j += 1
                    if j >= stop or j >= old:
                        break
            finally:
                it.close()
            if j < min(stop, old):
                raise JournalError("the journal lacks event %d" % j)
            start = j
        for k in range(start - old, stop - old):
            yield self._recent[k]

    def events(self, start=0, stop=None):
        """Yield (author, event) from the log, one at a time."""
        g = self.records(start, stop)
        try:
            for rec in g:
                yield (rec[_REC_AUTHOR], rec[_REC_EVENT])
        finally:
            g.close()

    def record_at(self, i):
        n = self.n_log
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("log index out of range")
        g = self.records(i, i + 1)
        try:
            for rec in g:
                return rec
        finally:
            g.close()  # MicroPython does not close an abandoned generator (its open file)

    def my_actions(self, start_pos=None):
        """Yield (pos, end, action) for this player's actions, in order, from journal pos."""
        it = self.journal.read(start_pos)
        try:
            for p, end, rec in it:
                if rec[_REC_TAG] == "e" and len(rec) > _REC_ACTION and \
                        rec[_REC_AUTHOR] == self.player:
                    yield p, end, rec[_REC_ACTION]
        finally:
            it.close()

    # ---- fair play -------------------------------------------------------------------------
    def reveal_head(self):
        """What the reveal starts with; the actions follow in chunks (my_actions)."""
        return [self.salt, self.setup_choices, self.n_actions]

    def reveal(self):
        """The whole reveal as one list: for tests and the host's direct play only (it grows
        with the game; units stream it, see runner.py)."""
        return [self.salt, self.setup_choices, [a for _p, _e, a in self.my_actions()]]

    # ---- rebuilding from the journal -------------------------------------------------------
    def replay(self, other=None):
        """Rebuild this fresh seat from its own journal records (the header is skipped, other
        records go to `other(pos, rec)`). The save holds inputs, never derived state, so it
        cannot disagree with itself; a record that does not replay raises."""
        it = self.journal.read()
        try:
            for pos, _end, rec in it:
                tag = rec[_REC_TAG]
                if tag == "c":
                    self.setup_choose(rec[_REC_CHOICE], False)
                elif tag == "e":
                    self._replay_event(pos, rec)
                elif other is not None:
                    other(pos, rec)
        finally:
            it.close()

    def _replay_event(self, pos, rec):
        if len(rec) < _REC_ACTION:
            raise JournalError("malformed event record")
        author, event = rec[_REC_AUTHOR], rec[_REC_EVENT]
        if author == self.player:
            kind = self.to_move()[_KIND] if event_tag(event) != CONCEDE else CONCEDE
            self.settle(kind)
            if kind == TURN_ACT:
                self.engine.act(self.pub, self.priv, self.player, rec[_REC_ACTION])
            elif kind == TURN_ANSWER:
                self.engine.answer(self.pub, self.priv, self.player)
            action = rec[_REC_ACTION] if kind == TURN_ACT else None
            self._record(author, event, kind, action, pos)
            if self.ck != rec[_REC_CK]:
                raise JournalError("event %d replays to another hidden state" % (self.n_log - 1))
        else:
            kind = step_kind(self.engine, self.pub, author, event, self.n, self.setups)
            self.settle(kind)
            self._record(author, event, kind, None, pos, rec[_REC_CK])
        if self.chain[:8] != rec[_REC_HASH]:
            raise JournalError("event %d replays to another state" % (self.n_log - 1))


class _View:
    """A read-only sequence over a seat's journal, compared item by item."""

    def __init__(self, seat):
        self.s = seat

    def __eq__(self, other):
        return _same(self, other)

    def __ne__(self, other):
        return not _same(self, other)


class LogView(_View):
    """seat.log: len, index (negative too), short slices, iteration and ==, each read from
    the journal (the newest entries from RAM) as (author, event)."""

    def __len__(self):
        return self.s.n_log

    def __bool__(self):
        return self.s.n_log > 0

    def __getitem__(self, i):
        if isinstance(i, int):
            rec = self.s.record_at(i)
            return (rec[_REC_AUTHOR], rec[_REC_EVENT])
        n = self.s.n_log
        a, b = _bound(i.start, 0, n), _bound(i.stop, n, n)
        if i.step not in (None, 1):
            raise ValueError("log slices take no step")
        return list(self.s.events(a, b))

    def __iter__(self):
        return self.s.events()


class ActionsView(_View):
    """seat.actions: this player's own actions, from the journal."""

    def __len__(self):
        return self.s.n_actions

    def __bool__(self):
        return self.s.n_actions > 0

    def __iter__(self):
        for _p, _e, a in self.s.my_actions():
            yield a

    def __getitem__(self, i):
        n = self.s.n_actions
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("action index out of range")
        g = self.s.my_actions()
        try:
            for k, (_p, _e, a) in enumerate(g):
                if k == i:
                    return a
        finally:
            g.close()


def _weight(event):
    """The bytes an event's strings hold, two levels down: what makes one event large."""
    w = 0
    for x in event:
        t = type(x)
        if t is bytes or t is str:
            w += len(x)
        elif t is list:
            for y in x:
                t = type(y)
                if t is bytes or t is str:
                    w += len(y)
    return w


def _bound(v, default, n):
    if v is None:
        return default
    if v < 0:
        v += n
    return max(0, min(v, n))


def _same(a, b):
    try:
        if len(a) != len(b):
            return False
    except TypeError:
        return False
    for x, y in zip(a, b):
        if encode(list(x) if isinstance(x, tuple) else x) != \
                encode(list(y) if isinstance(y, tuple) else y):
            return False
    return True
