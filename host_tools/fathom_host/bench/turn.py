# `fathom bench turn`: the time from the key press that commits a move on one unit to the moment
# every other unit's panel shows it, over the ether's ESP-NOW and UART, with the frames and bytes
# the turn puts on the air. Units are paired through their keys; each runs the scripted player of
# `fathom bench ux` (hostmodes/uxplayer) in its `host` form: its bot picks the action, the unit
# announces the keys that author it, and the host presses them, timing the last (the press that
# commits the action) from the instant its pin goes down (stamped by the unit's hub on its own
# clock, so the scripted finger's wait for the previous key's release is not counted, and
# whatever the firmware does after the pin falls is: debounce, a key acting on release, the
# loop) to the moment the last partner's panel text changed (stamped on arrival). Nothing moves
# on any unit but what the host presses, so a panel that changes while a press is timed changed
# because of it. In a group (--units N) the host relays
# every event, so a partner's move crosses the air twice before it reaches another partner.
import statistics
import time

from fathom_host import FathomError, use_firmware
from fathom_host.bench import p90
from fathom_host.emulator.units import BOOT_TIMEOUT_S, Emulator

LINKS = ("espnow", "uart")
LOSSES = (0.0, 0.1, 0.3)
SHOW_S = 10           # a move that reaches no panel in this long is not timed
SETTLE_S = 0.3        # answers and acks of the last move settle before the next is timed
FAST_TURNS = 4        # turns per case in the fast form (`make test`)


def two_player_games():
    use_firmware()
    from fathom import games
    return [g for g in games.IDS if games.declaration(g).PLAYERS[0] <= 2
            <= games.declaration(g).PLAYERS[1]]


def _report(u):
    c = u.hub.conn(u.index)
    return c.ux if c is not None else None


def _start(gid, n, link, ether):
    """n booted units paired for `gid` (a group of n when n > 2), each with its scripted
    player in host form; the caller closes the emulator."""
    from fathom import games
    from fathom_host.emulator.drive import pair, pair_group, pair_uart
    title = games.declaration(gid).TITLE
    emu = Emulator(n, ether=ether, env={"FATHOM_LINK": link,
                                        "FATHOM_UXPLAYER": "level=sharp,host"})
    try:
        for u in emu.units:
            u.start(wait=False)
        for u in emu.units:
            u.wait(lambda c: c.text and c.screen is not None, BOOT_TIMEOUT_S, "boot")
        if n > 2:
            pair_group(emu.units, title)
        elif link == "uart":
            pair_uart(emu.units, title)
        else:
            pair(emu.units, title)
    except BaseException:
        emu.close()
        raise
    return emu


def measure(units, ether, link, turns, timeout_s):
    """Play until `turns` moves were timed, the game ended or `timeout_s` passed."""
    from fathom_host.bench.metrics import metrics
    lat, frames, nbytes, queued, panel = [], [], [], [], []
    seen = {u.index: 0 for u in units}
    untimed = 0
    end = time.monotonic() + timeout_s
    hub = units[0].hub
    while len(lat) < turns and time.monotonic() < end:
        reports = [_report(u) for u in units]
        bad = [r for r in reports if r is not None and "error" in r]
        if bad:
            raise FathomError("a scripted player failed: %s" % bad[0]["error"])
        if any(r is not None and "result" in r for r in reports):
            break
        ready = [(u, r) for u, r in zip(units, reports)
                 if r is not None and r.get("ready", 0) > seen[u.index]]
        if not ready:
            with hub.cond:
                hub.cond.wait(0.2)
            continue
        u, r = ready[0]
        seen[u.index] = r["ready"]
        keys = r["keys"]
        for k in keys[:-1]:
            u.press(k)
        if r["setup"]:  # a secret set-up choice: nothing the partner's panel shows
            u.press(keys[-1])
            continue
        others = [o for o in units if o is not u]
        with hub.cond:
            for o in others:
                hub.conn(o.index).changed_at = None
            downs = hub.conn(u.index).downs
        i2c0 = [int(metrics(o)["i2c"]) for o in others]
        c0 = dict(ether.counters[link])
        asked = time.monotonic()
        u.press(keys[-1], wait=False)
        try:  # timed from the pin going down (the unit's stamp) to the last panel's change
            t0 = u.wait(lambda c: c.downs > downs, SHOW_S, "the press").down_at
            t1 = max(o.wait(lambda c: c.changed_at is not None, SHOW_S,
                            "the move to show").changed_at for o in others)
        except FathomError:
            untimed += 1
            continue
        dt = t1 - t0
        if dt < 0:  # a partner's panel moved before the press: not this move's time
            untimed += 1
            continue
        time.sleep(SETTLE_S)
        c1 = ether.counters[link]
        lat.append(dt * 1000)
        queued.append((t0 - asked) * 1000)
        frames.append(c1["sent"] - c0["sent"])
        nbytes.append(c1["bytes"] - c0["bytes"])
        # what the partner's panel took over I2C for the move (bench path's I2C term)
        panel.append(max(int(metrics(o)["i2c"]) - b for o, b in zip(others, i2c0)))
    if not lat:
        return {"error": "no turn measured (%d moves reached no panel in %d s)" % (
            untimed, SHOW_S)}
    return {"turns": len(lat), "untimed": untimed,
            "press_to_other_panel_ms_median": round(statistics.median(lat), 1),
            "press_to_other_panel_ms_p90": round(p90(lat), 1),
            "press_to_other_panel_ms_max": round(max(lat), 1),
            # not in the figures above: the scripted finger finishing the keys before it
            "asked_to_pin_down_ms_median": round(statistics.median(queued), 1),
            "frames_per_turn_median": statistics.median(frames),
            "bytes_per_turn_median": statistics.median(nbytes),
            "partner_panel_i2c_bytes_median": statistics.median(panel),
            "partner_panel_i2c_bytes_max": max(panel)}


