# End-to-end test parts shared by the test modules (the key-driving helpers are the host
# tools', re-exported by e2e_driver.py): the emulated radio as a pytest fixture.
import pytest

from fathom.codec import decode
from fathom.hal.records import scan_records
from fathom_host.ether import Ether


def ether_fixture(seed):
    """A fixture named `ether` for a module (`ether = ether_fixture(17)`): the emulated radio
    with its faults seeded by `seed`, started for the test and stopped after it."""
    @pytest.fixture
    def ether():
        e = Ether(seed=seed)
        e.start()
        yield e
        e.stop()
    return ether


def chain(u):
    """[(author, event, hash8)] of every event the unit journalled, read from its flash file."""
    with open(str(u.dir / "data" / "game"), "rb") as f:
        recs = [decode(body) for _p, _e, body in scan_records(f)]
    return [(r[1], r[2], bytes(r[3])) for r in recs[1:] if r[0] == "e"]
