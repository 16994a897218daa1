# Browser twin of firmware/twins/hub.py: a unit's link to the page instead of to the emulator's
# hub socket. The page sees what the panel shows (the SSD1306 twin's glass) and the UI's
# semantic text; it sends key presses, which become Pin twin levels so the real button driver
# debounces them as on a board. Two kinds of press, as a person makes them:
#  - press(key, long): a timed press (the keyboard, as in `fathom emu`: a letter is a short
#    press, its capital a long one), played one at a time and paced by what the button driver
#    registered, so a page that stalls still delivers every press once;
#  - down(pin) / up(pin): a finger on an on-screen button, held as long as it stays there
#    (long presses and chords by touch), never shorter than a short press.
# The page's timer runs the app's loop (paced: main.py starts the app and returns).
import machine
import os
from binascii import hexlify
from time import ticks_diff, ticks_ms

import page

paced = True        # main.py: start the app and return; the page calls app.turn()
app = None
twins_bytes = 0     # heap the twins take (main.py measures it)
key_us = 0          # the app's time from a key to the refreshed panel
keys_handled = 0    # keys the app handled (the page waits on this count)
buttons = None      # the app's button driver (App sets it)
on_idle = None      # called each loop while no press is queued or playing (hostmodes/uxplayer)
PRESS_MS = 60       # as the emulator's: longer than the driver's debounce
LONG_MS = 900       # longer than the driver's long-press threshold
GAP_MS = 80
PRESS_TIMEOUT_MS = 3000  # a press the driver never registers is released anyway

_keys = {}          # semantic key -> (pins, long): the button(s) that make it
_shorts = {}        # pin -> its short key (what the driver reports held)
_active_low = True
_queue = []         # timed presses waiting: (pins, hold ms)
_press = None       # the timed press playing: [down?, pins, since, hold]
_fingers = {}       # pin -> [since, lifted]: on-screen buttons held
_dirty = False
_last_text = None
_reported = 0
_fast = False       # FATHOM_FAST_BOTS: no bot thinking pauses (whole games quickly in tests)


def connect(profile):
    global _active_low, _fast
    for b in profile["buttons"]:
        _shorts[b["pin"]] = b["short"]
        _keys[b["short"]] = ((b["pin"],), False)
    for b in profile["buttons"]:
        if b.get("long") and b["long"] not in _keys:
            _keys[b["long"]] = ((b["pin"],), True)
    for c in profile.get("chords") or ():
        if c["key"] not in _keys:
            _keys[c["key"]] = (tuple(c["pins"]), False)
    _active_low = profile.get("active_low", True)
    _fast = bool(os.getenv("FATHOM_FAST_BOTS"))
    machine.on_panel_update(_on_panel)
    return True


def _no_thinking():
    import sys
    for name, cls in (("fathom.peers", "BotPeer"), ("fathom.flow.play", "AutoPlayer")):
        m = sys.modules.get(name)
        if m is not None:
            getattr(m, cls).THINK_MS = 0


def _level(pressed):
    return (0 if pressed else 1) if _active_low else (1 if pressed else 0)


def _on_panel(addr, panel):
    global _dirty
    _dirty = True


def report_screen(scr):
    """The screen's text (scr.lines()) for the page, when it changed (as twins/hub.py)."""
    global _last_text
    lines = scr.lines()
    if lines != _last_text:
        _last_text = list(lines)
        page.text("\n".join(lines))


def send(kind, *parts):
    """A report for the page (the scripted player's "U" line)."""
    page.report(kind.decode(), b"".join(parts).decode())


# ---- presses --------------------------------------------------------------------------------

def press(key, long=False):
    """A timed press of a semantic key: its button, its long press, or its chord."""
    got = _keys.get(key)
    if got is None:
        raise ValueError("no button for %s on this board" % key)
    pins, only_long = got
    _queue.append((pins, LONG_MS if long or only_long else PRESS_MS))


