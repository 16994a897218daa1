# The partner's side is never silent, in-process: real Connectors over an
# in-memory radio (hostmodes.wire.Air) under the real pairing screen, and real runners over
# keyed channels under the game screen. A declined offer, a partner who leaves or falls silent,
# a unit waiting alone: each screen says so in words and offers what can be done.
import pytest

from fathom import games
from fathom.games.bots import RandomBot
from fathom.games.seat import Seat
from fathom.link.channel import LEAVE_MS, LOST_MS
from fathom.link.discovery import SEEN_MS
from fathom.link.connect import Connector
from fathom.runner import VANISH_MS, Runner
from fathom.flow.pairing import HINT_MS, PairScreen
from fathom.ui.screen import Screen
from hostmodes.wire import Air, Radio, connect_all
from kit.memstore import MemStorage
from kit.play import drive as drive_runners
from toy.engine import ENGINE as TOY
from kit.panel import App

pytestmark = pytest.mark.micropython

STEP = 10


class Closable(Radio):
    """A radio that can be switched off: nothing leaves or arrives once closed."""

    def __init__(self, air, mac):
        Radio.__init__(self, air, mac)
        self.closed = False
        air.radios.append(self)

    def put(self, sender, data):
        if not self.closed:
            Radio.put(self, sender, data)

    def send(self, peer, data):
        if not self.closed:
            Radio.send(self, peer, data)
        return True

    def close(self):
        self.closed = True


class Under(Screen):
    title = "Game menu"  # what the pairing screen was opened from


def unit(air, i, gid, kind="espnow"):
    store = MemStorage()
    radio = Closable(air, b"\x02\x00\x00\x00\x00" + bytes((i + 1,)))
    c = Connector(radio, kind, "U%d" % i, store, gid, games.options(gid), 0)
    app = App(128, 64)
    app.settings = {"opponent": "off", "name": "U%d" % i, "link": kind}
    app.hw.storage = store
    app.push(Under(app))
    scr = PairScreen(app, c)
    app.push(scr)
    return app, scr


def run(apps, now, limit, until=lambda: False, person=True):
    """Tick every app's top screen (as the app loop does) for up to `limit` ms; with `person`,
    a player on each unit picks the first unit listed and confirms the code."""
    end = now + limit
    while now < end and not until():
        now += STEP
        for app in apps:
            top = app.stack[-1]
            top.tick(now)
            top = app.stack[-1]
            if person and isinstance(top, PairScreen):
                st = top.c.state
                if st == "discover" and top.c.nearby(now) or \
                        st == "confirm" and not top.c.hs._confirmed:
                    top.key("OK")
            top.draw(app.hw.display)  # every state draws, whatever its text
    return now


def offered_pair():
    """Two units that chose different games: one waits on its offer, the other must answer.
    Returns (proposer app, its screen, offered app, its screen, now)."""
    air = Air()
    a = unit(air, 0, "ping")
    b = unit(air, 1, "ashtapada")
    now = run([a[0], b[0]], 0, 30000, lambda: {a[1].c.state, b[1].c.state} == {"setup", "offer"})
    assert {a[1].c.state, b[1].c.state} == {"setup", "offer"}, (a[1].lines(), b[1].lines())
    if a[1].c.state == "offer":
        a, b = b, a
    return a[0], a[1], b[0], b[1], now


def text(scr):
    return " ".join(scr.lines())


def test_the_proposer_is_told_at_once_that_the_offer_was_declined():
    papp, prop, oapp, off, now = offered_pair()
    assert "Game offered" in text(prop) and "waiting" in text(prop), prop.lines()
    assert "offers" in text(off) and "BACK no" in text(off), off.lines()
    off.key("BACK")
    t0 = now
    now = run([papp, oapp], now, 30000, lambda: prop.c.state == "declined", person=False)
    assert prop.c.state == "declined", prop.lines()
    assert now - t0 <= 2000  # a few frames, not a silence timeout
    assert "U1 declined" in text(prop) or "U0 declined" in text(prop), prop.lines()
    assert prop.lines()[-3:] == [">Change options", " Other game", " Look again"]
    # the decliner closed its link once the partner had the answer, and is back on its menu
    run([papp, oapp], now, LEAVE_MS + 100, person=False)
    assert isinstance(oapp.stack[-1], Under) and off.c.t.closed
    prop.key("OK")  # change options: the game's menu, under the pairing screen
    assert isinstance(papp.stack[-1], Under) and prop.c.t.closed


