# Host twin of MicroPython's `network` module, as far as ESP-NOW needs it: a station interface
# with a MAC (derived from FATHOM_UNIT), a channel and a power-management mode. There is no
# access point to join in the emulator, so connect() fails the way an absent network does.
# The 802.11 protocols (config protocol=) are a bitmap as esp_wifi_set_protocol's: a station
# without PROTOCOL_LR hears no ESP-NOW packet sent at a Long Range rate (see the ether).
import etherwire

STA_IF = 0
AP_IF = 1
STAT_IDLE = 1000
STAT_NO_AP_FOUND = 201

_ESP_ERR_WIFI_NOT_STARTED = 0x3007
_listeners = []  # called with no arguments when a MAC, channel or active state changes


class _Iface:
    def __init__(self, idx):
        unit = etherwire.unit_index()
        mac = etherwire.mac_for_unit(unit)
        if idx == AP_IF:  # the ESP32's AP MAC is the station MAC plus one
            mac = mac[:5] + bytes([(mac[5] + 1) & 0xFF])
        self.mac = mac
        self.active = False
        self.channel = 1
        self.pm = WLAN.PM_PERFORMANCE  # the ESP32 default: modem sleep, which drops packets
        self.txpower = 20
        self.protocol = WLAN.PROTOCOL_DEFAULT
        self.hostname = "fathom-%d" % unit


_ifaces = {}


def _iface(idx):
    if idx not in _ifaces:
        _ifaces[idx] = _Iface(idx)
    return _ifaces[idx]


def _changed():
    for fn in _listeners:
        fn()


class WLAN:
    IF_STA = STA_IF
    IF_AP = AP_IF
    PM_NONE = 0
    PM_PERFORMANCE = 1
    PM_POWERSAVE = 2
    PROTOCOL_DEFAULT = 7  # WIFI_PROTOCOL_11B | 11G | 11N, an ESP32's default
    PROTOCOL_LR = 8       # WIFI_PROTOCOL_LR: Espressif's Long Range mode

    def __init__(self, interface_id=STA_IF):
        if interface_id not in (STA_IF, AP_IF):
            raise ValueError("invalid WLAN interface identifier")
        self._i = _iface(interface_id)

    def active(self, is_active=None):
        if is_active is None:
            return self._i.active
        self._i.active = bool(is_active)
        _changed()
        return None

    def config(self, *args, **kw):
        i = self._i
        if args:
            if len(args) != 1 or kw:
                raise TypeError("can query only one param")
            name = args[0]
            if name == "mac":
                return i.mac
            if name == "channel":
                return i.channel
            if name == "pm":
                return i.pm
            if name == "txpower":
                return i.txpower
            if name == "protocol":
                return i.protocol
            if name in ("hostname", "dhcp_hostname"):
                return i.hostname
            raise ValueError("unknown config param")
        for name, v in kw.items():
            if name == "mac":
                if len(v) != 6:
                    raise ValueError("invalid buffer length")
                i.mac = bytes(v)
            elif name == "channel":
                if not i.active:
                    raise OSError(-_ESP_ERR_WIFI_NOT_STARTED, "ESP_ERR_WIFI_NOT_STARTED")
                if not 1 <= v <= 14:
                    raise ValueError("invalid channel")
                i.channel = v
            elif name == "pm":
                if v not in (0, 1, 2):
                    raise ValueError("invalid pm")
                i.pm = v
            elif name == "txpower":
                i.txpower = v
            elif name == "protocol":
                if not 0 < v <= 0xF:  # 11b, 11g, 11n, LR: what an ESP32's radio has
                    raise OSError(-0x102, "ESP_ERR_INVALID_ARG")
                i.protocol = v
            elif name in ("hostname", "dhcp_hostname"):
                i.hostname = v
            elif name not in ("ssid", "key", "security", "hidden", "reconnects"):
                raise ValueError("unknown config param")
        _changed()
        return None

    def disconnect(self):
        return None

    def connect(self, *args, **kw):
        if not self._i.active:
            raise OSError(-_ESP_ERR_WIFI_NOT_STARTED, "ESP_ERR_WIFI_NOT_STARTED")

    def isconnected(self):
        return False

    def status(self, *args):
        if args:
            raise ValueError("unknown status param")
        return STAT_IDLE

    def scan(self):
        return []

    def ifconfig(self, *args):
        return ("0.0.0.0", "0.0.0.0", "0.0.0.0", "0.0.0.0")
