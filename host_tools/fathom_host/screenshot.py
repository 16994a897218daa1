# `fathom screenshot`: boot an emulated unit, optionally reach a game mid-play, press keys, save
# its panel as PNG. `--all DIR` makes every picture the docs show (docs/SCREENS.md).
#
# Mid-game (`--game ping --moves 6`): the scripted player (hostmodes/uxplayer) opens the game
# against the in-unit bot from power-on and makes `moves` choices, on the host board. The unit
# then quits (the game is saved, as after every action) and boots again as `--board`, which
# resumes that game: one saved position photographs the same at every screen size, and the
# player never needs a board's long-press-only keys (OK is a long DOWN at 72x40).
import pathlib
import re
import shutil
import tempfile
import time

from fathom_host import FathomError, hostboard, use_firmware
from fathom_host.emulator.units import GAP_MS, LONG_MS, Emulator

KEYS_HELP = ("keys to press first (after --game's moves), comma-separated: the board's key "
             "names (host: UP, DOWN, LEFT, RIGHT, OK, BACK); KEY:long holds the button for a "
             "long press, e.g. DOWN,DOWN:long,OK; a long-press name (HELP, or OK at 72x40) "
             "presses its button long")
PLAY_BOARD = "host"      # where the scripted player plays (every key is a short press there)
PLAY_TIMEOUT_S = 300
TURN_TIMEOUT_S = 60
# The top line while the partner (the bot) is to move: "waiting for P2", "wait for P2", "P2 to
# move", "P2 Fight"... The player is P1 against the in-unit bot, so P2-P4 is the other side.
PARTNER_TURN = re.compile(r"\bwait|\bP[2-4]\b", re.I)
SIZES = {"host": "128x64", "esp32c3_oled_72x40": "72x40"}
# --all, per game, its declaration's SHOTS: the choices made before the pictures (a board with
# something on it, the game surely not over: a Sugar Dog torpedo can end it in a few), the top
# line the position must show (the player choosing a move, not answering an attack or passing a
# fight), and the keys of the second picture: OK on the cursor opens the square's menu;
# Periplus's first OK picks the ship, its second the square; Pinned Down has no squares: RIGHT
# turns to the hand. A game that declares none: two choices, any position, OK.
DEFAULT_SHOTS = (2, None, "OK")
ALL_TRIES = 5            # the bot's seed is fresh each game: a position that is not it, re-dealt


def add_arguments(p):
    p.add_argument("--board", default="host")
    p.add_argument("--out", help="PNG file to write")
    p.add_argument("--keys", default="", help=KEYS_HELP)
    p.add_argument("--scale", type=int, default=4)
    p.add_argument("--game", help="reach this game mid-play first (an id: ping, ashtapada...); "
                                  "with --all, only this game's pictures (and home)")
    p.add_argument("--moves", type=int, default=6,
                   help="with --game: choices the scripted player makes first (default 6)")
    p.add_argument("--level", default="sharp", help="with --game: the bots' level")
    p.add_argument("--all", metavar="DIR",
                   help="make every docs picture in DIR (home, each game's board, square "
                        "menu and help, at 128x64 and 72x40)")


def board_keys(profile):
    """The key names a unit's buttons send when pressed: each button's short key."""
    return sorted(set(b["short"] for b in profile["buttons"]))


def long_names(profile):
    """Long-press names -> the button's short key: HELP -> BACK, and OK -> DOWN at 72x40."""
    return dict((b["long"], b["short"]) for b in profile["buttons"]
                if b.get("long") and b["long"] not in board_keys(profile))


