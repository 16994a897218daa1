# Sugar Dog end to end: two and three emulated units over the ether's ESP-NOW, paired through
# their keys, then played through their keys by each unit's own scripted player (a sharp bot
# decides, the screen's keys_for says which keys), every unit ending on a verified result. Then the capture of
# everything that went on the air is read back: no frame may carry a submarine's position
# before the rules make it public.
import time

import pytest

from fathom_host.emulator.drive import finished, play_out, player_env
from kit.e2e import fleet, set_calm, start_group
from fathom.codec import decode
from fathom.games.sugardog import engine as S
from fathom.games.seat import apply_event, fresh_state, step_kind
from kit.capture import keyed_messages
from kit.savefile import unit_game
from fathom_host.emulator.drive import choose_each_other, confirm_code

pytestmark = pytest.mark.slow

TITLE = "Sugar Dog"


def pair_two(units):
    for u in units:  # both propose the game: the same options on both
        u.choose(TITLE)
        set_calm(u)
        u.choose("vs other unit")
        u.wait_text("Players", 10)
        u.choose("2 players")
    choose_each_other(units)
    confirm_code(*units)


def saved_game(emu, i):
    return unit_game(emu.workdir / ("unit%d" % i))


def messages(capture):
    """Every keyed message on the air, decoded: [(capture index, src unit, message)]."""
    out = []
    for k, src, data in keyed_messages(capture):
        try:
            out.append((k, src, decode(data)))
        except Exception:
            pass  # not a codec value: nothing of a game's
    return out


def squares_named(ev, size):
    tag = ev[0]
    if tag in ("c",):
        return [ev[1]]
    if tag == "f":
        return [ev[1], S.step(size, ev[1], (ev[2] + 2) % 4)]
    if tag in ("s", "e"):
        return [ev[1]] + list(ev[2])
    if tag == "a":
        return list(ev[1])
    return []


def announces_own(ev):
    """Events by which the rules make the author's own square public."""
    return ev[0] in ("c", "f", "s", "e") or (ev[0] == "a" and ev[2] == 2)


def check_secrecy(emu, capture, n):
    saves = [saved_game(emu, i) for i in range(n)]
    seat0 = saves[0]["seat"]
    log = [(a, e) for a, e in seat0["log"]]
    for sv in saves:
        assert [(a, e) for a, e in sv["seat"]["log"]] == log
    player_of = dict((i, sv["seat"]["player"]) for i, sv in enumerate(saves))
    reveals = {}
    for sv in saves:
        for p, r in sv["reveals"].items():
            reveals[int(p)] = r
    assert sorted(reveals) == list(range(n))
    eng = S.ENGINE
    opts, seed = seat0["opts"], seat0["seed"]
    size = S.map_size(n)
    # each player's position while each event was authored, from the final reveals
    for p in range(n):
        salt, choices, actions = reveals[p]
        pub, priv = fresh_state(eng, opts, n, seed, p)
        for c in choices:
            eng.setup_apply(pub, priv, p, c)
        actions = list(actions)
        setups = {}
        for i, (author, ev) in enumerate(log):
            kind = step_kind(eng, pub, author, ev, n, setups)
            before = priv["pos"]
            if kind == "setup":
                if author == p:
                    assert ev[1] is None and len(ev) == 3 and len(ev[2]) == 32
                eng.apply(pub, author, ev)
                setups[author] = ev[2]
                continue
            if author == p and kind == "act":
                assert eng.act(pub, priv, p, actions.pop(0)) == ev
            elif author == p and kind == "answer":
                assert eng.answer(pub, priv, p) == ev
            if author == p:
                if ev[0] == "q":
                    assert ev == ["q"]  # a quiet turn is a constant: nothing to read
                named = squares_named(ev, size)
                for q in (before, priv["pos"]):
                    if q in named:
                        assert announces_own(ev), (i, ev, q)
            apply_event(eng, pub, priv, p, author, ev, kind)
    # what crossed the air: log events verbatim, syncs, and reveals only after the last event
    msgs = messages(capture)
    last_event_at = None
    seen_games = 0
    for k, src, m in msgs:
        if not isinstance(m, list) or not m or m[0] not in ("ev", "sync", "rev"):
            continue
        seen_games += 1
        if m[0] == "ev":
            # a group's events carry the author's end-to-end tags (PROTOCOL.md section 9)
            assert [m[2], m[3]] == list(log[m[1]]) and len(m) == (6 if n == 2 else 7), m
            if m[1] == len(log) - 1 and last_event_at is None:
                last_event_at = k
        elif m[0] == "sync":
            assert len(m) == 3 and isinstance(m[1], int) and len(m[2]) == 8
    assert seen_games > len(log)
    assert last_event_at is not None
    for k, src, m in msgs:
        if isinstance(m, list) and m and m[0] in ("rev", "ra"):
            # the reveal holds the start square and every move: only once the game is over
            assert k > last_event_at, (k, last_event_at, src)
            assert m[1] in (player_of[src],) or n > 2  # the host relays the others' reveals
    return log


LEVELS = ("sharp", "easy")


def run_game(tmp_path, n, seed):
    with fleet(tmp_path, n, seed) as emu:
        units = emu.units
        for u in units:  # a sharp player and easy ones: sharp pairs often sink in a turn or two
            u.extra_env.update(player_env(LEVELS[min(u.index, 1)]))
        t0 = time.monotonic()
        if n == 2:
            emu.start()
            pair_two(units)
            for u in units:
                u.wait(lambda c: c.text and c.text[0].startswith(TITLE), 60, "game screen")
        else:  # units[0] hosts; the group code on every screen: no host in the middle
            start_group(units, TITLE, options=set_calm, limit=60)
        paired = time.monotonic() - t0
        results, reports = play_out(units, timeout=300)
        for u, lines in zip(units, results):
            assert finished(u)
            assert any("verified" in l for l in lines), lines
        assert all(r["presses"] and min(r["presses"]) >= 1 for r in reports), reports
        log = check_secrecy(emu, list(emu.ether.capture), n)
        presses = [k for r in reports for k in r["presses"]]
        print("sugardog %d units: paired in %.1f s, %d choices in %d presses, %d events, "
              "%.1f s total" % (n, paired, len(presses), sum(presses), len(log),
                                time.monotonic() - t0))
        return results


def test_two_units_play_sugar_dog_through_their_keys(tmp_path):
    results = run_game(tmp_path, 2, 3)
    heads = sorted(r[1] for r in results)
    assert heads in (["Draw", "Draw"], ["You lose", "You win"])


def test_three_units_play_sugar_dog_as_a_group(tmp_path):
    results = run_game(tmp_path, 3, 5)
    heads = [r[1] for r in results]
    assert heads.count("You win") <= 1
    assert heads.count("Draw") in (0, 3)
