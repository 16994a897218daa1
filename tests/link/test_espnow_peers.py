# EspNowLink's record of its radio peers against the ESP-NOW twin's peer table (20 peers, at
# most 6 encrypted, "full" for either limit): what the link records is always what the radio
# holds, however the table fills, so a send never trusts a peer the radio refused.
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
if _FW + "/twins" not in sys.path:
    sys.path.insert(0, _FW + "/twins")

import espnow  # noqa: E402  (the twin, alone: no FATHOM_ETHER, nothing on the air)
from fathom.link.espnow_link import BROADCAST, EspNowLink  # noqa: E402

pytestmark = pytest.mark.micropython

LMK = b"k" * 16


def mac(i):
    return b"\x02\x00\x00\x00" + bytes((i >> 8, i & 0xFF))


def radio(link):
    """The MACs the radio holds, and those of them it encrypts."""
    held = [p[0] for p in link._e.get_peers()]
    enc = [p[0] for p in link._e.get_peers() if p[4]]
    try:
        link._e.get_peer(BROADCAST)
        held.append(BROADCAST)
    except OSError:
        pass
    return sorted(held), sorted(enc)


def check(link):
    held, enc = radio(link)
    assert sorted(link._peers) == held
    assert sorted(link._encrypted) == enc
    assert len(held) <= espnow.MAX_TOTAL_PEER_NUM
    assert len(enc) <= espnow.MAX_ENCRYPT_PEER_NUM


def fresh():
    espnow.ESPNow().active(False)  # the twin's table is per process, like the radio's
    return EspNowLink()


def test_seventh_encrypted_peer_evicts_an_encrypted_one_not_two_clear_ones():
    link = fresh()
    try:
        link.send(None, b"beacon")        # broadcast, clear
        link.send(mac(100), b"x")         # two clear partners, older than every encrypted one
        link.send(mac(101), b"x")
        for i in range(6):
            link.set_key(mac(i), LMK)
        check(link)
        link.set_key(mac(6), LMK)         # the radio's encrypted slots are full
        check(link)
        held, enc = radio(link)
        assert mac(6) in enc and mac(0) not in held    # the oldest encrypted made room
        assert mac(100) in held and mac(101) in held   # clear peers were not sacrificed
        assert link.send(mac(6), b"hello")
    finally:
        link.close()


def test_the_table_stays_true_through_any_mix_of_adds():
    link = fresh()
    try:
        link.send(None, b"b")
        for i in range(60):
            if i % 3 == 0:
                link.set_key(mac(i), LMK)
            elif i % 7 == 0:
                link.set_key(mac(i - 1), None)  # back to clear
            else:
                link.send(mac(i), b"x")
            check(link)
        assert BROADCAST in link._peers    # never evicted: discovery needs it
    finally:
        link.close()


def test_a_radio_full_of_other_peers_is_an_error_not_a_false_record():
    link = fresh()
    try:
        for i in range(espnow.MAX_ENCRYPT_PEER_NUM):
            link._e.add_peer(mac(200 + i), LMK, 0, 0, True)  # someone else's encrypted peers
        with pytest.raises(OSError):
            link.set_key(mac(1), LMK)
        assert mac(1) not in link._peers
        check_held = radio(link)[0]
        assert mac(1) not in check_held
    finally:
        link.close()