def parse_keys(spec, valid, longs=None):
    """`DOWN,OK:long` -> [("DOWN", False), ("OK", True)]. A name the board has no button for
    would be dropped by the unit without a word, so it is refused here, naming the valid ones.
    `longs` maps a long-press name to its button (HELP -> BACK): `HELP` is `BACK:long`."""
    longs = longs or {}
    out = []
    for item in [k.strip() for k in spec.split(",") if k.strip()]:
        name, sep, how = item.partition(":")
        if sep and how.lower() != "long":
            raise FathomError("key %r: the only form is KEY:long, e.g. %s:long" % (item, name))
        key = name.upper()
        if key in longs and key not in valid:
            out.append((longs[key], True))
            continue
        if key not in valid:
            raise FathomError("unknown key %r: valid keys are %s (add :long for a long press%s)"
                              % (name, ", ".join(valid), "".join(
                                  "; %s = %s:long" % kv for kv in sorted(longs.items()))))
        out.append((key, bool(sep)))
    return out


def presses_for(board, spec):
    profile = hostboard.load(board)
    return parse_keys(spec, board_keys(profile), long_names(profile))


def take(board, presses, out, scale=4):
    """Boot one unit on `board`, play `presses`, save the panel; returns the semantic text."""
    with Emulator(1, board=board) as emu:
        return shoot(emu.units[0], presses, out, scale)


def shoot(u, presses, out, scale):
    for key, long in presses:
        press_settled(u, key, long)
    u.screen.png(str(out), scale)
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


# ---- a game mid-play -----------------------------------------------------------------------
class Redeal(FathomError):
    """The position reached is not the one asked for; a fresh deal may be."""


def menu_path(gid, level):
    """The menu items a person opens to play `gid` against the in-unit bot of `level`."""
    use_firmware()
    from fathom import games
    from fathom.games.bots import levels
    if gid not in games.IDS:
        raise FathomError("unknown game %r: the games are %s" % (gid, ", ".join(games.IDS)))
    if level not in levels(gid):
        raise FathomError("%s has no bot level %r: its levels are %s"
                          % (gid, level, ", ".join(levels(gid))))
    d = games.declaration(gid)
    verb = "with" if d.PLAYERS[0] == 1 else "vs"   # a cooperative game's bot is a partner
    return "%s/%s bot: %s" % (d.TITLE, verb, level)


def play_to(u, gid, moves, level, expect=None):
    """From power-on of `u` (stopped, fresh data), make `moves` choices of `gid` through the
    scripted player, then stop the unit with the game saved. Raises if the game ended first,
    or (`expect`, a pattern) if the top line of the position reached does not match it."""
    u.board = PLAY_BOARD
    u.extra_env.update({
        "FATHOM_UXPLAYER": "level=%s,path=%s,moves=%d" % (level, menu_path(gid, level), moves),
        "FATHOM_FAST_BOTS": "1"})
    u.start()
    c = u.wait(lambda c: c.ux is not None, PLAY_TIMEOUT_S, "the scripted player's report")
    ux = c.ux
    if "error" in ux:
        raise FathomError("%s: the scripted player failed: %s" % (gid, ux["error"]))
    if ux.get("result"):
        raise Redeal("%s ended after %d choices, before %d: ask for fewer --moves"
                          % (gid, len(ux["presses"]), moves))
    if ux.get("asking"):  # the keys would answer it (or, in its first moments, do nothing)
        raise Redeal("%s after %d choices asks %r first" % (gid, moves, ux["asking"]))
    c = your_turn(u, gid)
    u.stop()
    del u.extra_env["FATHOM_UXPLAYER"]
    if expect and not re.search(expect, c.text[0]):
        raise Redeal("%s after %d choices shows %r, not %r" % (gid, moves, c.text[0], expect))
    return ux



def your_turn(u, gid):
    """Wait until the bot has answered and the game waits for the player: the picture shows
    what a person looks at while choosing, and keys pressed now are the player's."""
    return u.wait(lambda c: c.text and not PARTNER_TURN.search(c.text[0]), TURN_TIMEOUT_S,
                  "%s: the player's turn (the bot to finish)" % gid)


def resume_on(u, board):
    """Boot `u` as `board`: it resumes the saved game; returns once it is the player's turn."""
    u.board = board
    u.start()
    u.wait(lambda c: c.text and c.text[0] != "fathom", 30, "the saved game to resume")
    your_turn(u, "the resumed game")


