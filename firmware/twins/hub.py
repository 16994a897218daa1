# Host twin only: the emulated unit's wire to the emulator host (`fathom emu`, the test harness).
# The unit ships what its panel shows and the UI's semantic text; the host sends button presses,
# which become Pin twin level scripts, so the real button driver debounces them as on a board.
# Message: 2-byte big-endian length of (kind + payload), 1-byte kind, payload.
import os
import select
import socket
import time

import machine

try:  # compiled into the 32-bit runtimes only (host_tools/fathom_host/probe)
    import fathomprobe
except ImportError:
    fathomprobe = None

_sock = None
_poller = None
_inbuf = b""
_pins = {}          # semantic key -> pin number, from the board profile ("KEY+long" for a
_shorts = {}        # long press); pin -> its short key, which the driver reports as held
_active_low = True
_screen_dirty = False
_last_text = None
twins_bytes = 0     # heap the host twins themselves take (main.py measures it)
key_us = 0          # the app's time from a key to the refreshed panel, for `fathom bench`
keys_handled = 0    # the app counts keys it handled; reported after the screen that follows
_keys_reported = 0
_queue = []         # presses waiting to be played: (pin, short key, hold ms, gap ms)
_press_state = None  # the press being played: [phase, pin, key, since, hold, gap]
buttons = None      # the app's button driver (App sets it): its debounced state paces us
on_idle = None      # called each loop while no press is queued or playing (hostmodes/uxplayer)
PRESS_MS = 60       # as the host's Unit.press: longer than the driver's debounce
LONG_MS = 900       # longer than the driver's long-press threshold
GAP_MS = 80
PRESS_TIMEOUT_MS = 3000  # a press the driver never registers is released anyway
# `fathom bench device` switches these on by environment; the app never sees them:
_heapwatch = bool(os.getenv("FATHOM_HEAPWATCH"))  # gc + sample the live heap every loop
_breakdown = os.getenv("FATHOM_HEAPWATCH") in ("2", "3")  # and at each new peak, where it goes
_detail = os.getenv("FATHOM_HEAPWATCH") == "3"  # down to the screen's and pub's own parts
app = None          # the app, for the breakdown (hostmodes/uxplayer sets it)
_fast_bots = bool(os.getenv("FATHOM_FAST_BOTS"))  # no bot thinking pauses: whole games quickly
heap_peak = 0       # the largest live heap after gc seen by the heap watch since reset
loops = 0           # the app's loops, the steps it took (the others rested) and the time
steps = 0           # they took (App.turn, hub excluded), for `fathom bench power`
work_us = 0


def work(t0, stepped):
    """One loop of the app ended; it began at ticks_us() t0."""
    global loops, steps, work_us
    loops += 1
    steps += stepped
    work_us += time.ticks_diff(time.ticks_us(), t0)


def hold(flag):
    """Twin work is a C driver's on a board: keep it out of the probe's counts."""
    if fathomprobe is not None:
        fathomprobe.hold(flag)


# The probe's peaks in two parts: up to the app's first loop (boot, and a saved game's modules
# loading as it resumes) and every loop after it (play). On a stock unit loading .mpy files
# grows MicroPython's qstr pool in blocks of several KB, which play itself never does.
_load_peaks = None  # (max_alloc, stack_peak) up to the first loop; None until it ends


def reset_peaks():
    global heap_peak, _load_peaks
    heap_peak = 0
    if _load_peaks is not None:
        _load_peaks = (0, 0)
    if fathomprobe is not None:
        fathomprobe.reset()


