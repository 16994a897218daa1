# Playing Sugar Dog through its keys from what the screen says (its lines()) alone: on the map,
# pick a square listed under "acts", walk the cursor there with the arrows and press OK; in a
# square's menu, pick a line and press OK. Only the screen's text is read (test_ui_sugardog
# checks the text is enough to play by); the end-to-end tests play with the units' own
# scripted players instead (hostmodes/uxplayer).
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _square(name):
    return LETTERS.index(name[0]), int(name[1:]) - 1


def board(lines):
    """(cursor square name, [square names with actions]) on the map, or None (menu, result)."""
    at = [l for l in lines if l.startswith("at ")]
    acts = [l for l in lines if l.startswith("acts")]
    if not at or not acts:
        return None
    return at[0].split()[1], acts[0].split()[1:]


def menu(lines):
    """(cursor, labels) of an open square menu, or None."""
    labels = [l[1:] for l in lines[2:] if l[:1] in (">", " ")]
    if not lines or not lines[1:2] or not lines[1].startswith("at ") or not labels:
        return None
    cur = [i for i, l in enumerate(l for l in lines[2:] if l[:1] in (">", " "))
           if l.startswith(">")]
    return (cur[0] if cur else 0), labels


def walk(src, dst):
    """Arrow keys from square src to square dst (letters across, numbers up)."""
    x0, y0 = _square(src)
    x1, y1 = _square(dst)
    keys = ["RIGHT"] * (x1 - x0) if x1 >= x0 else ["LEFT"] * (x0 - x1)
    return keys + (["UP"] * (y1 - y0) if y1 >= y0 else ["DOWN"] * (y0 - y1))


def policy(rng):
    """Keys for the next step, or None when the screen offers nothing: short games, mostly
    torpedoes and pings (they find and sink), some quiet moves. rng: random.Random, or
    anything with randrange(n) and choice(seq) (fathom.prng.Prng under MicroPython)."""
    def keys(lines):
        m = menu(lines)
        if m is not None:
            cur, labels = m
            r = rng.randrange(20)
            want = "Torpedo" if r < 7 else ("Sonar" if r < 10 else None)
            idx = [i for i, l in enumerate(labels) if want and l.startswith(want)]
            target = rng.choice(idx) if idx else rng.randrange(len(labels))
            return ["DOWN"] * ((target - cur) % len(labels)) + ["OK"]
        b = board(lines)
        if b is None or not b[1]:
            return None
        at, acts = b
        return walk(at, rng.choice(acts)) + ["OK"]
    return keys
