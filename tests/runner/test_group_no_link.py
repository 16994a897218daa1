# A group partner whose link record is lost once its game is played out keeps its result with
# no peers at all (flow/resume.lost_link). Its runner still ticks on the result screen: the
# watch on the host's feed must not look for a host link it no longer has (the chaos bench
# found it: an IndexError every loop, a unit that never got past "Link lost").
import pytest

from fathom.games.seat import Seat
from fathom.games.sugardog.engine import ENGINE
from fathom.runner import Runner
from kit.memstore import MemStorage

pytestmark = pytest.mark.micropython


def test_a_group_partner_with_no_link_left_ticks_without_one():
    seat = Seat(ENGINE, ENGINE.options({}), 3, b"s" * 32, 2, b"salt2")
    r = Runner(seat, [], MemStorage(), "sugardog", {"vs": "link", "link": "espnow"})
    for now in range(0, 20000, 100):
        r.tick(now)
    assert r.peers == [] and r.desync is None
