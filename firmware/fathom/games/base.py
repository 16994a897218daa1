# The engine contract every game follows, plus the generic parts (options, event dispatch,
# the checks every game makes on an event's slots).
#
# A game is a deterministic machine over a replicated public log. No unit sees everything:
# each holds the public state `pub` and only its own private state `priv`. Events are plain
# codec-encodable values (lists whose first item is a short type string, the tag) authored by
# the unit that knows what the event needs; every unit applies the same events in the same
# order.
#
# States are plain dicts/lists of ints, strs, bools (no floats, no sets), so they encode,
# hash and save canonically on both runtimes.
#
# How a game declares its events (the engine's module opens with this schema):
#   - every key of pub and priv and every slot of every event a name, `_X = const(...)` from
#     fathom.compat, with one line of meaning each: `ev[_UP_CARD]`, `pub[_FIRED]`, never
#     `ev[1]`; an event's tag is _EV_<X> = const("wire tag"), its slots _<X>_<SLOT> = const(n),
#     and the rules page's event table lists `tag slot slot ...` with the <SLOT>s lower-cased
#     (a slot of two meanings: `report/dir`); tests/engines/test_engine_schema.py holds the two
#     together. The names are private (a leading underscore): MicroPython folds them into the
#     code and keeps no module global for them. A module of the game that reads some of them
#     (its words, bot, screen) declares its own private copies of those, under the same names;
#     the same test holds every copy to the schema (docs/ARCHITECTURE.md, "Names that cost no
#     heap");
#   - HANDLERS, the table `apply` dispatches through: tag -> handler, or, when the game's
#     `phase(pub)` names the stage of play, phase -> {tag -> handler}; ANY_PHASE for the few
#     tags every phase accepts. A handler is a plain function of the engine's class,
#     handler(self, pub, author, event); it checks the event completely (check_size,
#     check_int, the rules) BEFORE it changes pub, so a refused event changes nothing. It may
#     return the step of play that follows (a function of pub, which returns the next step or
#     None): apply runs the steps one after another from its own frame, so an event that
#     crosses several stages (Pinned Down's jump into an attack) does not nest a frame per stage
#     on the C stack.
# Models: games/ping/engine.py (by phase, with a sealed deal), games/ashtapada/engine.py (by
# the action awaiting its answer) and games/pinned_down/ (a handler per event). The toy game of
# the tests (tests/toy/engine.py) is the smallest engine the framework runs, not a model: it
# reads its events by position.
from fathom.compat import const

SETUP = const("setup")      # the framework's event: [SETUP, public part, commitment]
CONCEDE = const("concede")  # the framework's event: [CONCEDE] (the seat calls Engine.concede)
READY = const("ready")      # pub key of the default set-up: one bool per seat, True once in
CONCEDED = const("conceded")  # pub key Engine.concede sets: the player who conceded
_TAG = const(0)             # every event's (and action's) first slot: its tag
_SETUP_PUBLIC = const(1)    # [SETUP, ...]: what the rules make public of the set-up, or None
_SETUP_COMMIT = const(2)    # [SETUP, ...]: the commitment to the set-up (seat.py); named
#                             for the schema every rules page's event table is held to


class IllegalAction(ValueError):
    """An action or event the rules forbid: bad shape, out of turn, or illegal move."""


def event_tag(event):
    """The tag of an event of the right shape (a non-empty list whose first item is a str);
    IllegalAction otherwise. The one shape guard: Engine.apply and seat.step_kind use it."""
    if not isinstance(event, list) or not event or not isinstance(event[_TAG], str):
        raise IllegalAction("malformed event")
    return event[_TAG]


def check_size(event, n):
    """An event must have exactly `n` items (its tag included)."""
    if len(event) != n:
        raise IllegalAction("malformed %s event" % event[_TAG])


