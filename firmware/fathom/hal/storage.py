# Flat files under one folder, written atomically (temp file + rename) and self-checking: each file
# starts with a header holding the payload length and a checksum, so a torn or corrupted file is
# detected on read, moved aside to NAME.bad (nothing is lost) and reported as CorruptFile.
#
# Record files (a game's journal) grow by appending one small checksummed record at a time and
# are read back one record at a time, so neither writing nor reading ever holds more than one
# record: memory stays bounded however long the file gets. Layout: _JMAGIC, then records of
#   length (2, big-endian) + its complement (2) + checksum of the body (4) + body.
# A power cut can only tear the last record: a damaged last record is dropped (repair_records
# cuts it off before anything is appended, keeping the bytes in NAME.cut); damage before the
# last record is CorruptFile.
import os

# what storage.py and records.py both use, in a leaf both import (so neither imports the other
# at its top: the record half is loaded with the first game, lazily, from here)
from fathom.hal.fileformat import _JMAGIC, _TMP, MAX_RECORD, _checksum  # noqa: F401

_MAGIC = b"FS\x01"            # format tag + version
_HEADER = 11                  # magic(3) + length(4, big-endian) + checksum(4)
_BAD = ".bad"
_MAX_NAME = 40


class CorruptFile(Exception):
    def __init__(self, name, why="corrupt file"):
        super().__init__("%s: %s moved aside to %s%s" % (name, why, name, _BAD))
        self.name = name
        self.why = why


