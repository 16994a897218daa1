# The engine hooks every game with a sealed deal shares (PING, Periplus), as a mixin. The deal's
# code is imported only by a game that has one (pub["sd"]): an unsealed game pays nothing.
from fathom.compat import const
from fathom.games import base

FOUL = const("foul")   # a card share opened no card: its receiver ends the game naming the sender
DEAL = const("deal")   # the phase (Engine.phase) while a step of the deal is due: only its events go
_KEY_SHARE = const("sk")        # the deal's events (stage.py): a player's key commitment share,
_SHUFFLE_CHUNK = const("ss")    # a chunk of a shuffle,
_CARD_SHARES = const("so")      # the shares that open cards to their receiver
DEAL_TAGS = (_KEY_SHARE, _SHUFFLE_CHUNK, _CARD_SHARES)
_TAG = const(0)                 # every event's first slot (games/base.py)
_SHUFFLE_FROM = const(2)        # [SHUFFLE_CHUNK, round, first position, chunk] (stage.py builds them)
_SHUFFLE_CARDS = const(3)
_OPEN_POSITIONS = const(2)      # [CARD_SHARES, round, positions, shares]


def deal_line(ev):
    """The log's few words for one of the deal's events ("shuffles 1-8"), None for another."""
    tag = ev[_TAG]
    if tag == _KEY_SHARE:
        return "deal key"
    if tag == _SHUFFLE_CHUNK:
        first = ev[_SHUFFLE_FROM]
        return "shuffles %d-%d" % (first + 1, first + len(ev[_SHUFFLE_CARDS]) // 2)
    if tag == _CARD_SHARES:
        n = len(ev[_OPEN_POSITIONS])
        return "opens %d card%s" % (n, "" if n == 1 else "s")
    return None


class SealedHooks:
    log = None   # the seat's log, set by bind(): the sealed deck is read back from it

    def bind(self, log):
        """This engine for the seat whose log is `log` (a sequence of (author, event)): the
        sealed deck stays in the log's shuffle events, not in RAM (stage.py). A copy, since one
        engine object serves every seat in a process (an in-unit bot, the tests); made without
        __init__, its attributes copied (a test's tampered engine keeps its settings)."""
        e = object.__new__(type(self))
        d = self.__dict__
        for k in d:
            setattr(e, k, d[k])
        e.log = log
        return e

    def apply(self, pub, author, event):
        self._apply(pub, author, event)
        if "sd" in pub:   # the log index of the next event: where a shuffle chunk lands
            from fathom.sealed import stage
            stage.count(pub["sd"])

    # The game's own apply, which SealedHooks.apply wraps (counting must follow every event):
    # the generic dispatch, called straight from apply (no frame of its own on the C stack).
    _apply = base.Engine.apply

    def dealing(self, pub):
        """True while a step of the sealed deal is due: a game's phase() returns DEAL then, and
        its HANDLERS[DEAL] maps every DEAL_TAGS tag to deal_step."""
        if "sd" not in pub:
            return False
        from fathom.sealed import stage
        return stage.pending(pub["sd"]) >= 0

    def deal_step(self, pub, author, event):
        """The handler of the deal's own events (key share, shuffle chunk, card shares)."""
        from fathom.sealed import stage
        self.sealed_call(stage.apply, pub["sd"], author, event)

    def sealed_call(self, fn, sd, author, x):
        """fn(sd, author, x) from the deal's code, its refusals as IllegalAction."""
        from fathom.sealed.group import SealedError
        try:
            fn(sd, author, x)
        except SealedError as e:
            raise base.IllegalAction("sealed deal: %s" % e)
        except (TypeError, IndexError, KeyError, AttributeError):
            raise base.IllegalAction("malformed sealed-deal event")

    def seal(self, pub, priv, salt):
        """The seat's hook: this player's sealed-deal secret, from its salt."""
        if "sd" in pub:
            from fathom.sealed import stage
            priv["sd"] = stage.secret(salt)

    def sealed_answer(self, pub, priv, player):
        """The sealed step `player` must author now, or None when none is due."""
        if "sd" in pub:
            from fathom.sealed import stage
            if stage.pending(pub["sd"]) == player:
                return stage.answer(pub["sd"], priv, player, self.log)
        return None

    def sealed_private(self, pub, priv, player, event):
        """The cards an opening gives this player (-1: a card that opens to nothing), or None;
        a card that opens to nothing marks the foul the runner then plays."""
        from fathom.sealed import stage
        got = stage.private(pub["sd"], priv, player, event, self.log)
        if got and -1 in got:
            priv[FOUL] = 1
        return got

    def forced(self, pub, priv, player):
        """The one action the rules leave (the runner plays it without a key press): a foul
        once a card opened to nothing."""
        return [FOUL] if priv.get(FOUL) else None

    def deal_progress(self, pub):
        """(done, total) of the sealed deal's work under way, None when none is: a screen
        draws a progress bar from it while the units shuffle and open cards."""
        if "sd" not in pub:
            return None
        from fathom.sealed import stage
        return stage.progress(pub["sd"])