def _end_of_load():
    global _load_peaks
    if _load_peaks is None and fathomprobe is not None:
        _load_peaks = (fathomprobe.max_alloc(), fathomprobe.stack_peak())
        fathomprobe.reset()


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
        _shorts[b["pin"]] = b["short"]
        if b.get("long"):
            _pins[b["long"] + "+long"] = b["pin"]
    _active_low = profile.get("active_low", True)
    vanish = os.getenv("FATHOM_VANISH_MS")
    reveal = os.getenv("FATHOM_REVEAL_MS")
    gap = os.getenv("FATHOM_GAP_MS")
    if vanish or reveal or gap:  # a test of a vanished partner, a withheld reveal or a kept
        from fathom.runner import Runner  # event need not wait the minute a player would
        if vanish:
            Runner.vanish_ms = int(vanish)
        if reveal:
            Runner.reveal_ms = int(reveal)
        if gap:
            Runner.gap_ms = int(gap)
    second = os.getenv("FATHOM_PANEL_SECOND_MS")
    if second:  # a test of the panel's rest need not wait its minutes
        import fathom.app
        fathom.app.SECOND_MS = int(second)
    send(b"H", (os.getenv("FATHOM_UNIT") or "0").encode())
    machine.on_panel_update(_on_panel)
    reset_peaks()
    return True


def send(kind, *parts):
    """One message to the host, written part by part: joining them would take a block as big
    as a screen from the unit's heap."""
    if _sock is None:
        return
    n = 1
    for part in parts:
        n += len(part)
    _write(bytes((n >> 8, n & 0xFF)) + kind)
    for part in parts:
        _write(part)


def _write(data):
    data = memoryview(data)
    while data:
        k = _sock.write(data)
        if k:
            data = data[k:]


def _on_panel(addr, panel):
    global _screen_dirty
    _screen_dirty = True


def report_screen(scr):
    """The screen's semantic text (scr.lines()), sent only when it changed. Built while held:
    only the emulator asks a screen for its text (a Sugar Dog set-up's lists every square)."""
    global _last_text
    hold(1)
    try:
        lines = scr.lines()
        if lines != _last_text:
            _last_text = list(lines)
            _send_text()
    finally:
        hold(0)


def _send_text():
    # line by line, each encoded alone: the joined text, or a list of its parts, would be one
    # large block on the unit's heap
    if _sock is None:
        return
    n = 1
    for i, line in enumerate(_last_text):
        n += len(line.encode()) + (1 if i else 0)
    _write(bytes((n >> 8, n & 0xFF)) + b"T")
    for i, line in enumerate(_last_text):
        if i:
            _write(b"\n")
        _write(line.encode())


def _ship_screen():
    global _screen_dirty
    _screen_dirty = False
    for panel in machine.PANELS.values():
        send(b"S", bytes((panel.width, panel.height)), panel.render())


_TICKS_MASK = time.ticks_add(0, -1)  # ticks wrap at this mask + 1


def queue_key(key):
    """A press of a semantic key, played like the host's (the unit's own script): short where
    a button has it, else the long press that makes it (OK on a board with no OK button)."""
    pin = _pins.get(key)
    hold = PRESS_MS
    if pin is None:
        pin = _pins.get(key + "+long")
        hold = LONG_MS
    if pin is None:
        raise ValueError("no button for %s on this board" % key)
    _queue.append((pin, _shorts[pin], hold, GAP_MS))


def _press(payload):
    # payload: "KEY MS GAP" -- hold the key's pin for MS ms of the unit's own time, then
    # release it for GAP ms, queued behind any press still playing
    key, ms, gap = payload.decode().split()
    pin = _pins.get(key)
    if pin is None:
        return
    _queue.append((pin, _shorts[pin], int(ms), int(gap)))


def _level(pressed):
    return (0 if pressed else 1) if _active_low else (1 if pressed else 0)