def _u32(n):
    return bytes(((n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255))


def pack(data):
    """The bytes stored on disk for a payload."""
    return _MAGIC + _u32(len(data)) + _checksum(data)


def unpack(raw):
    """The payload of stored bytes, or None if they are torn or corrupted."""
    if len(raw) < _HEADER or raw[:3] != _MAGIC:
        return None
    n = (raw[3] << 24) | (raw[4] << 16) | (raw[5] << 8) | raw[6]
    body = raw[_HEADER:]
    if len(body) != n or _checksum(body) != raw[7:_HEADER]:
        return None
    return body


class Storage:
    """Files by flat name in `root`. The _open/_rename/_remove hooks exist for fault injection."""

    def __init__(self, root):
        self.root = root.rstrip("/") or "/"
        self._makedirs(self.root)
        self._recover()

    # -- filesystem hooks --------------------------------------------------------------------

    def _open(self, path, mode):
        return open(path, mode)

    def _rename(self, src, dst):
        os.rename(src, dst)

    def _remove(self, path):
        os.remove(path)

    # -- helpers -----------------------------------------------------------------------------

    def _makedirs(self, path):
        cur = "/" if path.startswith("/") else ""
        for part in path.split("/"):
            if not part:
                continue
            cur = cur + part
            if not self._isdir(cur):
                os.mkdir(cur)
            cur += "/"

    def _isdir(self, path):
        try:
            return os.stat(path)[0] & 0x4000 != 0
        except OSError:
            return False

    def _path(self, name):
        if (not isinstance(name, str) or not name or len(name) > _MAX_NAME or "/" in name
                or name.startswith(".") or name.endswith(_TMP) or name.endswith(_BAD)
                or name.endswith(".cut")):
            raise ValueError("storage: bad file name %r" % (name,))
        return self.root + "/" + name

    def _exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def _read_raw(self, path):
        try:
            f = self._open(path, "rb")
        except OSError:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def _recover(self):
        # A leftover temp file is a write that did not finish. Its target is intact unless the
        # crash came between remove and rename (filesystems whose rename will not replace),
        # and then the temp file is complete: keep it if its checksum says so.
        for entry in os.listdir(self.root):
            if not entry.endswith(_TMP):
                continue
            tmp = self.root + "/" + entry
            dst = tmp[:-len(_TMP)]
            if not self._exists(dst) and self._complete(tmp):
                self._rename(tmp, dst)
            else:
                self._remove(tmp)

    def _complete(self, path):
        # A record file is checked record by record: reading it whole could exhaust the heap.
        try:
            f = self._open(path, "rb")
        except OSError:
            return False
        try:
            tag = f.read(len(_JMAGIC))
            if tag == _JMAGIC:
                from fathom.hal.records import scan_records
                f.seek(0)
                for _ in scan_records(f):
                    pass
                return True
            f.seek(0)
            raw = f.read()
        except ValueError:
            return False
        finally:
            f.close()
        return unpack(raw) is not None

    # -- public API --------------------------------------------------------------------------

    def exists(self, name):
        return self._exists(self._path(name))

    def names(self):
        """Stored names, sorted (temp and quarantined files left out)."""
        out = [n for n in os.listdir(self.root) if not n.endswith(_TMP) and not n.endswith(_BAD)
               and not n.endswith(".cut")]  # records.CUT: bytes a repair kept aside
        out.sort()
        return out

    def read(self, name):
        """The bytes last written under name, None if there are none; CorruptFile if damaged."""
        path = self._path(name)
        raw = self._read_raw(path)
        if raw is None:
            return None
        body = unpack(raw)
        if body is None:
            self._quarantine(name, path)
        return body

    def _quarantine(self, name, path, why="corrupt file"):
        bad = path + _BAD
        if self._exists(bad):
            self._remove(bad)
        self._rename(path, bad)
        raise CorruptFile(name, why)

    def quarantine(self, name, why="corrupt file"):
        """Move a file that cannot be used aside to NAME.bad and raise CorruptFile(why)."""
        path = self._path(name)
        if not self._exists(path):
            raise CorruptFile(name, why)
        self._quarantine(name, path, why)

    def write(self, name, data):
        path = self._path(name)
        tmp = path + _TMP
        data = bytes(data)
        f = self._open(tmp, "wb")
        try:
            f.write(pack(data))
            f.write(data)
        finally:
            f.close()
        self._replace(tmp, path)

    def _replace(self, tmp, path):
        try:
            self._rename(tmp, path)
        except OSError:
            if not self._exists(path):
                raise
            # FAT-like filesystems refuse to rename over a file; _recover covers the gap
            self._remove(path)
            self._rename(tmp, path)

    def remove(self, name):
        """Remove `name` and the bytes a repair kept aside from it (NAME.cut)."""
        path = self._path(name)
        for p in (path, path + ".cut"):
            if self._exists(p):
                self._remove(p)

    def read_obj(self, name):
        """The value stored by write_obj, or None; CorruptFile if damaged or undecodable."""
        data = self.read(name)
        if data is None:
            return None
        from fathom import codec  # not at boot's top level: main.py drops it after the settings
        try:
            return codec.decode(data)
        except codec.CodecError:
            self._quarantine(name, self._path(name))

    def write_obj(self, name, value):
        from fathom import codec
        self.write(name, codec.encode(value))

    # -- record files (records.py: loaded with the first game, not at boot) -----------------

    def new_records(self, name, first):
        """Start (or replace) record file `name` atomically with one record `first` (bytes)."""
        from fathom.hal import records
        records.new(self, name, first)

    def append_record(self, name, body):
        """Append one record; returns its byte offset. The file must exist (new_records)."""
        from fathom.hal import records
        return records.append(self, name, [bytes(body)])

    def append_records(self, name, bodies):
        """Append records (a list of bytes) in one write; returns the first one's offset."""
        from fathom.hal import records
        return records.append(self, name, bodies)

    def record_size(self, body):
        """The bytes record `body` takes in a record file; ValueError if it is too large."""
        from fathom.hal import records
        return records.size(body)

    def records_start(self):
        """The offset of a record file's first record."""
        from fathom.hal import records
        return records.START

    def records(self, name, pos=None):
        """Yield (pos, end, body) for each record of `name` from offset `pos`, one at a time;
        nothing if there is no such file. A damaged file is moved aside: CorruptFile."""
        from fathom.hal import records
        return records.read(self, name, pos)

    def first_aside(self, name):
        """The first record of record file `name` set aside as NAME.bad (a journal's header,
        which outlives damage further on), or None."""
        from fathom.hal.records import scan_records
        try:
            f = self._open(self._path(name) + _BAD, "rb")
        except OSError:
            return None
        try:
            for _pos, _end, body in scan_records(f):
                return body
        except ValueError:
            pass  # damaged from its first record on
        finally:
            f.close()
        return None

    def repair_records(self, name):
        """Check record file `name` end to end and cut off a torn last record (copying the good
        part in small chunks), so appends follow good records. Returns (number of records, bytes
        cut off, kept aside in NAME.cut); CorruptFile (file moved aside) if it is damaged before
        its end or not a record file."""
        from fathom.hal import records
        return records.repair(self, name)
