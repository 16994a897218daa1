# Invitations on the idle home menu, on the real App: a unit looking for a
# partner is shown over the home menu once the player is idle; OK asks whether to join (the
# cursor on Not now, no key taken in the question's first second), and Join opens that game's
# pairing with the inviting unit chosen as soon as it is listed; BACK puts it aside until that unit
# stops looking; keys the player meant for the menu reach the menu; the radio is held only at
# home. The radio is an in-memory queue the test fills with real beacon frames.
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
if _FW + "/twins" not in sys.path:  # pairing opens the ESP-NOW twin (no ether: silent)
    sys.path.insert(0, _FW + "/twins")

from kit.app import real_app  # noqa: E402
from fathom.app import home_menu  # noqa: E402
from fathom.link.session import beacon  # noqa: E402
from fathom.flow import invite  # noqa: E402
from fathom.ui.font import CH, TH, tiny_cols  # noqa: E402
from fathom.flow.invite import HEARD_MS, IDLE_MS, MAX_HEARD, READ_MS, Invites  # noqa: E402

pytestmark = pytest.mark.micropython

HOST = b"\x02\x00\x00\x00\x00\x07"


class Radio:
    """The home menu's transport: frames the test puts in, closed or not."""

    def __init__(self):
        self.inbox = []
        self.closed = False
        self.mac = b"\x02\x00\x00\x00\x00\x01"

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def send(self, peer, data):
        return True

    def close(self):
        self.closed = True


class Unit:
    """The real App at its home menu, its clock and its keys driven by the test."""

    def __init__(self):
        self.app, self.pins, _ = real_app()
        self.app.invite = Invites(self.app)
        self.app.push(home_menu(self.app))
        self.radio = Radio()
        self.app.invite.t = self.radio
        self.now = 1000
        self.app.invite.last_key = self.now  # home came up now

    def run(self, ms, beacons=()):
        """ms of the loop, the beacons heard every 700 ms as a looking unit sends them."""
        end = self.now + ms
        while self.now < end:
            if self.now % 700 == 0:
                for mac, data in beacons:
                    self.radio.inbox.append((mac, data))
            self.now += 10
            self.app.step(self.now)

    def press(self, pin, beacons=()):
        p = self.pins[pin]
        for n in range(20):  # down 100 ms, up 100 ms: one short press
            p.level = 0 if n < 10 else 1
            self.run(10, beacons)

    def text(self):
        over = self.app.invite if self.app.invite.showing() else self.app.top()
        return over.lines()


UP, DOWN, OK, BACK = 1, 2, 5, 6
PING = [(HOST, beacon("Ann", HOST, game="ping"))]


def join(u, beacons=()):
    """OK on the invitation, then Join once the question takes keys."""
    u.press(OK, beacons)
    assert u.app.top().lines()[0] == "Join?", u.app.top().lines()
    u.run(READ_MS, beacons)
    assert u.app.top().lines()[2:] == [">Not now", " Join"], u.app.top().lines()
    u.press(DOWN, beacons)
    u.press(OK, beacons)


def test_an_idle_home_menu_shows_the_invitation_then_the_keys_that_answer_it():
    u = Unit()
    u.run(IDLE_MS - 200, PING)
    assert not u.app.invite.showing()   # the player may still be using the menu
    u.run(400, PING)
    assert u.text() == ["fathom", "Ann wants to play PING."]
    u.run(READ_MS, PING)
    assert u.text() == ["fathom", "Ann wants to play PING.", "OK: join?", "BACK: not now"]


def test_a_unit_named_like_this_one_is_told_apart_by_its_address():
    u = Unit()
    mine = u.app.settings["name"]
    u.run(IDLE_MS + READ_MS, [(HOST, beacon(mine, HOST, game="ping"))])
    assert u.text()[1] == "%s %02X%02X wants to play PING." % (mine, HOST[-2], HOST[-1])


