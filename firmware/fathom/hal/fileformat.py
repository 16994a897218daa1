# The pieces of the file format that whole files (storage.py) and record files (records.py)
# share: the temp-file suffix, the record file tag, the record size limit and the checksum.
try:
    import hashlib
except ImportError:  # pragma: no cover - every supported port has hashlib
    import uhashlib as hashlib

_TMP = ".tmp"
_JMAGIC = b"FJ\x01"          # record file tag + format version
MAX_RECORD = 2048             # a record is one change, never a whole game


def _checksum(data):
    return hashlib.sha256(data).digest()[:4]
