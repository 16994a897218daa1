# Fair play on the link against a bystander and a tampering partner, with whole Connectors on
# the in-memory air (hostmodes/wire.Air): a listener holding every frame of a first pairing
# (radio or cable, two units or a group) cannot compute the joint seed, yet can with the
# session key; corrupt, forged-version and reflected frames leave a pairing intact; a silent
# unit forfeits its reveal with the link down; a lent bot does not confirm a code by itself;
# every secret draw goes through link/entropy.
import os

import pytest

from fathom import codec
from fathom.link import crypto, entropy, frame
from fathom.link.connect import Connector
from fathom.link.group import group_seed, open_seeds
from fathom.link.handshake import VERSION_GRACE_MS
from fathom.link.session import REVEAL_TIMEOUT_MS, joint_seed, seed_commit
from hostmodes.wire import STEP_MS, Air, connect_all
from kit.memstore import MemStorage

pytestmark = pytest.mark.micropython

OTHER = frame.VERSION + 1  # a version this firmware does not speak


def mac(i):
    return b"\x02\x00\x00\x00\x00" + bytes((i + 1,))


def units(air, kind="espnow", n=2, gid="ping", stores=None):
    """n Connectors on `air`; with n > 2 unit 0 hosts a group and the others join it."""
    out = []
    for i in range(n):
        st = stores[i] if stores else MemStorage()
        if n > 2:
            c = Connector(air.radio(mac(i)), kind, "U%d" % i, st, "sugardog", {}, 0,
                          n if i == 0 else 2, i > 0)
        else:
            c = Connector(air.radio(mac(i)), kind, "U%d" % i, st, gid, {}, 0)
        out.append(c)
    return out


def pair_up(air, kind="espnow", n=2, **kw):
    cs = units(air, kind, n)
    connect_all(cs, host_name="U0" if n > 2 else None, **kw)
    for c in cs:
        assert c.state == "ready", (c.state, c.error)
    return cs


# ---- the listener ----------------------------------------------------------------------------
def listen(heard):
    """Every message a bystander reassembles from the frames it captured: per sender and
    session, fragments in seq order, each decoded with the codec (nothing needs a key)."""
    streams = {}
    for src, _dst, data in heard:
        try:
            ftype, keyed, sid, seq, _ack, payload = frame.parse(data)
        except frame.FrameError:
            continue
        if ftype in (frame.DATA, frame.MORE):
            streams.setdefault((src, sid, keyed), {})[seq] = (ftype, payload)
    msgs = []
    for k in streams:
        part = b""
        s = streams[k]
        for seq in sorted(s):
            part += s[seq][1]
            if s[seq][0] == frame.DATA:
                try:
                    msgs.append(codec.decode(part))
                except Exception:
                    pass
                part = b""
    return [m for m in msgs if isinstance(m, list) and m and isinstance(m[0], str)]


def reveals(msgs):
    """(c0, c1, n0, n1) of each completed seed exchange the listener saw, roles matched by
    checking each reveal against each commitment, as the units themselves do."""
    out = []
    for gp in [m for m in msgs if m[0] == "gp"]:
        proposal = crypto.sha256(codec.encode([gp[1], gp[2]]))
        commits = [gp[3]] + [m[1] for m in msgs if m[0] == "ga"]
        nonces = [m[1] for m in msgs if m[0] == "rv"]
        found = {}
        for c in commits:
            for n in nonces:
                for role in (0, 1):
                    if seed_commit(role, proposal, n) == c:
                        found[role] = (c, n)
        if len(found) == 2:
            out.append((found[0][0], found[1][0], found[0][1], found[1][1]))
    return out


def listener_guesses(heard, key=None):
    """Every seed the listener can make, one at a time (a group's capture makes tens of
    thousands: a list of them fragments MicroPython's heap): with a key, the protocol's own
    formula; without one, the formula the seed used to have (hash of the reveals) and the
    protocol's formula keyed with every 32-byte window of every captured frame (a key sent in
    clear would be one)."""
    exch = reveals(listen(heard))
    assert exch, "the listener must see the commitments and the reveals"
    if key is not None:
        for e in exch:
            yield joint_seed(key, *e)
        return
    for e in exch:
        yield crypto.sha256(b"fathom seed", *e)
    for _s, _d, data in heard:
        for i in range(0, len(data) - 31):
            for e in exch:
                yield joint_seed(data[i:i + 32], *e)


def nowhere_in(heard, secret):
    return all(secret not in data for _s, _d, data in heard)


