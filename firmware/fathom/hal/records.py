# Record files (a game's journal): one small checksummed record appended at a time, read back
# one record at a time, so memory stays bounded however long the file gets. The layout and the
# torn-record rules are in storage.py's header; Storage's record methods call these, so this
# module is loaded with the first game, not at boot.
import os

from fathom.hal.fileformat import _JMAGIC, _TMP, MAX_RECORD, _checksum

_RHEAD = 8                    # length(2) + complement(2) + checksum(4)
_COPY = 256                   # chunk size when a record file's good part is copied
CUT = ".cut"                  # NAME.cut: the bytes a repair cut off a record file


START = len(_JMAGIC)          # where the first record starts


def size(body):
    """The bytes record `body` takes in the file; ValueError if it may not be one."""
    n = len(body)
    if n > MAX_RECORD:
        raise ValueError("record of %d bytes exceeds %d" % (n, MAX_RECORD))
    return _RHEAD + n


def record_head(body):
    """The 8 bytes stored before a record's body."""
    n = size(body) - _RHEAD
    c = n ^ 0xFFFF
    return bytes((n >> 8, n & 255, c >> 8, c & 255)) + _checksum(body)


def scan_records(f, pos=None):
    """Yield (pos, end, body) for each good record of the open record file `f`, from byte
    offset `pos` (None: the first record). Stops quietly at a torn or damaged last record;
    raises ValueError for a file that is not a record file or is damaged before its end."""
    if pos is None:
        if f.read(len(_JMAGIC)) != _JMAGIC:
            raise ValueError("not a record file")
        pos = len(_JMAGIC)
    else:
        f.seek(pos)
    while True:
        head = f.read(_RHEAD)
        if not head:
            return
        if len(head) < _RHEAD:
            return                                  # torn inside the header
        n = (head[0] << 8) | head[1]
        if (head[2] << 8 | head[3]) != n ^ 0xFFFF or n > MAX_RECORD:
            if _zeros_to_end(f, head):
                return                              # a torn append the filesystem zero-filled
            raise ValueError("damaged record header at %d" % pos)
        body = f.read(n)
        if len(body) < n:
            return                                  # torn inside the body
        if _checksum(body) != head[4:]:
            if not f.read(1):
                return                              # the last record is damaged: dropped
            raise ValueError("damaged record at %d" % pos)
        end = pos + _RHEAD + n
        yield pos, end, body
        pos = end


def _zeros_to_end(f, head):
    if any(head):
        return False
    seen = 0
    while True:
        b = f.read(64)
        if not b:
            return True
        if any(b):
            return False
        seen += len(b)
        if seen > MAX_RECORD:
            return False


def new(st, name, first):
    """Start (or replace) record file `name` atomically with one record `first` (bytes)."""
    path = st._path(name)
    tmp = path + _TMP
    first = bytes(first)
    head = record_head(first)
    f = st._open(tmp, "wb")
    try:
        f.write(_JMAGIC)
        f.write(head)
        f.write(first)
    finally:
        f.close()
    st._replace(tmp, path)


def append(st, name, bodies):
    """Append records (a list of bytes) in one write; returns the first one's byte offset.
    The file must exist (new_records)."""
    path = st._path(name)
    heads = [record_head(b) for b in bodies]  # every size checked before a byte is written
    f = st._open(path, "ab")
    try:
        pos = f.seek(0, 2)
        for i, body in enumerate(bodies):
            f.write(heads[i])
            f.write(body)
    finally:
        f.close()
    return pos


def read(st, name, pos=None):
    """Yield (pos, end, body) for each record of `name` from offset `pos`, one at a time;
    nothing if there is no such file. A damaged file is moved aside: CorruptFile."""
    path = st._path(name)
    try:
        f = st._open(path, "rb")
    except OSError:
        return
    why = None
    try:
        for rec in scan_records(f, pos):
            yield rec
    except ValueError as e:
        why = str(e)
    finally:
        f.close()
    if why is not None:
        st._quarantine(name, path, why)


def repair(st, name):
    """Check record file `name` end to end and cut off a torn last record (copying the good
    part in small chunks), so appends follow good records. Returns (number of records, bytes
    cut off); the bytes cut off are kept aside in NAME.cut (the evidence, as NAME.bad is for a
    file that cannot be read), replacing an older one. CorruptFile (file moved aside) if it is
    damaged before its end or not a record file."""
    count = 0
    end = len(_JMAGIC)
    for _pos, end, _body in read(st, name):
        count += 1
    path = st._path(name)
    size = os.stat(path)[6]
    if size == end:
        return count, 0
    tmp = path + _TMP
    src = st._open(path, "rb")
    try:
        _copy(st, src, tmp, end)
        _copy(st, src, path + CUT, size - end)  # what the cut dropped: kept, not lost
    finally:
        src.close()
    st._replace(tmp, path)
    return count, size - end


def _copy(st, src, dest, left):
    dst = st._open(dest, "wb")
    try:
        while left:
            chunk = src.read(min(_COPY, left))
            if not chunk:
                break
            dst.write(chunk)
            left -= len(chunk)
    finally:
        dst.close()
