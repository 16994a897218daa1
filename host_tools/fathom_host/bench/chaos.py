# `fathom bench chaos`: whole games played the way a careless table plays them. Emulated units
# pair over the ether's ESP-NOW through their keys (every two-player game on 2 units, Sugar Dog
# and Pinned Down in groups of 3 and 4) and each plays through its keys with its scripted player
# (hostmodes/uxplayer), while the bench, from a seed it prints, does at random moments what
# people and power do: a stray key, Leave (keep) and Resume game a little later, a reboot, a
# kill -9 (the power pulled), a save cut short, a link record (the channel's keys) damaged. A
# person also closes a menu left open, reads a notice, and resumes a game left at home. Per case: games, how each ended (verified on every unit;
# conceded; void or stopped with a sentence on the screens), stalls (STALL_S with no unit's
# journal growing, and the game not over), tracebacks on any console, and the seed and moment
# of each stall or traceback, which `--seed S --case C --games 1` plays again (the same faults
# at the same moments; the radio's and the processes' timing still differ from run to run).
# The emulator has no clock of its own to speed up: every figure is wall time.
import pathlib
import random
import shutil
import sys
import tempfile
import time

from fathom_host import FathomError, use_firmware
from fathom_host.bench.device_link import levels, quick_options, set_options, title
from fathom_host.bench.heaps import FAST
from fathom_host.emulator.drive import catch_up, finished, pair, pair_group, player_env
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import Emulator

GROUPS = (3, 4)        # group sizes, for every game that takes them, besides two units
STALL_S = 120          # no journal grew anywhere this long, the game not over: a stall
GAME_S = 1800          # one game, faults included, at the most (then counted as a stall)
GAP_S = (1.5, 8.0)     # between two faults (a group of Sugar Dog ends in ~15 s)
FAST_GAP_S = (2.0, 8.0)
FAULTS = (("press", 4), ("leave", 2), ("reboot", 1), ("kill", 2), ("cut", 1), ("link", 1))
FAST_FAULTS = (("press", 4), ("leave", 2), ("reboot", 1), ("kill", 2))
MAX_FAULTS = 8         # per game: after them the game is left to end
FAST_MAX_FAULTS = 4
KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")
AWAY_S = (1.0, 20.0)   # how long a player who left stays away before Resume game
END_SCREENS = ("Result", "DESYNC")
NOTICES = ("Link lost", "Saved game", "Resume")  # read, then OK, as a person does
SAID = END_SCREENS + NOTICES  # the screens that say how a unit's game ended


def cases():
    """name -> (game, units, options): every game on 2 units (its default options), and every
    game that takes a group in groups of GROUPS, with the options its declaration names QUICK
    (Sugar Dog and Pinned Down, in 3 and 4)."""
    use_firmware()
    from fathom import games
    out = {}
    for gid in games.IDS:
        d = games.declaration(gid)
        if d.PLAYERS[0] <= 2 <= d.PLAYERS[1]:
            out[gid] = (gid, 2, ())
        for n in GROUPS:
            if d.PLAYERS[0] <= n <= d.PLAYERS[1]:
                out["%s_%d" % (gid, n)] = (gid, n, quick_options(d))
    return out


def fast_cases():
    """--fast: the first game in menu order that a group plays, on 2 units and on 3 (Sugar
    Dog: its game ends in seconds)."""
    planned = cases()
    gid = next(c[0] for c in planned.values() if c[1] == 3)
    return (gid, "%s_3" % gid)


