# Record files (a game's journal): appended one record at a time, read back one at a time, a
# power cut tears at most the last record (dropped, the rest kept), damage before the end is a
# corrupt file moved aside; and reading never takes more than one record into memory.
import os

import pytest

from kit.memstore import fresh

from fathom.hal.records import record_head
from fathom.hal.storage import MAX_RECORD, CorruptFile, Storage

pytestmark = pytest.mark.micropython

BODIES = [b"header", b"", b"x" * 200, bytes(range(256)) * 3, b"last one"]


class PowerCut(Exception):
    pass


class _Watched:
    """A file whose reads are measured and whose writes stop after a byte budget."""

    def __init__(self, f, st):
        self.f = f
        self.st = st

    def write(self, data):
        b = self.st.budget
        if b is not None and len(data) > b:
            self.f.write(data[:b])
            self.st.budget = 0
            raise PowerCut("power cut while appending")
        if b is not None:
            self.st.budget = b - len(data)
        return self.f.write(data)

    def read(self, n=-1):
        data = self.f.read() if n is None or n < 0 else self.f.read(n)
        self.st.biggest_read = max(self.st.biggest_read, len(data))
        return data

    def seek(self, *a):
        return self.f.seek(*a)

    def close(self):
        self.f.close()


class Watched(Storage):
    """Storage through the _open hook: a write budget (power cut) and the largest read seen."""

    def __init__(self, root, budget=None):
        self.budget = budget
        self.biggest_read = 0
        Storage.__init__(self, root)

    def _open(self, path, mode):
        return _Watched(Storage._open(self, path, mode), self)


def write_all(s, name="j", bodies=BODIES):
    s.new_records(name, bodies[0])
    return [s.append_record(name, b) for b in bodies[1:]]


def bodies_of(s, name="j"):
    return [body for _p, _e, body in s.records(name)]


def raw(root, name="j"):
    with open(root + "/" + name, "rb") as f:
        return f.read()


def put(root, data, name="j"):
    with open(root + "/" + name, "wb") as f:
        f.write(data)


def test_append_and_read_back_one_record_at_a_time():
    root = fresh("rt")
    s = Watched(root)
    positions = write_all(s)
    got = list(s.records("j"))
    assert [b for _p, _e, b in got] == BODIES
    assert [p for p, _e, _b in got][1:] == positions
    assert all(got[i][1] == got[i + 1][0] for i in range(len(got) - 1))
    # from the middle, by position
    assert [b for _p, _e, b in s.records("j", positions[2])] == BODIES[3:]
    assert s.repair_records("j") == (len(BODIES), 0)
    assert s.biggest_read <= max(len(b) for b in BODIES)
    assert list(Storage(root).records("nothing")) == []


def test_a_long_file_is_read_in_record_sized_pieces():
    root = fresh("long")
    s = Watched(root)
    s.new_records("j", b"h")
    for i in range(300):
        s.append_record("j", b"event %d " % i + b"." * 40)
    assert len(raw(root)) > 15000
    s.biggest_read = 0
    assert len(bodies_of(s)) == 301
    assert s.repair_records("j") == (301, 0)
    assert s.biggest_read <= 60


def test_a_record_too_big_is_refused():
    s = Storage(fresh("big"))
    s.new_records("j", b"h")
    with pytest.raises(ValueError):
        s.append_record("j", b"x" * (MAX_RECORD + 1))
    assert bodies_of(s) == [b"h"]


def test_power_cut_at_every_byte_of_an_append_keeps_every_earlier_record():
    last = BODIES[-1] + b"!" * 20
    total = len(record_head(last)) + len(last)
    for budget in range(total):
        root = fresh("cut")
        write_all(Storage(root))
        with pytest.raises(PowerCut):
            Watched(root, budget).append_record("j", last)
        s = Storage(root)                   # reboot
        assert bodies_of(s) == BODIES       # the torn record is dropped, nothing else
        assert s.repair_records("j") == (len(BODIES), budget)
        if budget:  # what the cut dropped is kept aside, byte for byte
            with open(root + "/j.cut", "rb") as f:
                assert f.read() == (record_head(last) + last)[:budget]
            assert "j.cut" not in s.names()
        s.append_record("j", b"after")      # and appends follow good records
        assert bodies_of(Storage(root)) == BODIES + [b"after"]
        assert "j.bad" not in os.listdir(root)


def test_a_zero_filled_tail_is_a_torn_append():
    root = fresh("zeros")
    write_all(Storage(root))
    put(root, raw(root) + bytes(37))        # a filesystem that grew the file before the data
    s = Storage(root)
    assert s.repair_records("j") == (len(BODIES), 37)
    assert bodies_of(s) == BODIES


def test_a_damaged_last_record_is_dropped_and_cut_off():
    root = fresh("lastbad")
    write_all(Storage(root))
    data = bytearray(raw(root))
    data[-2] ^= 0x01
    put(root, bytes(data))
    s = Storage(root)
    last = len(record_head(BODIES[-1])) + len(BODIES[-1])
    assert s.repair_records("j") == (len(BODIES) - 1, last)
    with open(root + "/j.cut", "rb") as f:
        assert f.read() == bytes(data[-last:])
    assert bodies_of(s) == BODIES[:-1]
    assert "j.bad" not in os.listdir(root)


@pytest.mark.parametrize("where", ["body", "length", "magic"])
def test_damage_before_the_last_record_is_a_corrupt_file(where):
    root = fresh("midbad")
    s = Storage(root)
    positions = write_all(s)
    data = bytearray(raw(root))
    if where == "body":
        data[positions[2] + 20] ^= 0x40
    elif where == "length":
        data[positions[2] + 1] ^= 0x01
    else:
        data[0] = ord("X")
    put(root, bytes(data))
    with pytest.raises(CorruptFile, match="^j: "):
        s.repair_records("j")
    assert not s.exists("j")
    with open(root + "/j.bad", "rb") as f:
        assert f.read() == bytes(data)      # kept for inspection


def test_reading_stops_with_corrupt_file_in_the_middle_of_a_walk():
    root = fresh("walk")
    s = Storage(root)
    positions = write_all(s)
    data = bytearray(raw(root))
    data[positions[2] + 30] ^= 0x02
    put(root, bytes(data))
    seen = []
    with pytest.raises(CorruptFile):
        for _p, _e, body in s.records("j"):
            seen.append(body)
    assert seen == BODIES[:3]


def test_a_record_file_written_through_a_temp_file_is_recovered():
    # new_records on a filesystem whose rename does not replace: a cut between remove and
    # rename leaves only the complete temp file, which recovery promotes (record by record)
    root = fresh("tmp")
    s = Storage(root)
    write_all(s)
    os.rename(root + "/j", root + "/j.tmp")
    assert bodies_of(Storage(root)) == BODIES
    put(root, b"FJ\x01" + b"\x00\x05", "j.tmp")    # a torn temp beside a good file: removed
    s = Storage(root)
    assert "j.tmp" not in os.listdir(root) and bodies_of(s) == BODIES


def test_whole_files_and_record_files_live_side_by_side():
    root = fresh("mixed")
    s = Storage(root)
    s.write_obj("settings", {"name": "Ann"})
    write_all(s)
    assert Storage(root).read_obj("settings") == {"name": "Ann"}
    assert bodies_of(Storage(root)) == BODIES
