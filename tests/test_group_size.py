# How many units a link game offers: up to what the game allows and the link carries.
import pytest

from fathom.link.peer import MAX_PARTNERS
from fathom.ui.pairing import start_link_game
from uikit import App

pytestmark = pytest.mark.micropython


def sizes(gid):
    app = App(128, 64)
    start_link_game(app, gid, {})
    return [it.label for it in app.stack[-1].items]


def test_a_group_game_offers_groups_up_to_what_the_link_carries():
    # Sugar Dog's rules take 8, and a host's link carries the seven partners that makes
    assert MAX_PARTNERS == 7
    assert sizes("sugardog") == ["2 players"] + ["%d: host" % n for n in
                                                 range(3, 9)] + ["Join a group"]
    assert sizes("pinned_down") == ["2 players", "3: host", "4: host", "Join a group"]
