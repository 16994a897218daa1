# The radio's limits in a group of eight (docs/PROTOCOL.md, 'Radio limits'): the ESP-NOW twin
# refuses a 21st peer and a 7th encrypted one (added, or a clear one turned encrypted) as the
# ESP-IDF does, and a group host with seven partners holds them all in clear, on a fresh start
# and on a resume after a reboot, even when earlier two-player sessions had left partners
# registered with their keys. Runs on CPython and the MicroPython unix port.
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
if _FW + "/twins" not in sys.path:
    sys.path.insert(0, _FW + "/twins")

import espnow  # noqa: E402  (the twin, alone: no FATHOM_ETHER, nothing on the air)
from fathom.hal.storage import Storage  # noqa: E402
from fathom.link.channel import Channel  # noqa: E402
from fathom.link.espnow_link import BROADCAST, EspNowLink  # noqa: E402
from fathom.link.peer import MAX_PARTNERS, LinkPeer, Mux, link_slot, restore_peers  # noqa: E402
from kit.memstore import fresh as fresh_dir  # noqa: E402

pytestmark = pytest.mark.micropython

LMK = b"k" * 16
KEY = b"s" * 32


def mac(i):
    return b"\x02\x00\x00\x00\x00" + bytes((i,))


def fresh():
    espnow.ESPNow().active(False)  # the twin's table is per process, like the radio's
    return EspNowLink()


def full(err):
    return err.args[1] == "ESP_ERR_ESPNOW_FULL"


def test_the_twin_holds_twenty_peers_and_six_encrypted_as_the_radio_does():
    e = espnow.ESPNow()
    e.active(False)
    e.active(True)
    try:
        e.add_peer(BROADCAST)                 # the broadcast peer counts toward the twenty
        for i in range(6):
            e.add_peer(mac(i), LMK, 0, 0, True)
        with pytest.raises(OSError) as err:
            e.add_peer(mac(6), LMK, 0, 0, True)
        assert full(err.value)
        for i in range(6, 19):
            e.add_peer(mac(i))                # clear peers still fit, up to twenty in all
        assert e.peer_count() == (20, 6)
        with pytest.raises(OSError) as err:
            e.add_peer(mac(19))
        assert full(err.value)
        with pytest.raises(OSError) as err:   # a clear peer cannot take a seventh key either
            e.mod_peer(mac(6), LMK, 0, 0, True)
        assert full(err.value)
        assert e.get_peer(mac(6))[4] is False
        e.mod_peer(mac(0), encrypt=False)     # one key off frees its slot
        e.mod_peer(mac(6), LMK, 0, 0, True)
        assert e.peer_count() == (20, 6)
    finally:
        e.active(False)


def test_a_host_of_seven_partners_holds_them_all_in_clear():
    link = fresh()
    try:
        link.send(None, b"beacon")
        for i in range(1, 7):                 # six earlier two-player sessions, encrypted
            link.set_key(mac(i), LMK)
        assert link._e.peer_count() == (7, 6)
        mux = Mux(link)
        ports = [mux.port(mac(i)) for i in range(1, MAX_PARTNERS + 1)]
        for p in ports:
            assert p.send(p.peer, b"ev")
        assert link._e.peer_count() == (MAX_PARTNERS + 1, 0)
        assert sorted(link._peers) == sorted([mac(i) for i in range(1, 8)] + [BROADCAST])
        assert link._encrypted == []
    finally:
        link.close()


def test_a_rebooted_host_restores_seven_partners_in_clear():
    storage = Storage(fresh_dir("radio-restore"))
    link = fresh()
    mux = Mux(link)
    for i in range(MAX_PARTNERS):
        m = mac(i + 1)
        port = mux.port(m)
        ch = Channel(lambda f, port=port, m=m: port.send(m, f), KEY, 7 + i, 0, 0)
        ch.send(b"x" * 40)
        LinkPeer(port, m, ch, storage, "espnow", link_slot(i))
    link.close()
    espnow.ESPNow().active(False)             # the reboot: the radio's table is gone
    peers = restore_peers(storage, {"link": "espnow"}, 0)
    try:
        assert [p.peer_mac for p in peers] == [mac(i + 1) for i in range(MAX_PARTNERS)]
        assert [p.slot for p in peers] == [link_slot(i) for i in range(MAX_PARTNERS)]
        for p in peers:
            p.tick(0)                         # resends its unacknowledged frame
        e = espnow.ESPNow()
        assert e.peer_count() == (MAX_PARTNERS, 0)   # no beacon since the reboot
        assert all(p.ch.stats["frames_sent"] >= 1 for p in peers)
    finally:
        peers[0].close()


def test_a_group_frame_stays_within_one_packet():
    # the largest group message, the host's sealed seeds for seven partners, is fragmented by
    # the channel: every frame it puts on the air fits ESP-NOW's 250 bytes
    from fathom import codec
    from fathom.link.group import seal_seeds
    sent = []
    ch = Channel(sent.append, KEY, 9, 0, 0)
    seeds = [bytes((i,)) * 32 for i in range(MAX_PARTNERS)]
    ch.send(codec.encode(["gs", MAX_PARTNERS + 1, seal_seeds(KEY, seeds)]))
    ch.poll(0)
    assert sent and all(len(f) <= espnow.MAX_DATA_LEN for f in sent)
