# A unit shows a partner's move before it writes and acknowledges it (Runner.draw_first, the
# app's order: tick, redraw, late()), and never the other way round for what it sends: every
# frame that leaves either unit leaves with the journal file holding every event its seat has,
# so an ack or a move can never be one a reboot forgets. The journal's held records land where
# append() said they would. Power cuts between the redraw and the receipts are swept in
# test_resume_gap.py, whose units run in this order.
import pytest

from fathom import codec, games
from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.hal.storage import MAX_RECORD, Storage
from fathom.journal import FileJournal, MemJournal
from fathom.link import frame
from fathom.link.channel import Channel
from fathom.link.peer import LinkPeer
from fathom.runner import SAVE, Runner
from kit.memstore import fresh
from kit.play import bot_step
from toy.engine import ENGINE as TOY

pytestmark = pytest.mark.micropython

KEY = b"r" * 32


def on_file(storage):
    """The events the journal file holds."""
    return sum(1 for _p, _e, body in storage.records(SAVE) if codec.decode(body)[0] == "e")


class End:
    """An in-memory wire that checks, at every frame a unit sends, that its journal file holds
    every event its seat has."""

    def __init__(self):
        self.other = None
        self.inbox = []
        self.unit = None
        self.sent = []      # frame types, in order
        self.checked = 0

    def send(self, peer, data):
        u = self.unit
        assert on_file(u.storage) == u.runner.seat.n_log, \
            "unit %d sent a frame with %d of its %d events on file" % (
                u.player, on_file(u.storage), u.runner.seat.n_log)
        self.checked += 1
        self.sent.append(frame.parse(data)[0])
        self.other.inbox.append((None, bytes(data)))
        return True

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def close(self):
        pass


class Unit:
    def __init__(self, player, seed, eng=TOY):
        self.player = player
        self.storage = Storage(fresh("rar%d" % player))
        self.end = End()
        self.end.unit = self
        ch = Channel(lambda f: self.end.send(None, f), KEY, 5, 0, player)
        peer = LinkPeer(self.end, None, ch, self.storage, "espnow")
        self.runner = Runner(Seat(eng, eng.options(), 2, seed, player, b"salt%d" % player),
                             [peer], self.storage, eng.NAME, {"vs": "link"})
        self.runner.draw_first = True
        self.bot = RandomBot(seed, player)


def pair(seed=b"rar", eng=TOY):
    a, b = Unit(0, seed, eng), Unit(1, seed, eng)
    a.end.other, b.end.other = b.end, a.end
    return a, b


def step(u, now):
    bot_step(u.runner, u.bot, now)
    u.runner.late(now)


def test_a_whole_game_sends_nothing_its_journal_file_lacks():
    a, b = pair(b"rar", games.engine("ashtapada"))
    now = 0
    while not (a.runner.finished() and b.runner.finished()):
        now += 10
        assert now < 60000, "stalled at %d / %d events" % (a.runner.seat.n_log,
                                                           b.runner.seat.n_log)
        step(a, now)
        step(b, now)
    assert a.runner.seat.short_hash() == b.runner.seat.short_hash()
    assert a.runner.verdicts == {1: None} and b.runner.verdicts == {0: None}
    for u in (a, b):
        s = u.runner.seat
        assert on_file(u.storage) == s.n_log > 10
        # a frame at least for each event it wrote, each sent with the file holding it
        assert u.end.checked >= sum(1 for rec in s.records() if rec[1] == u.player) > 4


def test_a_partners_move_is_shown_before_it_is_written_or_acked_and_a_move_goes_at_once():
    a, b = pair(b"rar", games.engine("ashtapada"))  # a move no answer follows
    now = 0
    mover = None
    while mover is None:
        now += 10
        for u in (a, b):
            s = u.runner.seat
            while s.setup_legal():
                u.runner.setup_choose(u.bot.setup(s))
            u.runner.tick(now)
            u.runner.late(now)
            t = s.to_move()
            if t is not None and t[1] == "act" and u.runner.my_turn() and s.result() is None:
                mover = u
                break
        assert now < 10000
    other = b if mover is a else a
    for _ in range(20):  # everything before the move settled: acks through, nothing held
        now += 10
        for u in (a, b):
            u.runner.tick(now)
            u.runner.late(now)
    n = other.runner.seat.n_log
    sent = len(mover.end.sent)
    # the mover, as after a key: its move goes out in the same tick, not after its redraw
    mover.runner.play(mover.bot.act(mover.runner.seat))
    now += 10
    mover.runner.tick(now)
    assert frame.DATA in mover.end.sent[sent:]
    # the partner's tick takes it in: the seat (what the screen draws) has it, the file not yet,
    # and no ack has left
    acks = len(other.end.sent)
    assert other.runner.tick(now) is True
    assert other.runner.seat.n_log == n + 1
    assert on_file(other.storage) == n
    assert len(other.end.sent) == acks
    other.runner.late(now)  # after the redraw
    assert on_file(other.storage) == n + 1
    assert other.end.sent[acks:] == [frame.ACK]


def test_held_records_land_where_append_said():
    st = Storage(fresh("held"))
    j = FileJournal.create(st, "j", ["h", 2, {}])
    j.holding = True
    want = [(j.append(["rec", i, b"x" * (i * 37)]), ["rec", i, b"x" * (i * 37)])
            for i in range(6)]
    assert sum(1 for _ in st.records("j")) == 1  # the header alone: the rest is held
    j.commit()
    assert j.holding is False
    got = [(pos, value) for pos, _end, value in j.read() if value[0] == "rec"]
    assert got == want
    pos = j.append(["after"])  # not holding: written at once, where the file ends
    assert [p for p, _e, v in j.read(pos)] == [pos]


def test_reading_a_holding_journal_writes_what_it_holds_first():
    st = Storage(fresh("held2"))
    j = FileJournal.create(st, "j", ["h", 2, {}])
    j.holding = True
    pos = j.append(["one"])
    assert [v for p, _e, v in j.read(pos)] == [["one"]]
    assert j.holding is True  # still holding what comes next
    j.append(["two"])
    assert sum(1 for _ in st.records("j")) == 2
    j.commit()
    assert sum(1 for _ in st.records("j")) == 3


def test_a_record_too_large_is_refused_when_appended_not_when_written():
    st = Storage(fresh("held3"))
    j = FileJournal.create(st, "j", ["h", 2, {}])
    j.holding = True
    with pytest.raises(ValueError):
        j.append(["big", b"x" * MAX_RECORD])
    j.append(["small"])
    j.commit()
    assert [v for _p, _e, v in j.read()][1:] == [["small"]]


def test_a_journal_opened_on_an_existing_file_learns_its_end_by_its_first_write():
    st = Storage(fresh("held4"))
    j = FileJournal.create(st, "j", ["h", 2, {}])
    j.append(["one"])
    again = FileJournal(st, "j")  # as load() opens a saved game
    again.holding = True
    pos = again.append(["two"])   # written at once: where the file ends was not known
    assert sum(1 for _ in st.records("j")) == 3
    held = again.append(["three"])
    again.commit()
    assert [(p, v) for p, _e, v in again.read(pos)] == [(pos, ["two"]), (held, ["three"])]


def test_a_memory_journal_takes_the_same_calls():
    j = MemJournal()
    j.holding = True
    assert j.append(["a"]) == 0
    j.commit()
    assert [v for _p, _e, v in j.read()] == [["a"]]
