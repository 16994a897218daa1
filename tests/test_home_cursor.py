# The home menu's cursor starts on the game opened last, across a reboot (the setting is kept
# in storage), and still on that game when "Play as bot" sits above the games.
import pytest

from appkit import real_app
from fathom import games
from fathom.app import home_menu
from memstore import MemStorage

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