def test_a_group_host_invites_to_join_its_group():
    u = Unit()
    u.run(IDLE_MS + READ_MS, [(HOST, beacon("Ann", HOST, game="sugardog", players=4))])
    assert u.text()[1] == "Ann hosts a group of 4 for Sugar Dog."
    join(u)
    c = u.app.top().c
    assert (c.join, c.players, c.gid) == (True, 2, "sugardog")
    assert u.app.top().invite == HOST


def test_ok_opens_the_games_pairing_and_chooses_the_inviter_once_listed():
    u = Unit()
    u.run(IDLE_MS + READ_MS, PING)
    join(u, PING)
    assert u.radio.closed                       # before the pairing opened its own
    # the home menu and its listener leave the heap while pairing (App.leave_home)
    assert [type(s).__name__ for s in u.app.stack] == ["NoneType", "Menu", "PairScreen"]
    assert u.app.invite is None
    assert u.app.stack[1].title == "PING"       # the game's menu, as if opened by hand
    scr = u.app.top()
    c = scr.c
    assert c.gid is None and not c.join         # it takes the inviter's offer of PING
    assert scr.want == "ping" and scr.invite == HOST
    pair_radio = Radio()
    c.t = pair_radio
    pair_radio.inbox.append((HOST, beacon("Ann", HOST, game="ping")))
    u.run(20)
    assert scr.invite is None and c.peer_mac == HOST and c.state == "handshake"
    assert not any(l.startswith(">") for l in scr.lines())  # nothing left to choose


def test_back_puts_it_aside_until_that_unit_stops_looking():
    u = Unit()
    u.run(IDLE_MS + READ_MS, PING)
    u.press(BACK, PING)
    assert u.text()[0] == "fathom" and len(u.app.stack) == 1
    u.run(3 * IDLE_MS, PING)                    # still looking: not asked again
    assert not u.app.invite.showing()
    u.run(HEARD_MS + 100)                       # it stopped looking...
    u.run(IDLE_MS + READ_MS, PING)              # ...and looks again: asked again
    assert u.app.invite.showing()


def test_a_key_pressed_before_it_could_be_read_goes_to_the_menu():
    u = Unit()
    u.run(IDLE_MS + 100, PING)
    assert u.app.invite.showing()
    cursor = u.app.top().cursor
    u.press(DOWN, PING)                          # within READ_MS: meant for the menu
    assert u.app.top().cursor == cursor + 1 and not u.app.invite.showing()
    u.press(OK, PING)                            # the item under the cursor, not the invitation
    assert u.app.top().title != "fathom" and len(u.app.stack) == 2
    assert u.radio.closed                        # OK leaves home: the radio is let go first


def test_the_radio_is_held_only_at_home_with_the_link_on_espnow():
    u = Unit()
    u.run(100, PING)
    assert not u.radio.closed
    u.app.settings.set("link", "uart")
    u.run(20)
    assert u.radio.closed and u.app.invite.t is None


def test_no_invitation_to_an_unknown_game_or_from_a_borrowed_address():
    u = Unit()
    other = b"\x02\x00\x00\x00\x00\x08"
    u.run(IDLE_MS + READ_MS, [(HOST, beacon("Ann", HOST, game="chess")),
                               (other, beacon("Bob", HOST, game="ping"))])
    assert not u.app.invite.showing()


def test_a_flood_of_made_up_units_is_bounded():
    u = Unit()
    flood = [(bytes([2, 0, 0, 0, 1, i]), beacon("x", bytes([2, 0, 0, 0, 1, i]), game="ping"))
             for i in range(40)]
    u.run(1400, flood)
    assert len(u.app.invite.heard) == MAX_HEARD


@pytest.mark.parametrize("w,h", [(128, 64), (128, 32), (72, 40)])
def test_the_invitation_and_its_keys_fit_every_panel(w, h):
    inv = Invites(None)
    inv.shown = HOST
    inv.ready = True
    for name, gid, n in (("Ann", "ping", 2), ("ABCDEFGHIJKLMNOP", "ashtapada", 2),
                         ("Ann", "sugardog", 8)):
        inv.heard[HOST] = [b"", 0, (name, gid, n), False]
        inv.app = type("A", (), {"settings": {"name": "PLAYER"}})()
        small, rows = inv.layout(w, h - CH)
        cols = tiny_cols(w) if small else w // CH
        assert len(rows) * (TH if small else CH) <= h - CH + (1 if small else 0), rows
        assert all(len(r) <= cols for r in rows), rows
        assert rows[-1] in ("BACK: not now", "now"), rows   # the keys always show
        assert "OK: join?" in rows, rows
    assert invite.HINT.startswith("OK: join?")


