# A unit listing for a two-player game takes a unit that chose it (link/connect.py, `hailed`),
# in-process: real Connectors over an in-memory radio (hostmodes.wire.Air), the real pairing
# screen where its words matter. Only one player chooses and both reach the code; both choosing
# at once still makes one session each; another game, a group, a unit looking for no game, a
# hello that is not intact, a unit not listed: not taken; a remembered unit is taken without a
# code, its radio key installed from the list; lent units and the cable are as before.
import pytest

from fathom import games
from fathom.link import frame
from fathom.link.connect import Connector
from fathom.link.discovery import SEEN_MS, is_hello
from fathom.link.lent import LentConnector
from fathom.link.session import beacon, encode_msg
from fathom.flow.pairing import PairScreen
from fathom.ui.screen import Screen
from hostmodes.wire import Air
from kit.memstore import MemStorage
from kit.panel import App, Oversized

pytestmark = pytest.mark.micropython

STEP = 10


def mac(i):
    return b"\x02\x00\x00\x00\x00" + bytes((i + 1,))


def conn(air, i, gid, store=None, kind="espnow", **kw):
    opts = kw.pop("opts", None)
    return Connector(air.radio(mac(i)), kind, "U%d" % i, store or MemStorage(), gid,
                     games.options(kw.get("looks") or gid, opts), 0, **kw)


def tick(cs, now, until, limit=30000):
    end = now + limit
    while now < end and not until():
        now += STEP
        for c in cs:
            c.tick(now)
    return now


def listed(c, other):
    return other.mac in c.seen


def hello_from(c, other):
    """One of `other`'s frames reached `c`'s radio since it chose."""
    return any(src == other.mac and dst == c.mac for src, dst, _ in c.t.air.heard)


def confirm_both(cs, now):
    """Both players say the code matches; until both are ready, or one is asked an offer."""
    for c in cs:
        c.confirm(True)
    return tick(cs, now, lambda: all(c.state == "ready" for c in cs) or any(
        c.state in ("failed", "offer") for c in cs))


def test_only_one_player_chooses_and_both_reach_the_code_then_the_game():
    air = Air()
    a, b = conn(air, 0, "ping"), conn(air, 1, "ping")
    now = tick([a, b], 0, lambda: listed(b, a))
    b.choose(a.mac, now)                    # B's player picks A; A's player presses nothing
    now = tick([a, b], now, lambda: a.state == b.state == "confirm")
    assert a.state == b.state == "confirm", (a.state, b.state, a.error, b.error)
    assert a.hailed is not None and b.hailed is None
    assert a.peer_mac == b.mac and a.code() == b.code()
    now = confirm_both([a, b], now)
    assert a.state == b.state == "ready", (a.error, b.error)
    assert a.seed == b.seed and {a.player, b.player} == {0, 1}
    assert a.setup.game == b.setup.game == "ping"


def test_an_invited_unit_proposing_nothing_is_taken_by_the_inviter():
    """OK on an invitation (flow/invite.py): gid None, its beacons look for the inviter's game."""
    air = Air()
    a = conn(air, 0, "ping", opts={"sealed": 0})
    b = conn(air, 1, None, looks="ping")
    now = tick([a, b], 0, lambda: listed(b, a) and listed(a, b))
    assert a.seen[b.mac][3] == "ping"       # what its beacons look for
    b.choose(a.mac, now)
    now = tick([a, b], now, lambda: a.state == b.state == "confirm")
    assert a.hailed is not None and a.code() == b.code()
    now = confirm_both([a, b], now)
    assert a.state == b.state == "ready", (a.error, b.error)
    assert b.setup.game == "ping" and b.setup.opts == {"sealed": 0}  # the inviter's offer


def test_both_choosing_at_the_same_moment_make_one_session_each():
    air = Air()
    a, b = conn(air, 0, "ping"), conn(air, 1, "ping")
    now = tick([a, b], 0, lambda: listed(a, b) and listed(b, a))
    a.choose(b.mac, now)
    b.choose(a.mac, now)
    hs = (a.hs, b.hs)
    now = tick([a, b], now, lambda: a.state == b.state == "confirm")
    assert (a.hs, b.hs) == hs and a.hailed is None and b.hailed is None
    assert a.code() == b.code()
    now = confirm_both([a, b], now)
    assert a.state == b.state == "ready" and a.seed == b.seed


class Under(Screen):
    title = "Game menu"


