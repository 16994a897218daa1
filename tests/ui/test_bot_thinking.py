# A bot on the move says so: its decision runs inside the loop (a hard bot's may take a second
# or two on an ESP32), so the word "P2 thinking..." must be on the panel before the decision
# starts, not after, and leave once the move is played. Checked on the real App and panel: the
# word's inverted box along the panel's foot, and the screen's text (what the emulator reads).
import pytest

from kit.app import real_app
from fathom.app import home_menu
from fathom.flow.play import start_vs_bot
from fathom.games.bots import make_bot

pytestmark = pytest.mark.micropython


def foot_lit(d):
    """The last row of the word's box: lit across its right-hand 40 pixels."""
    for x in range(d.width - 40, d.width):
        if not d.pixel(x, d.height - 1):
            return False
    return True


def test_the_bot_says_it_is_thinking_before_it_decides_and_stops_after():
    app, _pins, _bus = real_app()
    app.push(home_menu(app))
    start_vs_bot(app, "ashtapada", {}, "sharp", b"thinking test 16", 2)
    scr = app.top()
    r = scr.runner
    me = make_bot("ashtapada", "sharp", b"me", 0)
    while r.seat.setup_legal():
        r.setup_choose(me.setup(r.seat))
    peer = r.peers[0]
    seen = []
    inner = peer.bot

    class Watched:   # the bot peer's bot, noting what the panel showed when it was asked
        def setup(self, seat):
            return inner.setup(seat)

        def act(self, seat):
            seen.append((foot_lit(app.d), scr.lines()[-1]))
            return inner.act(seat)
    peer.bot = Watched()
    now = 0
    for _ in range(40):                       # the bot's set-up; then South (us) moves first
        app.step(now)
        now += 100
        if r.my_turn():
            break
    assert r.my_turn() and not seen
    assert not foot_lit(app.d) and "P2 thinking..." not in scr.lines()
    r.play(me.act(r.seat))
    for _ in range(40):
        app.step(now)
        now += 100
        if seen and r.my_turn():
            break
    assert seen == [(True, "P2 thinking...")], seen
    assert r.my_turn()
    assert not foot_lit(app.d) and "P2 thinking..." not in scr.lines()