def fresh(u):
    u.kill()
    shutil.rmtree(u.dir / "data", ignore_errors=True)
    (u.dir / "data").mkdir(parents=True)


def take_game(board, gid, moves, level, presses, out, scale=4):
    menu_path(gid, level)   # an unknown game or level is refused before any unit boots
    emu = Emulator(1)
    try:
        u = emu.units[0]
        fresh(u)
        play_to(u, gid, moves, level)
        resume_on(u, board)
        return shoot(u, presses, out, scale)
    finally:
        emu.close()


# ---- every docs picture --------------------------------------------------------------------
def recipe(gid):
    """(choices, top line, second picture's keys) of `gid`'s pictures: its declared SHOTS."""
    use_firmware()
    from fathom import games
    return getattr(games.declaration(gid), "SHOTS", DEFAULT_SHOTS)


def top_level(gid):
    """The bot the pictures are played against: the sharpest the game has."""
    use_firmware()
    from fathom import games
    from fathom.games.bots import levels
    if gid not in games.IDS:
        raise FathomError("unknown game %r: the games are %s" % (gid, ", ".join(games.IDS)))
    return levels(gid)[-1]


def shots(gid):
    """(name, keys) of the pictures of a game: its board, its square menu and its help."""
    return [("board", ""), ("menu", recipe(gid)[2]), ("help", "HELP")]


def take_all(outdir, scale=4, gids=None, log=print):
    """Every picture docs/SCREENS.md shows, into `outdir`; returns {file name: screen text}."""
    use_firmware()
    from fathom import games
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    made = {}
    tmp = tempfile.mkdtemp(prefix="fathom-shots-")
    emu = Emulator(1, workdir=tmp)
    try:
        u = emu.units[0]
        for board, size in SIZES.items():
            fresh(u)
            u.board = board
            u.start()
            made.update(_save(u, outdir / ("home_%s.png" % size), [], scale, log))
        for gid in gids or games.IDS:
            moves, expect = recipe(gid)[:2]
            for attempt in range(ALL_TRIES):
                fresh(u)
                try:
                    play_to(u, gid, moves, top_level(gid), expect)
                    break
                except Redeal as e:
                    log("%s: dealing again" % e)
                    if attempt == ALL_TRIES - 1:
                        raise
            saved = pathlib.Path(tmp) / "saved"
            shutil.rmtree(saved, ignore_errors=True)
            shutil.copytree(u.dir / "data", saved)
            for board, size in SIZES.items():
                for name, keys in shots(gid):
                    # each picture from the same saved position: a menu left open, a help
                    # page, or a cursor moved does not carry into the next
                    u.kill()
                    shutil.rmtree(u.dir / "data")
                    shutil.copytree(saved, u.dir / "data")
                    resume_on(u, board)
                    out = outdir / ("%s_%s_%s.png" % (gid, name, size))
                    made.update(_save(u, out, presses_for(board, keys), scale, log))
    finally:
        emu.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return made


def _save(u, out, presses, scale, log):
    text = shoot(u, presses, out, scale)
    log("%s: %s" % (out, " | ".join(text)))
    return {out.name: text}


def run(args):
    if args.all:
        if args.game:
            menu_path(args.game, top_level(args.game))  # an unknown game, refused by name
        take_all(args.all, args.scale, [args.game] if args.game else None)
        return 0
    if not args.out:
        raise FathomError("--out FILE is needed (or --all DIR)")
    presses = presses_for(args.board, args.keys)
    if args.game:
        for deal in range(ALL_TRIES):
            try:
                text = take_game(args.board, args.game, args.moves, args.level, presses,
                                 args.out, args.scale)
                break
            except Redeal:  # this deal ended too soon: the next one is a new game
                if deal == ALL_TRIES - 1:
                    raise
    else:
        text = take(args.board, presses, args.out, args.scale)
    print("%s: %s" % (args.out, " | ".join(text)))
    return 0