def test_a_proposer_who_withdraws_is_said_on_the_other_unit():
    papp, prop, oapp, off, now = offered_pair()
    prop.key("BACK")
    now = run([papp, oapp], now, 30000, lambda: off.c.state == "left", person=False)
    assert off.c.state == "left"
    assert "left" in text(off) and off.lines()[-2:] == [">Look again", " Back"], off.lines()
    now = run([papp, oapp], now, LEAVE_MS + 100, person=False)
    assert isinstance(papp.stack[-1], Under)  # the one who left is back on its menu
    off.key("DOWN")
    off.key("OK")  # back
    assert isinstance(oapp.stack[-1], Under) and off.c.t.closed


def test_a_partner_who_leaves_at_the_code_is_said():
    air = Air()
    a = unit(air, 0, "ping")
    b = unit(air, 1, "ping")
    now = 0  # both pick each other, neither confirms yet
    while not (a[1].c.state == "confirm" and b[1].c.state == "confirm") and now < 30000:
        now += STEP
        for app, scr in (a, b):
            scr.tick(now)
            if scr.c.state == "discover" and scr.c.nearby(now):
                scr.key("OK")
    assert a[1].c.state == b[1].c.state == "confirm"
    a[1].key("BACK")  # on the code screen BACK says "not the same code": the other unit hears it
    now = run([a[0], b[0]], now, 5000, lambda: b[1].c.state == "failed", person=False)
    assert "rejected the code" in text(b[1]), b[1].lines()


def test_a_partner_that_falls_silent_while_pairing_is_said():
    papp, prop, oapp, off, now = offered_pair()
    off.c.t.close()  # switched off mid-offer: no word
    t0 = now
    now = run([papp], now, LOST_MS + 3000, lambda: "stopped answering" in text(prop))
    assert "stopped answering" in text(prop) and "BACK: leave" in text(prop), prop.lines()
    assert now - t0 >= LOST_MS - 100
    prop.key("BACK")
    run([papp], now, LEAVE_MS + 100)
    assert isinstance(papp.stack[-1], Under)


def test_alone_on_the_radio_a_hint_comes_and_back_leaves():
    air = Air()
    app, scr = unit(air, 0, "ping")
    now = run([app], 0, HINT_MS - 500)
    assert "Looking for" in text(scr)
    now = run([app], now, 1000)
    t = text(scr)
    assert "No unit found yet" in t and "'vs other unit'" in t and "ESP-NOW" in t, scr.lines()
    assert "Settings > Link" in t and "BACK: leave" in t
    scr.key("BACK")
    assert isinstance(app.stack[-1], Under) and scr.c.t.closed


def test_alone_on_the_cable_a_hint_comes():
    air = Air(cable=True)
    app, scr = unit(air, 0, "ping", "uart")
    now = run([app], 0, HINT_MS - 500)
    assert scr.lines()[1:] == ["Connecting..."]
    run([app], now, 1000)
    assert "No answer on the cable" in text(scr), scr.lines()


def test_a_unit_chosen_that_does_not_choose_back_is_named():
    air = Air()
    a = unit(air, 0, "ping")
    b = unit(air, 1, "ashtapada")  # listing for another game: it does not take U0's hello
    now = run([a[0], b[0]], 0, 5000, lambda: a[1].c.nearby(a[1].now) != [], person=False)
    a[1].key("OK")  # U0 picks U1; U1 stays on its list
    run([a[0], b[0]], now, HINT_MS + 500, person=False)
    t = text(a[1])
    assert "U1 has not chosen" in t and "'U0'" in t, a[1].lines()



def test_the_cursor_stays_on_its_unit_as_the_list_changes():
    # A unit that stops beaconing leaves the list: the rows below it move up, and the cursor,
    # once an index, then sat on the next unit, which OK chose (a group's partner picked
    # another partner instead of its host, and both waited for ever)
    air = Air()
    units = [unit(air, i, "sugardog") for i in range(4)]
    app, scr = units[0]
    others = [u[0] for u in units[1:]]

    def listed():
        return sorted(m[1] for m in scr.c.nearby(scr.now))
    now = run([app] + others, 0, 5000, lambda: listed() == ["U1", "U2", "U3"], person=False)
    assert listed() == ["U1", "U2", "U3"], scr.lines()
    scr.key("DOWN")
    assert ">U2" in scr.lines(), scr.lines()
    units[1][1].c.t.closed = True  # U1 switched off: its beacons stop
    now = run([app] + others, now, SEEN_MS + 2000, lambda: listed() == ["U2", "U3"],
              person=False)
    assert listed() == ["U2", "U3"], scr.lines()
    assert ">U2" in scr.lines(), scr.lines()
    scr.key("OK")
    assert scr.c.peer_mac == units[2][1].c.mac


