# Lake Ashtapada companion: the report it gives is the engine's report() (the counting and
# blocking rules of docs/rules/lake_ashtapada.md section 5, its worked examples), entered and
# read through the keys; the consistent squares come from the engine's candidates().
import pytest

from fathom.games.ashtapada import engine as A
from fathom.games.ashtapada import companion as M
from test_companion_screen import FakeApp, companion, grid_to

pytestmark = pytest.mark.micropython


def sq(name, n=10):
    return A.parse(name, n)


def lake(mines, isl=(), oisl=(), dead=(), side=0, size=10):
    st = M.fresh()
    st["size"] = size
    st["side"] = side
    st["mines"] = [sq(x, size) for x in mines]
    st["isl"] = [sq(x, size) for x in isl]
    st["oisl"] = [sq(x, size) for x in oisl]
    st["dead"] = [sq(x, size) for x in dead]
    return st


# worked examples, charge at D4 on 10x10 (rules 5.2 to 5.5)
@pytest.mark.parametrize("mines,isl,want", [
    (("D7",), (), [3]),                          # straight up: 3
    (("G7",), (), [3]),                          # diagonal 3
    (("A4",), (), [3]),                          # left 3
    (("D7", "G7", "A4", "E5"), (), [1, 3]),      # E5 hides G7; D7 and A4 ping once
    (("E7", "F5", "G6"), (), [3, 4, 5]),         # off the lines: long leg first, then over
    (("D7", "E7", "F4", "F5", "G6"), ("D5",), [2]),   # island D5 and mine F4 block the rest
    (("E5", "F6"), (), [1]),                     # a mine hides the one behind it
    (("D4",), (), [0]),                          # a mine under the charge: 0
    ((), (), []),
])
def test_worked_examples(mines, isl, want):
    st = lake(mines, oisl=isl, side=1)   # islands of either side block
    assert M.their_report(st, sq("D4")) == want
    assert M.their_report(st, sq("D4")) == A.report(10, M.islands(st), M.live(st), sq("D4"))


def test_destroyed_mine_neither_reports_nor_blocks():
    st = lake(("E5", "F6"), dead=("E5",))
    assert M.their_report(st, sq("D4")) == [2]


def test_charge_on_island_is_refused():
    st = lake(("B2",), isl=("C3",))
    assert M.their_report(st, sq("C3")) is None


def test_matches_engine_everywhere_on_a_random_lake():
    from fathom.prng import Prng
    r = Prng(b"lake")
    for size in (8, 12):
        cells = list(range(size * size))
        r.shuffle(cells)
        st = M.fresh()
        st["size"] = size
        st["mines"] = cells[:6]
        st["isl"] = cells[6:8]
        st["dead"] = cells[:1]
        for c in range(size * size):
            if c in st["isl"]:
                continue
            assert M.their_report(st, c) == A.report(size, st["isl"], cells[1:6], c)


def test_edit_cycle_and_halves():
    st = M.fresh()                      # South, 10x10: rows 1-5
    b2, c3, a10 = sq("B2"), sq("C3"), sq("A10")
    assert not M.cycle_own(st, a10)     # not my half
    M.cycle_own(st, c3)
    assert st["mines"] == [c3]
    M.cycle_own(st, c3)
    assert st["dead"] == [c3]
    M.cycle_own(st, c3)
    assert st["mines"] == [] and st["isl"] == [c3]
    M.cycle_own(st, c3)
    assert st["isl"] == []
    M.cycle_own(st, b2)
    M.cycle_own(st, b2)
    M.cycle_own(st, b2)                 # B2 touches no shore? it does not: island allowed
    assert st["isl"] == [b2]
    a1 = sq("A1")
    for _ in range(3):
        M.cycle_own(st, a1)
    assert a1 not in st["isl"]          # a shore square never takes an island (rule 2.2)
    assert not M.toggle_theirs(st, sq("A7"))   # their shore
    assert M.toggle_theirs(st, sq("C7")) and st["oisl"] == [sq("C7")]


