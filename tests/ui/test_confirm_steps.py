# A step that cannot be taken back asks once, the cursor on the safe answer (ui/confirm.py):
# conceding from the pause menu of every game, and leaving a group, at 128x64 and 72x40, played
# through the keys on the real App. BACK, UP (the pause menu wraps round to Concede), OK used
# to end the game at once.
import pytest

from kit.app import real_app
from fathom import games
from fathom.app import home_menu
from fathom.flow.gamemenu import game_menu
from test_concede_in_setup import press, run

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (72, 40))


def game_vs_bot(gid, size):
    app, _pins, _bus = real_app(size=size)
    app.push(home_menu(app))
    app.push(game_menu(app, gid))
    coop = games.declaration(gid).PLAYERS[0] == 1
    now = press(app, app.top().keys_for("with bot: easy" if coop else "vs bot: easy"), 0)
    return app, app.top(), now


def draws(app):
    """The top screen drawn on the unit's own panel (a layout error raises here)."""
    d = app.hw.display
    d.fill(0)
    app.top().draw(d)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("gid", sorted(games.IDS))
def test_concede_asks_once_with_the_cursor_on_keep_playing(gid, size):
    app, game, now = game_vs_bot(gid, size)
    r = game.runner
    now = press(app, ["BACK", "UP", "OK"], now)     # the keys that used to concede at once
    assert r.result() is None, r.result()
    ask = app.top()
    assert ask.lines()[0] == "Concede?", ask.lines()
    assert ask.lines()[2:] == [">Keep playing", " Concede"], ask.lines()
    draws(app)
    now = press(app, ["OK"], now)                   # once more: still nothing ends
    assert r.result() is None
    assert app.top().lines()[0] == "Paused", app.top().lines()
    now = press(app, ["OK", "BACK"], now)           # asked again, BACK: still nothing
    assert r.result() is None and app.top().lines()[0] == "Paused"
    now = press(app, ["OK"], now)
    now = press(app, app.top().keys_for("Concede"), now)
    now = run(app, now, 40)
    assert r.result() is not None and r.result()[1] == "conceded", r.result()
    assert app.top().lines()[0] == "Result", app.top().lines()


@pytest.mark.parametrize("size", SIZES)
def test_leaving_a_group_asks_once_with_the_cursor_on_stay(size):
    from fathom.flow.play import start_vs_bot
    app, _pins, _bus = real_app(size=size)
    app.push(home_menu(app))
    start_vs_bot(app, "sugardog", games.engine("sugardog").options({}), "easy", b"g" * 16, 3)
    now = run(app, 0)
    game = app.top()
    assert game.runner.seat.n == 3
    now = press(app, ["BACK"], now)
    now = press(app, app.top().keys_for("Leave (keep)"), now)
    ask = app.top()
    assert ask.lines()[0] == "Leave the group?" and ask.lines()[2:] == [">Stay", " Leave"]
    draws(app)
    now = press(app, ["OK"], now)                   # the OK again: still in the game
    assert app.top().lines()[0] == "Paused" and game in app.stack
    now = press(app, ["OK"], now)                   # asked again (the cursor stayed)
    now = press(app, app.top().keys_for("Leave"), now)
    now = run(app, now)
    assert game not in app.stack and app.top().lines()[0] == "fathom", app.top().lines()


@pytest.mark.parametrize("size", SIZES)
def test_a_question_longer_than_its_box_turns_its_words_by_itself(size):
    # PING's turn report puts what came since your last move above the question: at 72x40 the
    # box holds two rows, and the rest waited for LEFT/RIGHT, which a newcomer does not know
    from fathom.ui.confirm import Confirm
    from fathom.ui.textpage import TURN_MS
    app, _pins, _bus = real_app(size=size)
    app.push(home_menu(app))
    words = "P2 moved. P2 fired a torpedo at your square and missed. " * 3 + "Last words."
    q = Confirm(app, "Report M?", words, "Report", lambda a: None, "Not now")
    app.push(q)
    seen = set()
    now = 1000
    for _ in range(40):
        draws(app)
        seen.update(w for line in q.page.lines(*_box(app)) [q.page.top:q.page.top + q.page._rows]
                    for w in line.split())
        w = q.wake_in(now)
        assert w is not None, "it rests before its words went round"
        now += max(w, 1)
        q.tick(now)
        if q.page.turn_at is False:
            break
    assert q.page.turn_at is False and q.page.top == 0       # round once, then the first page
    assert "Last" in seen and "words." in seen
    assert q.wake_in(now) is None                              # and it rests
    assert now - 1000 >= TURN_MS


def _box(app):
    d = app.hw.display
    from fathom.ui.font import CH
    return d.width, d.height - CH - 2 * CH
