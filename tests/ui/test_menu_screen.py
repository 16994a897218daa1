# The menu: cursor wraps, an unavailable item is shown but cannot be chosen, BACK leaves.
import pytest

from fathom.ui.menu import Item, Menu

pytestmark = pytest.mark.micropython


class FakeApp:
    rows = 8
    link_state = None

    def __init__(self):
        self.popped = 0

    def pop(self):
        self.popped += 1


def test_unavailable_items_are_listed_but_do_nothing():
    chosen = []
    app = FakeApp()
    m = Menu(app, "Games", [Item("PING", lambda a: chosen.append("ping")),
                            Item("Later", lambda a: chosen.append("later"), False, "soon")])
    assert m.lines() == ["Games", ">PING", " Later (unavailable): soon"]
    m.key("DOWN")
    m.key("OK")
    assert chosen == []
    m.key("DOWN")  # wraps to the top
    m.key("OK")
    assert chosen == ["ping"]
    m.key("UP")
    assert m.lines()[2].startswith(">Later")
    m.key("BACK")
    assert app.popped == 1
