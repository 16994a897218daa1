# The hard bots plan over hidden states they sample themselves: nothing they decide may come
# from another seat's secrets. At every decision of a hard bot in whole games, a copy of it (its
# random stream where the real one stands) decides again after every other seat's private state
# was swapped for another (the same seat's, from a game dealt from another seed, set up its own
# way): the choice must be the same. A bot that read a partner's hand, an adversary's square or
# lake, through its seat or around it, would choose otherwise somewhere in these games. And it
# keeps nothing of the joint seed, from which a seeded deal could be recomputed.
import copy

import pytest

from fathom import games
from fathom.games import local
from fathom.games.bots import make_bot
from fathom.games.seat import fresh_state
from test_every_game import View, reachable

GIDS = [g for g in games.IDS if games.has(g, "bot")]


def other_secrets(eng, opts, n, player):
    """A private state for `player` from another game: another deal, another set-up."""
    pub, priv = fresh_state(eng, opts, n, b"another game", player)
    bot = make_bot(eng.NAME, "sharp", b"another game", player)

    class Alone:   # what a bot's set-up reads of a seat
        pass
    seat = Alone()
    seat.pub, seat.priv, seat.player = pub, priv, player
    seat.setup_legal = lambda: eng.setup_legal(pub, priv, player)
    while seat.setup_legal():
        eng.setup_apply(pub, priv, player, bot.setup(seat))
    return priv


class Probed:
    """Plays the hard bot; before each of its choices, a copy chooses with the others' secrets
    swapped, and the two are compared."""

    def __init__(self, bot, seats_of, swaps):
        self.bot = bot
        self.seats_of = seats_of     # () -> the game's seats
        self.swaps = swaps           # player -> the replacement private state
        self.checked = 0

    def setup(self, seat):
        return self.bot.setup(View(seat))

    def act(self, seat):
        probe = copy.deepcopy(self.bot)
        seats = self.seats_of()
        real = {s.player: s.priv for s in seats if s is not seat}
        for s in seats:
            if s is not seat:
                s.priv = self.swaps[s.player]
        try:
            swapped = probe.act(View(seat))
        finally:
            for s in seats:
                if s is not seat:
                    s.priv = real[s.player]
        choice = self.bot.act(View(seat))
        assert swapped == choice, "hard bot chose %r, with the others' secrets swapped %r" % (
            choice, swapped)
        self.checked += 1
        return choice


@pytest.mark.parametrize("gid", GIDS)
def test_a_hard_bots_choices_do_not_depend_on_the_others_secrets(gid, monkeypatch):
    eng = games.engine(gid)
    opts = eng.options()
    n = 2
    real_make = local.make_seats
    seats = []

    def make_seats(*a):
        seats[:] = real_make(*a)
        return seats
    monkeypatch.setattr(local, "make_seats", make_seats)
    for g in range(2):
        seed = b"hard fair %d" % g
        me = g % n
        bots = [make_bot(gid, "sharp", seed, p) for p in range(n)]
        hard = make_bot(gid, "hard", seed, me)
        assert not [o for o in reachable(vars(hard)).values() if o == seed]
        swaps = {p: other_secrets(eng, opts, n, p) for p in range(n) if p != me}
        bots[me] = probed = Probed(hard, lambda: seats, swaps)
        out = local.play(eng, opts, n, seed, bots)
        assert out["result"] is not None and probed.checked > 0
        assert not [o for o in reachable(vars(hard)).values() if o == seed]
