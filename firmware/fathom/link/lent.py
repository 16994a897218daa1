# A unit lent as the bot opponent ("Play as bot") chooses nobody: it joins whoever hails it, a
# two-player proposer and a group's host alike. Choosing from its list, as it did, it could
# pick a group's other partner or another lent unit, who propose nothing: two lent units paired
# with each other and waited for ever, while the host that wanted them was ignored. So that a
# remembered unit's session is still encrypted from its first frame, the lent unit installs the
# radio key of every remembered unit it hears in its list (at most the radio's six): that
# unit's encrypted hello is then readable.
from fathom.hal.clock import ticks_diff
from fathom.link.connect import LMK_DEAF_MS, Connector, is_hello


class LentConnector(Connector):
    def __init__(self, transport, kind, name, storage, now):
        Connector.__init__(self, transport, kind, name, storage, None, None, now)

    def _frame(self, mac, data, now):
        if mac and self.state == "discover" and is_hello(data):
            self.choose(bytes(mac), now)  # then the hello is read as the chosen unit's
        Connector._frame(self, mac, data, now)

    def _saw(self, mac, b, now):
        Connector._saw(self, mac, b, now)
        self._prekey(mac)  # any remembered unit may hail it, whatever game it looks for

    def autopilot(self, now, host_name=None, code=True):
        if self.state != "discover":  # in the list it waits to be hailed
            Connector.autopilot(self, now, host_name, code)

    # With a pairing it remembers, the unit installs the radio key as any unit does; a group's
    # host runs its links in clear (docs/PROTOCOL.md, section 7a), so we hear its hello
    # (and, both remembering the pairing, finish the handshake at once) while our hello,
    # encrypted, never reaches it. Heard but our hello not acknowledged for LMK_DEAF_MS: the
    # hailer is in clear, and so are we from then on (our hello goes again, in clear).
    def _check_radio_key(self, now):
        Connector._check_radio_key(self, now)
        if self.lmk is None or self.state in ("ready", "failed", "left", "leaving"):
            return
        if self.ch0.pending() and ticks_diff(now, self.lmk_since) > LMK_DEAF_MS:
            self.lmk = None
            self.t.set_key(self.peer_mac, None)
