# The game log reads as what the players did: the sealed deal's many messages (keys, shuffle
# chunks, shares) are one row per deal, not dozens of "P1 shuffles", "deal key", "opens 3".
import pytest

from fathom.games.bots import make_bot
from fathom.flow.gamelog import LogScreen
from fathom.ui.happened import DEAL

from test_sealed_screens import linked
from kit.panel import App

pytestmark = pytest.mark.micropython


def _deal_then_moves(gid, moves):
    rs = linked(gid, b"log " + gid.encode())
    bots = [make_bot(gid, "random", b"log", p) for p in (0, 1)]
    now = played = 0
    while played < moves and rs[0].result() is None:
        for r in rs:
            r.tick(now)
            s = r.seat
            if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
                r.play(bots[s.player].act(s))
                played += 1
        now += 10
        assert now < 600000, "the game never moved"
    return rs[0]


@pytest.mark.parametrize("gid", ("ping", "periplus"))
def test_the_sealed_deal_is_one_log_row_per_deal(gid):
    r = _deal_then_moves(gid, 6)
    s = r.seat
    tags = [e[0] for _a, e in s.log]
    deals = len([i for i in range(len(tags)) if tags[i] in DEAL and
                 (i == 0 or tags[i - 1] not in DEAL)])
    assert deals >= 1 and len([t for t in tags if t in DEAL]) > 2 * deals, tags
    app = App(128, 64)
    scr = LogScreen(app, r)
    rows = [scr.view.labels[i] for i in range(scr.view.count())]
    assert len(rows) == len(tags) - len([t for t in tags if t in DEAL]) + deals, rows
    deal_rows = [x for x in rows if x.endswith(" in secret")]
    assert len(deal_rows) == deals, rows
    for word in ("deal key", "shuffles", "opens"):
        assert not [x for x in rows if word in x], rows
    # every other row is its event's own line, numbered by its place in the log
    n = int(rows[-1].split(" ")[0].split("-")[-1])
    assert n == len(tags) - 1
