# The game journal end to end through Runner and Seat (that a seat rebuilt from its journal at
# any point equals the live one, for every game, is in test_every_game.py): the
# reveal travels in bounded chunks and the audit, replaying from the journal, still names a
# liar at the right event, also across a reboot in the middle of the reveal; a save from an
# unknown journal version is set aside, never replayed.
import pytest

from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.hal.storage import CorruptFile
from fathom.journal import VERSION, FileJournal, header
from fathom.peers import pipe_pair
from fathom import streams as runner_mod  # the paced streams: CHUNK, BURST
from fathom.runner import SAVE, Runner, load, side_name
from fathom.streams import CHUNK
from kit.memstore import MemStorage
from toy.engine import ENGINE as TOY, Liar
from kit.play import bot_step, drive, same_seat, solo

pytestmark = pytest.mark.micropython


def test_the_bot_seat_without_storage_keeps_a_memory_journal():
    me, bot = solo("ping", b"membot", MemStorage(), bot_storage=False)
    for k in range(20000):
        bot_step(me, bot, k * 300)
        if me.finished() and me.peers[0].runner.finished():
            break
    peer = me.peers[0].runner.seat
    assert peer.log == me.seat.log and peer.journal.n > peer.n_log


def toy_pair(liar=False, store=None):
    a, b = pipe_pair()
    ra = Runner(Seat(TOY, TOY.options(), 2, b"s1", 0, b"salt0"), [a], store, "toy")
    eng = Liar() if liar else TOY
    rb = Runner(Seat(eng, eng.options(), 2, b"s1", 1, b"salt1"), [b])
    return ra, rb, a, b


def play(runners, bots, until, wire=None):
    def note():  # what each pipe carried this round
        for p in wire:
            wire[p].extend(p.inbox)
    return drive(runners, bots, until, on_step=note if wire is not None else None)


def test_the_reveal_travels_in_bounded_chunks_and_names_the_liar():
    ra, rb, a, b = toy_pair(liar=True)
    bots = [RandomBot(b"b", 0), RandomBot(b"b", 1)]
    seen = {a: [], b: []}
    play([ra, rb], bots, lambda: ra.finished() and rb.finished(), wire=seen)
    msgs = [m for p in seen for m in seen[p]]
    assert max(len(m) for m in msgs) < 200   # the reveal never travels in one piece
    lies = [i for i, (au, ev) in enumerate(ra.seat.log)
            if au == 1 and ev == ["ans", "lo"] and ra.seat.log[i - 1][1] == ["guess",
                                                                           rb.seat.priv["secret"]]]
    assert lies, "the liar never had to lie: pick another seed"
    idx, reason = ra.verdicts[1]
    assert idx == lies[0] and "secrets give" in reason
    assert sorted(rb.verdicts) == [0]   # (the liar's own engine lies about us too)


def test_a_long_reveal_is_many_chunks_and_verifies():
    # an action-heavy game: each ra message carries at most CHUNK actions
    store = MemStorage()
    me, bot = solo("ping", b"chunks", store)
    for k in range(40000):
        bot_step(me, bot, k * 300)
        if me.finished() and me.peers[0].runner.finished():
            break
    assert me.seat.n_actions > 2 * CHUNK
    assert me.verdicts == {1: None} and me.peers[0].runner.verdicts == {0: None}


def test_a_reboot_in_the_middle_of_the_reveal_still_audits():
    store = MemStorage()
    ra, rb, a, b = toy_pair(liar=True, store=store)
    bots = [RandomBot(b"b", 0), RandomBot(b"b", 1)]
    saved = runner_mod.CHUNK, runner_mod.BURST
    runner_mod.CHUNK, runner_mod.BURST = 1, 1      # one action per message, one per tick
    try:
        # play until the liar's reveal has started to arrive, but is not complete
        play([ra, rb], bots, lambda: 1 in ra.reveals and ra.reveals[1][3] > 0)
        assert ra.reveals[1][3] < ra.reveals[1][2] and 1 not in ra.verdicts
        back = load(store, lambda gid: TOY)
        assert back.reveals[1][3] == ra.reveals[1][3]
    finally:
        runner_mod.CHUNK, runner_mod.BURST = saved
    a.inbox.clear()                  # in flight to the dead unit: lost
    back.peers = [a]
    back.resync()
    play([back, rb], bots, lambda: back.finished() and rb.finished())
    assert back.verdicts[1] is not None and "secrets give" in back.verdicts[1][1]
    assert sorted(rb.verdicts) == [0]
    # and after the end, a reboot still knows the verdicts (no second audit needed)
    again = load(store, lambda gid: TOY)
    assert again.verdicts == back.verdicts and again.revealed


def test_reveal_messages_out_of_order_are_refused():
    ra, rb, a, b = toy_pair()
    b.send(["ra", 1, 0, [["guess", 1]]])
    ra.tick(0)
    assert "before the reveal" in ra.problem
    b.send(["rev", 1, b"s", [1], 3])
    b.send(["ra", 1, 1, [["guess", 1]]])
    ra.tick(1)
    assert "out of order" in ra.problem and ra.reveals[1][3] == 0


def test_a_journal_of_another_version_is_set_aside():
    store = MemStorage()
    FileJournal.create(store, SAVE, ["h", VERSION + 1, {"gid": "toy"}])
    with pytest.raises(CorruptFile) as info:
        load(store, lambda gid: TOY)
    assert "version" in info.value.why
    assert not store.exists(SAVE)
    FileJournal.create(store, SAVE, header({"gid": "toy"}))
    with pytest.raises(KeyError):    # a header that lacks fields raises: the UI sets it aside
        load(store, lambda gid: TOY)


def test_a_journal_whose_replay_differs_raises():
    store = MemStorage()
    ra, rb, a, b = toy_pair(store=store)
    bots = [RandomBot(b"r", 0), RandomBot(b"r", 1)]
    play([ra, rb], bots, lambda: ra.seat.n_log >= 4)
    ra.seat.journal.append(["e", 1, ["ans", "hit"], b"\x00" * 8])   # not what the state gives
    with pytest.raises(Exception):
        load(store, lambda gid: TOY)


def test_side_journal_names_are_valid_storage_names():
    store = MemStorage()
    FileJournal.create(store, side_name(3), header({}))
    assert store.exists(side_name(3))


def test_a_seat_that_played_before_it_had_storage_moves_its_journal_over():
    a, b = pipe_pair()
    ra = Runner(Seat(TOY, TOY.options(), 2, b"s1", 0, b"salt0"), [a])
    rb = Runner(Seat(TOY, TOY.options(), 2, b"s1", 1, b"salt1"), [b])
    bots = [RandomBot(b"m", 0), RandomBot(b"m", 1)]
    play([ra, rb], bots, lambda: ra.seat.n_log >= 12)
    store = MemStorage()
    whole = list(ra.seat.log)
    ra.storage = store
    ra._start_journal()
    assert list(ra.seat.log) == whole and [ra.seat.log[i] for i in range(12)] == whole[:12]
    back = load(store, lambda gid: TOY)
    same_seat(back.seat, ra.seat)
