# The toy's rules: a tiny hidden-information game for testing the framework without a real
# game's rules. Each player secretly picks a number 1..top; in turn, a player guesses the
# other's number and the owner answers "hi", "lo" or "hit" from its secret. First hit wins;
# 8 misses each = draw.
from fathom.compat import const
from fathom.games.base import CONCEDED, READY, Engine, IllegalAction
from fathom.games.seat import TURN_ACT, TURN_ANSWER

import toy as D

# ---- the schema (rules.md beside this file lists the same events) --------------------------
# pub ("ready": base.READY, one bool per player; "conceded": base.CONCEDED)
TOP = const("top")          # the highest number a player may pick
TURN = const("turn")        # the player whose guess it is
GUESSED = const("q")        # the guess awaiting its answer, None when none does
MISSES = const("misses")    # per player: guesses that missed
WINNER = const("winner")    # the player whose guess hit, None until one does
FIRST = const("first")      # a coin drawn from the joint seed (public chance, unused by play)
# priv
SECRET = const("secret")    # my number, 0 until picked
# events
EV_GUESS = const("guess")   # a guess at the other's number
GUESS_NUMBER = const(1)     # 1..top
EV_ANS = const("ans")       # the owner's answer from its secret
ANS_WORD = const(1)         # "hi", "lo" or "hit"

_WORDS = ("hi", "lo", "hit")
_DRAW_AT = 8                # misses each that make a draw


class Toy(Engine):
    NAME = D.ID
    TITLE = D.TITLE
    PLAYERS = D.PLAYERS
    OPTIONS = D.OPTIONS

    def new_game(self, opts, n, rng):
        return {TOP: opts["top"], READY: [False] * n, TURN: 0, GUESSED: None, MISSES: [0] * n,
                WINNER: None, FIRST: rng.below(2)}

    def new_private(self, pub, player, rng):
        return {SECRET: 0}

    def setup_legal(self, pub, priv, player):
        return [] if priv[SECRET] else list(range(1, pub[TOP] + 1))

    def setup_apply(self, pub, priv, player, choice):
        priv[SECRET] = choice

    def turn(self, pub):
        if self.result(pub) is not None:
            return None
        if pub[GUESSED] is not None:
            return (1 - pub[TURN], TURN_ANSWER)
        return (pub[TURN], TURN_ACT)

    def legal(self, pub, priv, player):
        return [[EV_GUESS, g] for g in range(1, pub[TOP] + 1)]

    def act(self, pub, priv, player, action):
        return action

    def answer(self, pub, priv, player):
        g = pub[GUESSED]
        mine = priv[SECRET]
        return [EV_ANS, "hit" if g == mine else ("hi" if g > mine else "lo")]

    # the set-up event is base's default (nothing public); play is this table, by tag alone
    def _h_guess(self, pub, author, event):
        if pub[GUESSED] is not None or len(event) != 2 or \
                event[GUESS_NUMBER] not in range(1, pub[TOP] + 1):
            raise IllegalAction("bad guess")
        pub[GUESSED] = event[GUESS_NUMBER]

    def _h_ans(self, pub, author, event):
        if pub[GUESSED] is None or len(event) != 2 or event[ANS_WORD] not in _WORDS:
            raise IllegalAction("bad answer")
        if event[ANS_WORD] == "hit":
            pub[WINNER] = pub[TURN]
        else:
            pub[MISSES][pub[TURN]] += 1
        pub[GUESSED] = None
        pub[TURN] = 1 - pub[TURN]


    def result(self, pub):
        if pub.get(CONCEDED) is not None:
            return ([1 - pub[CONCEDED]], "conceded")
        if pub[WINNER] is not None:
            return ([pub[WINNER]], "hit")
        if min(pub[MISSES]) >= _DRAW_AT:
            return ([], "draw")
        return None


Toy.HANDLERS = {EV_GUESS: Toy._h_guess, EV_ANS: Toy._h_ans}

ENGINE = Toy()


class Liar(Toy):
    """Never admits a hit: answers 'lo' when the truth is 'hit'. The audit must catch it."""

    def answer(self, pub, priv, player):
        ev = Toy.answer(self, pub, priv, player)
        return [EV_ANS, "lo"] if ev[ANS_WORD] == "hit" else ev
