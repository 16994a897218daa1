# Whole-game copies of a seat as one dict, and the seat rebuilt from one: for tests and host
# tools only (they grow with the game), so kept out of seat.py and the unit's heap.
from fathom.games.seat import CONCEDE, TURN_ACT, TURN_ANSWER, Seat


def save(seat):
    return {
        "opts": seat.opts, "n": seat.n, "seed": seat.seed, "player": seat.player,
        "salt": seat.salt, "setup": seat.setup_choices, "actions": list(seat.actions),
        "log": [[a, e] for a, e in seat.events()],
        "cks": [rec[4] for rec in seat.records()],
    }


def restore(engine, saved):
    """A seat rebuilt from a Seat.save() dict (tests and host tools)."""
    s = Seat(engine, saved["opts"], saved["n"], saved["seed"], saved["player"], saved["salt"])
    for c in saved["setup"]:
        s.setup_choose(c)
    actions = list(saved["actions"])
    cks = saved.get("cks") or [None] * len(saved["log"])
    for (author, event), ck in zip(saved["log"], cks):
        if author == s.player:
            kind = s.to_move()[1] if event[0] != CONCEDE else CONCEDE
            action = None
            s.settle(kind)  # the state's hash, before act() changes it
            if kind == TURN_ACT:
                action = actions.pop(0)
                s.engine.act(s.pub, s.priv, s.player, action)
            elif kind == TURN_ANSWER:
                s.engine.answer(s.pub, s.priv, s.player)
            s._record(author, event, kind, action)
        else:
            s.receive(author, event, ck)
    return s
