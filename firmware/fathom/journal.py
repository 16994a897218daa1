# A game's journal: the records a seat and its runner append as the game goes (a header, then
# one record per change), read back one at a time. Two kinds with one interface: a file in
# storage (the unit's own game), or a list of encoded records in memory (tests, `fathom sim`,
# an in-unit bot without storage), so every caller takes the same code path.
#
# Interface: append(value) -> pos; read(pos=None) yields (pos, end, value) from record pos (None:
# the first), `end` being where the next record starts; first() the header; close().
from fathom import codec

VERSION = 2             # of the journal's records; a journal from another version is set aside
                        # 2: event records carry the author's state commitment (seat.py)


class JournalError(Exception):
    """A journal that cannot be used: damaged, from another version, or not a journal."""


class MemJournal:
    def __init__(self):
        self.recs = []

    def append(self, value):
        self.recs.append(codec.encode(value))
        return len(self.recs) - 1

    def read(self, pos=None):
        i = 0 if pos is None else pos
        while i < len(self.recs):
            yield i, i + 1, codec.decode(self.recs[i])
            i += 1

    def first(self):
        return codec.decode(self.recs[0]) if self.recs else None


class FileJournal:
    """A journal in `storage` under `name`. Damage is reported by storage as CorruptFile (the
    file is moved aside); a record that passes its checksum but does not decode likewise."""

    def __init__(self, storage, name):
        self.storage = storage
        self.name = name

    @classmethod
    def create(cls, storage, name, header):
        storage.new_records(name, codec.encode(header))
        return cls(storage, name)

    def append(self, value):
        return self.storage.append_record(self.name, codec.encode(value))

    def read(self, pos=None):
        for p, end, body in self.storage.records(self.name, pos):
            try:
                value = codec.decode(body)
            except codec.CodecError as e:
                self.storage.quarantine(self.name, "undecodable record (%s)" % e)
            yield p, end, value

    def first(self):
        it = self.read()
        try:
            for _p, _e, value in it:
                return value
        finally:
            it.close()
        return None


def header_of(value):
    """The fields of a journal's header record; JournalError if it is not one this version
    of the firmware can read."""
    if not isinstance(value, list) or len(value) < 3 or value[0] != "h":
        raise JournalError("not a game journal")
    if value[1] != VERSION:
        raise JournalError("saved by journal version %r, this firmware reads %d"
                           % (value[1], VERSION))
    if not isinstance(value[2], dict):
        raise JournalError("bad journal header")
    return value[2]


def header(fields):
    return ["h", VERSION, fields]