def _play_presses():
    # One press at a time, paced by what the button driver has registered, not by the clock
    # alone: a unit whose loop stalls (a loaded host) still sees every press and release, so
    # two presses of one key stay two presses and presses keep their order.
    global _press_state
    now = time.ticks_ms()
    st = _press_state
    if st is None:
        if not _queue:
            return
        pin, key, hold, gap = _queue.pop(0)
        machine.pin_set(pin, _level(True))
        # the instant the pin went down, on the unit's clock (the host's monotonic clock on the
        # unix port): `fathom bench turn` times from here, not from when it asked for the press
        send(b"d", ("%d %d" % (now, _TICKS_MASK)).encode())
        if hold < LONG_MS:
            # a short press's finger lifts when the button driver reads the pin after its time
            # is up, not on the hub's next turn: a loop that stalls past the arrows' repeat
            # delay between those two read the pin still down and repeated the press (a real
            # pin is up by then). A long press keeps the hub's pace: lifted at a late read it
            # would be seen short.
            machine.pin_watch(pin, _lift)
        _press_state = ["down", pin, key, now, hold, gap]
        return
    _step(now)


def _lift():
    if _press_state is not None and _press_state[0] == "down":
        _step(time.ticks_ms())


def _step(now):
    global _press_state
    phase, pin, key, since, hold, gap = _press_state
    waited = time.ticks_diff(now, since)
    registered = buttons is None or buttons.held(key) == (phase == "down")
    if waited >= (hold if phase == "down" else gap) and (registered or waited > PRESS_TIMEOUT_MS):
        if phase == "down":
            machine.pin_watch(pin, None)
            machine.pin_set(pin, _level(False))
            _press_state = ["up", pin, key, now, hold, gap]
        else:
            _press_state = None


def twins_live():
    """Twin data made after boot's twins_bytes was measured: the panels' display RAM (on a
    board, inside the controller) and the last screen text kept for the host. On the 32-bit
    runtimes these are in the twins' own heap area already, which gc does not count."""
    if fathomprobe is not None:
        return 0
    n = sum(len(p.ram) + len(p.glass) for p in machine.PANELS.values())
    for line in _last_text or ():
        n += len(line) + 1
    return n


def _structures(app):
    """The structures a unit's heap is spent on: each is charged what it reaches without
    passing through another (nor through a module's globals)."""
    import sys
    out = []
    scr = app.stack[-1]
    runner = getattr(scr, "runner", None)
    if runner is not None:
        seat = runner.seat
        if _detail:
            out.extend(("pub." + str(k), v) for k, v in sorted(seat.pub.items()))
        for k in ("journal", "engine", "log", "pub", "actions", "setup_choices"):
            out.append(("seat." + k, getattr(seat, k, None)))
        out.append(("seat", seat))
        for i, p in enumerate(runner.peers):
            out.append(("peer%d.ch" % i, getattr(p, "ch", None)))
            out.append(("peer%d" % i, p))
        if _detail:
            out.extend(("runner." + k, v) for k, v in sorted(runner.__dict__.items())
                       if k not in ("seat", "peers"))
        out.append(("runner", runner))
    if _detail:
        out.extend(("screen." + k, v) for k, v in sorted(scr.__dict__.items())
                   if k not in ("app", "runner", "eng"))
    out.append(("screen", scr))
    for i, s in enumerate(app.stack[:-1]):
        if s is None:  # the home menu, gone while a game is shown (App.leave_home)
            continue
        if _detail:
            out.extend(("stack%d.%s" % (i, k), v) for k, v in sorted(s.__dict__.items()))
        out.append(("stack%d" % i, s))
    for i, s in enumerate(app.services):
        out.append(("service%d" % i, s))
    if _detail:
        out.extend(("app." + k, v) for k, v in sorted(app.__dict__.items()))
    out.append(("app", app))
    es = sys.modules.get("espnow")
    out.append(("radio ring", getattr(getattr(es, "_s", None), "ring", None)))
    return [(n, o) for n, o in out if o is not None]


