# The tabletop companion end to end: one emulated unit per mode, reached from the home menu,
# real work through the six keys, a power cut (kill + boot) in the middle, and nothing lost.
# FATHOM_SCREENSHOTS=1 also writes docs/img/companion_<mode>.png for docs/COMPANION.md.
import os
import pathlib

import pytest

from fathom.games.ashtapada import engine as A
from fathom.games.ping import board as PB
from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow

DOCS_IMG = pathlib.Path(__file__).resolve().parents[2] / "docs" / "img"


def shot(u, mode, tmp_path):
    u.screen.png(str(tmp_path / ("companion_%s.png" % mode)))
    if os.environ.get("FATHOM_SCREENSHOTS"):
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        u.screen.png(str(DOCS_IMG / ("companion_%s.png" % mode)))


def open_mode(u, title):
    u.wait_text("Companion")
    u.choose("Companion")
    u.choose(title)
    u.wait(lambda c: c.text and c.text[0] == title, 5, title)


def select(u, label):
    """Put the cursor on the item starting with `label` without pressing OK."""
    for _ in range(30):
        if (u.selected() or "").startswith(label):
            return
        u.press("DOWN")
    raise AssertionError("no item %r: %r" % (label, u.text))


def line(u, needle):
    for s in u.text:
        if needle in s:
            return s
    raise AssertionError("%r not on screen: %r" % (needle, u.text))


def lettered(name):
    return ord(name[0]) - 65, -int(name[1:])       # x right, y down the screen


def ping_pos(name):
    return PB.col_row(ord(name) - 65)


def grid_to(u, target, pos):
    """Walk a map's cursor to `target` with the arrows (lines()[1] is 'at NAME')."""
    for _ in range(60):
        here = u.text[1][3:]
        if here == target:
            return
        (x, y), (tx, ty) = pos(here), pos(target)
        if x != tx:
            u.press("RIGHT" if tx > x else "LEFT")
        if u.text[1][3:] == here and y != ty:   # no sideways move possible: go up/down
            u.press("DOWN" if ty > y else "UP")
    raise AssertionError("could not reach %s: %r" % (target, u.text[:3]))


def map_rows(u):
    return [s[2:] for s in u.text if s.startswith("# ")]


@pytest.mark.bench  # the longest modes; the in-process tests cover them
def test_ashtapada(tmp_path):
    with Emulator(1, workdir=tmp_path) as e:
        u = e.units[0]
        open_mode(u, "Lake Ashtapada")
        u.choose("Side")
        line(u, "North 10x10")
        u.choose("My lake")
        for name in ("D7", "G7", "H6", "C8"):
            grid_to(u, name, lettered)
            u.press("OK")
        line(u, "mines 4")
        u.reboot()                                   # power cut mid set-up
        open_mode(u, "Lake Ashtapada")
        line(u, "North 10x10")
        line(u, "mines 4 isl 0/0")
        u.choose("Their islands")
        grid_to(u, "E5", lettered)
        u.press("OK")
        u.press("BACK")
        u.choose("Their charge")
        mines = [A.parse(x, 10) for x in ("D7", "G7", "H6", "C8")]
        isl = [A.parse("E5", 10)]
        for name in ("D4", "D6", "F6"):
            grid_to(u, name, lettered)
            want = A.report(10, isl, mines, A.parse(name, 10))
            assert u.text[2] == "report %s: %s" % (name, ",".join(map(str, want)) or "none")
        # D4: G7 is hidden by the island E5 and C8 by the mine D7, so only 3 (D7) and 6 (H6)
        grid_to(u, "D4", lettered)
        assert u.text[2] == "report D4: 3,6"
        shot(u, "ashtapada", tmp_path)
        u.press("BACK")
        u.choose("My charges")
        u.choose("Add charge")
        grid_to(u, "C3", lettered)
        u.press("OK")
        u.choose("Sounding")
        u.keys("UP", "OK", "RIGHT")                  # heard: 2
        line(u, "C3 sound: 2")
        u.reboot()                                   # and once more with the log in
        open_mode(u, "Lake Ashtapada")
        line(u, "My charges 1")
        u.choose("Mines can be")
        rows = map_rows(u)
        assert rows[10 - 3][2] == "."                # C3 itself: no 0 was heard
        assert "?" in "".join(rows)


def test_ping(tmp_path):
    with Emulator(1, workdir=tmp_path) as e:
        u = e.units[0]
        open_mode(u, "PING")
        u.choose("My location")
        grid_to(u, "K", ping_pos)
        u.press("OK")
        line(u, "you K")
        u.press("BACK")
        u.choose("My hand")
        u.choose("Take card")
        u.choose("MOVE 1/TORPEDO")
        u.choose("Take card")
        u.choose("MOVE 2/PING")
        u.choose("MOVE 1/TORPEDO")
        u.choose("Disable")
        line(u, "MOVE 1/TORPEDO off")
        u.reboot()
        open_mode(u, "PING")
        line(u, "you K obj -")
        line(u, "hand 2 off 1")
        u.choose("My hand")
        line(u, "MOVE 1/TORPEDO off")
        line(u, "MOVE 2/PING")
        u.press("BACK")
        u.choose("Adversary did")
        u.choose("Revealed at")
        grid_to(u, "M", ping_pos)
        u.press("OK")
        line(u, "can be 1")
        u.choose("Face-down card")
        m = 1 << 12
        one = PB.spread(m)
        want = PB.squares(m | one | PB.spread(one))
        line(u, "can be %d" % len(want))
        u.choose("My deck gun missed")               # from K: K, F? no: K and its lines
        want = [s for s in want if s != 10 and not PB.NB[10] >> s & 1]
        line(u, "can be %d" % len(want))
        u.press("BACK")
        u.choose("Objectives")
        u.choose("A me")
        line(u, "A me done")
        u.reboot()
        open_mode(u, "PING")
        line(u, "you K obj A")
        line(u, "adv can be %d" % len(want))
        u.choose("Tracker")
        assert u.text[3] == "| " + "".join(PB.name(s) for s in want)
        shot(u, "ping", tmp_path)


