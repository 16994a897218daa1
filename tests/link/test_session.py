# Session layer: beacons, pairing and rekey handshakes, stored pairings, version mismatch,
# game set-up with the commit-reveal seed, forfeits, and resume from saved records.
import pytest

from fathom import codec
from fathom.link import crypto, frame
from fathom.link.session import (GameSetup, Handshake, PairRecord, Pairings, REVEAL_TIMEOUT_MS,
                                 SessionError, beacon, decode_msg, encode_msg, parse_beacon,
                                 parse_invite, seed_commit)
from hostmodes.wire import Wire, pair, step, STEP_MS
from fathom.link.channel import Channel

pytestmark = pytest.mark.micropython

MAC_A = b"\x24\x6f\x28\x00\x00\x0a"
MAC_B = b"\x24\x6f\x28\x00\x00\x0b"
KEY = bytes(range(32))


def n(tag):
    return (tag * 16)[:16]


def shuttle(x, y, out_x, out_y):
    """Deliver messages both ways, in order, until both fall silent."""
    while out_x or out_y:
        nx, ny = [], []
        for m in out_x:
            ny += y.on_message(m)
        for m in out_y:
            nx += x.on_message(m)
        out_x, out_y = nx, ny


def handshakes(pa=None, pb=None, confirm=True, va=1, vb=1):
    a = Handshake("Ann", MAC_A, n(b"a"), b"\x11" * 32, pa, confirm, va)
    b = Handshake("Bob", MAC_B, n(b"b"), b"\x22" * 32, pb, confirm, vb)
    shuttle(a, b, a.start(), b.start())
    return a, b


def test_beacon_round_trip_and_garbage_is_none():
    data = beacon("Captain Nemo", MAC_A)
    assert len(data) <= frame.MAX_FRAME
    assert parse_beacon(data) == ("Captain Nemo", MAC_A, frame.VERSION)
    assert parse_beacon(data[:-1] + bytes([data[-1] ^ 1])) is None
    assert parse_beacon(b"") is None
    assert parse_beacon(frame.encode(frame.DATA, 0, 0, 0, b"x")) is None


def test_a_beacon_looking_for_a_partner_invites_to_its_game():
    two = beacon("Ann", MAC_A, game="ping")
    group = beacon("Ann", MAC_A, game="sugardog", players=4)
    for data in (two, group):
        assert parse_beacon(data) == ("Ann", MAC_A, frame.VERSION)  # listed as before
    assert parse_invite(two) == ("Ann", MAC_A, "ping", 2)
    assert parse_invite(group) == ("Ann", MAC_A, "sugardog", 4)
    assert parse_invite(beacon("Ann", MAC_A)) is None   # looking for nothing in particular
    assert parse_invite(two[:-1] + bytes([two[-1] ^ 1])) is None


def raw_beacon(*fields):
    return frame.encode(frame.BEACON, 0, 0, 0, codec.encode(["fathom", frame.VERSION, "Ann",
                                                             MAC_A] + list(fields)))


def test_an_older_units_four_field_beacon_is_still_listed():
    data = raw_beacon()
    assert data == beacon("Ann", MAC_A)  # the layout of units before invitations
    assert parse_beacon(data) == ("Ann", MAC_A, frame.VERSION)
    assert parse_invite(data) is None


@pytest.mark.parametrize("fifth", [
    "ping", ["ping"], ["ping", 2, 3], [b"ping", 2], ["", 2], ["x" * 17, 2], ["ping", 1],
    ["ping", 256], ["ping", True], ["ping", "2"], ["ping", None], None, 7, {"ping": 2}])
def test_a_malformed_fifth_field_lists_the_unit_but_invites_nobody(fifth):
    data = raw_beacon(fifth)
    assert parse_beacon(data) == ("Ann", MAC_A, frame.VERSION)
    assert parse_invite(data) is None


def test_a_beacon_of_six_fields_is_not_ours():
    assert parse_beacon(raw_beacon(["ping", 2], 0)) is None


def test_an_invitation_of_another_version_is_not_shown():
    data = other_version(beacon("X", MAC_A, OTHER, "ping"), OTHER)
    assert parse_beacon(data) == ("X", MAC_A, OTHER)
    assert parse_invite(data) is None