@pytest.mark.parametrize("kind", ["espnow", "uart"])
def test_listener_with_every_frame_of_a_first_pairing_cannot_compute_the_seed(kind):
    air = Air(b"listen " + kind.encode(), cable=kind == "uart")
    a, b = pair_up(air, kind)
    assert a.seed == b.seed and a.hs.paired_now
    heard = air.heard
    assert not any(s == a.seed for s in listener_guesses(heard))
    for secret in (a.seed, a.ch1.key, a.hs.record.key):
        assert nowhere_in(heard, secret)
    # the same listener with the session key gets it: the frames hold everything but the key
    assert list(listener_guesses(heard, a.ch1.key)) == [a.seed]


def test_session_key_is_not_derivable_from_what_the_pairing_sends():
    air = Air(b"dh")
    a, b = pair_up(air)
    msgs = listen(air.heard)
    hi = [m for m in msgs if m[0] == "hi"]
    pk = [m[1] for m in msgs if m[0] in ("pk", "pr")]
    assert len(hi) == 2 and len(pk) == 2
    r0, r1 = (a, b) if a.hs.role == 0 else (b, a)
    n0, n1 = r0.hs.nonce, r1.hs.nonce
    salt = n0 + n1 + r0.mac + r1.mac
    # what a key made of public values alone would be: none of them is the pairing's key
    for ikm in (b"", pk[0], pk[1], pk[0] + pk[1], n0 + n1):
        assert crypto.hkdf(ikm, salt, b"fathom pair") != a.hs.record.key
    assert a.hs.record.key == b.hs.record.key


def test_listener_of_a_whole_group_cannot_compute_the_group_seed():
    air = Air(b"group")
    cs = pair_up(air, n=3)
    seed = cs[0].seed
    assert all(c.seed == seed for c in cs) and sorted(c.player for c in cs) == [0, 1, 2]
    heard = air.heard
    gs = [m for m in listen(heard) if m[0] == "gs"]
    assert len(gs) == 2
    assert seed not in listener_guesses(heard)
    for m in gs:   # the published seeds as they travel, taken as the seeds themselves
        blob = m[2]
        assert group_seed(3, [blob[:32], blob[32:]]) != seed
    assert nowhere_in(heard, seed) and all(nowhere_in(heard, p.seed) for p in cs[0].partners)
    # with a partner's session key the listener opens what the host sent that partner
    keys = [p.ch.key for p in cs[0].partners]
    for m in gs:
        assert any(group_seed(3, open_seeds(k, m[2], 2)) == seed for k in keys)


# ---- frames that must not end a pairing --------------------------------------------------------
def restamp(data, version, fix_crc):
    body = bytes((version << 4 | (data[0] & 0x0F),)) + data[1:-4]
    crc = crypto.crc32(body).to_bytes(4, "big") if fix_crc else data[-4:]
    return body + crc


def first_hello(air, src):
    for s, _d, data in air.heard:
        if s == src and data[0] & 0x07 == frame.DATA and not data[0] & 0x08:
            return data
    return None


@pytest.mark.parametrize("kind", ["espnow", "uart"])
def test_corrupt_forged_version_and_reflected_frames_leave_the_pairing_intact(kind):
    air = Air(b"tamper " + kind.encode(), cable=kind == "uart")
    a, b = units(air, kind)
    injected = []

    def hook(now):
        # every 20 ms, frames for unit a as if from b: b's own frames with the version nibble
        # flipped but the CRC left (a corrupt frame), b's beacon re-stamped v2 with a right
        # CRC (a forgery), and a's own frames sent back to it (reflections); on the cable a
        # pairing is over in about 50 ms
        if now % 20:
            return
        mine = [d for s, _d, d in air.heard if s == a.t.mac]
        theirs = [d for s, _d, d in air.heard if s == b.t.mac]
        src = None if kind == "uart" else b.t.mac
        for d in theirs[-3:]:
            a.t.inbox.append((src, restamp(d, OTHER + 1, False)))
            a.t.inbox.append((src, restamp(d, OTHER, True)))
            injected.append(d)
        for d in mine[-3:]:
            a.t.inbox.append((src, d))
    connect_all([a, b], hook=hook)
    assert a.state == b.state == "ready", (a.error, b.error)
    assert a.seed == b.seed and injected
    assert a.reflected > 0 and a.hs.echoes == 0, (a.reflected, a.hs.echoes, a.jammed)


def test_a_sugar_dog_group_pairs_through_5_percent_corruption():
    for seed in (b"c1", b"c2", b"c3"):
        air = Air(seed, corrupt=50)
        cs = pair_up(air, n=3, until=600000)
        assert len(set(c.seed for c in cs)) == 1


def test_every_frame_reflected_still_pairs():
    air = Air(b"mirror", reflect=1000)
    a, b = pair_up(air)
    assert a.seed == b.seed and a.reflected + b.reflected > 0