def test_the_idle_home_loop_allocates_nothing_while_nothing_arrives():
    from kit.app import locked
    u = Unit()
    u.run(IDLE_MS + READ_MS, PING)
    assert u.app.invite.showing()
    u.run(100)  # the last beacons read and drawn

    def idle():
        for _ in range(50):
            u.now += 10
            u.app.step(u.now)
    locked(idle)
    assert u.app.invite.showing()


def test_ok_up_ok_typed_for_the_menu_never_joins():
    # unit 2 typed OK, UP, OK to open PING: the invitation had replaced the home menu, the
    # first OK joined another unit's game and the last accepted its code uncompared
    u = Unit()
    u.run(IDLE_MS + READ_MS, PING)
    for pin in (OK, UP, OK):
        u.press(pin, PING)
    ask = u.app.top()
    assert ask.lines() == ["Join?", "Ann wants to play PING."], ask.lines()  # no answers yet
    assert type(ask).__name__ == "Confirm" and len(u.app.stack) == 2
    u.run(READ_MS, PING)
    assert ask.lines()[2:] == [">Not now", " Join"]     # the keys before changed nothing
    u.press(OK, PING)                                   # Not now: home, put aside
    assert len(u.app.stack) == 1
    u.run(3 * IDLE_MS, PING)
    assert not u.app.invite.showing()


def test_a_code_is_read_a_second_before_ok_says_it_matches():
    from fathom.flow import pairing
    u = Unit()
    u.run(IDLE_MS + READ_MS, PING)
    join(u, PING)
    scr = u.app.top()
    c = scr.c
    c.state, c.since = "confirm", u.now          # the handshake done: the code shows
    c.code = lambda: "123 456"
    said = []
    c.confirm = said.append
    u.run(20)
    assert scr.lines()[1:3] == ["Code 123 456", "Same on both?"]
    assert "OK yes BACK no" not in scr.lines()   # no key answers it yet
    scr.key("OK")                                # an OK pressed for the screen before it
    assert said == []
    u.run(pairing.READ_MS)
    assert scr.lines()[3] == "OK yes BACK no"
    scr.key("OK")
    assert said == [True]


def test_the_home_menu_says_an_owed_notice_until_the_partners_receipt():
    # a unit whose save was set aside while its partner was away owes it link/lost.py's notice:
    # the idle home menu says it every OWE_MS until the partner, back in its game, answers
    import hashlib

    from fathom.link import lost
    seed = hashlib.sha256(b"a joint seed").digest()
    u = Unit()
    st = u.app.hw.storage
    me = lost.Keys(seed, None, 1, 2)
    lost.owe(st, me, lost.SAVE, [0])
    sent = []
    u.radio.send = lambda peer, data: sent.append((peer, bytes(data))) or True
    u.app.invite.load_owed(u.now)
    u.run(12000)
    notice = lost.notice(me, lost.SAVE)
    assert sent == [(None, notice)] * 3                       # at once, 5 s and 10 s later
    other = lost.Keys(hashlib.sha256(b"a guess").digest(), None, 0, 2)
    u.radio.inbox.append((HOST, lost.receipt(other, 1)))      # a bystander's receipt
    u.run(100)
    assert st.read_obj(lost.OWED) is not None and u.app.invite.owed is not None
    u.radio.inbox.append((HOST, lost.receipt(lost.Keys(seed, None, 0, 2), 1)))
    u.run(100)
    assert not st.exists(lost.OWED) and u.app.invite.owed is None
    n = len(sent)
    u.run(6000)
    assert len(sent) == n