# ---- in the game: a partner silent, back, vanished; a concession said in words ----------------
def with_toy(test):
    """The test with the toy registered for its length (its log lines come from its words,
    which the registry finds), and unregistered after, as the other tests expect five games."""
    def run():
        added = "toy" not in games.IDS
        if added:
            games.register("toy")
        try:
            test()
        finally:
            if added:
                games.unregister("toy")
    return run


def linked_game():
    air = Air()
    stores = [MemStorage(), MemStorage()]
    cs = [Connector(Closable(air, b"\x02\x00\x00\x00\x00" + bytes((i + 1,))), "espnow",
                    "U%d" % i, stores[i], "ping", {}, 0) for i in range(2)]
    now = connect_all(cs)
    assert all(c.state == "ready" for c in cs), [c.error for c in cs]
    rs = []
    for i, c in enumerate(cs):
        seat = Seat(TOY, TOY.options(), 2, c.seed, c.player, b"salt%d" % c.player)
        # "ping": the game the units agreed on, whose module leave() unloads (the rules
        # played are the toy's, a game short enough to test)
        rs.append(Runner(seat, c.peers(stores[i]), stores[i], "ping",
                         {"vs": "link", "peer": "U%d" % (1 - i)}))
    rs.sort(key=lambda r: r.seat.player)
    bots = [RandomBot(b"t", 0), RandomBot(b"t", 1)]
    now = drive_runners(rs, bots, lambda: rs[0].seat.n_log >= 4 and not rs[0].my_turn(),
                        2000, now, step=100)
    for _ in range(20):  # both hold the same log before anything else happens
        now += 100
        for r in rs:
            r.tick(now)
    assert rs[0].seat.n_log == rs[1].seat.n_log
    return rs, now


def game_app(runner):
    from fathom.ui.genericscreen import GameScreen
    app = App(128, 64)
    app.push(Under(app))
    scr = GameScreen(app, runner)
    app.push(scr)
    return app, scr


def tick_top(app, now):
    top = app.stack[-1]
    top.tick(now)
    app.stack[-1].draw(app.hw.display)


@with_toy
def test_a_silent_partner_gets_an_overlay_that_closes_when_it_is_back():
    from fathom.flow.partner import PartnerScreen
    (ra, rb), now = linked_game()
    app, scr = game_app(ra)
    t0 = now
    while not isinstance(app.stack[-1], PartnerScreen) and now - t0 < LOST_MS + 3000:
        now += 100
        ra.tick(now)  # rb is not ticked: its unit fell silent
        tick_top(app, now)
    over = app.stack[-1]
    assert isinstance(over, PartnerScreen), app.stack[-1].lines()
    assert now - t0 >= LOST_MS - 1200  # the last heartbeat heard may be a second old
    lines = over.lines()
    who = "P2 (%s) is not answering" % ra.meta["peer"]
    assert who in lines[1] and "saved on both units" in lines[1], lines  # a group: every unit
    assert lines[2:] == [">Wait", " Leave (keep)", " Concede"]
    assert scr.status() == "no answer"
    over.key("UP")  # round to Concede: it asks, the cursor on the safe answer
    over.key("OK")
    ask = app.stack[-1]
    assert ask.lines()[0] == "Concede?" and ask.lines()[2] == ">Keep playing", ask.lines()
    tick_top(app, now)
    ask.key("OK")
    assert app.stack[-1] is over and ra.result() is None
    over.key("DOWN")  # back round to Wait
    over.key("OK")  # wait
    assert app.stack[-1] is scr
    for _ in range(20):  # not asked again for the same silence
        now += 100
        ra.tick(now)
        tick_top(app, now)
    assert app.stack[-1] is scr
    # the partner comes back: the status clears; a new silence asks again, and the overlay
    # closes by itself when the partner answers
    for _ in range(30):
        now += 100
        ra.tick(now)
        rb.tick(now)
        tick_top(app, now)
    assert scr.status() != "no answer" and not scr.told
    t0 = now
    while not isinstance(app.stack[-1], PartnerScreen) and now - t0 < LOST_MS + 3000:
        now += 100
        ra.tick(now)
        tick_top(app, now)
    assert isinstance(app.stack[-1], PartnerScreen)
    for _ in range(30):
        now += 100
        ra.tick(now)
        rb.tick(now)
        tick_top(app, now)
    assert app.stack[-1] is scr