def test_a_reflected_hello_on_a_loopback_cable_is_not_fatal():
    air = Air(b"loop", cable=True)
    a = units(air, "uart")[0]
    for now in range(10, 3000, 10):
        a.tick(now)
        while air.heard:
            a.t.put(None, air.heard.pop(0)[2])  # everything a sends comes straight back
    assert a.state == "handshake" and a.reflected > 0


def test_an_intact_frame_of_another_version_fails_only_without_the_partners_hello():
    air = Air(b"v2", cable=True)
    a, b = units(air, "uart")
    a.tick(10)
    b.tick(10)
    hello = first_hello(air, b.t.mac)
    v2 = restamp(hello, OTHER, True)
    a.t.inbox = []      # b's real hello never reaches a
    a.t.put(None, v2)   # alone: after the grace, the mismatch names both versions
    now = 10
    while a.state != "failed" and now < VERSION_GRACE_MS * 2:
        now += STEP_MS
        a.tick(now)
    assert a.state == "failed" and "speaks v%d" % OTHER in a.error and now >= VERSION_GRACE_MS
    air = Air(b"v2 late", cable=True)
    a, b = units(air, "uart")
    a.t.put(None, v2)   # a forgery, then the real partner: it is the partner that counts
    connect_all([a, b])
    assert a.state == b.state == "ready"


# ---- the seed forfeit --------------------------------------------------------------------
def test_a_unit_that_goes_silent_after_seeing_the_reveal_forfeits_with_the_link_down():
    air = Air(b"silent")
    a, b = units(air)
    now = 0
    while now < 60000:
        now += STEP_MS
        for c in (a, b):
            c.tick(now)
            c.autopilot(now)
        s = [c for c in (a, b) if c.setup is not None and c.setup.state == "reveal"
             and c.setup._reveals[c.setup.role] is not None]
        if s:
            break
    waiting = s[0]           # it revealed; the other one goes silent (powered off, walks away)
    gone = b if waiting is a else a
    gone.t.inbox = []
    air.radios.remove(gone.t)
    start = now
    while waiting.state != "failed" and now - start < REVEAL_TIMEOUT_MS * 2:
        now += 100
        waiting.tick(now)
        if now - start > 15000:
            assert waiting.ch1.state == "lost"
    assert waiting.state == "failed" and "forfeits" in waiting.error
    assert REVEAL_TIMEOUT_MS <= now - start < REVEAL_TIMEOUT_MS + 1000


# ---- a lent bot -------------------------------------------------------------------------------
def test_a_lent_bot_waits_for_its_owner_on_a_new_code_then_remembers():
    stores = [MemStorage(), MemStorage()]
    air = Air(b"bot")
    me, bot = units(air, stores=stores)
    bot.gid = None   # waits for any offer, as Play as bot does
    now = 0
    while now < 20000:
        now += STEP_MS
        me.tick(now)
        me.autopilot(now)
        bot.tick(now)
        bot.autopilot(now, code=False)
    assert bot.state == "confirm" and me.state == "confirm", (bot.state, me.state)
    assert bot.code() == me.code()
    bot.confirm(True)   # the owner compares the codes once
    connect_all([me, bot], now, now + 60000, code=False)
    assert me.state == bot.state == "ready"
    # next time both remember the pairing: no code, nothing for the owner to do
    air = Air(b"bot again")
    me, bot = units(air, stores=stores)
    bot.gid = None
    connect_all([me, bot], code=False)
    assert me.state == bot.state == "ready" and not bot.hs.paired_now


# ---- entropy -----------------------------------------------------------------------------------
def test_secret_draws_go_through_the_entropy_module():
    link = entropy.__file__.rsplit("/", 1)[0]
    files = [link + "/" + f for f in os.listdir(link) if f.endswith(".py")]
    files.append(link.rsplit("/", 1)[0] + "/flow/pairing.py")
    for path in files:
        with open(path) as f:
            src = f.read()
        if not path.endswith("/entropy.py"):
            assert "urandom" not in src and "getrandbits" not in src, path
    assert len(entropy.token(16)) == 16 and entropy.token(16) != entropy.token(16)


def twin_network():
    """The network twin (firmware/twins/network.py), the emulator's stand-in for a board's."""
    import sys
    import fathom
    twins = fathom.__file__.rsplit("/", 2)[0] + "/twins"
    sys.path.append(twins)
    try:
        import network
    finally:
        sys.path.remove(twins)
    return network


def test_a_board_draws_with_the_radio_on_and_leaves_it_as_it_was():
    network = twin_network()
    wlan = network.WLAN(network.STA_IF)
    for was in (False, True):
        wlan.active(was)
        draws = []

        def urandom(n):
            draws.append(wlan.active())
            return os.urandom(n)
        assert len(entropy.draw_with_radio(24, wlan, urandom)) == 24
        assert draws == [True] and wlan.active() == was
