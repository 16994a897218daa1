# Bot players: the random legal-move bot (the baseline and the soak-test driver) and the way to
# get any game's bot by level. A game's own bots are its `bot` part (EasyBot, SharpBot, HardBot).
from fathom import games
from fathom.prng import Prng

LEVELS = ("easy", "sharp", "hard")   # a game's own bots, weakest first; "random" is every game's


class Bot:
    """Every bot, and itself the random legal-move bot (`RandomBot`, level "random"): made by
    make_bot(gid, level, seed, player) as Cls(seed, player), with its own random stream from
    the seed and LABEL (distinct per bot, so two bots of one game never mirror each other);
    set-up a random legal choice. A game's bot subclasses it, names its LEVEL and LABEL and
    overrides act (and setup where it plans)."""
    LEVEL = "random"
    LABEL = b"bot"

    def __init__(self, seed, player):
        self.rng = Prng(seed, self.LABEL + b"%d" % player)
        self.player = player

    def setup(self, seat):
        return self.rng.choice(seat.setup_legal())

    def act(self, seat):
        return self.rng.choice(seat.legal())


RandomBot = Bot   # one class, not two: each class is heap on a unit that plays a bot


def levels(gid):
    """The bot levels a game's menus offer: easy and sharp, and hard where the game's declaration
    says its hard bot plays better than sharp (HARD; `fathom bench bots` measures it), or only
    random when it declares no bots. make_bot makes every level of LEVELS for the benches."""
    if not games.has(gid, "bot"):
        return ("random",)
    return LEVELS if getattr(games.declaration(gid), "HARD", False) else LEVELS[:2]


def make_bot(gid, level, seed, player):
    if level == "random":
        return RandomBot(seed, player)
    if level not in LEVELS:
        raise ValueError("unknown bot level %r" % (level,))
    m = games.part(gid, "bot")
    return getattr(m, ("EasyBot", "SharpBot", "HardBot")[LEVELS.index(level)])(seed, player)
