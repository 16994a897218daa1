# A key whose move the runner refuses is said, not a crash. The screens offer moves from the game
# state; a unit whose save was cut holds its own moves until the partner's copy of the game is
# back (Runner.behind), so OK on an offered move there reached Runner.play's refusal, which the
# game screen did not catch: the unit stopped with a traceback (seen by the chaos bench in
# Pinned Down). The App now puts such a refusal on the game's problem line.
import pytest

from kit.app import real_app
from fathom.app import home_menu
from fathom.flow.gamemenu import game_menu
from fathom.ui.screen import Screen

pytestmark = pytest.mark.micropython

DOWN_PIN, OK_PIN = 2, 5


def press(app, pins, pin, now):
    """A person's press on the buttons' pin: down 60 ms, up, through App.step."""
    p = pins[pin]
    p.level = 0
    for t in range(0, 60, 10):
        app.step(now + t)
    p.level = 1
    for t in range(60, 200, 10):
        app.step(now + t)
    return now + 200


def test_ok_on_an_offered_move_while_the_save_heals_is_said_not_a_crash():
    gid = "pinned_down"   # no set-up: its first screen offers moves
    app, pins, _bus = real_app()
    app.push(home_menu(app))
    app.push(game_menu(app, gid))
    for k in app.top().keys_for("with bot: easy"):
        app.top().key(k)
    game = app.top()
    r = game.runner
    now = 0
    for _ in range(400):   # to the first moment this unit's own player has a move
        app.step(now)
        now += 50
        if r.seat.my_turn():
            break
    assert r.seat.my_turn()
    n = r.seat.n_log
    r.behind = True          # as a cut save leaves it (Runner.load)
    for _ in range(4):      # OK on the move, through its menu or its question's other answer
        if r.problem:
            break
        if app.top() is not game:
            now = press(app, pins, DOWN_PIN, now)
        now = press(app, pins, OK_PIN, now)
    assert app.top() is game and r.seat.n_log == n
    assert r.problem == "not sent: waiting for the partner's copy of the game"
    assert "not sent" in game.status()


class Broken(Screen):
    title = "Broken"

    def key(self, k):
        raise ValueError("a bug")


def test_any_other_failure_of_a_key_is_not_hidden():
    app, pins, _bus = real_app()
    app.push(home_menu(app))
    app.push(Broken(app))
    with pytest.raises(ValueError):
        press(app, pins, OK_PIN, 0)
