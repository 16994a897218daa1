# While a game is shown its home menu is not in memory (1.2-1.4 KB: items, their closures, the
# list view, which a linked group's host needs for the game), and every way out of the game
# lands on a home menu built again, its cursor on the game just played.
import gc

import pytest

from kit.app import real_app
from fathom import games
from fathom.app import home_menu
from fathom.ui.gamemenu import game_menu
from fathom.ui.menu import Menu

pytestmark = pytest.mark.micropython


def run(app, now, steps=40):
    for i in range(steps):
        app.step(now + i * 300)
    return now + steps * 300


def start(gid):
    app, _pins, _bus = real_app()
    app.push(home_menu(app))
    app.push(game_menu(app, gid))
    app.settings.set("last", gid)   # as the home menu's item does on opening the game menu
    now = run(app, 0, 1)
    # "vs bot: easy", or "with bot: easy" in the cooperative game
    label = [it.label for it in app.top().items if it.label.endswith("bot: easy")][0]
    for k in app.top().keys_for(label):
        app.top().key(k)
        now = run(app, now, 2)
    return app, now


def cursor_label(menu):
    return [ln for ln in menu.lines() if ln.startswith(">")][0][1:]


def test_the_home_menu_is_gone_while_a_game_is_shown_and_back_on_its_game_after():
    gid = games.IDS[-1]   # the last game: a menu built again from scratch starts elsewhere
    app, now = start(gid)
    assert app.stack[0] is None and app.top().runner.gid == gid
    app.top().key("BACK")                      # the pause menu, over the game
    assert app.stack[0] is None and len(app.stack) == 3
    app.pop()                                  # back to the game: still no home menu
    assert app.stack[0] is None and len(app.stack) == 2
    app.home()
    home = app.top()
    assert len(app.stack) == 1 and isinstance(home, Menu)
    assert cursor_label(home) == games.declaration(gid).TITLE
    run(app, now, 2)                           # home and idle: the loop draws it
    assert home.lines()[0].startswith("fathom")


def test_a_game_holds_less_heap_without_its_home_menu():
    if not hasattr(gc, "mem_alloc"):
        pytest.skip("heap counting is MicroPython's")
    gid = games.IDS[0]
    app, now = start(gid)
    gc.collect()
    without = gc.mem_alloc()
    app.stack[0] = home_menu(app)
    gc.collect()
    held = gc.mem_alloc() - without
    assert held >= 256, held   # what the game no longer holds (1.2-1.4 KB on a 32-bit unit)
