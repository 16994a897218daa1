# `fathom screenshot`: boot an emulated unit, optionally press keys, save its panel as PNG.
import time

from fathom_host import FathomError, hostboard
from fathom_host.units import GAP_MS, LONG_MS, Emulator

KEYS_HELP = ("keys to press first, comma-separated: the board's key names (host: UP, DOWN, LEFT, "
             "RIGHT, OK, BACK); KEY:long holds the button for a long press, e.g. DOWN,DOWN:long,OK")


def add_arguments(p):
    p.add_argument("--board", default="host")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.add_argument("--keys", default="", help=KEYS_HELP)
    p.add_argument("--scale", type=int, default=4)


def board_keys(profile):
    """The key names a unit's buttons send when pressed: each button's short key."""
    return sorted(set(b["short"] for b in profile["buttons"]))


def parse_keys(spec, valid):
    """`DOWN,OK:long` -> [("DOWN", False), ("OK", True)]. A name the board has no button for
    would be dropped by the unit without a word, so it is refused here, naming the valid ones."""
    out = []
    for item in [k.strip() for k in spec.split(",") if k.strip()]:
        name, sep, how = item.partition(":")
        if sep and how.lower() != "long":
            raise FathomError("key %r: the only form is KEY:long, e.g. %s:long" % (item, name))
        key = name.upper()
        if key not in valid:
            raise FathomError("unknown key %r: valid keys are %s (add :long for a long press)"
                              % (name, ", ".join(valid)))
        out.append((key, bool(sep)))
    return out


def take(board, presses, out, scale=4):
    """Boot one unit on `board`, play `presses`, save the panel; returns the semantic text."""
    with Emulator(1, board=board) as emu:
        u = emu.units[0]
        for key, long in presses:
            press_settled(u, key, long)
        u.screen.png(out, scale)
        return u.text


def press_settled(u, key, long):
    """Press and wait until the unit has handled everything the press produced. Unit.press
    counts one handled key per press, but a held arrow auto-repeats: its extra keys would be
    taken for the next presses' and the picture shot mid-way. So: the press's first key, then
    (long) the end of its hold -- the unit's clock is this machine's -- and a screen requested
    after that, which the unit ships behind the key counts of everything before it."""
    c = u.wait(lambda c: True, 10, "connection")
    base = c.keys
    u.press(key, long=long, wait=False)
    c = u.wait(lambda c: c.keys > base, 10, "key %s handled" % key)
    if not long:
        return
    end = time.monotonic() + (LONG_MS + GAP_MS) / 1000.0
    u.wait(lambda c: time.monotonic() >= end, (LONG_MS + GAP_MS) / 1000.0 + 10, "the hold")
    shipped = c.screens
    c.send(b"R")
    u.wait(lambda c: c.screens > shipped, 10, "the screen after the long %s" % key)


def run(args):
    presses = parse_keys(args.keys, board_keys(hostboard.load(args.board)))
    text = take(args.board, presses, args.out, args.scale)
    print("%s: %s" % (args.out, " | ".join(text)))
    return 0
