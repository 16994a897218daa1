# `fathom screenshot`: boot an emulated unit, optionally press keys, save its panel as PNG.
from fathom_host import FathomError
from fathom_host.units import Emulator


def add_arguments(p):
    p.add_argument("--board", default="host")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.add_argument("--keys", default="", help="keys to press first, e.g. DOWN,DOWN,OK")
    p.add_argument("--scale", type=int, default=4)


def run(args):
    with Emulator(1, board=args.board) as emu:
        u = emu.units[0]
        for k in [k for k in args.keys.split(",") if k]:
            if k.upper() not in ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"):
                raise FathomError("unknown key %r" % k)
            u.press(k.upper())
        u.screen.png(args.out, args.scale)
        print("%s: %s" % (args.out, " | ".join(u.text)))
    return 0
