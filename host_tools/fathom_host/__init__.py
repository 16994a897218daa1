# fathom host tools: flash, deploy, monitor, emulate, simulate, benchmark.
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"


def use_firmware():
    """Make the firmware's packages (fathom, hostmodes) importable in this CPython process: the
    one way host tools reach them. The command line calls it before it dispatches; a program
    using a tool as a library calls it once itself. Game folders named in FATHOM_GAMES join
    the registry (the emulated units, which inherit it, register them too)."""
    import sys
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))
    for folder in outside_games():
        from fathom import games
        parent, name = str(folder.parent), folder.name
        if parent not in sys.path:
            sys.path.append(parent)
        try:
            games.register(name)
        except (ImportError, AttributeError) as e:
            raise FathomError("FATHOM_GAMES: %s does not declare a game: %s" % (folder, e))


def outside_games():
    """FATHOM_GAMES: game folders that live outside fathom/games (a new game being written, the
    tests' toy), comma-separated paths; each must be a package that declares a game."""
    import os
    out = []
    for item in filter(None, os.environ.get("FATHOM_GAMES", "").split(",")):
        folder = pathlib.Path(item).resolve()
        if not (folder / "__init__.py").is_file():
            raise FathomError("FATHOM_GAMES: %s is not a game folder (no __init__.py)" % item)
        out.append(folder)
    if out:  # absolute, for the units this process starts (their working folder differs)
        os.environ["FATHOM_GAMES"] = ",".join(str(f) for f in out)
    return out


class FathomError(Exception):
    """An expected failure (bad input, missing port, device refusal): printed as one line."""
