# Host twin only: the emulated unit's wire to the emulator host (`fathom emu`, the test harness).
# The unit ships what its panel shows and the UI's semantic text; the host sends button presses,
# which become Pin twin level scripts, so the real button driver debounces them as on a board.
# Message: 2-byte big-endian length of (kind + payload), 1-byte kind, payload.
import os
import select
import socket

import machine

_sock = None
_poller = None
_inbuf = b""
_pins = {}          # semantic key -> pin number, from the board profile
_active_low = True
_screen_dirty = False
_last_text = None


def connect(profile):
    """Connect to FATHOM_HUB (host:port) if set; returns True when connected."""
    global _sock, _poller, _active_low
    addr = os.getenv("FATHOM_HUB")
    if not addr:
        return False
    host, port = addr.rsplit(":", 1)
    s = socket.socket()
    s.connect(socket.getaddrinfo(host, int(port))[0][-1])
    _sock = s
    _poller = select.poll()
    _poller.register(s, select.POLLIN)
    for b in profile["buttons"]:
        _pins[b["short"]] = b["pin"]
        if b.get("long"):
            _pins[b["long"] + "+long"] = b["pin"]
    _active_low = profile.get("active_low", True)
    send(b"H", (os.getenv("FATHOM_UNIT") or "0").encode())
    machine.on_panel_update(_on_panel)
    return True


def send(kind, payload):
    if _sock is None:
        return
    n = len(payload) + 1
    data = bytes((n >> 8, n & 0xFF)) + kind + payload
    while data:
        k = _sock.write(data)
        data = data[k:] if k else data


def _on_panel(panel):
    global _screen_dirty
    _screen_dirty = True


def report_text(lines):
    """The UI's semantic text for this screen; sent only when it changed."""
    global _last_text
    text = "\n".join(lines)
    if text != _last_text:
        _last_text = text
        send(b"T", text.encode())


def _ship_screen():
    global _screen_dirty
    _screen_dirty = False
    for panel in machine.PANELS.values():
        w, h, buf = panel.visible_vlsb()
        send(b"S", bytes((w, h)) + bytes(buf))


def _press(payload):
    # payload: "KEY MS" -- hold the key's pin for MS ms of the unit's own time
    key, ms = payload.decode().split()
    ms = int(ms)
    pin = _pins.get(key)
    if pin is None:
        return
    down, up = (0, 1) if _active_low else (1, 0)
    machine.pin_script(pin, [(down, ms), (up, 0)])


def poll():
    """Handle pending host messages and ship a changed screen. Returns False if told to quit."""
    global _inbuf
    if _sock is None:
        return True
    if _screen_dirty:
        _ship_screen()
    while _poller.poll(0):
        chunk = _sock.read(4096)
        if not chunk:
            raise SystemExit("hub closed")
        _inbuf += chunk
        while len(_inbuf) >= 2:
            n = (_inbuf[0] << 8) | _inbuf[1]
            if len(_inbuf) < 2 + n:
                break
            kind, payload = _inbuf[2:3], _inbuf[3:2 + n]
            _inbuf = _inbuf[2 + n:]
            if kind == b"K":
                _press(payload)
            elif kind == b"R":
                _ship_screen()
                if _last_text is not None:
                    send(b"T", _last_text.encode())
            elif kind == b"Q":
                return False
    return True