@with_toy
def test_a_silent_partner_becomes_a_vanished_one_with_its_claim():
    from fathom.flow.partner import PartnerScreen
    (ra, rb), now = linked_game()
    app, scr = game_app(ra)
    while not ra.gone():
        now += 500
        ra.tick(now)
        tick_top(app, now)
    tick_top(app, now)
    menu = app.stack[-1]
    assert menu.title == "Partner vanished", menu.lines()
    assert [i.label for i in menu.items] == ["Wait", "Claim the game"]
    assert not any(isinstance(s, PartnerScreen) for s in app.stack)  # replaced, not stacked
    assert now >= VANISH_MS


@with_toy
def test_leave_from_the_overlay_keeps_the_game():
    from fathom.flow.partner import PartnerScreen
    (ra, rb), now = linked_game()
    app, scr = game_app(ra)

    def home():
        del app.stack[1:]
    app.home = home
    while not isinstance(app.stack[-1], PartnerScreen):
        now += 100
        ra.tick(now)
        tick_top(app, now)
    app.stack[-1].key("DOWN")
    app.stack[-1].key("OK")  # leave (keep): the bye goes out, nobody acknowledges it
    leaving, t0 = app.stack[-1], now
    assert leaving.title == "Leaving", leaving.lines()
    while app.stack[-1] is leaving:
        now += 100
        ra.tick(now)
        tick_top(app, now)
    assert now - t0 >= LEAVE_MS   # the partner is silent: the wait has its limit
    assert isinstance(app.stack[-1], Under) and ra.storage.exists("game")


@with_toy
def test_a_partner_who_leaves_is_said_at_once_and_its_return_clears_it():
    from fathom.flow.partner import PartnerScreen
    (ra, rb), now = linked_game()
    app, scr = game_app(ra)
    bapp, bscr = game_app(rb)

    def home():
        del bapp.stack[1:]
    bapp.home = home
    bscr.key("BACK")                       # the pause menu, then Leave (keep)
    pause = bapp.stack[-1]
    pause.key("DOWN")
    pause.key("DOWN")
    assert pause.items[pause.cursor].label == "Leave (keep)"
    pause.key("OK")
    t0 = now
    while not isinstance(bapp.stack[-1], Under):
        now += 100
        ra.tick(now)
        rb.tick(now)
        tick_top(app, now)
        tick_top(bapp, now)
        assert now - t0 < LEAVE_MS, bapp.stack[-1].lines()   # left once acknowledged
    while not isinstance(app.stack[-1], PartnerScreen):
        now += 100
        ra.tick(now)
        tick_top(app, now)
        assert now - t0 < LOST_MS / 2, app.stack[-1].lines()  # said, not guessed from silence
    lines = app.stack[-1].lines()
    assert lines[0] == "Partner left" and "P2 (%s) left the game" % ra.meta["peer"] in lines[1]
    assert scr.status() == "partner left"
    rb.peers[0].t.closed = False           # its unit is back: the same keyed channel
    rb.peers[0].send(["sync", rb.seat.n_log, rb.seat.short_hash()])
    for _ in range(20):
        now += 100
        ra.tick(now)
        rb.tick(now)
        tick_top(app, now)
    assert app.stack[-1] is scr and not ra.left and scr.status() != "partner left"


@with_toy
def test_a_bye_from_a_peer_is_checked():
    (ra, rb), now = linked_game()
    for bad in (["bye"], ["bye", 0, "left"], ["bye", 7, "left"], ["bye", "1", "x"]):
        rb.peers[0].send(bad)              # 0 is ra's own seat: nobody leaves as me
        for _ in range(5):
            now += 100
            rb.tick(now)
            ra.tick(now)
        assert not ra.left and "malformed bye" in (ra.problem or ""), (bad, ra.problem)
        ra.problem = None


