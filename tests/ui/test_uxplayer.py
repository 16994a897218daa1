# The scripted player (firmware/hostmodes/uxplayer) on a real game screen, in-process: the keys
# it queues are handed to the screen as the button driver would hand them, and what it reports
# is what the host would read. It must count the keys of each authored choice, and report,
# not hide, keys that author nothing (a wrong keys_for) or a screen that raises.
import json

import pytest

from fathom.games.local import make_seats
from fathom.games.sugardog import engine as S
from fathom.games.sugardog import screen as ui
from fathom.runner import Runner
from hostmodes import uxplayer

from kit.panel import App

pytestmark = pytest.mark.micropython
SETTLE_MS = uxplayer.SETTLE_MS


class Hub:
    """The twin hub as the player sees it: keys queued, reports sent."""

    def __init__(self):
        self.keys = []
        self.sent = []

    def queue_key(self, k):
        self.keys.append(k)

    def send(self, kind, payload):
        assert kind == b"U"
        self.sent.append(json.loads(payload.decode()))


def setup(spec="level=sharp"):
    seat = make_seats(S.ENGINE, S.ENGINE.options({}), 2, b"uxplayer")[0]
    app = App(128, 64)
    scr = ui.screen(app, Runner(seat, [], None, "sugardog"))
    app.push(scr)
    hub = Hub()
    player = uxplayer.UxPlayer(hub, app, spec)
    return seat, scr, hub, player


def run(scr, hub, player, loops=20):
    """What the hub's loop does: the player looks when no key is playing, keys are played."""
    for _ in range(loops):
        player.idle()
        while hub.keys:
            scr.key(hub.keys.pop(0))
        if hub.sent:
            return


def test_the_player_authors_its_set_up_through_the_keys_and_counts_them():
    seat, scr, hub, player = setup()
    run(scr, hub, player)
    assert not hub.sent, hub.sent  # nothing to report: the partner has not answered yet
    assert len(seat.setup_choices) >= 1 and not seat.setup_legal()
    assert len(player.presses) == len(seat.setup_choices)
    assert min(player.presses) >= 1 and player.first_move == player.presses[0]


def test_keys_that_author_nothing_are_reported():
    seat, scr, hub, player = setup()
    right = scr.keys_for
    scr.keys_for = lambda action: right(action)[:-1]  # a keys_for that forgets its OK
    run(scr, hub, player)
    assert not hub.sent  # a game may hold a choice back a while (Periplus's answers)
    uxplayer.SETTLE_MS = 0
    try:
        run(scr, hub, player)
    finally:
        uxplayer.SETTLE_MS = SETTLE_MS
    assert len(hub.sent) == 1, hub.sent
    assert "authored nothing" in hub.sent[0]["error"], hub.sent
    assert hub.sent[0]["game"] == "sugardog" and hub.sent[0]["presses"] == []
    assert not seat.setup_choices


def test_a_screen_that_raises_is_reported_and_the_unit_goes_on():
    seat, scr, hub, player = setup()

    def broken(action):
        raise ValueError("not a choice here")
    scr.keys_for = broken
    run(scr, hub, player)
    assert len(hub.sent) == 1 and "ValueError: not a choice here" in hub.sent[0]["error"]
    player.idle()  # reported once, then quiet
    assert len(hub.sent) == 1


def test_moves_stops_the_player_at_the_choice_after_the_last_and_reports():
    # moves=N: N choices made, then it reports when the game next waits for this player, so
    # a screenshot or a reboot finds the game at a choice, not mid-answer
    seat, scr, hub, player = setup("level=sharp,moves=0")
    run(scr, hub, player)
    assert len(hub.sent) == 1 and hub.sent[0]["result"] is False, hub.sent
    assert hub.sent[0]["presses"] == [] and seat.setup_choices == [] and seat.setup_legal()
    seat, scr, hub, player = setup("level=sharp,moves=1")
    run(scr, hub, player)
    assert hub.sent == [] and len(player.presses) == 1   # the partner has not set up yet


def test_a_spec_it_cannot_read_fails_loudly():
    with pytest.raises(ValueError):
        uxplayer.parse("level=sharp,fast")


def test_moves_names_the_question_the_game_asks_when_it_stops():
    # a screenshot after moves=N presses its keys next: over the turn's question they would
    # answer it (or, in its first moments, do nothing), so the report says it is up
    from fathom.games.ping import screen as ping_ui
    from kit.ping import M1_ENC, M1_GUN, M1_LISTEN, M1_TORP, M2_DIVE, M3_PING, game
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app = App(128, 64)
    scr = ping_ui.screen(app, Runner(seats[0], [], None, "ping"))
    app.push(scr)
    hub = Hub()
    player = uxplayer.UxPlayer(hub, app, "level=sharp,moves=0")
    for t in range(0, 2000, 100):         # the question's first 0.6 s take no key
        app.stack[-1].tick(t)
        player.idle()
    assert app.stack[-1] is not scr and len(hub.sent) == 1, hub.sent
    assert hub.sent[0]["result"] is False and hub.sent[0]["asking"] == "Report M?"
