# Where the menus' cursors start (the first move within 10 presses of power-on): the
# home menu on the game opened last, across a reboot, and still on that game when "Play as
# bot" sits above the games; a game's menu on How to play for a game never started here (OK, OK
# from the home menu reads the rules, never starts a game), then on the way it was started last.
import pytest

from kit.app import real_app
from fathom import games
from fathom.app import home_menu
from fathom.flow.gamemenu import game_menu
from kit.memstore import MemStorage

pytestmark = pytest.mark.micropython


def cursor_label(menu):
    return [ln for ln in menu.lines() if ln.startswith(">")][0][1:]


def test_a_fresh_unit_starts_on_the_first_game():
    app, _pins, _bus = real_app()
    assert cursor_label(home_menu(app)) == games.declaration(games.IDS[0]).TITLE


@pytest.mark.parametrize("lending", [False, True])
def test_the_game_opened_last_is_under_the_cursor_after_a_reboot(lending):
    store = MemStorage()
    app, _pins, _bus = real_app(store)
    gid = games.IDS[-1]
    if lending:
        app.settings.set("opponent", "easy")
    menu = home_menu(app)
    app.push(menu)
    while cursor_label(menu) != games.declaration(gid).TITLE:
        menu.key("DOWN")
    menu.key("OK")
    again, _pins, _bus = real_app(store)  # a reboot: new App, the same flash
    assert cursor_label(home_menu(again)) == games.declaration(gid).TITLE


def test_a_game_never_started_opens_on_how_to_play_then_as_it_was_started_last():
    store = MemStorage()
    app, _pins, _bus = real_app(store)
    for gid in games.IDS:   # OK, OK from the home menu: the rules, never a game
        assert cursor_label(game_menu(app, gid)) == "How to play", gid
    menu = game_menu(app, "ping")
    app.push(menu)
    menu.key("OK")                         # the help page, over the menu
    assert app.top() is not menu and app.top().title == "PING"
    app.top().key("BACK")
    assert app.top() is menu and cursor_label(menu) == "How to play"
    labels = [it.label for it in menu.items]
    assert labels[:3] == ["vs other unit", "How to play", "vs bot: easy"]   # one press each way
    menu.key("UP")
    assert cursor_label(menu) == "vs other unit"
    menu.key("OK")                         # starts pairing; the choice is kept for PING
    again, _pins, _bus = real_app(store)
    assert cursor_label(game_menu(again, "ping")) == "vs other unit"
    # another game this unit never started: still its rules first
    assert cursor_label(game_menu(again, "periplus")) == "How to play"
    assert cursor_label(game_menu(again, "pinned_down")) == "How to play"
