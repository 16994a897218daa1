# Bots decide only from what their own player may know: each decision gets a view that exposes
# the public state, the public log, this player's own secrets and its legal choices, and
# nothing else; and nothing reachable from that view belongs to another player's secrets.
import pytest

from fathom import games
from fathom.games.bots import RandomBot
from fathom.games import local

GAMES = games.with_part("bot")


class View:
    """What one player may know, and only that: any other attribute is refused."""
    __slots__ = ("pub", "priv", "log", "player", "_seat")

    def __init__(self, seat):
        self._seat = seat
        self.pub = seat.pub
        self.priv = seat.priv
        self.log = seat.log
        self.player = seat.player

    def legal(self):
        return self._seat.legal()

    def setup_legal(self):
        return self._seat.setup_legal()


def reachable(root):
    """ids of every container reachable from root through dicts, lists and tuples."""
    seen = {}
    stack = [root]
    while stack:
        o = stack.pop()
        if id(o) in seen or not isinstance(o, (dict, list, tuple, bytearray)):
            continue
        seen[id(o)] = o
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif not isinstance(o, bytearray):
            stack.extend(o)
    return seen


class Guarded:
    """Hands the real bot a View, and checks each view holds nothing of the other seats'."""

    def __init__(self, bot, views):
        self.bot = bot
        self.views = views

    def setup(self, seat):
        v = View(seat)
        self.views.append(v)
        return self.bot.setup(v)

    def act(self, seat):
        v = View(seat)
        self.views.append(v)
        return self.bot.act(v)


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("level", ["easy", "sharp"])
def test_bots_decide_from_their_own_view(gid, level):
    eng = games.engine(gid)
    m = games.part(gid, "bot")
    cls = m.SharpBot if level == "sharp" else m.EasyBot
    n = eng.PLAYERS[0] if eng.PLAYERS[0] > 1 else 2
    for g in range(3):
        seed = b"fair%d" % g
        views = []
        bots = [RandomBot(seed, p) for p in range(n)]
        bots[0] = Guarded(cls(seed, 0), views)
        out = local.play(eng, eng.options(), n, seed, bots)
        assert out["result"] is not None and views
        others = {}
        for s in out["seats"][1:]:
            for k, o in reachable(s.priv).items():
                if isinstance(o, (dict, list, bytearray)):  # mutable: identity means sharing
                    others[k] = o
        for v in views[-5:]:
            mine = reachable(v.pub)
            mine.update(reachable(v.priv))
            mine.update(reachable(v.log))
            shared = [o for k, o in mine.items() if k in others and o]
            assert not shared, "the view reaches another player's private objects: %r" % shared[:3]


def test_view_refuses_anything_else():
    eng = games.engine("ashtapada")
    out = local.play(eng, eng.options(), 2, b"v", [RandomBot(b"v", 0), RandomBot(b"v", 1)])
    v = View(out["seats"][0])
    for name in ("salt", "seed", "actions", "setup_choices", "engine"):
        with pytest.raises(AttributeError):
            getattr(v, name)
