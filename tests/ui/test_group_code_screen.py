# The group code on the pairing screen: once a group's keys are agreed,
# every player's screen shows one six-digit code and the game starts only on OK, so players
# who compare screens see a host that sat in the middle of the partners' keys; BACK plays
# nothing; a unit lent as a bot has nobody to compare it and plays on.
import pytest

from fathom.link.connect import Connector
from fathom.flow.pairing import READ_MS, PairScreen
from fathom.ui.screen import Screen
from hostmodes.wire import Air, connect_all
from kit.memstore import MemStorage
from kit.panel import App

pytestmark = pytest.mark.micropython


class Under(Screen):
    title = "Game menu"


def group(n=3, lent=()):
    """n units paired as a group (unit 0 hosts) and, over each Connector, its pairing screen."""
    air = Air()
    cs, apps = [], []
    for i in range(n):
        store = MemStorage()
        c = Connector(air.radio(b"\x02\x00\x00\x00\x00" + bytes((i + 1,))), "espnow",
                      "U%d" % i, store, "sugardog", {}, 0, n if i == 0 else 2, i > 0)
        cs.append(c)
    connect_all(cs, host_name="U0")
    for i, c in enumerate(cs):
        assert c.state == "ready", (c.state, c.error)
        app = App(128, 64)
        app.settings = {"opponent": "easy" if i in lent else "off", "name": "U%d" % i,
                        "link": "espnow"}
        app.hw.storage = c.storage
        app.push(Under(app))
        app.push(PairScreen(app, c))
        apps.append(app)
    return cs, apps


def tick(app, now=0):
    top = app.stack[-1]
    top.tick(now)
    app.stack[-1].draw(app.hw.display)
    return app.stack[-1]


def test_every_screen_shows_one_code_and_the_game_waits_for_ok():
    cs, apps = group(3)
    codes = set()
    for app in apps:
        scr = tick(app)
        assert isinstance(scr, PairScreen), scr.lines()
        head = scr.lines()[1]
        assert head.startswith("Group code "), scr.lines()
        codes.add(head)
        assert tick(app) is scr  # it waits, however long
    assert len(codes) == 1 and codes.pop()[len("Group code "):].replace(" ", "") == \
        cs[0].group_code()
    for app in apps:
        scr = app.stack[-1]
        scr.key("OK")                       # within its first second: not read yet
        assert tick(app, scr.c.since + 10) is scr and "OK play BACK leave" not in scr.lines()
        assert tick(app, scr.c.since + READ_MS) is scr
        assert scr.lines()[-1] == "OK play BACK leave"
        scr.key("OK")
        scr = tick(app, scr.c.since + READ_MS)
        assert not isinstance(scr, PairScreen) and not isinstance(scr, Under), scr.lines()
        assert scr.runner.code == cs[0].group_code()


def test_back_on_the_code_plays_nothing():
    _cs, apps = group(3)
    scr = tick(apps[1])
    scr.key("BACK")
    assert isinstance(apps[1].stack[-1], Under)
    assert not apps[1].hw.storage.exists("game")


def test_a_lent_unit_plays_on_without_a_code():
    _cs, apps = group(3, lent=(2,))
    assert not isinstance(tick(apps[2]), PairScreen)
    assert isinstance(tick(apps[1]), PairScreen)
