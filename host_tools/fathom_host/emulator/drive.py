# Drives emulated units through their keys, reading only what the screens report: the same
# path a person's thumbs take (Pin twins, debounce, the UI), nothing injected. Tests and benches.
# Whole games are played by each unit's own scripted player (play_out, player_env: a bot
# decides inside the unit, its screen's keys_for says which keys); play_through_keys, which
# reads a flat list of choice lines, remains for screens that still show one (Periplus's).
import time

from fathom_host import FathomError


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


def move_to(unit, cursor, target, n):
    down = (target - cursor) % n
    up = (cursor - target) % n
    key, count = ("DOWN", down) if down <= up else ("UP", up)
    for _ in range(count):
        unit.press(key)


def finished(unit):
    t = unit.text
    return bool(t) and t[0] == "Result" and not any("audit: waiting" in l for l in t)


# ---- the units' own scripted players (firmware/hostmodes/uxplayer) --------------------------
def player_env(level="sharp", hold=False, moves=None):
    """The environment that starts a unit's scripted player: it plays whatever game comes on
    top (after the test paired the units through the keys), choosing as the bot `level`
    would; `hold` keeps it still until release(); `moves` stops it (and it reports) after
    that many choices."""
    spec = "level=" + level + (",hold" if hold else "") + (
        ",moves=%d" % moves if moves is not None else "")
    return {"FATHOM_UXPLAYER": spec}


def release(units):
    """Let held players play (hold: the test looked at the game's pages first)."""
    for u in units:
        (u.dir / "uxplayer.go").write_bytes(b"")


def _report(u):
    c = u.hub.conn(u.index)
    return c.ux if c is not None else None


def _screens(units):
    out = []
    for u in units:
        out.append("unit %d, player %r:\n%s" % (u.index, _report(u), "\n".join(u.text)))
        if not u.alive():
            out.append("unit %d is not running:\n%s" % (u.index, u.console()[-2000:]))
    return "\n\n".join(out)


def play_out(units, timeout=600):
    """Until every unit shows its result with the audit done and its scripted player
    (started with player_env) has reported the game: the units play through their own keys.
    Fails at once, with every screen and every player's report, when a player reports an
    error or a unit stops running. Returns (result lines, reports) per unit, and forgets the
    reports so that a next game's play_out waits for that game's own."""
    for u in units:
        if "FATHOM_UXPLAYER" not in u.extra_env:
            raise FathomError("unit %d has no scripted player: start it with "
                              "env=drive.player_env()" % u.index)
    end = time.monotonic() + timeout
    hub = units[0].hub
    while True:
        reports = [_report(u) for u in units]
        if any(r is not None and "error" in r for r in reports) or not all(
                u.alive() for u in units):
            raise FathomError("a scripted player failed:\n" + _screens(units))
        if all(r is not None for r in reports) and all(finished(u) for u in units):
            break
        if time.monotonic() > end:
            raise FathomError("game did not finish in %d s:\n%s" % (timeout, _screens(units)))
        with hub.cond:  # woken by any screen or report a unit ships
            hub.cond.wait(0.5)
    for u in units:
        u.hub.conn(u.index).ux = None
        catch_up(u)
    return [u.text for u in units], reports


def catch_up(u):
    """Before pressing a key on a unit whose scripted player pressed some: the unit counts
    every key it handles, its player's too, and Unit.press waits for that count to reach the
    host's own. Catch the host's count up, or the next press would return before the unit
    saw it. The round trip first: the unit ships a key's count after the screen it led to,
    so a count read as soon as that screen shows may be one short."""
    c = u.sync()
    u.keys_sent = max(u.keys_sent, c.keys)


def play_through_keys(units, seed, picks, timeout=600, title_check=None):
    """Until every unit shows its result with the audit done: each unit whose screen lists
    choices picks one (picks[i](cursor, labels, lines) -> index) and plays it with DOWN/UP/OK.
    Returns each unit's result lines and the number of choices made."""
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
    choose_each_other(units)
    confirm_code(*units)


