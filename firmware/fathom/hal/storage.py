# Flat files under one folder, written atomically (temp file + rename) and self-checking: each file
# starts with a header holding the payload length and a checksum, so a torn or corrupted file is
# detected on read, moved aside to NAME.bad (nothing is lost) and reported as CorruptFile.
import os

from fathom import codec

try:
    import hashlib
except ImportError:  # pragma: no cover - every supported port has hashlib
    import uhashlib as hashlib

_MAGIC = b"FS\x01"            # format tag + version
_HEADER = 11                  # magic(3) + length(4, big-endian) + checksum(4)
_TMP = ".tmp"
_BAD = ".bad"
_MAX_NAME = 40


class CorruptFile(Exception):
    def __init__(self, name):
        super().__init__("%s: corrupt file moved aside to %s%s" % (name, name, _BAD))
        self.name = name


def _checksum(data):
    return hashlib.sha256(data).digest()[:4]


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
                or name.startswith(".") or name.endswith(_TMP) or name.endswith(_BAD)):
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
            raw = self._read_raw(tmp)
            if not self._exists(dst) and raw is not None and unpack(raw) is not None:
                self._rename(tmp, dst)
            else:
                self._remove(tmp)

    # -- public API --------------------------------------------------------------------------

    def exists(self, name):
        return self._exists(self._path(name))

    def names(self):
        """Stored names, sorted (temp and quarantined files left out)."""
        out = [n for n in os.listdir(self.root) if not n.endswith(_TMP) and not n.endswith(_BAD)]
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

    def _quarantine(self, name, path):
        bad = path + _BAD
        if self._exists(bad):
            self._remove(bad)
        self._rename(path, bad)
        raise CorruptFile(name)

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
        try:
            self._rename(tmp, path)
        except OSError:
            if not self._exists(path):
                raise
            # FAT-like filesystems refuse to rename over a file; _recover covers the gap
            self._remove(path)
            self._rename(tmp, path)

    def remove(self, name):
        path = self._path(name)
        if self._exists(path):
            self._remove(path)

    def read_obj(self, name):
        """The value stored by write_obj, or None; CorruptFile if damaged or undecodable."""
        data = self.read(name)
        if data is None:
            return None
        try:
            return codec.decode(data)
        except codec.CodecError:
            self._quarantine(name, self._path(name))

    def write_obj(self, name, value):
        self.write(name, codec.encode(value))
