# While a game is shown its home menu is not in memory (1.2-1.4 KB: items, their closures, the
# list view, which a linked group's host needs for the game), nor what only the home menu uses
# (the invitation listener, the other games' declarations), and every way out of the game
# lands on a home menu built again, its cursor on the game just played, listening again.
import gc
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
if _FW + "/twins" not in sys.path:  # pairing opens the ESP-NOW twin (no ether: silent)
    sys.path.insert(0, _FW + "/twins")

from kit.app import real_app  # noqa: E402
from fathom import games  # noqa: E402
from fathom.app import home_menu  # noqa: E402
from fathom.flow.gamemenu import game_menu  # noqa: E402
from fathom.ui.menu import Menu  # noqa: E402

pytestmark = pytest.mark.micropython


def run(app, now, steps=40):
    for i in range(steps):
        app.step(now + i * 300)
    return now + steps * 300


def start(gid, boot=False):
    app, _pins, _bus = real_app()
    if boot:
        app.start()   # as a unit boots: the home menu and its invitation listener
    else:
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


def test_a_game_holds_neither_the_invitations_nor_the_other_games_declarations():
    gid = games.IDS[-1]
    app, now = start(gid, boot=True)
    assert app.stack[0] is None and app.top().runner.gid == gid
    assert app.invite is None and "fathom.flow.invite" not in sys.modules
    for g in games.IDS:   # a declaration stays only where a part of its game is loaded: the
        pkg = games.package(g)   # game played (and any an earlier test here left loaded)
        assert (pkg in sys.modules) == any(n.startswith(pkg + ".") for n in sys.modules), g
    assert games.package(gid) in sys.modules
    app.radio_off = "OSError(19)"   # as if the radio had not started at home
    app.top().key("BACK")           # the pause menu over the game: still not home
    assert app.invite is None
    app.home()
    assert app.invite is not None and app.invite.off == "OSError(19)"
    assert all(games.package(g) in sys.modules for g in games.IDS)
    assert cursor_label(app.top()) == games.declaration(gid).TITLE


def test_pairing_leaves_home_and_back_out_of_it_finds_home_listening_again():
    from fathom.flow.pairing import PairScreen, start_link_game
    app, _pins, _bus = real_app()
    app.start()
    gid = games.IDS[0]
    app.push(game_menu(app, gid))
    start_link_game(app, gid, {}, 2)            # the game menu's "vs other unit"
    assert isinstance(app.top(), PairScreen)
    assert app.stack[0] is None and app.invite is None and "fathom.flow.invite" not in sys.modules
    app.top().key("BACK")                       # leave: the partner is told first
    for i in range(50):
        if len(app.stack) < 3:
            break
        app.step(i * 10)
    assert app.top().title == games.declaration(gid).TITLE   # the game menu again
    app.top().key("BACK")
    assert len(app.stack) == 1 and isinstance(app.top(), Menu) and app.invite is not None
    assert cursor_label(app.top()) == games.declaration(gid).TITLE
