# A sixth game is one folder: the toy (tests/toy/, outside fathom.games) registered from here
# appears in the home menu, its game menu offers the random bot (it declares no bot part) and
# plays to a verified end through the generic game screen, the companion lists its mode,
# `fathom sim --game toy` plays it, and the generic tests run over it (test_every_game.py).
import argparse
import json

import pytest

from kit.app import real_app
from fathom import games

TITLE = "Toy"


@pytest.fixture
def toy():
    games.register("toy")
    yield "toy"
    games.unregister("toy")


def choose(app, label):
    """Move the top menu's cursor to the item whose line starts with `label`, press OK."""
    m = app.top()
    labels = [line[1:] for line in m.lines()[1:]]
    hits = [i for i, t in enumerate(labels) if t.startswith(label)]
    assert hits, "%r not in %r" % (label, labels)
    while m.cursor != hits[0]:
        m.key("DOWN")
    m.key("OK")
    app.redraw()


def test_the_registered_game_is_in_the_home_and_game_menus_and_plays_to_a_verified_end(toy):
    from fathom.app import home_menu
    from fathom.flow.gameend import ResultScreen
    from fathom.ui.genericscreen import GameScreen
    app, _pins, _bus = real_app()
    app.push(home_menu(app))
    app.redraw()
    assert any(line[1:] == TITLE for line in app.top().lines())
    choose(app, TITLE)
    lines = app.top().lines()
    assert lines[0] == TITLE
    assert [line[1:] for line in lines[1:]] == ["vs other unit", "How to play",
                                                "vs bot: random", "Top: 4"]
    choose(app, "How to play")               # it ships no help page: a message says so
    assert "No help page" in " ".join(app.top().lines())
    app.top().key("BACK")
    choose(app, "vs bot: random")
    scr = app.top()
    assert type(scr) is GameScreen           # no screen part: the generic one
    now = 0
    presses = 0
    while not (isinstance(app.top(), ResultScreen) and "waiting" not in " ".join(
            app.top().lines())):
        now += 50
        app.step(now)
        top = app.top()
        if isinstance(top, GameScreen) and top.choices() and top.status() in ("set up",
                                                                             "your move"):
            top.key("OK")
            presses += 1
        assert now < 600000, app.top().lines()
    text = " ".join(app.top().lines())
    assert presses >= 2 and "verified" in text, text


def test_the_registered_game_is_in_the_companion(toy):
    from fathom.ui.companion import companion_menu
    app, _pins, _bus = real_app()
    app.push(companion_menu(app))
    assert any(line[1:] == TITLE for line in app.top().lines())
    choose(app, TITLE)
    assert app.top().lines()[:2] == [TITLE, "| guesses: 0"]
    app.top().key("OK")
    assert app.top().lines()[1] == "| guesses: 1"
    assert app.hw.storage.read_obj("c_toy") == {"guesses": 1}


def test_fathom_sim_plays_the_registered_game(toy, capsys):
    from fathom_host import sim
    p = argparse.ArgumentParser()
    sim.add_arguments(p)
    assert sim.run(p.parse_args(["--game", "toy", "--games", "12", "--option", "top=6"])) == 0
    stats = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert stats["completed"] == 12 and stats["audit_failures"] == 0, stats


def test_the_generic_tests_run_over_the_registered_game():
    import test_every_game
    assert "toy" in test_every_game.GIDS and ("toy", "random") in test_every_game.BOTS
    assert "toy" not in games.IDS   # and it left the registry after them


def test_an_unregistered_game_is_gone(toy):
    games.unregister("toy")
    with pytest.raises(KeyError):
        games.declaration("toy")
    games.register("toy")   # for the fixture's unregister