def test_sugardog(tmp_path):
    with Emulator(1, workdir=tmp_path) as e:
        u = e.units[0]
        open_mode(u, "Sugar Dog")
        u.choose("Map")
        grid_to(u, "C2", lettered)
        u.press("OK")
        u.choose("Start here")
        u.press("OK")
        u.choose("Fire N")
        line(u, "T1 fire N: C3,C4")
        u.reboot()
        open_mode(u, "Sugar Dog")
        line(u, "T1 sub C2")
        line(u, "torpedoes 1")
        u.choose("Map")
        rows = map_rows(u)                           # row 6 first
        assert rows[6 - 4][2] == "T" and rows[6 - 2][2] == "S"
        grid_to(u, "D2", lettered)
        u.press("OK")
        u.choose("Silent to D2")
        line(u, "T2 silent to D2")
        rows = map_rows(u)
        assert rows[6 - 6][2] == "T" and rows[6 - 2][3] == "S"
        u.press("OK")
        u.choose("Place mine")
        grid_to(u, "F1", lettered)
        u.press("OK")
        u.choose("Contact here")
        shot(u, "sugardog", tmp_path)
        u.press("BACK")
        u.choose("Command log")
        text = "\n".join(u.text)
        for want in ("T0 start C2", "T1 fire N: C3,C4", "T2 torp C4>N: C5,C6",
                     "T2 silent to D2", "T3 torp C6>N:  lost", "T3 mine D2 (2 left)"):
            assert want in text, (want, text)
        u.press("BACK")
        u.choose("Contacts 1")
        line(u, "F1 T3")


def test_periplus(tmp_path):
    with Emulator(1, workdir=tmp_path) as e:
        u = e.units[0]
        open_mode(u, "Periplus")
        line(u, "deck 55 disc 0")
        u.choose("Draw 3")
        u.wait_text("Only P1 looks")
        u.press("OK")
        hand = [s[1:] for s in u.text[2:]]
        assert len(hand) == 3
        u.press("OK")                                # play the first card
        u.press("BACK")
        line(u, "deck 52 disc 1")
        u.reboot()
        open_mode(u, "Periplus")
        line(u, "deck 52 disc 1")
        u.choose("Hand P1: 2")
        u.press("OK")
        assert [s[1:] for s in u.text[2:]] == hand[1:]
        u.press("BACK")
        for _ in range(2):                           # 2 + 3 + 3 = 8: three over the limit
            u.choose("Draw 3")
            u.press("OK")
            u.press("BACK")
        line(u, "discard 3")
        u.press("BACK")                              # refused while over the limit
        line(u, "discard 3")
        u.keys("OK", "OK", "OK")
        line(u, "OK: play card")
        u.press("BACK")
        line(u, "deck 46 disc 4")
        u.choose("End turn")
        line(u, "P2 to play")
        u.choose("Ships")
        u.press("LEFT")
        line(u, "1/2 P1 B1")
        shot(u, "periplus", tmp_path)
        u.reboot()
        open_mode(u, "Periplus")
        line(u, "P2 to play")
        u.choose("Ships")
        line(u, "1/2 P1 B1")


@pytest.mark.bench  # the longest modes; the in-process tests cover them
def test_pinned_down(tmp_path):
    with Emulator(1, workdir=tmp_path) as e:
        u = e.units[0]
        open_mode(u, "Pinned Down")
        select(u, "Ships")
        u.keys("RIGHT", "RIGHT")
        select(u, "Locations")
        u.press("RIGHT")
        select(u, "Threat")
        u.keys(*["RIGHT"] * 5)
        line(u, "Threat 5")
        u.choose("Next phase")
        line(u, "T1 Jump")
        line(u, "threat pool 6")                     # upkeep 1
        u.press("OK")
        line(u, "T1 Attack")
        line(u, "threat pool 11")                    # 2 per location + 1 per ship
        u.reboot()
        open_mode(u, "Pinned Down")
        line(u, "T1 Attack")
        line(u, "threat pool 11")
        u.choose("Reveal by cost")
        u.keys("UP", "UP", "UP", "OK")               # cost 4
        u.keys("UP", "UP", "OK")                     # power 6
        line(u, "-4 #4:6 attacks")
        line(u, "threat pool 7")
        u.choose("Reveal by cost")
        u.keys(*["UP"] * 8 + ["OK", "OK"])           # cost 9 > 7: stop
        line(u, "STOP 9>7")
        u.choose("Reveal attack")                    # stopped: nothing more this phase
        line(u, "threat pool 7")
        line(u, "Attackers 1")
        u.choose("Fight")
        u.choose("Enemy=attackers")
        line(u, "Enemy power 6")
        select(u, "Fleet power")
        u.keys(*["RIGHT"] * 6)
        line(u, "=> damaged")
        u.press("RIGHT")
        line(u, "=> win")
        u.keys("LEFT", "LEFT", "LEFT", "LEFT")
        line(u, "=> overpowered")
        shot(u, "pinned_down", tmp_path)
        u.reboot()
        open_mode(u, "Pinned Down")
        u.choose("Fight")
        line(u, "Fleet power 3")
        line(u, "=> overpowered")