def test_consistent_is_sound_and_narrows():
    from fathom.prng import Prng
    r = Prng(b"hunt")
    n = 8
    for trial in range(4):
        north = list(range(n * n // 2, n * n))
        r.shuffle(north)
        hidden = north[:4]
        st = M.fresh()
        st["size"] = n
        st["oisl"] = [s for s in north[4:6] if not A.near_shore(s, n)]
        before = len(M.consistent(st))
        for c in (sq("C4", n), sq("F4", n), sq("D5", n)):
            if c in hidden:
                continue
            st["log"].append(["s", c, A.report(n, st["oisl"], hidden, c)])
        cons = M.consistent(st)
        for m in hidden:
            assert m in cons, (trial, m)
        assert len(cons) < before
        # a depth-charge hit: that mine is gone from the candidates
        st["log"].append(["d", hidden[0], 1])
        assert hidden[0] not in M.consistent(st)


def test_through_keys_report_and_reload():
    app = companion("ash_keys", "Lake Ashtapada")
    root = app.hw.storage.root
    app.choose("Side")                      # be North: mines on rows 6-10
    assert app.find("North 10x10") is not None
    app.choose("My lake")
    for name in ("D7", "G7", "H6"):
        grid_to(app, name)
        app.press("OK")
    assert app.find("mines 3") is not None
    app.press("BACK")
    app.choose("Their islands")
    grid_to(app, "E5")                      # their (South) half, off the shore
    app.press("OK")
    app.press("BACK")
    app.choose("Their charge")
    grid_to(app, "D4")
    # D7 straight up (path D5 D6): 3; G7 diagonal (path E5 = island): blocked;
    # H6 off the lines: E4 F4 G4 H4 then H5, H6: 6
    assert app.text[2] == "report D4: 3,6"
    assert app.text[2] == "report D4: " + ",".join(
        [str(d) for d in A.report(10, [sq("E5")], [sq("D7"), sq("G7"), sq("H6")], sq("D4"))])
    grid_to(app, "E5")
    assert app.text[2] == "report E5: island"
    # a new app on the same storage (a reboot) has everything
    app2 = companion("ash_keys2", "Lake Ashtapada", root=root)
    st = app2.top().s.st
    assert st["side"] == 1 and sorted(st["mines"]) == sorted([sq("D7"), sq("G7"), sq("H6")])
    assert st["oisl"] == [sq("E5")]


def test_through_keys_log_a_charge():
    app = companion("ash_log", "Lake Ashtapada")
    app.choose("My charges")
    app.choose("Add charge")
    grid_to(app, "C7")
    app.press("OK")
    app.choose("Sounding")
    app.press("UP", "OK", "UP", "OK", "RIGHT")     # heard 2 and 3
    assert app.find("C7 sound: 2,3") is not None
    app.choose("Add charge")
    grid_to(app, "D7")
    app.press("OK")
    app.choose("Depth: miss")
    assert app.find("D7 depth: miss") is not None
    app.press("BACK")
    app.choose("Mines can be")
    st = app.top().s.st
    assert app.find("%d left" % len(M.consistent(st))) is not None
    rows = [line[2:] for line in app.text if line.startswith("# ")]   # row 10 first
    assert rows[10 - 7][3] == "."          # D7, a miss, is no candidate
    assert rows[10 - 7][2] == "."          # C7: no 0 was heard, so no mine under the charge
    assert rows[10 - 9][2] == "?"          # C9, 2 away, fits the report



def test_fakeapp_is_small_screen_safe():
    app = FakeApp("ash_small", 72, 40)
    from fathom.ui.companion import companion_menu
    app.push(companion_menu(app))
    app.choose("Lake Ashtapada")
    app.choose("Their charge")
    assert app.draw() > 0
