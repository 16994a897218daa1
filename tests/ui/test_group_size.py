# How many units a link game offers: up to what the game allows and the link carries.
import pytest

from fathom.link.peer import MAX_PARTNERS
from fathom.flow import pairing  # one module object, even if another test forgets it
from kit.panel import App

pytestmark = pytest.mark.micropython


def sizes(gid):
    app = App(128, 64)
    pairing.start_link_game(app, gid, {})
    return [it.label for it in app.stack[-1].items]


def test_a_group_game_offers_groups_up_to_what_the_link_carries():
    # Sugar Dog's rules take 8, and a host's link carries the seven partners that makes
    assert MAX_PARTNERS == 7
    assert sizes("sugardog") == ["2 players"] + ["%d: host" % n for n in
                                                 range(3, 9)] + ["Join a group"]
    assert sizes("pinned_down") == ["2 players", "3: host", "4: host", "Join a group"]


def test_a_host_refuses_a_group_its_heap_cannot_hold():
    # a unit with room for a 61 KB game: Sugar Dog's host of 8 needs more (games/sugardog's
    # HOST_HEAP, measured), so choosing it says so instead of failing mid-game; 7 fits
    assert pairing.host_heap("sugardog", 7) <= 61 * 1024 < pairing.host_heap("sugardog", 8)
    room = pairing._room
    pairing._room = lambda: 61 * 1024
    try:
        app = App(128, 64)
        pairing.start_link_game(app, "sugardog", {})
    finally:
        pairing._room = room
    menu = app.stack[-1]
    [eight] = [it for it in menu.items if it.label == "8: host"]
    eight.action(app)
    msg = app.stack[-1]
    assert msg is not menu and msg.title == "Players"
    text = " ".join(msg.lines())
    assert "Hosting 8 needs about 62 KB" in text and "room for 61 KB" in text, text
    assert "Host fewer" in text
