# The toy's rules: a tiny hidden-information game for testing the framework without a real
# game's rules. Each player secretly picks a number 1..top; in turn, a player guesses the
# other's number and the owner answers "hi", "lo" or "hit" from its secret. First hit wins;
# 8 misses each = draw.
from fathom.games.base import Engine, IllegalAction

import toy as D


class Toy(Engine):
    NAME = D.ID
    TITLE = D.TITLE
    PLAYERS = D.PLAYERS
    OPTIONS = D.OPTIONS

    def new_game(self, opts, n, rng):
        return {"top": opts["top"], "ready": [], "turn": 0, "q": None, "misses": [0, 0],
                "winner": None, "first": rng.below(2)}

    def new_private(self, pub, player, rng):
        return {"secret": 0}

    def setup_legal(self, pub, priv, player):
        return [] if priv["secret"] else list(range(1, pub["top"] + 1))

    def setup_apply(self, pub, priv, player, choice):
        priv["secret"] = choice

    def turn(self, pub):
        if self.result(pub) is not None:
            return None
        if pub["q"] is not None:
            return (1 - pub["turn"], "answer")
        return (pub["turn"], "act")

    def legal(self, pub, priv, player):
        return [["guess", g] for g in range(1, pub["top"] + 1)]

    def act(self, pub, priv, player, action):
        return action

    def answer(self, pub, priv, player):
        g = pub["q"]
        return ["ans", "hit" if g == priv["secret"] else ("hi" if g > priv["secret"] else "lo")]

    def apply(self, pub, author, event):
        tag = event[0]
        if tag == "setup":
            pub["ready"].append(author)
        elif tag == "guess":
            if pub["q"] is not None or len(event) != 2 or event[1] not in range(1, pub["top"] + 1):
                raise IllegalAction("bad guess")
            pub["q"] = event[1]
        elif tag == "ans":
            if pub["q"] is None or len(event) != 2 or event[1] not in ("hi", "lo", "hit"):
                raise IllegalAction("bad answer")
            if event[1] == "hit":
                pub["winner"] = pub["turn"]
            else:
                pub["misses"][pub["turn"]] += 1
            pub["q"] = None
            pub["turn"] = 1 - pub["turn"]
        else:
            raise IllegalAction("unknown event")

    def describe(self, pub, author, event):
        if event[0] == "guess":
            return "P%d guesses %d" % (author + 1, event[1])
        if event[0] == "ans":
            return "P%d: %s" % (author + 1, event[1])
        raise IllegalAction("no such event")

    def result(self, pub):
        if pub.get("conceded") is not None:
            return ([1 - pub["conceded"]], "conceded")
        if pub["winner"] is not None:
            return ([pub["winner"]], "hit")
        if min(pub["misses"]) >= 8:
            return ([], "draw")
        return None


ENGINE = Toy()


class Liar(Toy):
    """Never admits a hit: answers 'lo' when the truth is 'hit'. The audit must catch it."""

    def answer(self, pub, priv, player):
        ev = Toy.answer(self, pub, priv, player)
        return ["ans", "lo"] if ev[1] == "hit" else ev
