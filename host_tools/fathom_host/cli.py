# The `fathom` command: a table of subcommands, each a module with add_arguments(p) and run(args).
# Only the module of the subcommand named on the command line is imported (its options are its
# own): `fathom --help` and every command start without loading the others.
import argparse
import importlib
import sys

from fathom_host import FathomError, use_firmware

COMMANDS = (
    ("emu", "fathom_host.emu", "run emulated units side by side in the terminal"),
    ("web", "fathom_host.web", "build the units' web page and serve it on localhost"),
    ("sim", "fathom_host.sim", "bot-vs-bot matches, one JSON line of results"),
    ("bench", "fathom_host.bench", "benchmarks: boot, link, turn, bots, soak, chaos, device, "
                                   "deal, ux, path, power, all"),
    ("screenshot", "fathom_host.screenshot", "boot an emulated unit and save its screen as PNG"),
    ("replay", "fathom_host.replay", "a unit's finished game replayed with every secret: GIF, "
                                     "PNG strip, text, HTML"),
    ("flash", "fathom_host.flash", "write a MicroPython image to a board with esptool"),
    ("deploy", "fathom_host.deploy", "compile and copy the firmware to a board with mpremote"),
    ("monitor", "fathom_host.monitor", "a unit's log with timestamps"),
    ("deck", "fathom_host.deck", "Pinned Down deck files: validate"),
    ("runtime", "fathom_host.runtime", "build the 32-bit MicroPython runtimes (stock, frozen)"),
)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)  # fathom has no options
    parser = argparse.ArgumentParser(prog="fathom", description="fathom host tools")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, modname, help_text in COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=modname)
        if name == chosen:
            importlib.import_module(modname).add_arguments(p)
    args = parser.parse_args(argv)
    try:
        use_firmware()
        rc = importlib.import_module(args._module).run(args)
    except FathomError as e:
        print("fathom: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
