# The sealed deal where a person meets it: on by default for a link game, off and
# said so for a game against the in-unit bot (both seats on one unit: nothing to protect), shown
# as off/on in the game menu, and a progress bar over the game screen while the units shuffle,
# at every panel size. And where it lives: in the log, not in RAM (the engine reads it back).
import pytest

from fathom import games
from fathom.codec import encode
from fathom.games import local
from fathom.games.base import LINK_ONLY, local_options, option_text
from fathom.games.bots import make_bot
from fathom.games.seat import fresh_state
from fathom.peers import pipe_pair, vs_bots
from fathom.runner import Runner
from fathom.sealed.group import SealedError
from fathom.flow import play
from fathom.ui import gamebase
from fathom.flow.gamemenu import game_menu

from kit.memstore import MemStorage
from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

GIDS = ("ping", "periplus")
SIZES = [(128, 64), (128, 32), (72, 40)]


class Settings:
    def __init__(self):
        self.values = {}

    def set(self, k, v):
        self.values[k] = v


def menu_app():
    a = App(128, 64)
    a.settings = Settings()
    a.hw.storage = MemStorage()
    return a


# ---- the option: on by default, off/on on the screen, off against the bot ------------------------
@pytest.mark.parametrize("gid", GIDS)
def test_on_by_default_and_shown_as_off_on(gid):
    assert games.options(gid)["sealed"] == 1
    opt = [o for o in games.declaration(gid).OPTIONS if o[0] == "sealed"][0]
    assert option_text(opt, 0) == "off" and option_text(opt, 1) == "on"
    m = game_menu(menu_app(), gid)
    row = [ln for ln in m.lines() if "Sealed deal" in ln]
    assert row == [" Sealed deal (link): on"], m.lines()   # a vs-bot start plays it off
    islands = [o for o in games.declaration("periplus").OPTIONS if o[0] == "islands"][0]
    assert option_text(islands, 2) == "2"                  # no names declared: the value


@pytest.mark.parametrize("gid", GIDS)
def test_the_menu_cycles_the_option_off_and_on(gid):
    a = menu_app()
    a.push(game_menu(a, gid))
    row = [i for i, it in enumerate(a.stack[-1].items) if it.label.startswith("Sealed")][0]
    a.stack[-1].items[row].action(a)
    assert a.settings.values["opts_" + gid]["sealed"] == 0
    assert a.stack[-1].items[row].note == "off"
    a.stack[-1].items[row].action(a)
    assert a.stack[-1].items[row].note == "on"


@pytest.mark.parametrize("gid", GIDS)
def test_a_game_against_the_bot_is_never_sealed(gid):
    assert "sealed" in LINK_ONLY and local_options({"sealed": 1, "x": 2}) == {"sealed": 0, "x": 2}
    r = vs_bots(Runner, MemStorage(), gid, games.options(gid), "sharp", b"vs bot seed", 2)
    for s in [r.seat] + [p.runner.seat for p in r.peers]:
        assert s.opts["sealed"] == 0 and "sd" not in s.pub
    # the menu's own start goes the same way: its action passes the options through
    a = menu_app()
    started = []
    play.start_vs_bot, real = (lambda app, gid, opts, *rest: started.append(opts)), \
        play.start_vs_bot
    try:
        m = game_menu(a, gid)
        [it for it in m.items if it.label.startswith("vs bot")][0].action(a)
    finally:
        play.start_vs_bot = real
    assert started and started[0]["sealed"] == 0


# ---- the deck lives in the log ----------------------------------------------------------------------
@pytest.mark.parametrize("gid", GIDS)
def test_no_state_holds_the_sealed_deck(gid):
    eng = games.engine(gid)
    seed = b"deck in the log"
    seats = local.make_seats(eng, eng.options(), 2, seed)
    bots = [make_bot(gid, "random", seed, p) for p in (0, 1)]
    most = 0
    while seats[0].pub["sd"]["keys"][1] is None or seats[0].engine.deal_progress(seats[0].pub):
        s = local.next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        ev = s.author(bots[s.player].act(s) if s.to_move()[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, ev, s.ck)
        for o in seats:   # an element is 96 bytes: the two keys, and not one card
            keys = [k for k in o.pub["sd"]["keys"] if k is not None]
            assert [v for v in elements([o.pub, o.priv]) if v not in keys] == []
            most = max(most, len(encode(o.pub["sd"])))
    assert most < 1024, most   # a 55-card deck was 21 KB encoded here
    assert any(len(o.priv["hand"]) for o in seats)   # and the deal gave cards


def elements(v):
    if isinstance(v, bytes) and len(v) == 96:
        yield v
    elif isinstance(v, dict):
        for k in v:
            if k != "dig":   # 8-byte tails of the cards' c1 in one value (96 bytes at 12 cards)
                yield from elements(v[k])
    elif isinstance(v, list):
        for x in v:
            yield from elements(x)


def test_an_engine_without_the_log_fails_loudly():
    eng = games.engine("periplus")
    pub, priv = fresh_state(eng, eng.options(), 2, b"x" * 16, 0, b"salt")
    sd = pub["sd"]
    sd["kc"] = [b"k" * 32, b"k" * 32]
    sd["keys"] = [b"\x02" * 96, b"\x03" * 96]   # keyed, player 0's shuffle done: player 1's
    sd["m"] = sd["n"]                            # reads player 0's cards back from the log
    with pytest.raises(SealedError):
        eng.answer(pub, priv, 1)  # an engine no seat bound to its log: loud, no in-RAM deck


# ---- the progress bar --------------------------------------------------------------------------------
def linked(gid, seed):
    eng = games.engine(gid)
    seats = local.make_seats(eng, eng.options(), 2, seed)
    a, b = pipe_pair()
    rs = [Runner(seats[0], [a]), Runner(seats[1], [b])]
    bots = [make_bot(gid, "random", seed, p) for p in (0, 1)]
    for r in rs:
        while r.seat.setup_legal():
            r.setup_choose(bots[r.seat.player].setup(r.seat))
    return rs


@pytest.mark.parametrize("gid", GIDS)
@pytest.mark.parametrize("size", SIZES)
def test_the_deal_shows_a_progress_bar_that_fills_then_closes(gid, size):
    w, h = size
    rs = linked(gid, b"bar %d" % w)
    app = App(w, h)
    game = gamebase.GameBase(app, rs[0])
    app.push(game)
    now = 0
    fills = []
    while len(app.stack) == 1 or isinstance(app.stack[-1], gamebase.DealScreen):
        for r in rs:
            r.tick(now)
        app.stack[-1].tick(now)
        now += 10
        top = app.stack[-1]
        if isinstance(top, gamebase.DealScreen):
            d = Oversized(w, h, 16)
            top.draw(d)
            assert d.outside() == 0, (gid, size, top.lines())
            done, total = top.pr
            assert top.lines() == ["Sealed deal", top.text, "%d of %d steps" % (done, total)]
            fills.append(d.fb.lit(1, 18, w - 2, 1))   # the bar's first inner row (y 17 + 1)
        elif fills:
            break
        assert now < 600000, "the deal never ended"
    assert app.stack == [game]                     # closed by itself when the deal was done
    assert fills[0] < fills[-1] and fills == sorted(fills), fills
    assert fills[-1] > (w - 2) // 2
