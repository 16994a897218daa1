# The work units make test hands out heaviest first (tests/conftest.py, HEAVY_FIRST) name test
# files that exist, and a MicroPython run only of a file that has one: a file renamed or moved
# would otherwise drop silently to the back of the queue, and the run's tail would grow.
import pathlib

import conftest

TESTS = pathlib.Path(conftest.__file__).resolve().parent


def test_every_heavy_unit_is_a_test_file_and_each_is_listed_once():
    units = conftest.HEAVY_FIRST
    assert len(set(units)) == len(units)
    for u in units:
        name, _, run = u.partition(":")
        path = TESTS / name
        assert path.is_file(), u
        assert run in ("", "micropython"), u
        if run:
            assert "pytest.mark.micropython" in path.read_text(), u
