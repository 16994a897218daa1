# ESP-NOW transport: one frame per packet, broadcast for discovery, optionally encrypted by the
# radio itself with a per-peer LMK (a second layer under the channel's own HMAC).
# Field notes: send() returning True only means a radio acknowledged (the receiver may still have
# dropped it), so acks live in the channel above and we send without waiting; power saving drops
# packets, hence PM_NONE; re-adding a peer raises ESP_ERR_ESPNOW_EXIST; empty messages raise.
import espnow
import network

BROADCAST = b"\xff" * 6
KEY_LEN = 16
# Every fathom unit uses this primary master key, so two units agree once each holds the other's
# LMK; the secret is the LMK, which the session derives per pairing.
_PMK = b"fathom/espnow/v1"
# Bytes of receive ring: about 4 full packets arriving between two polls (the loop polls every
# 10 ms; a lost packet is resent by the channel). One block on the GC heap, kept at 1 KB: the
# largest single allocation the device budget allows.
_RXBUF = 1024


def _err_name(err):
    return err.args[1] if len(err.args) > 1 else ""


class EspNowLink:
    def __init__(self, channel=1, lmk=None):
        if lmk is not None and len(lmk) != KEY_LEN:
            raise ValueError("an ESP-NOW LMK is %d bytes, not %d" % (KEY_LEN, len(lmk)))
        sta = network.WLAN(network.STA_IF)
        sta.active(True)
        try:
            sta.disconnect()
        except OSError:
            pass
        sta.config(channel=channel)
        try:
            sta.config(pm=sta.PM_NONE)
        except (AttributeError, ValueError):
            pass  # firmware without WLAN.pm: nothing to switch off
        self._e = espnow.ESPNow()
        try:
            self._e.config(rxbuf=_RXBUF)  # read at active(True), so set it first
        except (ValueError, TypeError):
            pass
        self._e.active(True)
        self._e.set_pmk(_PMK)
        # A packet kept ends the loop's rest (App.due); a radio without irq is polled instead:
        # what listens to it must not let the loop rest (self.irq, Invites.wake_in).
        self.irq = True
        try:
            from fathom.hal.clock import wake
            self._e.irq(wake)
        except (ImportError, AttributeError, ValueError, OSError):
            self.irq = False
        self.mac = bytes(sta.config("mac"))
        self.channel = channel
        self.mtu = min(250, getattr(espnow, "MAX_DATA_LEN", 250))
        self._lmk = lmk
        self._peers = []  # the MACs we registered, oldest first: always what the radio holds
        self._encrypted = []  # those of them registered with an LMK
        self.tx = self.rx = self.tx_bytes = self.rx_bytes = self.tx_errors = 0

    @property
    def stats(self):
        radio = self._e.stats()  # (tx_pkts, tx_responses, tx_failures, rx_pkts, rx_dropped)
        return {"tx": self.tx, "rx": self.rx, "tx_bytes": self.tx_bytes,
                "rx_bytes": self.rx_bytes, "tx_errors": self.tx_errors,
                "radio_no_ack": radio[2], "radio_rx_dropped": radio[4]}

    def send(self, peer, data):
        """Send one frame to a peer MAC, or to everyone in range when peer is None."""
        n = len(data)
        if n == 0 or n > self.mtu:
            raise ValueError("an ESP-NOW frame is 1..%d bytes, not %d" % (self.mtu, n))
        mac = BROADCAST if peer is None else bytes(peer)
        self._ensure_peer(mac)
        try:
            self._e.send(mac, data, False)
        except OSError:
            # Out of radio buffers or the interface went down: the frame is lost, and the
            # channel above retransmits as it would for a frame lost in the air.
            self.tx_errors += 1
            return False
        self.tx += 1
        self.tx_bytes += n
        return True

    def recv(self):
        """(sender MAC, frame) if one is waiting, else None; never blocks."""
        mac, msg = self._e.recv(0)
        if msg is None:
            return None
        self.rx += 1
        self.rx_bytes += len(msg)
        return bytes(mac), bytes(msg)

    def set_key(self, peer, lmk):
        """Encrypt everything to and from `peer` with `lmk` (16 bytes); None goes back to clear."""
        if lmk is not None and len(lmk) != KEY_LEN:
            raise ValueError("an ESP-NOW LMK is %d bytes, not %d" % (KEY_LEN, len(lmk)))
        mac = bytes(peer)
        if mac == BROADCAST:
            raise ValueError("broadcast cannot be encrypted")
        try:
            self._e.del_peer(mac)
        except OSError:
            pass  # not registered yet
        self._forget(mac)
        self._add(mac, lmk)

    def _ensure_peer(self, mac):
        if mac not in self._peers:
            self._add(mac, None if mac == BROADCAST else self._lmk)

    # The radio holds 20 peers, at most 6 of them encrypted, and says only "full" for either
    # limit. A new encrypted peer therefore evicts our oldest encrypted one first (evicting a
    # clear one may free nothing); the loop ends because every eviction shrinks our list, and
    # a MAC is recorded only once the radio has taken it.
    def _add(self, mac, lmk):
        while True:
            try:
                if lmk:
                    self._e.add_peer(mac, lmk, 0, network.STA_IF, True)
                else:
                    self._e.add_peer(mac)
                break
            except OSError as err:
                name = _err_name(err)
                if name == "ESP_ERR_ESPNOW_EXIST":
                    break  # registered before (by us or an earlier link object): fine
                if name != "ESP_ERR_ESPNOW_FULL" or not self._evict(bool(lmk)):
                    raise
        self._peers.append(mac)
        if lmk:
            self._encrypted.append(mac)

    def _evict(self, encrypted):
        victim = None
        if encrypted and self._encrypted:
            victim = self._encrypted[0]
        else:
            for old in self._peers:
                if old != BROADCAST:
                    victim = old
                    break
        if victim is None:
            return False
        try:
            self._e.del_peer(victim)
        except OSError:
            pass  # gone already: either way the radio no longer holds it
        self._forget(victim)
        return True

    def _forget(self, mac):
        if mac in self._peers:
            self._peers.remove(mac)
        if mac in self._encrypted:
            self._encrypted.remove(mac)

    def close(self):
        try:
            self._e.active(False)
        except OSError:
            pass
        self._peers = []
        self._encrypted = []