def choose_each_other(units):
    """Both units list each other before either chooses. A unit chosen before it listed the
    other skips its list ("... chose this unit"), so waiting for one list after the other
    chose would wait for a screen that never comes. An OK that lands once the other's choice
    did is harmless: the connecting screen takes no key."""
    for u in units:
        u.wait_text("Choose a unit", 30)
    for u in units:
        u.press("OK")


def pair_uart(units, game_title):
    """Over the cable there is no list and no code: the cable is the pairing."""
    for u in units:
        open_link(u, game_title)


def unit_label(i):
    """How unit i is listed on the others' pairing screens: its name from its chip's id
    (fathom/settings.radio_name over the machine twin's unique_id)."""
    import hashlib
    uid = hashlib.sha256(b"fathom-unit:%d" % i).digest()[:6]
    return "UNIT %02X%02X" % (uid[-2], uid[-1])


def confirm_code(*units):
    """Every screen shows the same six digits: OK on each, once its keys show (an OK in the
    code's first second is not taken: flow/pairing.READ_MS)."""
    for u in units:
        u.wait_text("OK yes", 60)
    codes = [[l for l in u.text if l.startswith("Code")][0] for u in units]
    if len(set(codes)) != 1:
        raise FathomError("the codes differ: %r" % codes)
    for u in units:
        u.press("OK")


def pair_group(units, game_title, lent=(), options=None):
    """units[0] hosts a group of len(units) (its Players menu), the others join it (Join a
    group, choosing the host from their list) or, for indexes in `lent`, wait on Play as bot
    (the Opponent setting already on); the host chooses each partner in turn and both confirm
    the code. `options(host)` sets the game's options on the host's game menu first. Returns
    the group code, once every player (lent units have none) said it matches: the units then
    start the game."""
    host, partners = units[0], units[1:]
    host.choose(game_title)
    if options is not None:
        options(host)
    host.choose("vs other unit" if any("vs other unit" in l for l in host.text)
                else "with other unit")
    host.wait_text("Players", 10)
    host.choose("%d: host" % len(units))
    for u in partners:
        if u.index in lent:
            u.choose("Play as bot")
        else:
            open_link_join(u, game_title)
    for u in partners:
        if u.index not in lent:  # a joining partner picks the host (names repeat: by address)
            u.wait_text(unit_label(host.index), 30)
            u.choose(unit_label(host.index))
    for k, u in enumerate(partners):
        host.wait_text("Choose a unit %d/%d" % (k + 1, len(partners)), 60)
        host.wait_text(unit_label(u.index), 30)
        host.choose(unit_label(u.index))
        nxt = "Choose a unit %d/%d" % (k + 2, len(partners))

        def moved_on(c):
            t = c.text
            return bool(t) and (t[0] != "Link" or any(l.startswith("Code") or nxt in l
                                                     for l in t))
        # a host's pairing is two 1536-bit powers a partner: on a loaded machine (or a unit
        # sampling its heap every loop) that alone took over a minute
        host.wait(moved_on, 180, "a code, the next partner or the game")
        if any(l.startswith("Code") for l in host.text):  # a first pairing: the code
            confirm_code(host, u)
    return confirm_group_code([u for u in units if u.index not in lent])


def confirm_group_code(units, limit=90):
    """Every unit's player reads the group code and says it matches (OK); the code they all
    showed. Raises when two screens show different codes: a host sat in the middle."""
    codes = []
    for u in units:
        u.wait(lambda c: any(l.startswith("Group code") for l in c.text or ()) and any(
            l.startswith("OK play") for l in c.text), limit, "the group code and its keys")
        codes.append([l for l in u.text if l.startswith("Group code")][0])
    if len(set(codes)) != 1:
        raise FathomError("the units show different group codes: %r" % codes)
    for u in units:
        u.press("OK")
    return codes[0]


def open_link_join(u, game_title):
    u.choose(game_title)
    u.choose("vs other unit" if any("vs other unit" in l for l in u.text)
             else "with other unit")
    u.wait_text("Players", 10)
    u.choose("Join a group")