def breakdown(app):
    """[(bytes, name)] of the unit's live heap: per fathom module (its globals: functions,
    classes, tables), then per structure (fathomprobe.reach), and what none of them reaches
    (the interpreter's own: interned names, sys.modules, the stack's objects) as 'other'."""
    import gc
    import sys
    gc.collect()
    total = gc.mem_alloc()
    mods = [("mod:" + n[7:], getattr(m, "__dict__", m)) for n, m in sorted(sys.modules.items())
            if n.startswith("fathom")]
    roots = mods + _structures(app)
    stops = [o for _n, o in roots]
    claimed, out = [], []
    for name, obj in roots:
        n = fathomprobe.reach(obj, claimed, stops)
        claimed.append(obj)
        if n:
            out.append((n, name))
    out.append((total - sum(n for n, _ in out), "other"))
    return out


def live_heap():
    import gc
    gc.collect()
    return gc.mem_alloc() - twins_bytes - twins_live()


def _send_metrics():
    import gc
    heap = live_heap()
    i2c = sum(p.bytes_written for p in machine.PANELS.values())
    out = ("heap=%d twins=%d twins_live=%d free=%d i2c=%d key_us=%d peak=%d loops=%d steps=%d "
           "work_us=%d" % (heap, twins_bytes, twins_live(), gc.mem_free(), i2c, key_us,
                           max(heap_peak, heap), loops, steps, work_us))
    if fathomprobe is not None:
        load = _load_peaks or (0, 0)
        alloc, stack = fathomprobe.max_alloc(), fathomprobe.stack_peak()
        out += " max_alloc=%d stack_peak=%d play_max_alloc=%d play_stack_peak=%d" % (
            max(load[0], alloc), max(load[1], stack), alloc, stack)
    send(b"m", out.encode())


def _watch():
    global heap_peak
    if _heapwatch:
        h = live_heap()
        if h > heap_peak + 256:  # where the peak was: the console says, for the bench's notes
            print("fathom heapwatch: %d on %r" % (h, (_last_text or [""])[:2]))
            if _breakdown and fathomprobe is not None and app is not None:
                print("fathom heapwatch: " + " ".join(
                    "%s=%d" % (name, n) for n, name in breakdown(app)))
        heap_peak = max(heap_peak, h)
    if _fast_bots:
        import sys
        for name, cls in (("fathom.peers", "BotPeer"), ("fathom.flow.play", "AutoPlayer")):
            m = sys.modules.get(name)
            if m is not None:
                getattr(m, cls).THINK_MS = 0


def poll():
    """Handle pending host messages and ship a changed screen. Returns False if told to quit."""
    if _sock is None:
        return True
    hold(1)
    try:
        return _poll()
    finally:
        hold(0)


def _poll():
    global _inbuf, _keys_reported
    _end_of_load()
    _watch()
    _play_presses()
    if on_idle is not None and _press_state is None and not _queue:
        on_idle()
    if _screen_dirty:
        _ship_screen()
    if keys_handled != _keys_reported:
        _keys_reported = keys_handled
        send(b"k", str(keys_handled).encode())
    while _poller.poll(0):
        chunk = _sock.recv(512)
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
                    _send_text()
            elif kind == b"M":
                _send_metrics()
            elif kind == b"Y":  # a round trip: every screen and key count shipped before it
                send(b"y", payload)
            elif kind == b"P":  # the bench starts measuring: forget the peaks so far
                reset_peaks()
            elif kind == b"L":  # which modules are loaded: what the heap is spent on
                import sys
                send(b"l", " ".join(sorted(sys.modules)).encode())
            elif kind == b"Q":
                return False
    return True


def _outside_games():
    """FATHOM_GAMES: game folders from outside fathom/games (absolute paths, comma-separated),
    registered here as the host registered them (fathom_host.use_firmware)."""
    folders = [f for f in (os.getenv("FATHOM_GAMES") or "").split(",") if f]
    if folders:
        import sys
        from fathom import games
        for folder in folders:
            parent, _, name = folder.rstrip("/").rpartition("/")
            sys.path.append(parent)
            games.register(name)


_outside_games()
