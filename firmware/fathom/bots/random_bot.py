# The random legal-move bot: the baseline opponent and the soak-test driver.
from fathom.prng import Prng


class RandomBot:
    LEVEL = "random"

    def __init__(self, seed, player):
        self.rng = Prng(seed, b"bot%d" % player)

    def setup(self, seat):
        return self.rng.choice(seat.setup_legal())

    def act(self, seat):
        return self.rng.choice(seat.legal())