class Game:
    """One game under faults: the units, the schedule's random source, what was done when."""

    def __init__(self, emu, seed, plan):
        self.emu = emu
        self.units = emu.units
        self.rng = random.Random(seed)
        self.faults, self.max_faults, self.gap = plan
        self.done = []            # [seconds into the game, fault, unit]
        self.t0 = time.monotonic()
        self.seen = {}            # unit -> console bytes already read
        self.tracebacks = []
        self.player_errors = []
        # unit -> the last screen that said how its game ended (SAID): kept as the hub hears
        # it, as a key (the player's OK, tidy's) may leave it before the next look
        self.last_end = {}
        emu.hub.listeners.append(self._saw)

    def _saw(self, index):
        c = self.emu.hub.conn(index)
        t = c.text if c is not None else None
        if t and t[0] in SAID:
            self.last_end[index] = list(t)

    def press(self, u, key):
        catch_up(u)  # its player's keys are counted too
        u.press(key)

    def at(self):
        return round(time.monotonic() - self.t0, 1)

    def journal_sizes(self):
        out = []
        for u in self.units:
            p = u.dir / "data" / "game"
            out.append(p.stat().st_size if p.exists() else -1)
        return out

    def ended(self, u):
        """The unit's game is over there: its result (the audit done) or its stop on the
        screen, or the game gone from its flash (the result left, a save set aside)."""
        t = u.text
        if not t:
            return False
        if t[0] in END_SCREENS:
            self.last_end[u.index] = t
            return t[0] != "Result" or finished(u)
        return not (u.dir / "data" / "game").exists()

    def all_ended(self):
        return all(u.alive() and self.ended(u) for u in self.units)

    def scan(self):
        """New tracebacks on any console, with the moment they were found."""
        for u in self.units:
            text = u.console()
            old = self.seen.get(u.index, 0)
            new = text[old:]
            self.seen[u.index] = len(text)
            k = new.find("Traceback")
            while k >= 0:
                tail = [l for l in new[k:].splitlines() if l.strip()][1:8]
                self.tracebacks.append({"unit": u.index, "at_s": self.at(),
                                        "lines": [l.strip()[:160] for l in tail[-4:]]})
                k = new.find("Traceback", k + 1)

    # ---- what people do ----------------------------------------------------------------
    def tidy(self):
        """What a person does without thinking: closes a menu opened by a stray key, goes back
        to a game from its log, resumes a game waiting at home, and lets a player whose keys
        went astray (a stray key moved its cursor) go on: its unit is restarted, as a person
        picks the game up again."""
        for u in self.units:
            if not u.alive():
                continue
            t = u.text
            top = t[0] if t else ""
            try:
                if top in ("Paused", "Game log"):
                    self.press(u, "BACK")
                elif top in NOTICES:
                    self.press(u, "OK")
                elif _at_home(u):
                    self.resume(u)
                c = u.hub.conn(u.index)
                if c is not None and c.ux is not None and "error" in c.ux:
                    self.player_errors.append({"unit": u.index, "at_s": self.at(),
                                               "error": str(c.ux["error"])[:200]})
                    c.ux = None
                    u.reboot()
            except FathomError:
                pass  # the screen moved on under the key: the next look decides again

    def resume(self, u):
        """Home menu, the game just played under the cursor: OK, then Resume game."""
        self.press(u, "OK")
        if (u.selected() or "").startswith("Resume game"):
            self.press(u, "OK")
        elif any("Resume game" in l for l in u.text):
            catch_up(u)
            u.choose("Resume game")

    # ---- faults ------------------------------------------------------------------------
    def fault(self):
        kind = _pick(self.rng, self.faults)
        u = self.rng.choice(self.units)
        self.done.append([self.at(), kind, u.index])
        if not u.alive():
            u.start()
            return
        if kind in ("press", "leave") and self.ended(u):
            return  # its game is over: a key there starts another
        if kind == "press":
            self.press(u, self.rng.choice(KEYS))
        elif kind == "leave":
            self.leave(u)
        elif kind == "reboot":
            u.stop()
            u.start()
        elif kind == "kill":
            u.kill()
            u.start()
        elif kind == "cut":
            u.kill()
            _cut(u, self.rng)
            u.start()
        elif kind == "link":
            u.kill()
            _damage_link(u, self.rng)
            u.start()

    def leave(self, u):
        """Leave (keep) from the pause menu, away a while, then Resume game."""
        t = u.text
        if not t or t[0] in END_SCREENS or t[0] == "Paused":
            return
        self.press(u, "BACK")
        if not u.text or u.text[0] != "Paused":
            return
        catch_up(u)
        u.choose("Leave (keep)")
        if u.text and u.text[0] == "Leave the group?":   # a group's game asks once
            u.choose("Leave")
        u.wait(lambda c: c.text and c.text[0] != "Leaving", 30, "leaving")
        time.sleep(self.rng.uniform(*AWAY_S))
        if _at_home(u):
            self.resume(u)

    # ---- the game ----------------------------------------------------------------------
    def run(self):
        """Play until every unit has ended; returns None, or the stall's description."""
        sizes = self.journal_sizes()
        moved = time.monotonic()
        nxt = time.monotonic() + self.rng.uniform(0.2, 1.0)  # the first one early:
        while True:                                             # a short game ends
            self.scan()
            if self.all_ended():
                return None
            now = time.monotonic()
            s = self.journal_sizes()
            if s != sizes:
                sizes, moved = s, now
            if now - moved >= STALL_S or now - self.t0 >= GAME_S:
                return {"at_s": self.at(), "screens": [u.text[:3] for u in self.units],
                        "journals": s}
            if now >= nxt and len(self.done) < self.max_faults:
                try:
                    self.fault()
                except FathomError as e:  # a unit's screen moved under the fault: noted
                    self.done[-1].append(str(e).splitlines()[0][:120])
                nxt = time.monotonic() + self.rng.uniform(*self.gap)
            self.tidy()
            time.sleep(0.5)