def check_int(v, lo, hi, what=None):
    """`v` itself when it is an int (not a bool) with lo <= v < hi, as range(lo, hi) reads;
    IllegalAction naming `what` (or the value) otherwise."""
    if type(v) is not int or not lo <= v < hi:
        raise IllegalAction("bad " + what if what else "bad value %r" % (v,))
    return v


# Options that protect one unit from another (the sealed deal keeps a hand from the other unit):
# they protect nothing when every seat is on one unit, so a game against in-unit bots, or solo,
# plays them off (local_options), and the game menu marks them "(link)".
LINK_ONLY = ("sealed",)


def check_options(declared, given=None):
    """`given` with defaults filled in and every value checked against its choices. A declared
    option is (key, label, choices, default) or, with names for its values on the screen,
    (key, label, choices, default, names)."""
    out = {}
    given = given or {}
    for o in declared:
        key, choices, default = o[0], o[2], o[3]
        v = given.get(key, default)
        if v not in choices:
            raise IllegalAction("option %s=%r not in %r" % (key, v, choices))
        out[key] = v
    for key in given:
        if key not in out:
            raise IllegalAction("unknown option " + str(key))
    return out


def option_text(opt, value):
    """How a declared option's value reads on the screen: its name when the declaration gives
    names (("off", "on") for (0, 1)), else the value itself."""
    return opt[4][opt[2].index(value)] if len(opt) > 4 else str(value)


def local_options(opts):
    """`opts` for a game whose seats are all on this unit: every LINK_ONLY option off (0)."""
    out = dict(opts)
    for k in LINK_ONLY:
        if k in out:
            out[k] = 0
    return out


