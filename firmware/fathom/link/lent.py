# A unit lent as the bot opponent ("Play as bot") chooses nobody: it joins whoever hails it, a
# two-player proposer and a group's host alike. Were it to choose from its list, it could pick
# a group's other partner or another lent unit, who propose nothing: two lent units would pair
# with each other and wait for ever, while the host that wanted them was ignored. So that a
# remembered unit's session is still encrypted from its first frame, the lent unit installs the
# radio key of every remembered unit it hears in its list, whatever game it looks for (at most
# the radio's six): that unit's encrypted hello is then readable. Its pair handshake also goes
# clear when its own encrypted hello is never acknowledged (handshake.py: a group's host runs
# its links in clear).
from fathom.link.connect import DISCOVER, Connector
from fathom.link.discovery import is_hello


class LentConnector(Connector):
    LENT = True

    def __init__(self, transport, kind, name, storage, now):
        Connector.__init__(self, transport, kind, name, storage, None, None, now)

    def _frame(self, mac, data, now):
        if mac and self.state == DISCOVER and is_hello(data):
            self.choose(bytes(mac), now)  # then the hello is read as the chosen unit's
        Connector._frame(self, mac, data, now)

    def autopilot(self, now, host_name=None, code=True):
        if self.state != DISCOVER:  # in the list it waits to be hailed
            Connector.autopilot(self, now, host_name, code)