def other_version(data, v):
    """`data` re-stamped as version v with its CRC made right again: an intact foreign frame."""
    body = bytes([v << 4 | (data[0] & 0x0F)]) + data[1:-4]
    return body + crypto.crc32(body).to_bytes(4, "big")


OTHER = frame.VERSION + 1  # a version this firmware does not speak


def test_beacon_of_another_version_names_it():
    data = other_version(beacon("X", MAC_A, OTHER), OTHER)
    assert parse_beacon(data) == ("X", MAC_A, OTHER)
    assert parse_beacon(other_version(frame.encode(frame.DATA, 0, 0, 0, b"hi"), OTHER)) == \
        ("?", b"", OTHER)


def test_a_frame_that_fails_its_crc_says_nothing_about_versions():
    for data in (beacon("X", MAC_A), other_version(beacon("X", MAC_A, OTHER), OTHER)):
        for i in range(len(data)):
            bad = bytearray(data)
            bad[i] ^= 0x20   # flips the version nibble's bit in byte 0, any bit elsewhere
            assert parse_beacon(bytes(bad)) is None, i


def test_radio_pairing_same_code_key_and_session_on_both_sides():
    a, b = handshakes()
    assert a.state == b.state == "confirm"
    assert a.sas == b.sas and len(a.sas) == 6 and a.sas.isdigit()
    assert {a.role, b.role} == {0, 1}
    shuttle(a, b, a.confirm(True), [])
    assert a.state == "confirm"          # still waiting for Bob's player
    shuttle(a, b, [], b.confirm(True))
    assert a.state == b.state == "done"
    assert a.result() == b.result() and a.session_key is not None
    assert 0 < a.session_id < 65536
    assert a.record.key == b.record.key and a.record.peer_mac == MAC_B
    assert a.peer_name == "Bob" and b.peer_name == "Ann"


def test_rejected_code_fails_both_sides():
    a, b = handshakes()
    shuttle(a, b, a.confirm(True), b.confirm(False))
    assert b.state == "failed" and a.state == "failed"
    assert "rejected" in a.error


def test_cable_pairing_needs_no_confirmation():
    a, b = handshakes(confirm=False)
    assert a.state == b.state == "done" and a.result() == b.result()


def test_stored_pairing_rekeys_without_dh_and_fresh_session_keys():
    a, b = handshakes(confirm=False)
    pa, pb = Pairings([a.record]), Pairings([b.record])
    pa = Pairings.restore(codec.decode(codec.encode(pa.save())))
    a2 = Handshake("Ann", MAC_A, n(b"c"), b"\x33" * 32, pa, True)
    b2 = Handshake("Bob", MAC_B, n(b"d"), b"\x44" * 32, pb, True)
    shuttle(a2, b2, a2.start(), b2.start())
    assert a2.state == b2.state == "done" and not a2.paired_now
    assert a2.sas is None and a2._pk is None  # no modular exponentiation spent
    assert a2.session_key == b2.session_key != a.session_key


def test_forgotten_pairing_falls_back_to_a_new_one():
    a, b = handshakes(confirm=False)
    pa, pb = Pairings([a.record]), Pairings([b.record])
    pb.forget(MAC_A)
    a2, b2 = handshakes(pa, pb)
    assert a2.state == b2.state == "confirm" and a2.paired_now


def test_version_mismatch_names_both_versions():
    a, b = handshakes(va=1, vb=2)
    assert a.state == b.state == "failed"
    assert "v1" in a.error and "v2" in a.error and "this unit speaks v1" in a.error
    assert "this unit speaks v2" in b.error


