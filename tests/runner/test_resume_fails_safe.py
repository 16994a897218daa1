# Resuming a saved game never takes the unit down: whatever fails (a damaged journal, one from
# another version, an unknown game, a replay that raises, running out of memory in the replay),
# the save is kept aside as game.bad, a message says what happened over the home menu, and the
# next boot finds nothing to resume.
import pytest

from fathom import games
from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.journal import VERSION, FileJournal, header
from fathom.peers import BotPeer
from fathom.runner import PEERS, SAVE, Runner, side_name
from fathom.flow import play
from kit.memstore import MemStorage
from kit.panel import App
from kit.play import bot_step

pytestmark = pytest.mark.micropython


class Home:
    title = "home"


def app_with(store):
    app = App(128, 64)
    app.hw.storage = store
    app.stack.append(Home())
    return app


def saved_game(store, moves=6):
    """A real saved game against the in-unit bot, a few moves in."""
    eng = games.engine("ping")
    me = Runner(Seat(eng, eng.options(), 2, b"fs", 0, b"salt0"), [], store, "ping",
                {"vs": "bot", "level": "random"})
    me.peers.append(BotPeer(Runner, Seat(eng, eng.options(), 2, b"fs", 1, b"salt1"),
                            RandomBot(b"fs", 1), "random", store, "ping"))
    me.save()
    bot = RandomBot(b"fs", 0)
    now = 0
    while me.seat.n_log < moves:
        now += 300
        bot_step(me, bot, now)
    return me


def damage(store, how):
    if how == "middle":
        path = store.root + "/" + SAVE
        with open(path, "rb") as f:
            data = bytearray(f.read())
        data[20] ^= 0x08                      # inside the header record: others follow it
        with open(path, "wb") as f:
            f.write(data)
    elif how == "version":
        FileJournal.create(store, SAVE, ["h", VERSION + 7, {"gid": "ping"}])
    elif how == "game":
        FileJournal.create(store, SAVE, header({"gid": "chess", "opts": {}, "n": 2,
                                                "seed": b"x", "player": 0, "salt": b"s",
                                                "meta": {}, "relay": False}))
    elif how == "replay":
        FileJournal(store, SAVE).append(["e", 1, ["junk"], b"\x00" * 8, b"\x00" * 8])
    elif how == "bot":
        FileJournal(store, side_name(1)).append(["e", 0, ["junk"], b"\x00" * 8, b"\x00" * 8])


def expect_set_aside(store, app, words):
    assert [type(s).__name__ for s in app.stack] == ["Home", "Message"], app.stack
    text = app.stack[-1].text
    assert "could not be read" in text and words in text, text
    assert not store.exists(SAVE) and SAVE + ".bad" in _listing(store)
    assert app.services == []
    # the next boot: nothing to resume, the home menu alone
    again = app_with(store)
    play.resume(again)
    assert [type(s).__name__ for s in again.stack] == ["Home"]


def _listing(store):
    import os
    return os.listdir(store.root)


@pytest.mark.parametrize("how,words", [("middle", "damaged record"), ("version", "version"),
                                       ("game", "chess"), ("replay", "IllegalAction"),
                                       ("bot", "IllegalAction")])
def test_a_save_that_cannot_be_resumed_is_set_aside_and_explained(how, words):
    store = MemStorage()
    saved_game(store)
    damage(store, how)
    app = app_with(store)
    play.resume(app)
    expect_set_aside(store, app, words)


def test_running_out_of_memory_in_the_replay_is_set_aside_too():
    store = MemStorage()
    saved_game(store)
    real = games.engine

    def engine(gid):
        eng = real(gid)

        class Starved(type(eng)):
            def apply(self, pub, author, event):
                raise MemoryError("memory allocation failed, allocating 4688 bytes")
        return Starved()
    games.engine = engine
    try:
        app = app_with(store)
        play.resume(app)
    finally:
        games.engine = real
    expect_set_aside(store, app, "out of memory")


def test_a_good_save_resumes_with_its_bot():
    store = MemStorage()
    live = saved_game(store)
    app = app_with(store)
    play.resume(app)
    r = [s for s in app.services if isinstance(s, Runner)][0]
    assert r.seat.short_hash() == live.seat.short_hash() and r.seat.log == live.seat.log
    bot = r.peers[0].runner.seat
    assert bot.short_hash() == live.peers[0].runner.seat.short_hash()
    assert store.exists(PEERS) and store.exists(side_name(1))


def test_a_cut_save_is_told_over_the_game_until_a_key():
    # the save ends inside a record (its tail lost): the game resumes, and what was cut is
    # said in words over it, counting events as a player does, until the player presses OK
    store = MemStorage()
    live = saved_game(store, moves=8)
    path = store.root + "/" + SAVE
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    app = app_with(store)
    play.resume(app)
    top = app.stack[-1]
    r = [s for s in app.services if isinstance(s, Runner)][0]
    assert type(top).__name__ == "Message" and top.title == "Saved game", app.stack
    kept = r.seat.n_log
    assert 0 < kept < live.seat.n_log
    assert ("first %d event" % kept) in top.text and "-1" not in top.text, top.text
    for now in range(1000, 3000, 100):  # the game goes on underneath; the notice stays
        for svc in list(app.services):
            svc.tick(now)
        app.stack[-1].tick(now)
    assert app.stack[-1] is top
    top.key("OK")
    assert app.stack[-1] is not top and getattr(app.stack[-1], "runner", None) is r
