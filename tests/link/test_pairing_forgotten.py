# Once a linked game starts, the pairing code leaves the heap (flow/pairing.py forgets it): two
# units paired in-process through the real pairing screen, over the in-memory radio, into the
# game screen; then the pairing's link modules are forgotten and the live heap must give back
# about what importing them afresh takes. Had the game kept one function of a pairing module
# (a channel's sender made in connect.py did), that module's globals, and every module they
# name, would stay on the heap: 9 KB with fathom frozen, a linked game's peak grown by 4 KB.
# Nothing here imports the pairing modules at module level: this module's globals would keep
# them.
import gc
import sys

import pytest

from fathom import games
from hostmodes.wire import Air
from kit.memstore import MemStorage
from kit.panel import App
from fathom.ui.screen import Screen

pytestmark = pytest.mark.micropython

STEP = 10


class Under(Screen):
    title = "Game menu"   # what the pairing screen was opened from


def live():
    gc.collect()
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else None


def unit(air, i):
    store = MemStorage()
    radio = air.radio(b"\x02\x00\x00\x00\x00" + bytes((i + 1,)))
    app = App(128, 64)
    app.settings = {"opponent": "off", "name": "U%d" % i, "link": "espnow"}
    app.hw.storage = store
    app.push(Under(app))
    return app, radio


def pair_into_game(units):
    """Both units through the pairing screen (a player on each picks the other and confirms the
    code) until each shows its game, ticked as the app loop ticks them. Returns the time
    reached."""
    from fathom.link.connect import Connector
    from fathom.flow.pairing import PairScreen
    for app, radio in units:
        c = Connector(radio, "espnow", app.settings["name"], app.hw.storage, "ping",
                      games.options("ping"), 0)
        app.push(PairScreen(app, c))
    now = 0
    while now < 60000 and any(isinstance(app.stack[-1], PairScreen) for app, _r in units):
        now += STEP
        for app, _r in units:
            for s in app.services:  # a unit already in its game: its link, as the app ticks it
                s.tick(now)
            top = app.stack[-1]
            top.tick(now)
            if isinstance(top, PairScreen) and (
                    top.c.state == "discover" and top.c.nearby(now) or
                    top.c.state == "confirm" and not top.c.confirmed()):
                top.key("OK")
    return now


def pairing_modules_cost(names):
    """The heap the pairing's link modules take, imported afresh (then forgotten again)."""
    from fathom import forget
    before = live()
    for m in names:
        __import__(m)
    cost = live() - before
    for m in names:
        forget(m)
    return cost


def test_the_pairing_code_leaves_the_heap_once_the_game_starts():
    import fathom
    from fathom.flow import pairing
    code = pairing.PAIRING_CODE
    del pairing
    forget = fathom.forget
    forget("fathom.flow.pairing")
    air = Air()
    units = [unit(air, 0), unit(air, 1)]
    fathom.forget = lambda name: None  # the screen's forgetting waits, to be measured here
    try:
        pair_into_game(units)
    finally:
        fathom.forget = forget
    for app, _r in units:
        assert type(app.stack[-1]).__name__ != "PairScreen", app.stack[-1].lines()
        assert app.services and app.services[0].peers, "no linked game started"
    del air.heard[:]  # the frames a bystander would have captured: the test's, not a unit's
    link = [m for m in code if m.startswith("fathom.link.")]
    for m in code:
        if m not in link:
            forget(m)
    held = live()
    for m in link:
        forget(m)
    freed = live()
    assert [m for m in code if m in sys.modules] == []
    if held is None:
        return  # CPython: sys.modules is what the heap would follow
    freed = held - freed
    cost = pairing_modules_cost(link)
    assert cost > 0
    # Freed, the link's pairing modules give back about what they take; kept by the game
    # through one function, they give back next to nothing.
    assert freed > cost // 2, (freed, cost)
