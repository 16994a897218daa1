# End-to-end test parts shared by the test modules (the key-driving helpers are the host
# tools', re-exported by e2e_driver.py): the emulated radio as a pytest fixture.
import pytest

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