class Engine:
    """The methods every game defines (none has a default: a game without one fails loudly
    with the AttributeError that names it; a stub here for each would cost every unit heap for
    a function object and a class-table entry, the whole time a game is loaded):
      new_game(opts, nplayers, rng): the public starting state; `rng` is a Prng on the
        session's joint seed (public chance);
      new_private(pub, player, rng): this player's private state before their secret set-up;
        `rng` is the same joint-seed Prng on every unit (label b'deal'), so a dealt hand is the
        same on every unit;
      turn(pub): (player, kind) who must author the next event: kind seat.TURN_ACT (choose an
        action) or seat.TURN_ANSWER (answer the pending query from their secrets); None once
        the game is over;
      legal(pub, priv, player): every legal action for `player` now (bots, random play-outs);
      act(pub, priv, player, action): the public event an action makes; may update priv with
        its secret consequences (the new position), never pub; IllegalAction if not legal (the
        one legality check of a player's own action: Seat.author leaves it to act);
      answer(pub, priv, player): the public event answering pub's pending query from this
        player's priv (may update priv: a mine destroyed);
      result(pub): None while playing, else (winners, reason): winners a list of players
        (empty: a draw; in a cooperative game every player or none)."""
    NAME = ""            # the declaration's ID: on the link, in saves, in `fathom sim --game`
    TITLE = ""           # shown in menus
    PLAYERS = (2, 2)     # min, max
    OPTIONS = ()         # ((key, label, (choice, ...), default), ...) choices are ints or strs
    COOPERATIVE = False  # True: all players win or lose together (an empty result is a loss)

    # ---- options ---------------------------------------------------------------------------
    def options(self, given=None):
        return check_options(self.OPTIONS, given)

    def bind(self, log):
        """The engine one seat uses, given that seat's log: a read-only sequence of (author,
        event) (Seat.log, journalled; a list in tests). An engine whose state refers back to
        earlier events instead of holding them (the sealed deal's deck: sealed/hooks.py)
        returns a copy that reads them there; the rest need nothing, so: this engine."""
        return self

    # ---- setup -----------------------------------------------------------------------------
    def setup_legal(self, pub, priv, player):
        """Secret set-up choices still open (e.g. place a mine at a square, or 'done').
        An empty list means this player's set-up is complete."""
        return []

    def setup_apply(self, pub, priv, player, choice):
        """Apply one set-up choice to priv (raises IllegalAction if not legal)."""
        raise IllegalAction("no set-up in this game")

    def setup_public(self, pub, priv, player):
        """The part of a finished set-up that the rules make public (e.g. islands), or None.
        It travels in the player's commit event and is applied by `apply`."""
        return None

    # ---- applying an event (the same on every unit) -------------------------------------
    HANDLERS = {}     # tag -> handler, or phase -> {tag -> handler} when phase() names one
    ANY_PHASE = {}    # tag -> handler accepted whatever the phase (a sealed deal's foul)
    TRANSIENT = None  # a pub key holding what only the latest event did (read by
                      # apply_private after it): cleared as each event is applied, put back
                      # when the event is refused

    def seats(self, pub):
        """How many seats this game has: PLAYERS' most; a game of variable size reads pub."""
        return self.PLAYERS[1]

    def phase(self, pub):
        """The stage of play HANDLERS is keyed by, or None when it is keyed by tag alone.
        Must not allocate: it runs for every event."""
        return None

    def apply(self, pub, author, event):
        """Apply an event to pub on every unit, or raise IllegalAction and change nothing.
        The checks every game shares are made here once: the event's shape, the author a
        seat of this game, set-ups in before play, the author the one `turn` names; then the
        handler the game declares for (phase, tag) runs. A slot of the wrong type that the
        handler trips over (TypeError, IndexError, ...) is refused as a malformed event."""
        tag = event_tag(event)
        if type(author) is not int or not 0 <= author < self.seats(pub):
            raise IllegalAction("bad author %r" % (author,))
        if tag == SETUP:
            step = self.apply_setup(pub, author, event)
            while step is not None:
                step = step(pub)
            return
        if not self.set_up(pub):
            raise IllegalAction("play before every set-up is in")
        t = self.turn(pub)
        if t is None:
            raise IllegalAction("game is over")
        if t[0] != author:
            raise IllegalAction("out of turn: player %d sent, player %d to play" % (author, t[0]))
        ph = self.phase(pub)
        handler = self.HANDLERS if ph is None else self.HANDLERS.get(ph)
        if handler is not None:
            handler = handler.get(tag)
        if handler is None:
            handler = self.ANY_PHASE.get(tag)
            if handler is None:
                raise IllegalAction("%s not allowed now" % tag)
        key = self.TRANSIENT
        if key is not None:
            old = pub[key]
            pub[key] = None
        try:
            step = handler(self, pub, author, event)
        except IllegalAction:
            if key is not None:
                pub[key] = old
            raise
        # a slot of the wrong type or out of range that the handler did not check itself: the
        # event is malformed, not the code wrong (the slot came from another unit)
        except (TypeError, IndexError, KeyError, ValueError, AttributeError):
            if key is not None:
                pub[key] = old
            raise IllegalAction("malformed %s event" % tag)
        while step is not None:   # outside the try: a step that fails is a bug, not the event
            step = step(pub)

    def set_up(self, pub):
        """True once every seat's set-up is in; play is refused before. This default reads
        pub[READY] (one bool per seat) when the game keeps it."""
        ready = pub.get(READY)
        return ready is None or False not in ready

    def apply_setup(self, pub, author, event):
        """Apply a player's set-up event [SETUP, public part, commitment]. This default fits a
        game whose set-up makes nothing public: pub[READY][author] becomes True. A game whose
        set-up shows something (islands, a row of ships) overrides it and checks that part; it
        may return a step, as a handler does (the first turn's, once the last set-up is in)."""
        check_size(event, 3)
        if event[_SETUP_PUBLIC] is not None:
            raise IllegalAction("malformed setup event")
        if pub[READY][author]:
            raise IllegalAction("player %d set up twice" % author)
        pub[READY][author] = True

    def apply_private(self, pub, priv, player, author, event):
        """Update this player's priv for an event (called after apply). Default: nothing."""
        return None

    # ---- for the UI and the bots -----------------------------------------------------------
    def concede(self, pub, player):
        """Mark `player` as having conceded; the result must then name the others."""
        pub[CONCEDED] = player