def _pick(rng, weighted):
    total = sum(w for _k, w in weighted)
    x = rng.uniform(0, total)
    for k, w in weighted:
        x -= w
        if x <= 0:
            return k
    return weighted[-1][0]


def _cut(u, rng):
    """The save loses its tail: cut at a random byte past its first half."""
    p = u.dir / "data" / "game"
    if not p.exists():
        return
    data = p.read_bytes()
    if len(data) > 2:
        p.write_bytes(data[:rng.randrange(len(data) // 2, len(data) - 1)])


def _damage_link(u, rng):
    """A bad flash cell in the link record (the channel's keys and counters), or in one of a
    group host's records of its partners."""
    paths = sorted((u.dir / "data").glob("link*"))
    paths = [p for p in paths if not p.name.endswith(".bad")]
    if not paths:
        return
    p = rng.choice(paths)
    data = bytearray(p.read_bytes())
    if data:
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        p.write_bytes(bytes(data))


def _at_home(u):
    """The home menu with this unit's game saved (Resume game one OK away)."""
    t = u.text
    return bool(t) and t[0] == "fathom" and (u.dir / "data" / "game").exists()


def outcome(units, last_end):
    """verified | conceded | void | unsaid (a unit showed no screen that says how its game
    ended), and the sentences the screens end on (or last showed)."""
    texts = [u.text if u.text[:1] == ["Result"] else last_end.get(u.index, u.text)
             for u in units]
    if all(t[:1] == ["Result"] and "verified" in t for t in texts):
        return "verified", []
    words = [" ".join(t[:4]) for t in texts]
    if any(not t or t[0] not in SAID for t in texts):
        return "unsaid", words
    if any("conced" in w.lower() for w in words):
        return "conceded", words
    return "void", words


def play_game(gid, n, options, seed, workdir, plan):
    """One game of the case from pairing to its end on every unit; a row of what happened."""
    with Ether(seed=seed) as ether:
        emu = Emulator(n, workdir=workdir, ether=ether, env={"FATHOM_LINK": "espnow"})
        try:
            for u, level in zip(emu.units, levels(gid, n)):
                u.extra_env.update(player_env("easy" if n > 2 else level))
                u.extra_env.update(FAST)
                u.start(wait=False)
            for u in emu.units:
                u.wait(lambda c: c.text and c.screen is not None, 60, "boot")
            if n == 2:
                pair(emu.units, title(gid))
            else:
                pair_group(emu.units, title(gid), options=set_options(options))
            for u in emu.units:
                u.wait(lambda c: c.text and c.text[0].startswith(title(gid)), 120, "the game")
            g = Game(emu, seed, plan)
            stall = g.run()
            g.scan()
            row = {"seed": seed, "faults": g.done, "tracebacks": g.tracebacks,
                   "player_errors": g.player_errors, "took_s": g.at()}
            if stall is not None:
                row["stall"] = stall
            else:
                row["ended"], row["sentences"] = outcome(emu.units, g.last_end)
            return row
        finally:
            emu.close()


def bench_case(name, gid, n, options, seed, games, plan):
    """`games` games of one case, game g from seed + g; plan: (faults and their weights, the
    most per game, the gap between two)."""
    out = {"games": 0, "verified": 0, "conceded": 0, "void": 0, "unsaid": 0, "stalls": 0,
           "tracebacks": 0,
           "player_errors": 0, "not_started": 0, "stalled": [], "traced": [], "voids": [],
           "faults": 0, "game_s": []}
    base = pathlib.Path(tempfile.mkdtemp(prefix="fathom-chaos-"))
    try:
        for k in range(games):
            s = seed + k
            try:
                row = play_game(gid, n, options, s, base / ("g%d" % k), plan)
            except FathomError as e:  # pairing failed: no game to count, said with its seed
                out["not_started"] += 1
                out.setdefault("start_errors", []).append(
                    {"seed": s, "error": str(e).splitlines()[0][:200]})
                continue
            # a long bench says how it goes, on stderr (stdout holds the figures)
            print("chaos %s game %d (seed %d): %s in %.0f s, %d faults, %d tracebacks" % (
                name, k + 1, s, "STALL" if "stall" in row else row["ended"], row["took_s"],
                len(row["faults"]), len(row["tracebacks"])), file=sys.stderr, flush=True)
            out["games"] += 1
            out["faults"] += len(row["faults"])
            for f in row["faults"]:
                kinds = out.setdefault("fault_kinds", {})
                kinds[f[1]] = kinds.get(f[1], 0) + 1
            out["game_s"].append(row["took_s"])
            out["player_errors"] += len(row["player_errors"])
            if row["player_errors"]:  # a stray key's doing, most often: said, not counted a fault
                out.setdefault("player_errored", []).append({"seed": s, "errors":
                                                             row["player_errors"]})
            if row["tracebacks"]:
                out["tracebacks"] += len(row["tracebacks"])
                out["traced"].append({"seed": s, "case": name, "tracebacks": row["tracebacks"],
                                      "faults": row["faults"]})
            if "stall" in row:
                out["stalls"] += 1
                out["stalled"].append({"seed": s, "case": name, "stall": row["stall"],
                                       "faults": row["faults"]})
                continue
            out[row["ended"]] += 1
            if row["ended"] in ("void", "unsaid"):
                out["voids"].append({"seed": s, "sentences": row["sentences"],
                                     "faults": row["faults"], "ended": row["ended"]})
    finally:
        shutil.rmtree(str(base), ignore_errors=True)
    return out


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--games", type=int, default=None, help="games per case (default 20)")
    p.add_argument("--seed", type=int, default=None,
                   help="the seed of the faults' schedule (default: a new one, printed)")
    p.add_argument("--case", default=None,
                   help="only this case (a game on 2 units, or GAME_N, a group of N: "
                        "sugardog_3); with --seed and --games 1, a stall or traceback again")
    runtime_option(p)


def collect(args):
    fast = getattr(args, "fast", False)
    planned = cases()
    names = list(fast_cases() if fast else planned)
    case = getattr(args, "case", None)
    if case:
        if case not in planned:
            raise FathomError("no chaos case %r: choose from %s" % (case, ", ".join(planned)))
        names = [case]
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10 ** 6)
    print("fathom bench chaos: seed %d (again: --seed %d)" % (seed, seed), flush=True)
    games = 1 if fast and not getattr(args, "games_given", False) else args.games
    plan = (FAST_FAULTS, FAST_MAX_FAULTS, FAST_GAP_S) if fast else (FAULTS, MAX_FAULTS, GAP_S)
    out = {"seed": seed, "stall_s": STALL_S, "cases": {}}
    for k, name in enumerate(names):
        gid, n, options = planned[name]
        # each case its own seeds: game g of case k plays seed + 1000 k + g
        out["cases"][name] = bench_case(name, gid, n, options, seed + 1000 * k, games, plan)
    return out
