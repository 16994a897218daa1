# Conceding during set-up ends the game: the result screen follows, as a concession later does.
# It used to leave Sugar Dog's screen on "Your start" with no result and OK still placing the
# start square: the rules take a concession only once every set-up is in, so the seat now
# finishes its own set-up first and the concession goes as soon as the others' are in.
import pytest

from kit.app import real_app
from fathom import games
from fathom.app import home_menu
from fathom.flow.gamemenu import game_menu

pytestmark = pytest.mark.micropython

WITH_SETUP = ("ping", "ashtapada", "sugardog", "periplus")


def run(app, now, steps=40):
    for i in range(steps):
        app.step(now + i * 300)
    return now + steps * 300


def press(app, keys, now):
    for k in keys:
        app.top().key(k)
        now = run(app, now, 2)
    return now


@pytest.mark.parametrize("gid", WITH_SETUP)
def test_conceding_in_set_up_shows_the_result(gid):
    app, _pins, _bus = real_app()
    app.push(home_menu(app))
    app.push(game_menu(app, gid))
    now = press(app, app.top().keys_for("vs bot: easy"), 0)
    game = app.top()
    seat = game.runner.seat
    assert seat.setup_legal(), "the game should be in set-up"
    app.top().key("BACK")                               # paused
    now = press(app, app.top().keys_for("Concede"), now)
    now = press(app, app.top().keys_for("Concede"), now)  # the question's answer
    now = run(app, now)
    lines = app.top().lines()
    assert lines[0] == "Result", lines
    assert "conceded" in " ".join(lines).lower(), lines
    assert not seat.setup_legal() and game.runner.result()[1] == "conceded"
    app.top().key("OK")                                 # leaves the result, places nothing
    assert game.runner.result()[1] == "conceded"


def test_every_game_with_a_set_up_is_covered():
    assert set(WITH_SETUP) <= set(games.IDS)
