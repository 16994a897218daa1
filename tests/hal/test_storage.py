# Storage: round trips, a power cut at every byte of a write leaves the old or the new file, and
# a damaged file is detected, moved aside (never deleted) and reported.
import os

import pytest

from kit.memstore import fresh

from fathom.hal.storage import CorruptFile, Storage, pack

pytestmark = pytest.mark.micropython



class PowerCut(Exception):
    """The firmware stops dead here (not an OSError: nothing in the firmware may handle it)."""


class _CutFile:
    def __init__(self, f, budget):
        self.f = f
        self.budget = budget

    def write(self, data):
        if len(data) > self.budget[0]:
            self.f.write(data[:self.budget[0]])
            self.budget[0] = 0
            raise PowerCut("power cut while writing")
        self.budget[0] -= len(data)
        return self.f.write(data)

    def read(self):
        return self.f.read()

    def close(self):
        self.f.close()


class CutStorage(Storage):
    """A filesystem that loses power: after `budget` bytes written, or at the rename (cut=
    "rename"), or between remove and rename (cut="remove"); fat=True refuses to rename over an
    existing file, as FAT does."""

    def __init__(self, root, budget=None, cut=None, fat=False):
        self.budget = [budget]
        self.cut = cut
        self.fat = fat
        Storage.__init__(self, root)

    def _open(self, path, mode):
        f = Storage._open(self, path, mode)
        if "w" in mode and self.budget[0] is not None:
            return _CutFile(f, self.budget)
        return f

    def _rename(self, src, dst):
        if self.cut == "rename":
            raise PowerCut("power cut before rename")
        if self.fat and self._exists(dst):
            raise OSError(17)   # EEXIST
        Storage._rename(self, src, dst)

    def _remove(self, path):
        Storage._remove(self, path)
        if self.cut == "remove" and not path.endswith(".tmp"):
            raise PowerCut("power cut between remove and rename")


def test_round_trip_and_listing():
    s = Storage(fresh("rt"))
    assert s.read("game") is None and not s.exists("game")
    s.write("game", b"\x00\x01hello")
    s.write("pairing", bytearray(b"key"))
    assert s.read("game") == b"\x00\x01hello"
    assert s.names() == ["game", "pairing"]
    s.write("game", b"")
    assert s.read("game") == b""
    s.remove("game")
    s.remove("game")   # removing a missing file is fine
    assert s.read("game") is None and s.names() == ["pairing"]


def test_objects_round_trip_through_the_codec():
    s = Storage(fresh("obj"))
    v = {"turn": 3, "log": [b"\x01", "x", None], "n": -7}
    s.write_obj("save", v)
    assert Storage(s.root).read_obj("save") == v
    assert s.read_obj("nothing") is None


@pytest.mark.parametrize("name", ["", "a/b", ".hidden", "x.tmp", "x.bad", "n" * 41])
def test_bad_names_are_refused(name):
    s = Storage(fresh("names"))
    with pytest.raises(ValueError, match="bad file name"):
        s.write(name, b"x")


OLD = b"old contents, thirty bytes...."
NEW = b"the new contents are a little longer"


def test_power_cut_at_every_byte_leaves_old_or_new():
    total = len(pack(NEW)) + len(NEW)
    outcomes = set()
    for budget in range(total + 1):
        root = fresh("cut")
        Storage(root).write("f", OLD)
        s = CutStorage(root, budget)
        try:
            s.write("f", NEW)
        except PowerCut:
            pass
        after = Storage(root)          # reboot: recovery runs
        got = after.read("f")
        assert got in (OLD, NEW), (budget, got)
        assert after.names() == ["f"] and "f.tmp" not in os.listdir(root)
        outcomes.add(got)
    assert outcomes == {OLD, NEW}


def test_power_cut_on_first_write_leaves_nothing_or_new():
    total = len(pack(NEW)) + len(NEW)
    for budget in range(0, total + 1, 5):
        root = fresh("first")
        try:
            CutStorage(root, budget).write("f", NEW)
        except PowerCut:
            pass
        assert Storage(root).read("f") in (None, NEW)


def test_power_cut_before_rename_keeps_old():
    root = fresh("rename")
    Storage(root).write("f", OLD)
    with pytest.raises(PowerCut):
        CutStorage(root, cut="rename").write("f", NEW)
    assert "f.tmp" in os.listdir(root)
    assert Storage(root).read("f") == OLD
    assert "f.tmp" not in os.listdir(root)


def test_filesystem_without_replacing_rename():
    root = fresh("fat")
    Storage(root).write("f", OLD)
    CutStorage(root, fat=True).write("f", NEW)   # falls back to remove + rename
    assert Storage(root).read("f") == NEW
    with pytest.raises(PowerCut):
        CutStorage(root, cut="remove", fat=True).write("f", OLD)
    assert "f" not in os.listdir(root)
    assert Storage(root).read("f") == OLD      # recovery promotes the complete temp file


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty", "append"])
def test_corruption_is_detected_and_moved_aside(damage):
    root = fresh("bad")
    s = Storage(root)
    s.write("f", NEW)
    with open(root + "/f", "rb") as fh:
        raw = fh.read()
    if damage == "truncate":
        raw = raw[:-3]
    elif damage == "flip":
        raw = raw[:20] + bytes([raw[20] ^ 0x10]) + raw[21:]
    elif damage == "header":
        raw = b"XX" + raw[2:]
    elif damage == "empty":
        raw = b""
    else:
        raw = raw + b"!"
    with open(root + "/f", "wb") as fh:
        fh.write(raw)
    with pytest.raises(CorruptFile, match="^f: corrupt"):
        s.read("f")
    with open(root + "/f.bad", "rb") as fh:
        assert fh.read() == raw      # kept for inspection
    assert s.read("f") is None and s.names() == []
    s.write("f", OLD)                # and the name is usable again
    assert s.read("f") == OLD


def test_checksum_valid_but_undecodable_object_is_corrupt():
    s = Storage(fresh("undecodable"))
    s.write("save", b"\xff\xff")
    with pytest.raises(CorruptFile) as info:
        s.read_obj("save")
    assert info.value.name == "save"
    assert not s.exists("save")


def test_nested_root_is_created():
    root = fresh("deep") + "/a/b"
    Storage(root).write("x", b"1")
    assert Storage(root).read("x") == b"1"


def test_the_first_record_of_a_record_file_set_aside_is_still_read():
    # a journal damaged after its header is moved aside whole: its header (the game's seed,
    # which tells the partners, link/lost.py) can still be read from NAME.bad, unless the
    # damage starts in it
    st = Storage(fresh("aside"))
    st.new_records("j", b"header")
    st.append_record("j", b"first")
    st.append_record("j", b"second")
    assert st.first_aside("j") is None  # nothing set aside yet
    path = st.root + "/j"
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[-3] ^= 0xFF  # inside the last record: a torn tail, cut off, not set aside
    data[-12] ^= 0xFF  # inside the middle record: damage before the end
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(CorruptFile):
        st.repair_records("j")
    assert not st.exists("j") and st.first_aside("j") == b"header"
    with open(path + ".bad", "rb") as f:
        bad = bytearray(f.read())
    bad[9] ^= 0xFF  # now the header's own bytes
    with open(path + ".bad", "wb") as f:
        f.write(bad)
    assert st.first_aside("j") is None
