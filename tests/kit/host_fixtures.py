# Fixtures for the host tools' tests (`pytest_plugins = ["kit.host_fixtures"]`): a stand-in
# firmware tree to deploy, and a serial twin to deploy it to.
import pytest

from kit.host import STAND_IN


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "firmware"
    for rel, text in STAND_IN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def twin(tmp_path):
    from fathom_host.twins.serialtwin import SerialTwin
    t = SerialTwin(tmp_path / "unit", {"FATHOM_UNIT": "0"})
    t.start()
    yield t
    t.stop()
