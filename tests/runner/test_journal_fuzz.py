# Any bytes at all in a record file either read as records or end in a clear CorruptFile
# (the file moved aside): never another exception, never a hang.
import os
import shutil
import tempfile

from hypothesis import given, settings, strategies as st

from fathom.hal.records import record_head
from fathom.hal.storage import CorruptFile, Storage

MAGIC = b"FJ\x01"


def _records(bodies):
    return MAGIC + b"".join(record_head(b) + b for b in bodies)


def _read(data):
    root = tempfile.mkdtemp(prefix="fathom-fuzz-")
    try:
        with open(root + "/j", "wb") as f:
            f.write(data)
        s = Storage(root)
        try:
            got = [b for _p, _e, b in s.records("j")]
            n, cut = s.repair_records("j")
            assert n == len(got)
            if cut:  # the bytes cut off are kept aside, not lost
                with open(root + "/j.cut", "rb") as f:
                    assert f.read() == data[len(data) - cut:]
            assert [b for _p, _e, b in s.records("j")] == got   # after repair: the same
            return got
        except CorruptFile as e:
            assert e.name == "j"
            assert os.path.exists(root + "/j.bad") and not os.path.exists(root + "/j")
            return None
    finally:
        shutil.rmtree(root)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_read_as_records_or_corrupt(data):
    _read(data)
    _read(MAGIC + data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=80), min_size=1, max_size=8), st.data())
def test_damaged_record_files_read_as_a_prefix_or_corrupt(bodies, data):
    good = _records(bodies)
    kind = data.draw(st.sampled_from(["cut", "flip", "insert"]))
    raw = bytearray(good)
    if kind == "cut":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif kind == "flip":
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] ^= data.draw(st.integers(1, 255))
    else:
        i = data.draw(st.integers(0, len(raw)))
        raw[i:i] = data.draw(st.binary(min_size=1, max_size=10))
    got = _read(bytes(raw))
    if got is not None:
        if kind == "cut":
            # a torn write loses only the record it did not finish writing
            whole, end = 0, len(MAGIC)
            for b in bodies:
                end += 8 + len(b)
                if end > len(raw):
                    break
                whole += 1
            assert got == bodies[:whole]
        else:
            # damage is found, or it sat in the last record (dropped): a prefix survives
            assert got == bodies[:len(got)]