def run_case(gid, n, link, loss, turns, timeout_s):
    """One game of `gid` on n units over `link`, paired on a clean link, then timed at `loss`."""
    from fathom_host.emulator.ether import Ether
    ether = Ether(seed=1)
    ether.start()
    try:
        try:
            emu = _start(gid, n, link, ether)
        except FathomError as e:
            return {"error": "pairing: %s" % str(e).splitlines()[0]}
        try:
            ether.set(loss=loss)
            out = measure(emu.units, ether, link, turns, timeout_s)
        finally:
            emu.close()
    finally:
        ether.stop()
    out["loss"] = loss
    return out


def add_arguments(p):
    from fathom_host.bench import runtime_option
    p.add_argument("--game", default=None, help="only this game (default every game two units "
                                                "play; for a group, the first game that takes it)")
    p.add_argument("--presses", type=int, default=30, help="moves timed per game and link")
    p.add_argument("--units", type=int, default=None,
                   help="N units (a group of N over ESP-NOW, the game's Players menu, when "
                        "N > 2): the press on one unit to the last other unit's panel")
    p.add_argument("--loss", default=None,
                   help="the ether's loss once the units are paired, 0..1, or 'all' for 0, 0.1 "
                        "and 0.3 (default 0)")
    runtime_option(p)


def collect(args):
    """Every two-player game (or --game) over both links, or a group of --units over ESP-NOW;
    at --loss, or at 0 %, 10 % and 30 % with --loss all."""
    use_firmware()
    from fathom import games
    n = getattr(args, "units", None) or 2
    turns = args.presses
    fast = getattr(args, "fast", False)
    if fast:
        turns = min(turns, FAST_TURNS)
    loss = getattr(args, "loss", None)
    try:
        losses = LOSSES if loss == "all" else (float(loss or 0.0),)
    except ValueError:
        raise FathomError("--loss is a fraction 0..1 or 'all', not %r" % loss)
    if not all(0.0 <= x < 1.0 for x in losses):
        raise FathomError("--loss is a fraction from 0 up to (not including) 1, not %r" % loss)
    if getattr(args, "game_given", False):
        gids = [args.game]
    elif n > 2:
        gids = [g for g in games.IDS if games.declaration(g).PLAYERS[1] >= n][:1]
        if not gids:
            raise FathomError("no game takes %d units" % n)
    else:
        gids = two_player_games()[:1] if fast else two_player_games()
    links = LINKS if n == 2 else ("espnow",)   # a group is a radio affair: no cable joins 3
    out = {}
    for gid in gids:
        lo, hi = games.declaration(gid).PLAYERS
        if not max(lo, 2) <= n <= hi:
            raise FathomError("%s takes %d to %d units on a link" % (gid, max(lo, 2), hi))
        for link in links:
            for x in losses:
                key = "%s_%s%s_loss%d" % (gid, link, "" if n == 2 else "_%d" % n, round(x * 100))
                out[key] = run_case(gid, n, link, x, turns, 120 + 20 * turns)
    return out
