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

from fathom_host.ether import add_fault_arguments, ether_from_args
from fathom_host.units import RUNTIMES, Emulator

# Keys: unit 1 on the left hand, unit 2 on the right, arrows for the focused unit (Tab).
UNIT_KEYS = (
    {"w": "UP", "s": "DOWN", "a": "LEFT", "d": "RIGHT", "e": "OK", "r": "BACK"},
    {"i": "UP", "k": "DOWN", "j": "LEFT", "l": "RIGHT", "o": "OK", "p": "BACK"},
)
FOCUS_KEYS = {"\x1b[A": "UP", "\x1b[B": "DOWN", "\x1b[D": "LEFT", "\x1b[C": "RIGHT",
              "\r": "OK", "\n": "OK", "\x7f": "BACK", "\x08": "BACK"}
HELP = ("keys: unit1 wasd e=OK r=BACK | unit2 ijkl o=OK p=BACK | arrows/Enter/Backspace "
        "= focused unit, Tab = focus | CAPS = long press | 1-9 reboot unit | q quit")

BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


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


def layout(emu, focus, cols):
    """The whole frame as lines: screens side by side when they fit, else stacked."""
    shots = []
    for u in emu.units:
        s = u.screen
        if s is None:
            shots.append((u, ["(booting)"]))
            continue
        half = render_half(s)
        shots.append((u, half if len(half[0]) * 2 + 6 <= cols else render_braille(s)))
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
    out.append(HELP[:cols])
    return out


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
    from fathom_host.serialtwin import SerialTwin
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
    try:
        emu.start()
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
                continue
            ch = os.read(fd, 16).decode(errors="ignore")
            if not ch:
                if not interactive:
                    break
                continue
            if ch == "q":
                break
            if ch == "\t":
                focus = (focus + 1) % len(emu.units)
                dirty.set()
                continue
            if ch.isdigit() and 1 <= int(ch) <= len(emu.units):
                emu.units[int(ch) - 1].reboot(wait=False)
                dirty.set()
                continue
            if ch in FOCUS_KEYS:
                emu.units[focus].press(FOCUS_KEYS[ch], wait=False)
                continue
            low = ch.lower()
            for i, table in enumerate(UNIT_KEYS[:len(emu.units)]):
                if low in table:
                    emu.units[i].press(table[low], long=ch != low, wait=False)
            time.sleep(0.01)
    finally:
        if old is not None:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        sys.stdout.write("\x1b[?25h\n")
        emu.close()
        ether.stop()
    return 0