@with_toy
def test_a_partner_who_concedes_is_named_on_the_result():
    from fathom.flow.gameend import ResultScreen
    (ra, rb), now = linked_game()
    app, scr = game_app(ra)
    rb.concede()
    for _ in range(20):
        now += 100
        ra.tick(now)
        rb.tick(now)
        tick_top(app, now)
    res = app.stack[-1]
    assert isinstance(res, ResultScreen), res.lines()
    assert res._text()[:2] == ["You win", "P2 (%s) conceded" % ra.meta["peer"]], res._text()
    bapp, bscr = game_app(rb)
    tick_top(bapp, now)
    assert bapp.stack[-1]._text()[:2] == ["You lose", "You conceded"]


# ---- every size: nothing drawn off the panel, the words there --------------------------------
SIZES = ((128, 64), (128, 32), (72, 40))


@with_toy
def test_the_partner_screens_fit_every_panel():
    from fathom.flow.partner import PartnerScreen
    from kit.panel import Oversized
    (ra, rb), now = linked_game()
    _app, game = game_app(ra)
    air = Air()
    _a, alone = unit(air, 0, "ping")
    run([_a], 0, HINT_MS + 100)
    assert "No unit found yet" in text(alone)
    papp, prop, oapp, off, now2 = offered_pair()
    off.key("BACK")
    run([papp, oapp], now2, 5000, lambda: prop.c.state == "declined", person=False)
    for w, h in SIZES:
        for scr in (PartnerScreen(game.app, game), alone, prop):
            o = Oversized(w, h, 16)
            scr.app.hw.display = o
            scr.draw(o)
            assert o.outside() == 0, (w, h, scr.lines())
            assert o.lit(0, 8, w, h - 8) > 0, (w, h, scr.lines())


def group_of_three():
    """A Sugar Dog star of three runners over pipes (host 0), a few moves in, P2 to act and
    nothing on its way."""
    import hashlib
    from fathom.games.sugardog.engine import ENGINE as SD
    from fathom.peers import pipe_pair
    from kit.play import bot_step
    k = lambda i, j: hashlib.sha256(b"g" + bytes((min(i, j), max(i, j)))).digest()
    keys = [[None if i == j else k(i, j) for j in range(3)] for i in range(3)]
    seats = [Seat(SD, {"calm": 10}, 3, b"back", p, b"salt%d" % p) for p in range(3)]
    rs = [Runner(seats[0], [], None, "sugardog", relay=True, keys=keys[0])]
    for p in (1, 2):
        near, far = pipe_pair()
        rs[0].peers.append(near)
        rs.append(Runner(seats[p], [far], None, "sugardog", keys=keys[p]))
    bots = [RandomBot(b"back", p) for p in range(3)]
    now = 0
    while True:
        for _ in range(3):
            now += 100
            for r in rs:
                r.tick(now)
        t = rs[0].seat.to_move()
        if rs[0].seat.n_log > 4 and t[0] == 1 and t[1] == "act" and \
                len(set(r.seat.n_log for r in rs)) == 1:
            return rs, now
        now += 100
        for r, b in zip(rs, bots):
            bot_step(r, b, now)


def test_a_group_partner_who_leaves_is_named_with_its_time_and_taken_back_by_itself():
    from fathom.flow.partner import PartnerScreen
    rs, now = group_of_three()
    apps = [game_app(r) for r in rs[:2]]  # the host and P2, who is to move
    rs[2].bye("left")  # P3: Leave (keep)
    for _ in range(50):  # 5 s, then 40 s more
        now += 100
        for r in rs[:2]:
            r.tick(now)
        for app, _scr in apps:
            tick_top(app, now)
    for app, scr in apps:
        over = app.stack[-1]
        assert isinstance(over, PartnerScreen), over.lines()
        assert over.lines()[0] == "Partner left" and "P3 left the game 0 s ago" in over.lines()[1]
        assert "saved on every unit" in over.lines()[1], over.lines()
    for _ in range(400):
        now += 100
        for r in rs[:2]:
            r.tick(now)
        for app, _scr in apps:
            tick_top(app, now)
    for app, scr in apps:  # since when, as it grows
        assert "P3 left the game 40 s ago" in app.stack[-1].lines()[1], app.stack[-1].lines()
    rs[2].resync()  # P3: Resume game; nobody presses a key on the others
    for _ in range(10):
        now += 100
        for r in rs:
            r.tick(now)
        for app, _scr in apps:
            tick_top(app, now)
    for app, scr in apps:
        assert app.stack[-1] is scr and scr.status() != "partner left", app.stack[-1].lines()
