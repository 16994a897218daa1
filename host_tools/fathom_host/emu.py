# `fathom emu`: emulated units side by side in the terminal, each screen drawn with block
# characters, keys mapped to each unit's buttons. `q` quits and leaves no process behind.
import os
import select
import shutil
import sys
import termios
import threading
import time
import tty

from fathom_host import hostboard
from fathom_host.emulator.ether import add_fault_arguments, ether_from_args
from fathom_host.emulator.units import RUNTIMES, Emulator

# Keys: unit 1 on the left hand, unit 2 on the right, unit 3 between them, arrows for the
# focused unit (Tab). A capital is the same key held (a long press).
UNIT_KEYS = (
    {"w": "UP", "s": "DOWN", "a": "LEFT", "d": "RIGHT", "e": "OK", "r": "BACK"},
    {"i": "UP", "k": "DOWN", "j": "LEFT", "l": "RIGHT", "o": "OK", "p": "BACK"},
    {"t": "UP", "g": "DOWN", "f": "LEFT", "h": "RIGHT", "y": "OK", "u": "BACK"},
)
# Focus keys, as bytes: Enter is \n in cbreak mode (ICRNL), \r when the terminal sends it raw;
# `?` is a long BACK (a game's help) for the focused unit, which has no capitals.
FOCUS_KEYS = {b"\r": ("OK", False), b"\n": ("OK", False), b"\x7f": ("BACK", False),
              b"\x08": ("BACK", False), b"?": ("BACK", True)}
# Arrows end an escape sequence: CSI (ESC [ A) normally, SS3 (ESC O A) in application mode;
# with modifiers (ESC [ 1 ; 5 A) they are still the same arrow.
ARROWS = {"A": "UP", "B": "DOWN", "C": "RIGHT", "D": "LEFT"}
ESC = 0x1B

BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def _escape(buf, i):
    """The escape sequence at buf[i] (an ESC): (its length, the arrow it means or None), or
    None while it is incomplete. A lone ESC has length 1."""
    if i + 1 >= len(buf):
        return None
    kind = buf[i + 1]
    if kind == ord("O"):
        if i + 2 >= len(buf):
            return None
        return 3, ARROWS.get(chr(buf[i + 2]))
    if kind != ord("["):
        return 1, None  # ESC then a plain key (Alt+key, or Esc pressed before it)
    j = i + 2
    while j < len(buf) and 0x20 <= buf[j] <= 0x3F:  # parameter and intermediate bytes
        j += 1
    if j >= len(buf):
        return None
    if not 0x40 <= buf[j] <= 0x7E:  # not a sequence after all: drop the ESC [ and go on
        return 2, None
    return j + 1 - i, ARROWS.get(chr(buf[j]))


def decode_keys(buf, n_units, flush=False):
    """Terminal input bytes -> (events, the bytes still undecided). Every key byte is an
    event, in order: ("press", unit or None for the focused unit, key, long), ("focus",),
    ("reboot", unit), ("quit",); nothing after a quit. An escape sequence cut off at the end
    of `buf` is kept for the next read; `flush` (no more input came) lets a lone ESC go."""
    events = []
    i = 0
    while i < len(buf):
        b = buf[i]
        if b == ESC:
            seq = _escape(buf, i)
            if seq is None:
                if not flush:
                    return events, buf[i:]
                seq = (len(buf) - i, None)
            n, arrow = seq
            if arrow:
                events.append(("press", None, arrow, False))
            i += n
            continue
        i += 1
        ch = bytes((b,))
        if ch == b"q":
            events.append(("quit",))
            return events, b""
        if ch == b"\t":
            events.append(("focus",))
        elif ch in FOCUS_KEYS:
            events.append(("press", None) + FOCUS_KEYS[ch])
        elif ch.isdigit() and 1 <= int(ch) <= n_units:
            events.append(("reboot", int(ch) - 1))
        else:
            c = chr(b) if b < 0x80 else ""
            for unit, table in enumerate(UNIT_KEYS[:n_units]):
                if c and c.lower() in table:
                    events.append(("press", unit, table[c.lower()], c != c.lower()))
    return events, b""


def key_plan(board):
    """How each of the app's keys is typed on `board`'s buttons: {key: (button, long)}. On
    the 72x40 profile OK is a long DOWN (its one on-board button), HELP a long BACK."""
    if board not in _PLANS:
        buttons = hostboard.load(board)["buttons"]
        plan = {}
        for b in buttons:
            plan.setdefault(b["short"], (b["short"], False))
        for b in buttons:
            if b.get("long"):
                plan.setdefault(b["long"], (b["short"], True))
        _PLANS[board] = plan
    return _PLANS[board]


_PLANS = {}


