# A game's journal: the records a seat and its runner append as the game goes (a header, then
# one record per change), read back one at a time. Two kinds with one interface: a file in
# storage (the unit's own game), or a list of encoded records in memory (tests, `fathom sim`,
# an in-unit bot without storage), so every caller takes the same code path.
#
# Interface: append(value) -> pos; read(pos=None) yields (pos, end, value) from record pos (None:
# the first), `end` being where the next record starts; first() the header; commit().
#
# While `holding` is set (the runner sets it for its tick), a file journal keeps the records
# appended in RAM and writes them all at commit(), which clears it. The runner commits before
# any frame leaves, so nothing is sent or acknowledged that the file lacks; a unit showing a
# partner's move may thus draw it first and write it after (docs/ARCHITECTURE.md, "A press to
# the partner's panel"). A power cut in between loses only what no peer was told it holds.
from fathom import codec

VERSION = 3             # of the journal's records; a journal from another version is set aside
                        # 2: event records carry the author's state commitment (seat.py)
                        # 3: their hash8 is of the chain over the state each event applies to


class JournalError(Exception):
    """A journal that cannot be used: damaged, from another version, or not a journal."""


_PAGE = 64  # records per page of a MemJournal


class MemJournal:
    """Records in RAM, in pages of _PAGE: one list holding a whole game's records was a block
    that grew with the game, and a long-lived heap scatters a game's small objects so widely
    that such a block found no room (a `fathom sim` unit failed to grow it to 16 KB with 3 MB
    of its 4 MB heap free)."""
    holding = False  # kept in RAM either way: nothing to hold

    def __init__(self):
        self.pages = []
        self.n = 0

    def commit(self):
        self.holding = False

    def append(self, value):
        body = codec.encode(value)
        if self.n % _PAGE == 0:
            self.pages.append([])
        self.pages[-1].append(body)
        self.n += 1
        return self.n - 1

    def replace(self, pos, value):
        """A record changed in place: tests that forge a journal as a cheat would."""
        self.pages[pos // _PAGE][pos % _PAGE] = codec.encode(value)

    def read(self, pos=None):
        i = 0 if pos is None else pos
        while i < self.n:
            yield i, i + 1, codec.decode(self.pages[i // _PAGE][i % _PAGE])
            i += 1

    def first(self):
        return codec.decode(self.pages[0][0]) if self.n else None


class FileJournal:
    """A journal in `storage` under `name`. Damage is reported by storage as CorruptFile (the
    file is moved aside); a record that passes its checksum but does not decode likewise."""

    def __init__(self, storage, name, end=None):
        self.storage = storage
        self.name = name
        self.holding = False
        self._held = []     # records appended while holding, not yet written
        self._end = end     # the file's length with them: the next record's pos (None: unknown)

    @classmethod
    def create(cls, storage, name, header):
        body = codec.encode(header)
        storage.new_records(name, body)
        return cls(storage, name, storage.records_start() + storage.record_size(body))

    def append(self, value):
        body = codec.encode(value)
        n = self.storage.record_size(body)  # refused here, not when the record is written
        pos = self._end
        if pos is None or not self.holding:
            self._write()
            pos = self.storage.append_record(self.name, body)
        else:
            self._held.append(body)
        self._end = pos + n
        return pos

    def commit(self):
        """Write the records held (one file append for them all), and stop holding."""
        self.holding = False
        self._write()

    def _write(self):
        held = self._held
        if held:
            self._held = []
            pos = self.storage.append_records(self.name, held)
            for body in held:
                pos += self.storage.record_size(body)
            if pos != self._end:  # only this object writes the file while it is open
                raise JournalError("journal %s ends at %d, expected %d" % (self.name, pos,
                                                                           self._end))

    def read(self, pos=None):
        self._write()
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
