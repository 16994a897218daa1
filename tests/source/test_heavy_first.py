# The files make test hands out first (tests/conftest.py, HEAVY_FIRST) exist: one renamed or
# moved would drop silently to the back of the queue, and the run's tail would grow.
import pathlib

import conftest

TESTS = pathlib.Path(conftest.__file__).resolve().parent


def test_every_heavy_file_is_a_test_file_listed_once():
    names = conftest.HEAVY_FIRST
    assert len(set(names)) == len(names)
    for name in names:
        assert (TESTS / name).is_file(), name
