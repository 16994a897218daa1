# `fathom bench turn --game sugardog --units N`: in a group of N emulated units over the ether's
# ESP-NOW, the time from the key press that commits a move on one unit to the moment the LAST
# other unit's panel has changed (the host relays every event, so a partner's move crosses the
# radio twice before it reaches another partner). Units are paired and played through their
# keys; the board is read from the screen's semantic lines ("Your move", "at C3", "acts ...").
import statistics
import time

from fathom_host import FathomError
from fathom_host.units import Emulator

GROUP_HEAP = "768k"   # as the group end-to-end tests: a partner audits every other player
SETTLE_S = 0.3        # answers and acks of the last move settle before the next is timed


def _lines(u):
    return u.text or []


def _to_act(u):
    t = _lines(u)
    return bool(t) and ("Your move" in t[0] or "Your start" in t[0])


def _menu_open(u):
    t = _lines(u)
    return len(t) > 1 and t[1].startswith("at ") and any(l[:1] == ">" for l in t[2:])


def bench_group_turn(args, n):
    from fathom import games
    from fathom_host.drive import pair, pair_group
    from fathom_host.ether import Ether
    gid = args.game
    top = games.declaration(gid).PLAYERS[1]
    if not 2 <= n <= top:
        raise FathomError("%s takes 2 to %d units on a link" % (gid, top))
    title = games.declaration(gid).TITLE
    ether = Ether(seed=1)
    ether.start()
    emu = Emulator(n, ether=ether, env={"FATHOM_LINK": "espnow"})
    try:
        for u in emu.units:
            u.start(heap=GROUP_HEAP, wait=False)
        for u in emu.units:
            u.wait(lambda c: c.text and c.screen is not None, 60, "boot")
        if n == 2:
            pair(emu.units, title)
        else:
            pair_group(emu.units, title)
        for u in emu.units:
            u.wait(lambda c: c.text and c.text[0].startswith(title), 120, "the game screen")
        return measure_group(emu.units, ether, args.presses)
    finally:
        emu.close()
        ether.stop()


def measure_group(units, ether, turns):
    lat, frames, nbytes = [], [], []
    deadline = time.monotonic() + 120 + 20 * turns
    while len(lat) < turns and time.monotonic() < deadline:
        if any(_lines(u)[:1] == ["Result"] for u in units):
            break
        acting = [u for u in units if _to_act(u)]
        if not acting:
            time.sleep(0.05)
            continue
        u = acting[0]
        setup = "Your start" in _lines(u)[0]
        if setup:  # a secret start square: nothing crosses the link but a commitment
            for _ in range(u.index):  # spread the starts over the map
                u.press("DOWN")
            u.press("OK")
            continue
        u.press("OK")  # on the submarine: acts at once, or opens the square's menu
        if not _menu_open(u):
            continue   # it acted already (one choice there): untimed, the next one is
        others = [o for o in units if o is not u]
        before = [o.text for o in others]
        c0 = dict(ether.counters["espnow"])
        t0 = time.monotonic()
        u.press("OK", wait=False)  # the menu's first move: the committing press
        try:  # each wait returns at once if that panel changed already: this ends at the last
            for o, b in zip(others, before):
                o.wait(lambda c, b=b: c.text != b, 15, "the move to show")
        except FathomError:
            continue
        dt = time.monotonic() - t0
        time.sleep(SETTLE_S)
        c1 = ether.counters["espnow"]
        lat.append(dt * 1000)
        frames.append(c1["sent"] - c0["sent"])
        nbytes.append(c1["bytes"] - c0["bytes"])
    if not lat:
        return {"error": "no turn measured"}
    return {"units": len(units), "turns": len(lat),
            "press_to_last_panel_ms_median": round(statistics.median(lat), 1),
            "press_to_last_panel_ms_max": round(max(lat), 1),
            "frames_per_turn_median": statistics.median(frames),
            "bytes_per_turn_median": statistics.median(nbytes)}
