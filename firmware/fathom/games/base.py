# The engine contract every game follows, plus the generic parts (options, replay audit).
#
# A game is a deterministic machine over a replicated public log. No unit sees everything:
# each holds the public state `pub` and only its own private state `priv`. Events are plain
# codec-encodable values (lists whose first item is a short type string) authored by the unit
# that knows what the event needs; every unit applies the same events in the same order.
#
# States are plain dicts/lists of ints, strs, bools (no floats, no sets), so they encode,
# hash and save canonically on both runtimes.


class IllegalAction(ValueError):
    """An action or event the rules forbid: bad shape, out of turn, or illegal move."""


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
    def new_game(self, opts, nplayers, rng):
        """Public starting state. `rng` is a Prng on the session's joint seed (public chance)."""
        raise NotImplementedError

    def new_private(self, pub, player, rng):
        """Private state before this player's secret setup. `rng` is the same joint-seed Prng
        on every unit (label b'deal'), so a dealt hand is consistent across units."""
        raise NotImplementedError

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

    # ---- play ------------------------------------------------------------------------------
    def turn(self, pub):
        """(player, kind) who must author the next event: kind 'act' (choose an action) or
        'answer' (answer the pending query from their secrets). None when the game is over."""
        raise NotImplementedError

    def legal(self, pub, priv, player):
        """Every legal action for `player` now (bots and random play-outs use this)."""
        raise NotImplementedError

    def act(self, pub, priv, player, action):
        """Turn an action into the public event. May update priv with the action's secret
        consequences (e.g. the new position). Must not change pub. Raises IllegalAction."""
        raise NotImplementedError

    def answer(self, pub, priv, player):
        """The public event answering pub's pending query, computed from this player's priv.
        May update priv (e.g. a mine destroyed)."""
        raise NotImplementedError

    def apply(self, pub, author, event):
        """Apply an event to pub on every unit. Validates what public knowledge can validate
        (shape, turn, public legality) and raises IllegalAction otherwise."""
        raise NotImplementedError

    def apply_private(self, pub, priv, player, author, event):
        """Update this player's priv for an event (called after apply). Default: nothing."""
        return None

    def result(self, pub):
        """None while playing, else (winners, reason): winners a list of players (empty =
        draw; in a cooperative game every player or none)."""
        raise NotImplementedError

    # ---- for the UI and the bots -----------------------------------------------------------
    def describe(self, pub, author, event):
        """One short line (<= 21 chars ideally) for the log screen."""
        return str(event[0])

    def concede(self, pub, player):
        """Mark `player` as having conceded; the result must then name the others."""
        pub["conceded"] = player


def describe(eng, seat, author, event):
    """The log line for an event: the framework's own events here, the game's from its engine
    (which must describe every event it accepts: the generic tests hold it to that)."""
    if event[0] == "setup":
        return "P%d ready" % (author + 1)
    if event[0] == "concede":
        return "P%d concedes" % (author + 1)
    return eng.describe(seat.pub, author, event)