def typed(board, key, long):
    """The (button, long) a press of `key` (held when `long`) is on `board`, or None when the
    board has no way to type it."""
    plan = key_plan(board)
    if key not in plan:
        return None
    button, held = plan[key]
    return button, held or long


def key_bar(board, n_units, cols):
    """The lines under the screens: which keys press what on this board, wrapped to `cols`."""
    plan = key_plan(board)
    parts = []
    for i, table in enumerate(UNIT_KEYS[:n_units]):
        k = {v: c for c, v in table.items()}
        parts.append("unit%d %s%s%s%s %s=OK %s=BACK %s=HELP" % (
            i + 1, k["UP"], k["LEFT"], k["DOWN"], k["RIGHT"], k["OK"], k["BACK"],
            k["BACK"].upper()))
    parts.append("arrows Enter=OK Backspace=BACK ?=HELP: the focused unit (Tab)")
    parts.append("CAPITAL = a long press")
    notes = []
    for key in ("OK", "BACK", "HELP"):
        button, held = plan.get(key, (None, False))
        if button is None:
            notes.append("%s has no button" % key)
        elif held:
            notes.append("%s is a long %s" % (key, button))
    if notes:
        parts.append("on this board %s (the keys above type it so)" % ", ".join(notes))
    parts.append("1-9 reboot a unit | q quit")
    lines, line = [], "keys:"
    for p in parts:
        if len(line) + 3 + len(p) > cols and line:
            lines.append(line)
            line = "  " + p
        else:
            line += (" | " if line != "keys:" else " ") + p
    lines.append(line)
    return [ln[:cols] for ln in lines]


def render_half(screen):
    """Two pixel rows per character row with upper/lower half blocks: full width."""
    out = []
    for y in range(0, screen.h, 2):
        row = []
        for x in range(screen.w):
            top = screen.pixel(x, y)
            bot = screen.pixel(x, y + 1) if y + 1 < screen.h else 0
            row.append(" ▄▀█"[top * 2 + bot])
        out.append("".join(row))
    return out


def render_braille(screen):
    """2x4 pixels per character with braille dots: a 128x64 panel in 64x16 characters."""
    out = []
    for y in range(0, screen.h, 4):
        row = []
        for x in range(0, screen.w, 2):
            bits = 0
            for dx, dy, b in BRAILLE_BITS:
                if x + dx < screen.w and y + dy < screen.h and screen.pixel(x + dx, y + dy):
                    bits |= b
            row.append(chr(0x2800 + bits))
        out.append("".join(row))
    return out


def panel_size(board):
    """The panel a unit of `board` has, before it has shipped one: (width, height)."""
    if board not in _PANEL_SIZES:
        d = hostboard.load(board)["display"]
        _PANEL_SIZES[board] = (d["width"], d["height"])
    return _PANEL_SIZES[board]


_PANEL_SIZES = {}