def test_forged_keys_and_unbound_answers_are_ignored_and_the_real_ones_pair():
    a = Handshake("Ann", MAC_A, n(b"z"), b"\x11" * 32)   # larger nonce: role 0
    b = Handshake("Bob", MAC_B, n(b"b"), b"\x22" * 32)
    out_a, out_b = a.start(), b.start()
    assert b.on_message(out_a[0]) == []
    pc = a.on_message(out_b[0])
    assert a.role == 0 and decode_msg(pc[0])[0] == "pc"
    pk = b.on_message(encode_msg("pc", b"\x07" * 32))  # a forged commitment comes first
    assert decode_msg(pk[0])[0] == "pk"
    assert b.on_message(pc[0]) == []                 # the real one is kept beside it
    # a public value without both nonces (a replay from another exchange) is ignored
    assert a.on_message(encode_msg("pk", b"\x06" * 192, b"\x00" * 8)) == []
    assert a.ignored == 1 and a.sas is None
    pr = a.on_message(pk[0])
    assert a.state == "confirm"
    b.on_message(encode_msg("pr", b"\x05" * 192))     # opens no commitment b heard
    assert b.state == "keys" and b.ignored == 1
    b.on_message(pr[0])
    assert b.state == "confirm" and a.sas == b.sas
    # a confirmation or refusal without the tag under the key being agreed changes nothing
    for m in (encode_msg("ok"), encode_msg("no"), encode_msg("ok", b"\x00" * 8),
              encode_msg("no", b"\x00" * 8), encode_msg("x"), b"\xff"):
        a.on_message(m)
    assert a.state == "confirm" and a.ignored == 7 and not a._peer_confirmed
    for m in b.confirm(True):
        a.on_message(m)
    for m in a.confirm(True):
        b.on_message(m)
    assert a.state == b.state == "done" and a.result() == b.result()


def test_a_tagged_refusal_ends_the_pairing():
    a = Handshake("Ann", MAC_A, n(b"z"), b"\x11" * 32)
    b = Handshake("Bob", MAC_B, n(b"b"), b"\x22" * 32)
    shuttle(a, b, a.start(), b.start())
    assert a.state == b.state == "confirm"
    for m in b.confirm(False):
        a.on_message(m)
    assert a.state == "failed" and "rejected the code" in a.error


def test_echoed_or_stale_hello_is_ignored_and_the_real_one_still_pairs():
    a = Handshake("Ann", MAC_A, n(b"a"), b"\x11" * 32, confirm=False)
    b = Handshake("Bob", MAC_B, n(b"b"), b"\x22" * 32, confirm=False)
    hello_a, hello_b = a.start()[0], b.start()[0]
    assert a.on_message(hello_a) == [] and a.state == "hello" and a.echoes == 1
    stale = Handshake("Bob", MAC_B, n(b"s"), b"\x33" * 32).start()[0]
    shuttle(a, b, [hello_a], [hello_b, stale])
    assert a.state == b.state == "done" and a.result() == b.result()


def test_pair_record_restore_checks_fields():
    r = PairRecord("Bob", MAC_B, b"k" * 32)
    assert PairRecord.restore(r.save()).pid == r.pid
    assert len(r.lmk()) == 16 and r.lmk() != r.key[:16]
    with pytest.raises(SessionError):
        PairRecord.restore({"name": "Bob", "mac": b"short", "key": b"k" * 32})


def test_pairings_forget_and_cap():
    p = Pairings()
    for i in range(12):
        p.add(PairRecord("P%d" % i, bytes([0, 0, 0, 0, 0, i]), bytes([i]) * 32))
    assert len(p.records) == 8
    p.forget(bytes([0, 0, 0, 0, 0, 11]))
    assert [r.peer_name for r in p.records][-1] == "P10"


def setups(na=n(b"p"), nb=n(b"q")):
    return GameSetup(0, na, KEY), GameSetup(1, nb, KEY)


def test_game_setup_agrees_on_game_seed_and_first_player():
    a, b = setups()
    out = a.propose("subsearch", {"size": 8})
    shuttle(a, b, out, [])
    assert b.state == "offered" and b.game == "subsearch" and b.opts == {"size": 8}
    shuttle(a, b, [], b.accept())
    assert a.state == b.state == "done"
    assert a.seed == b.seed and len(a.seed) == 32
    assert a.first == b.first and a.player() != b.player()


def test_seed_depends_on_both_nonces():
    seeds = set()
    for na, nb in ((b"p", b"q"), (b"p", b"r"), (b"s", b"q")):
        a, b = setups(n(na), n(nb))
        shuttle(a, b, a.propose("g", {}), [])
        shuttle(a, b, [], b.accept())
        seeds.add(a.seed)
    assert len(seeds) == 3