def queue_key(key):
    press(key)


def down(pin):
    if pin in _shorts and pin not in _fingers:
        _fingers[pin] = [ticks_ms(), False]
        machine.pin_set(pin, _level(True))


def up(pin):
    f = _fingers.get(pin)
    if f is not None:
        f[1] = True
        _lift_fingers(ticks_ms())


def _lift_fingers(now):
    # a lifted finger lets go of the pin once the driver has seen the press, however short the
    # tap and however late the page's timer
    for pin, (since, lifted) in list(_fingers.items()):
        waited = ticks_diff(now, since)
        if lifted and waited >= PRESS_MS and (_registered((pin,), True)
                                              or waited > PRESS_TIMEOUT_MS):
            del _fingers[pin]
            machine.pin_set(pin, _level(False))


def _registered(pins, held):
    return buttons is None or buttons.held(_shorts[pins[0]]) == held


def _play(now):
    global _press
    st = _press
    if st is None:
        if not _queue:
            return
        pins, hold = _queue.pop(0)
        for p in pins:
            machine.pin_set(p, _level(True))
        _press = [True, pins, now, hold]
        if hold < LONG_MS:
            # lifted when the driver reads the pin after its time is up, not at the page's
            # next turn: a stalled page would otherwise leave it down into an auto-repeat
            machine.pin_watch(pins[0], _lift)
        return
    _advance(now)


def _lift():
    if _press is not None and _press[0]:
        _advance(ticks_ms())


def _advance(now):
    global _press
    is_down, pins, since, hold = _press
    waited = ticks_diff(now, since)
    if waited < (hold if is_down else GAP_MS):
        return
    if not (_registered(pins, is_down) or waited > PRESS_TIMEOUT_MS):
        return
    if is_down:
        machine.pin_watch(pins[0], None)
        for p in pins:
            machine.pin_set(p, _level(False))
        _press = [False, pins, now, hold]
    else:
        _press = None


# ---- the loop's turn --------------------------------------------------------------------------

def work(t0, stepped):
    """The app's loop ended (App.turn): the page does not count its work."""


def poll():
    """After each step of the app: play presses, ship a changed screen. Always True: the page
    stops a unit by dropping its interpreter."""
    global _dirty, _reported
    now = ticks_ms()
    if _fast:
        _no_thinking()
    _play(now)
    _lift_fingers(now)
    if on_idle is not None and _press is None and not _queue:
        on_idle()
    if _dirty:
        _dirty = False
        ship()
    if keys_handled != _reported:
        _reported = keys_handled
        page.keys(keys_handled)
    return True


def ship():
    """The panel's display RAM and, from the twin's own mapping, which RAM column and row each
    glass column and row shows: the page lights the pixels. (The twin's render() does the
    same pixel by pixel in Python: 0.7 s a screen on the WebAssembly port.)"""
    for p in machine.PANELS.values():
        cols, rows = _mapping(p)
        flags = (1 if p.lit() else 0) | (2 if p.entire_on else 0) | (4 if p.inverse else 0)
        page.glass(p.width, p.height, p.ncols, hexlify(p.ram).decode(), cols, rows, flags)


_maps = {}  # panel -> (controller state, cols hex, rows hex): made again only when it changes


def _mapping(p):
    state = (p.seg_remap, p.com_reversed, p.mux, p.offset, p.start_line, p.com_pins)
    got = _maps.get(id(p))
    if got is None or got[0] != state:
        w, h, flip = p.width, p.height, p.mounted_flip
        cols = bytes(p._ram_col(w - 1 - x if flip else x) for x in range(w))
        rows = bytearray(h)
        for y in range(h):
            r = p._ram_row(h - 1 - y if flip else y)
            rows[y] = 255 if r is None else r  # a COM line not driven: dark
        got = _maps[id(p)] = (state, hexlify(cols).decode(), hexlify(rows).decode())
    return got[1], got[2]
