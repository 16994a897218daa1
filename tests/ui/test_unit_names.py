# A unit's name tells it apart from its first boot: 'UNIT' and the end of its radio address
# (the chip's base MAC) until its player chooses one with the keys, and the same name on every
# screen that shows it. Every unit used to be 'PLAYER'.
import sys
import types

import pytest

from kit.app import real_app
from fathom.settings import OLD_DEFAULT, Settings, radio_name
from kit.memstore import MemStorage


@pytest.fixture
def chip(monkeypatch):
    """A machine module whose unique_id is the MAC set in it (a stand-in for the chip's)."""
    m = types.ModuleType("machine")
    m.mac = b"\x24\x0a\xc4\x12\x3f\x2a"
    m.unique_id = lambda: m.mac
    monkeypatch.setitem(sys.modules, "machine", m)
    return m


def test_a_new_unit_is_named_from_its_radio_address(chip):
    s = Settings(MemStorage())
    assert s["name"] == "UNIT 3F2A" == radio_name()
    chip.mac = b"\x24\x0a\xc4\x12\x07\xb1"
    assert Settings(MemStorage())["name"] == "UNIT 07B1"   # another unit, another name


def test_the_old_shared_default_gives_way_and_a_chosen_name_stays(chip):
    store = MemStorage()
    s = Settings(store)
    s.set("name", OLD_DEFAULT)             # saved by a firmware where every unit was PLAYER
    assert Settings(store)["name"] == "UNIT 3F2A"
    s.set("name", "ANNA")
    assert Settings(store)["name"] == "ANNA"


def test_the_name_is_chosen_with_the_keys_in_settings(chip):
    from fathom.flow.settingsmenu import settings_menu
    store = MemStorage()
    app, _pins, _bus = real_app(store)
    menu = settings_menu(app)
    app.push(menu)
    assert "Name: UNIT 3F2A" in menu.lines()[1]
    menu.key("OK")                          # the name, one letter at a time
    ed = app.top()
    assert ed.lines()[1] == "UNIT 3F2A"
    for _ in range(len("UNIT 3F2A") - 1):   # the last letter: A -> B
        ed.key("RIGHT")
    ed.key("UP")
    ed.key("OK")
    assert Settings(store)["name"] == "UNIT 3F2B"
    assert "Name: UNIT 3F2B" in app.top().lines()[1]