def placeholder(w, h, half, label):
    """Blank lines the size the panel would be drawn at, the label in the middle."""
    cols, rows = (w, (h + 1) // 2) if half else ((w + 1) // 2, (h + 3) // 4)
    lines = [" " * cols for _ in range(rows)]
    lines[rows // 2] = label[:cols].center(cols)
    return lines


def unit_lines(u, cols):
    """A unit's panel as characters; a unit that is off or has not drawn yet keeps its place."""
    s = u.screen
    w, h = (s.w, s.h) if s is not None else panel_size(u.board)
    half = w * 2 + 6 <= cols
    if not u.alive():
        return placeholder(w, h, half, "unit %d: off" % (u.index + 1))
    if s is None:
        return placeholder(w, h, half, "unit %d: booting" % (u.index + 1))
    return render_half(s) if half else render_braille(s)


def layout(emu, focus, cols):
    """The whole frame as lines: screens side by side when they fit, else stacked."""
    shots = [(u, unit_lines(u, cols)) for u in emu.units]
    width = max(len(lines[0]) for _, lines in shots) + 2
    titled = []
    for u, lines in shots:
        mark = "*" if u.index == focus else " "
        state = "" if u.alive() else " (off)"
        head = ("%s unit %d%s" % (mark, u.index + 1, state)).ljust(width)
        titled.append([head, "┌" + "─" * (width - 2) + "┐"] +
                      ["│" + line.ljust(width - 2) + "│" for line in lines] +
                      ["└" + "─" * (width - 2) + "┘"])
    out = []
    per_row = max(1, cols // (width + 1))
    for i in range(0, len(titled), per_row):
        group = titled[i:i + per_row]
        for j in range(max(len(g) for g in group)):
            out.append(" ".join(g[j] if j < len(g) else " " * width for g in group))
    board = emu.units[0].board if emu.units else "host"
    return out + key_bar(board, len(emu.units), cols)


def add_arguments(p):
    p.add_argument("--units", type=int, default=2, help="how many units (default 2)")
    p.add_argument("--board", default="host")
    p.add_argument("--runtime", choices=RUNTIMES, default=None,
                   help="wheel (default, or FATHOM_RUNTIME): the PyPI build; stock|frozen: the "
                        "32-bit builds of `fathom runtime build`, an ESP32's object sizes")
    p.add_argument("--dir", default=None, help="keep the units' storage here (default: temp)")
    p.add_argument("--link", choices=("espnow", "uart"), default="espnow",
                   help="the link the units' Settings start with")
    p.add_argument("--serial", action="store_true",
                   help="no screens: give each unit a serial twin (a pty for mpremote and "
                        "`fathom deploy`) and print the pty paths")
    add_fault_arguments(p)


def link_env(args, index):
    env = {"FATHOM_LINK": args.link}
    if args.link == "uart":
        env["FATHOM_UART"] = "pipe%d:%d" % (index // 2, index % 2)
    return env


def run_serial(args, ether):
    """Serial twins: boards on ptys, as a maker's laptop would see them."""
    import pathlib
    import tempfile
    from fathom_host.twins.serialtwin import SerialTwin
    root = pathlib.Path(args.dir or tempfile.mkdtemp(prefix="fathom-serial-"))
    twins = []
    try:
        for i in range(args.units):
            env = {"FATHOM_UNIT": str(i), "FATHOM_ETHER": "127.0.0.1:%d" % ether.port}
            env.update(link_env(args, i))
            t = SerialTwin(root / ("unit%d" % i), env)
            twins.append(t)
            print("unit %d: %s  (filesystem %s)" % (i + 1, t.start(), t.unit_dir))
        print("try: fathom deploy --board host --port <pty>   | Ctrl-C to stop")
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        for t in twins:
            t.stop()
    return 0


def apply_keys(emu, events, focus):
    """Carry out decoded key events: returns the new focus and whether to quit."""
    for ev in events:
        if ev[0] == "quit":
            return focus, True
        if ev[0] == "focus":
            focus = (focus + 1) % len(emu.units)
        elif ev[0] == "reboot":
            emu.units[ev[1]].reboot(wait=False)
        else:
            _, unit, key, long = ev
            u = emu.units[focus if unit is None else unit]
            how = typed(u.board, key, long)  # OK on the 72x40 profile: a long DOWN
            # a unit that is off or still booting has no buttons to press yet, as on a board
            if how is not None and u.alive() and emu.hub.conn(u.index) is not None:
                u.press(how[0], long=how[1], wait=False)
    return focus, False


def states(emu):
    return tuple((u.alive(), u.screen is None) for u in emu.units)


def run(args):
    ether = ether_from_args(args)
    ether.start()
    if args.serial:
        try:
            return run_serial(args, ether)
        finally:
            ether.stop()
    emu = Emulator(args.units, args.dir, args.board, ether, runtime=args.runtime)
    for u in emu.units:
        u.extra_env.update(link_env(args, u.index))
    fd = sys.stdin.fileno()
    interactive = os.isatty(fd)
    old = termios.tcgetattr(fd) if interactive else None
    dirty = threading.Event()
    emu.hub.listeners.append(lambda unit: dirty.set())
    focus = 0
    pending = b""
    seen = None
    try:
        for u in emu.units:  # not waiting: the layout shows each unit booting
            u.start(wait=False)
        if interactive:
            tty.setcbreak(fd)
        sys.stdout.write("\x1b[2J\x1b[?25l")
        dirty.set()
        while True:
            if dirty.is_set():
                dirty.clear()
                cols = shutil.get_terminal_size((160, 50)).columns
                frame = layout(emu, focus, cols)
                sys.stdout.write("\x1b[H" + "\n".join(line + "\x1b[K" for line in frame))
                sys.stdout.flush()
            r, _, _ = select.select([fd], [], [], 0.05)
            if not r:
                if pending:  # nothing more came: an ESC alone was the Esc key
                    events, pending = decode_keys(pending, len(emu.units), flush=True)
                    focus, _ = apply_keys(emu, events, focus)
                # a unit that exits or reboots sends nothing to the hub: look for it here
                now = states(emu)
                if now != seen:
                    seen = now
                    dirty.set()
                continue
            data = os.read(fd, 64)
            if not data:
                if not interactive:
                    break
                continue
            events, pending = decode_keys(pending + data, len(emu.units))
            focus, quit_ = apply_keys(emu, events, focus)
            dirty.set()
            if quit_:
                break
    finally:
        if old is not None:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        sys.stdout.write("\x1b[?25h\n")
        emu.close()
        ether.stop()
    return 0
