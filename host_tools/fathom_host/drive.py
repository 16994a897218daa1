# Drives emulated units through their keys, reading only what the screens report: the same
# path a person's thumbs take (Pin twins, debounce, the UI), nothing injected. Tests and benches.
import random
import time

from fathom_host import FathomError

NEAR = 3  # the default policy picks among choices this close to the cursor: few key presses


def game_choices(lines):
    """(cursor index, [choice labels]) from a game screen's semantic lines, or None."""
    if not lines:
        return None
    labels = [l[1:] for l in lines[1:] if l[:1] in (">", " ")]
    if not labels:
        return None
    cur = [i for i, l in enumerate(l for l in lines[1:] if l[:1] in (">", " "))
           if l.startswith(">")]
    return (cur[0] if cur else 0), labels


def near_random(rng):
    def pick(cursor, labels, lines):
        n = len(labels)
        return (cursor + rng.randint(-min(NEAR, n // 2), min(NEAR, n // 2))) % n
    return pick


def move_to(unit, cursor, target, n):
    down = (target - cursor) % n
    up = (cursor - target) % n
    key, count = ("DOWN", down) if down <= up else ("UP", up)
    for _ in range(count):
        unit.press(key)


def finished(unit):
    t = unit.text
    return bool(t) and t[0] == "Result" and not any("audit: waiting" in l for l in t)


def play_through_keys(units, seed=1, picks=None, timeout=600, title_check=None):
    """Until every unit shows its result with the audit done: each unit whose screen lists
    choices picks one (policy per unit, default near_random) and plays it with DOWN/UP/OK.
    Returns each unit's result lines."""
    picks = picks or [near_random(random.Random(seed * 31 + i)) for i in range(len(units))]
    end = time.monotonic() + timeout
    moves = 0
    while not all(finished(u) for u in units):
        if time.monotonic() > end:
            raise FathomError("game did not finish; screens:\n%s" % "\n\n".join(
                "\n".join(u.text) for u in units))
        acted = False
        for i, u in enumerate(units):
            lines = u.text
            if not lines or lines[0] in ("Result", "DESYNC", "Paused"):
                continue
            if title_check:
                title_check(lines[0])
            got = game_choices(lines)
            if got is None:
                continue
            cursor, labels = got
            target = picks[i](cursor, labels, lines)
            move_to(u, cursor, target, len(labels))
            u.press("OK")
            moves += 1
            acted = True
        if not acted:
            time.sleep(0.05)
    return [u.text for u in units], moves


def open_link(u, game_title):
    """Game menu -> the link entry ("vs other unit", or "with other unit" in a cooperative
    game) -> "2 players" where the game offers a Players menu."""
    u.choose(game_title)
    label = "vs other unit" if any("vs other unit" in l for l in u.text) else "with other unit"
    u.choose(label)
    if u.text and u.text[0] == "Players":
        u.choose("2 players")


def pair(units, game_title):
    """Choose the game on every unit, pick the partner and confirm the code on both."""
    for u in units:
        open_link(u, game_title)
    for u in units:
        u.wait_text("Choose a unit", 30)
    for u in units:
        u.press("OK")
    for u in units:
        u.wait_text("Code", 60)
    codes = [[l for l in u.text if l.startswith("Code")][0] for u in units]
    assert len(set(codes)) == 1, codes
    for u in units:
        u.press("OK")


def pair_uart(units, game_title):
    """Over the cable there is no list and no code: the cable is the pairing."""
    for u in units:
        open_link(u, game_title)