def test_crossed_proposals_role_zero_wins():
    a, b = setups()
    shuttle(a, b, a.propose("mine", {}), b.propose("yours", {}))
    assert b.state == "offered" and b.game == "mine" and a.state == "proposed"
    shuttle(a, b, [], b.accept())
    assert a.state == b.state == "done" and a.game == "mine"


def test_declined_proposal():
    a, b = setups()
    shuttle(a, b, a.propose("g", {}), [])
    shuttle(a, b, [], b.decline("not now"))
    assert a.state == "declined" and a.error == "not now" and b.state == "idle"


def test_copied_commitment_is_refused():
    a, _ = setups()
    a.propose("g", {})
    assert a._commits[0] == seed_commit(0, a._proposal(), a.nonce)
    a.on_message(encode_msg("ga", a._commits[0]))   # the peer echoes our commitment
    assert a.state == "failed" and "copied" in a.error and a._reveals[0] is None


def test_wrong_reveal_is_refused():
    a, b = setups()
    shuttle(a, b, a.propose("g", {}), [])
    b.accept()
    b.on_message(encode_msg("rv", n(b"x")))
    assert b.state == "failed" and "does not match" in b.error


def test_withheld_reveal_forfeits_linked_or_not():
    for linked in (True, False):
        a, b = setups()
        shuttle(a, b, a.propose("g", {}), [])
        ga = b.accept()
        rv = a.on_message(ga[0])   # a reveals; b withholds its own
        assert decode_msg(rv[0])[0] == "rv" and a.state == "reveal"
        a.poll(0, linked)
        a.poll(REVEAL_TIMEOUT_MS - 10, linked)
        assert a.state == "reveal"
        a.poll(REVEAL_TIMEOUT_MS + 10, linked)
        assert a.state == "forfeit" and "forfeits" in a.error


def test_setup_resumes_from_its_saved_record():
    a, b = setups()
    shuttle(a, b, a.propose("g", {"k": 1}), [])
    ga = b.accept()
    b = GameSetup.restore(codec.decode(codec.encode(b.save())))   # b reboots mid-reveal
    rv = a.on_message(ga[0])
    shuttle(a, b, rv, [])
    assert a.state == b.state == "done" and a.seed == b.seed


def test_garbage_never_raises_and_fails_cleanly():
    other_version = encode_msg("hi", 1, "x", b"1", b"2", [])
    for m in (b"", b"\xff", encode_msg("hi"), encode_msg(1, 2), other_version):
        h = Handshake("Ann", MAC_A, n(b"a"), b"\x11" * 32)
        assert not h.wants(m)  # a connector drops each before its channel
        # one frame cannot stop a pairing: the handshake ignores it and counts it (a hello of
        # another version, fed directly, still names the versions)
        assert h.on_message(m) == []
        assert (h.state, h.ignored) == (("failed", 0) if m is other_version else ("hello", 1))
        g = GameSetup(0, n(b"a"), KEY)
        assert g.on_message(m) == [] and g.state == "failed"


def test_pairing_over_a_lossy_crc_channel_then_a_keyed_one():
    w = Wire(b"pairing", loss=250, dup=100, reorder=200, corrupt=100)
    ca, cb = pair(w)
    a = Handshake("Ann", MAC_A, n(b"a"), b"\x11" * 32, confirm=False)
    b = Handshake("Bob", MAC_B, n(b"b"), b"\x22" * 32, confirm=False)
    for m in a.start():
        ca.send(m)
    for m in b.start():
        cb.send(m)
    now = 0
    while not (a.state == b.state == "done") and now < 300000:
        now += STEP_MS
        step(w, (ca, cb), now)
        for ch, hs in ((ca, a), (cb, b)):
            m = ch.recv()
            while m is not None:
                for r in hs.on_message(m):
                    ch.send(r)
                m = ch.recv()
    assert a.state == b.state == "done"
    ka = Channel(w.sender(0), a.session_key, a.session_id, now, a.role)
    kb = Channel(w.sender(1), b.session_key, b.session_id, now, b.role)
    w.ends[0], w.ends[1] = ka, kb
    ka.send(b"fire at C3")
    got = None
    while got is None and now < 600000:
        now += STEP_MS
        step(w, (ka, kb), now)
        got = kb.recv()
    assert got == b"fire at C3"