def screen(air, i, gid):
    store = MemStorage()
    c = Connector(air.radio(mac(i)), "espnow", "U%d" % i, store, gid, games.options(gid), 0)
    app = App(128, 64)
    app.settings = {"opponent": "off", "name": "U%d" % i, "link": "espnow"}
    app.hw.storage = store
    app.push(Under(app))
    scr = PairScreen(app, c)
    app.push(scr)
    return scr


@pytest.mark.parametrize("key_first", [True, False])
def test_a_players_ok_as_the_hello_arrives_makes_no_second_session(key_first):
    """U0 picks U1 while U1's player presses OK on U0 in the same loop: whichever comes
    first, U1 ends with one handshake (the OK in 'handshake' is not a choice)."""
    air = Air()
    sa, sb = screen(air, 0, "ping"), screen(air, 1, "ping")
    now = 0
    while not (sa.c.nearby(now) and sb.c.nearby(now)):
        now += STEP
        sa.tick(now)
        sb.tick(now)
    sa.key("OK")                            # U0's choice, its hello now in U1's radio
    sa.tick(now + STEP)
    now += STEP
    if key_first:
        sb.key("OK")
        sb.tick(now)
    else:
        sb.tick(now)
        assert sb.c.hailed is not None and sb.c.state == "handshake"
        assert sb.lines()[1:] == ["U0 chose", "this unit.", "Connecting..."]
        sb.key("OK")
    hs = sb.c.hs
    while not sa.c.state == sb.c.state == "confirm" and now < 30000:
        now += STEP
        sa.tick(now)
        sb.tick(now)
        if sb.c.state == "discover":
            sb.key("OK")  # a player who keeps pressing changes nothing either
    assert sb.c.hs is hs and sa.c.code() == sb.c.code()
    for _ in range(2000 // STEP + 1):   # the code's keys show once it could be read
        now += STEP
        sa.tick(now)
        sb.tick(now)
    if not key_first:
        assert sb.lines()[1:] == ["Code " + sb.c.code(), "Same on both?", "OK yes BACK no",
                                  "U0 chose this unit."]
        for w, h in ((128, 64), (128, 32), (72, 40)):  # the longer text stays on the panel
            o = Oversized(w, h, 16)
            sb.draw(o)
            assert o.outside() == 0 and o.lit(0, 8, w, h - 8) > 0, (w, h)
    assert sa.lines()[1:] == ["Code " + sa.c.code(), "Same on both?", "OK yes BACK no"]


def test_a_unit_that_chose_for_another_game_is_not_taken():
    air = Air()
    a = screen(air, 0, "ping")
    b = screen(air, 1, "ashtapada")
    now = 0
    while not b.c.nearby(now):
        now += STEP
        a.tick(now)
        b.tick(now)
    b.key("OK")                             # U1 picks U0 for Lake Ashtapada
    end = now + 9000
    while now < end:
        now += STEP
        a.tick(now)
        b.tick(now)
    assert hello_from(a.c, b.c)
    assert a.c.state == "discover" and a.c.hailed is None
    assert any(l.endswith("U1") for l in a.lines())   # still listed, for its player to pick
    assert "U0 has not chosen" in " ".join(b.lines()), b.lines()
    a.key("OK")                             # its player picks U1: the offer is asked, as ever
    while now < 60000 and not {a.c.state, b.c.state} & {"offer"}:
        now += STEP
        for s in (a, b):
            s.tick(now)
            if s.c.state == "confirm" and not s.c.hs._confirmed:
                s.key("OK")
    off = a if a.c.state == "offer" else b
    assert off.c.state == "offer" and "offers" in " ".join(off.lines()), off.lines()


def test_a_unit_offering_other_options_is_taken_and_its_offer_asked():
    air = Air()
    a = conn(air, 0, "ping", opts={"sealed": 1})
    b = conn(air, 1, "ping", opts={"sealed": 0})
    now = tick([a, b], 0, lambda: listed(b, a))
    b.choose(a.mac, now)
    now = tick([a, b], now, lambda: a.state == b.state == "confirm")
    assert a.hailed is not None
    confirm_both([a, b], now)
    states = sorted((a.state, b.state))
    assert states == ["offer", "setup"], (a.state, b.state, a.error, b.error)


def inject(c, src, data, now):
    c.t.put(src, data)
    c.tick(now)


def hello(src, nonce=b"n" * 16):
    return frame.encode(frame.DATA, 0, 0, 0, encode_msg("hi", frame.VERSION, "X", src, nonce, []))


@pytest.mark.parametrize("case", ["not listed", "no game", "group", "another game", "stale",
                                  "bad crc", "not a hello"])
def test_what_is_not_taken(case):
    air = Air()
    a = conn(air, 0, "ping")
    x = mac(5)
    data = hello(x)
    now = 100
    looks = {"no game": None, "group": "ping", "another game": "sugardog"}.get(case, "ping")
    if case != "not listed":
        inject(a, x, beacon("X", x, game=looks, players=3 if case == "group" else 2), now)
    if case == "stale":
        now += SEEN_MS
    elif case == "bad crc":
        data = data[:-1] + bytes((data[-1] ^ 1,))
    elif case == "not a hello":
        data = frame.encode(frame.DATA, 0, 0, 0, encode_msg("pc", b"c" * 32))
    assert is_hello(data) == (case not in ("bad crc", "not a hello"))
    inject(a, x, data, now + STEP)
    assert a.state == "discover" and a.hailed is None and a.peer_mac is None


def test_a_well_formed_hello_from_a_listed_unit_is_taken():
    air = Air()
    a = conn(air, 0, "ping")
    x = mac(5)
    inject(a, x, beacon("X", x, game="ping"), 100)
    inject(a, x, hello(x), 110)
    assert a.state == "handshake" and a.hailed == 110 and a.peer_mac == x
    assert a.hs.peer_name == "X"            # the hello was read as the chosen unit's


@pytest.mark.parametrize("who", ["host", "joining", "lent"])
def test_a_host_a_joining_partner_and_a_lent_unit_take_nobody_this_way(who):
    """A group's host still chooses each partner; a joining partner chooses its host; a lent
    unit joins whoever hails it (link/lent.py), a two-player proposer included: unchanged."""
    air = Air()
    x = mac(5)
    if who == "host":
        a = conn(air, 0, "sugardog", players=3)
    elif who == "joining":
        a = conn(air, 0, "sugardog", join=True)
    else:
        a = LentConnector(air.radio(mac(0)), "espnow", "U0", MemStorage(), 0)
    game = "ping" if who == "lent" else "sugardog"
    inject(a, x, beacon("X", x, game=game), 100)
    inject(a, x, hello(x), 110)
    assert a.hailed is None
    assert a.state == ("handshake" if who == "lent" else "discover")


def paired_once():
    """Two units' storage after a first pairing (code confirmed on both), and the clock."""
    air = Air()
    sa, sb = MemStorage(), MemStorage()
    a, b = conn(air, 0, "ping", sa), conn(air, 1, "ping", sb)
    now = tick([a, b], 0, lambda: listed(b, a))
    b.choose(a.mac, now)
    now = tick([a, b], now, lambda: a.state == b.state == "confirm")
    now = confirm_both([a, b], now)
    assert a.state == b.state == "ready"
    return sa, sb, a.pairings.records[-1].lmk(), now


def test_a_remembered_unit_is_taken_without_a_code_its_radio_key_installed_from_the_list():
    sa, sb, lmk, now = paired_once()
    # the second session: new connectors on the same storage, B chooses, A presses nothing
    air2 = Air()
    a, b = conn(air2, 0, "ping", sa), conn(air2, 1, "ping", sb)
    now = tick([a, b], now, lambda: listed(b, a) and listed(a, b))
    assert a.discovery.prekeyed == [b.mac] and a.t.keys[b.mac] == lmk   # before any hello
    b.choose(a.mac, now)
    seen = set()

    def done():
        seen.update((a.state, b.state))
        return a.state == b.state == "ready"
    tick([a, b], now, done)
    assert a.state == b.state == "ready", (a.error, b.error)
    assert "confirm" not in seen and a.hailed is not None
    assert a.lmk == b.lmk == lmk and b.t.keys[a.mac] == lmk


def test_a_remembered_unit_looking_for_another_game_gets_no_key():
    sa, sb, _lmk, _now = paired_once()
    air2 = Air()
    a, b = conn(air2, 0, "ping", sa), conn(air2, 1, "ashtapada", sb)
    tick([a, b], 0, lambda: False, 2000)
    assert listed(a, b) and a.discovery.prekeyed == [] and a.t.keys == {}


def test_on_the_cable_nothing_is_listed_and_both_pair_as_before():
    air = Air(cable=True)
    a, b = conn(air, 0, "ping", kind="uart"), conn(air, 1, "ping", kind="uart")
    assert a.state == b.state == "handshake" and not a.discovery.takes
    tick([a, b], 0, lambda: a.state == b.state == "ready")
    assert a.state == b.state == "ready" and a.hailed is None and b.hailed is None
    assert not any(d[:1] and d[0] & 0x07 == frame.BEACON for _s, _d, d in air.heard)
