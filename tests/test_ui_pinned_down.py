# The Pinned Down screen drawn into a real framebuf on 128x64 and 72x40, solo and with a
# partner: every phase and page, the targeted ship shown inverted, the hand's full card texts
# and their scrolling, the fleets with attachments and damage, and the fight forecast, whose
# power sums must be the ones the engine then resolves with.
import pytest

from fathom.games.pinned_down.bot import EasyBot, SharpBot
from fathom.codec import encode
from fathom.games.local import make_seats, next_author
from fathom.games.pinned_down.engine import ENGINE
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down.fleet import SA, SD
from fathom.runner import Runner
from fathom.games.pinned_down import screen as ui
from fathom.ui.screen import wrap

from uikit import App

pytestmark = pytest.mark.micropython


def deliver(seats, s, action=None):
    ev = s.author(action)
    for o in seats:
        if o is not s:
            o.receive(s.player, ev)


def start(n, deck="red", seed=b"ui", level="easy"):
    seats = make_seats(ENGINE, ENGINE.options({"deck": deck, "level": level}), n, seed)
    for s in seats:
        deliver(seats, s)
    return seats


def play(seats, bots, until=None, limit=3000):
    """Bots play until until(seats) holds (checked before each action) or the game ends."""
    for _ in range(limit):
        if seats[0].result() is not None:
            return False
        if until is not None and until(seats):
            return True
        s = next_author(seats)
        deliver(seats, s, bots[s.player].act(s))
    raise AssertionError("no end")


def screen_for(seat, w=128, h=64):
    app = App(w, h)
    scr = ui.screen(app, Runner(seat, [], None, "pinned_down"))
    app.push(scr)
    return app, scr


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def choice_lines(lines):
    return [l for l in lines[1:] if l[:1] in (">", " ")]


def phase(ph):
    return lambda seats: seats[0].pub["ph"] == ph and seats[0].my_turn()


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("wh", [(128, 64), (72, 40)])
def test_every_phase_and_page_draws_on_both_panels(n, wh):
    seats = start(n, ("red", "purple")[wh[0] % 2], b"all%d" % n)
    bots = [SharpBot(b"s", p) for p in range(n)]
    app, scr = screen_for(seats[0], wh[0], wh[1])
    seen = []
    calls = [0]

    def look(seats):
        ph = seats[0].pub["ph"]
        calls[0] += 1
        new = ph not in seen
        if new:
            seen.append(ph)
        lines = scr.lines()
        assert lines[0].startswith("Pinned Down")
        ch = choice_lines(lines)
        assert len(ch) == len(seats[0].legal())
        if ch:
            assert ch[0].startswith(">")
        assert [l for l in lines if l.startswith("# ")]
        for k in range(min(len(ch), 4)):
            scr.cursor = k
            d = draw(app, scr)
            assert d.lit(0, 8, wh[0], wh[1] - 8) > 0
        scr.cursor = 0
        if not new and calls[0] % 3:
            return False  # the pages: at each new phase and every third event
        for _ in range(4):  # every page, then back to the main one
            scr.key("RIGHT")
            d = draw(app, scr)
            assert d.lit(0, 0, wh[0], 8) > 0
            page = scr.lines()
            if scr.page != ui.MAIN:
                assert not choice_lines(page) and len(page) > 1, page
        scr.key("DOWN")  # the main page again: DOWN moves the choice
        assert scr.page == ui.MAIN and scr.cursor == (1 if len(ch) > 1 else 0)
        scr.cursor = 0
        return False

    assert not play(seats, bots, look)
    for ph in ("main", "jump", "assign", "fight", "wrap"):
        assert ph in seen, (ph, seen)
    if n == 2:
        assert "jconf" in seen and "aconf" in seen
    scr.tick(0)  # over: the base switches to the result
    assert app.stack and app.stack[-1].lines()[1] in ("Fleet wins", "Fleet lost")


def test_main_page_shows_distance_threat_location_and_the_targeted_ship():
    seats = start(1, "red", b"main")
    seat = seats[0]
    bots = [EasyBot(b"e", 0)]
    play(seats, bots, lambda ss: ss[0].pub["locs"] and phase("main")(ss))
    app, scr = screen_for(seat)
    lines = scr.lines()
    pub = seat.pub
    assert "# dist %d/10 thr %d" % (pub["dist"], pub["threat"]) in lines
    assert "# @" + C.get(pub["locs"][-1])[C.NAME] in lines
    name = C.get(pub["ships"][0][1])[C.NAME]
    assert [l for l in lines if l.startswith("# " + name + " ")]
    # a choice that acts on a ship inverts that ship's row; 'ready' inverts none
    labels = [c[1] for c in scr.choices()]
    targeted = [k for k in range(len(labels))
                if ui.target_ship(pub, scr.choices()[k][0]) >= 0]
    assert labels[0] == "ready" and targeted, labels
    d = draw(app, scr)
    rows_lit = [d.lit(0, y, 128, 8) for y in range(8, 40, 8)]
    assert max(rows_lit) < 128 * 8 // 2
    scr.cursor = targeted[0]
    d = draw(app, scr)
    rows_lit = [d.lit(0, y, 128, 8) for y in range(8, 48, 8)]
    assert max(rows_lit) > 128 * 8 // 2  # the targeted ship, inverted
    assert d.lit(0, 48, 128, 8) > 128 * 8 // 2  # the choice, inverted, at the bottom
    scr.key("OK")
    assert scr.cursor == 0 and len(seat.log) > 0 and seat.actions


def test_hand_page_shows_every_card_in_full_and_scrolls():
    seats = start(1, "blue", b"hand")
    seat = seats[0]
    app, scr = screen_for(seat, 72, 40)
    scr.key("RIGHT")
    assert scr.page == ui.HAND
    lines = scr.lines()
    assert lines[0] == "Pinned Down hand"
    text = " ".join(l[2:] for l in lines[1:])
    for cid in seat.priv["hand"]:
        c = C.get(cid)
        assert c[C.NAME] in text
        for part in wrap(C.text(cid), 9):
            assert part in text
    doc = scr.doc(9)
    assert len(doc) > 4  # more than a 72x40 page holds: it scrolls
    d = draw(app, scr)
    top = d.lit(0, 8, 72, 32)
    scr.key("DOWN")
    assert scr.scroll == 1
    d = draw(app, scr)
    assert d.lit(0, 8, 72, 32) != top or doc[0] == doc[1]
    scr.key("UP")
    scr.key("OK")  # the next card's heading at the top
    assert scr.scroll > 0 and doc[scr.scroll][2] != ui.PLAIN
    scr.key("BACK")
    assert scr.page == ui.MAIN and scr.cursor == 0


def test_hand_page_opens_at_the_card_the_choice_plays():
    seats = start(1, "red", b"mark")
    seat = seats[0]
    app, scr = screen_for(seat)
    ch = scr.choices()
    k = [i for i in range(len(ch)) if ui.hand_card(ch[i][0]) == seat.priv["hand"][-1]]
    if not k:
        pytest.skip("the last card cannot be played now")
    scr.cursor = k[0]
    scr.key("RIGHT")
    doc = scr.doc(16)
    assert doc[scr.scroll][2] == ui.MARK
    assert doc[scr.scroll][0] == C.get(seat.priv["hand"][-1])[C.NAME]
    assert [l for l in scr.lines() if l.startswith("# > ")]


def test_fleet_page_lists_every_fleet_with_attachments_and_damage():
    seats = start(2, "red", b"fleet")
    bots = [SharpBot(b"f", p) for p in range(2)]

    def rich(ss):
        ships = ss[0].pub["ships"]
        return [1 for s in ships if s[SA]] and [1 for s in ships if s[SD]]
    if not play(seats, bots, rich):
        pytest.skip("no ship with both an attachment and damage in this game")
    seat = seats[1]
    app, scr = screen_for(seat)
    scr.key("RIGHT")
    scr.key("RIGHT")
    assert scr.page == ui.FLEET
    lines = scr.lines()
    assert lines[0] == "Pinned Down fleets"
    assert lines[1].startswith("# P2 ")  # your own fleet first
    assert [l for l in lines if l.startswith("# P1 ")]
    pub = seat.pub
    for s in range(len(pub["ships"])):
        for a in pub["ships"][s][SA]:
            assert [l for l in lines if l.startswith("#  +" + C.get(a[1])[C.NAME])]
        for dm in pub["ships"][s][SD]:
            assert [l for l in lines if l.startswith("#  x" + C.get(dm)[C.NAME])]
    for sz in ((128, 64), (72, 40)):
        app2, scr2 = screen_for(seat, sz[0], sz[1])
        scr2.key("RIGHT")
        scr2.key("RIGHT")
        d = draw(app2, scr2)
        assert d.lit(0, 8, sz[0], sz[1] - 8) > 0
        for _ in range(40):
            scr2.key("DOWN")
        assert scr2.scroll == max(0, len(scr2.doc(sz[0] // 8)) - (sz[1] // 8 - 1))


def test_fight_forecast_is_what_the_engine_resolves_and_leaves_pub_alone():
    checked = 0
    for g in range(6):
        seats = start(1 + g % 2, C.AFFS[g % 4], b"fc%d" % g, "normal")
        bots = [SharpBot(b"f%d" % g, p) for p in range(len(seats))]

        def before_fight(ss):
            s = next_author(ss)
            return s.pub["ph"] in ("fight", "assign") and s.my_turn()
        while play(seats, bots, before_fight):
            s = next_author(seats)
            pub = s.pub
            a = bots[s.player].act(s)
            before = encode(pub)
            fights = ui.preview(ENGINE, pub, a)
            assert encode(pub) == before  # the preview borrows pub and puts it back
            if pub["ph"] == "assign" and len(pub["asg"]) + 1 == len(pub["fs"]):
                want = [[list(f[0]), list(f[1])] for f in fights]
                deliver(seats, s, a)
                if pub["ph"] in ("aconf", "fight"):
                    assert [[f[0], f[1]] for f in pub["fights"]] == want
                continue
            if pub["ph"] == "fight" and a[0] == "fight":
                pp, pd, ep, ed, n = ui.sums(ENGINE, pub, fights[a[1]])
                deliver(seats, s, a)
                if pd == 0 and ed == 0:
                    k, rpp, rep, res = s.pub["last"]
                    assert (k, rpp, rep, res) == (a[1], pp, ep, ui.outcome(pp, ep, n))
                    checked += 1
                continue
            deliver(seats, s, a)
    assert checked >= 5, checked


def test_fight_page_shows_sums_for_the_highlighted_assignment():
    seats = start(1, "red", b"asg")
    bots = [SharpBot(b"a", 0)]
    if not play(seats, bots, phase("assign")):
        pytest.skip("no fight in this game")
    seat = seats[0]
    app, scr = screen_for(seat)
    for k in range(len(scr.choices())):
        scr.cursor = k
        a = scr.current()
        fights = ui.preview(ENGINE, seat.pub, a)
        hot = ui.hot_fight(seat.pub, fights, a)
        text, res = ui.forecast(ENGINE, seat.pub, fights[hot])
        main = scr.lines()
        assert "# F%d %s %s" % (hot + 1, text, res) in main
        scr.key("LEFT")  # the table page is the last one
        assert scr.page == ui.TABLE
        page = scr.lines()
        assert page[0] == "Pinned Down table"
        assert "# > F%d %s %s" % (hot + 1, text, res) in page
        ship = C.get(seat.pub["ships"][seat.pub["fs"][0]][1])[C.NAME]
        assert [l for l in page if l.startswith("#  " + ship)]
        d = draw(app, scr)
        assert d.lit(0, 8, 128, 56) > 0
        scr.key("RIGHT")
        assert scr.page == ui.MAIN


def test_jump_page_shows_every_location_with_its_text():
    seats = start(1, "purple", b"jump")
    if not play(seats, [EasyBot(b"j", 0)], phase("jump")):
        pytest.skip("ended before a jump")
    seat = seats[0]
    app, scr = screen_for(seat, 72, 40)
    scr.cursor = 1
    lines = scr.lines()
    loc = C.get(seat.pub["lopts"][1])
    assert "# to %s +%d" % (loc[C.NAME], loc[C.PW]) in lines
    scr.key("LEFT")
    page = scr.lines()
    assert page[0] == "Pinned Down table"
    assert "# > %s +%d" % (loc[C.NAME], loc[C.PW]) in page
    for cid in seat.pub["lopts"]:
        for part in wrap(C.text(cid), 9):
            assert ("# " + part).rstrip() in page
    d = draw(app, scr)
    assert d.lit(0, 8, 72, 32) > 0


def test_shown_hand_of_a_partner_appears_on_the_hand_page():
    seats = start(2, "red", b"show")
    for _ in range(4):
        s = next_author(seats)
        if ["show"] in s.legal():
            deliver(seats, s, ["show"])
            break
        deliver(seats, s, ["ready"])
    shower = [p for p in range(2) if seats[0].pub["shown"][p] is not None][0]
    other = seats[1 - shower]
    app, scr = screen_for(other)
    scr.key("RIGHT")
    lines = scr.lines()
    assert "# P%d showed T1" % (shower + 1) in lines
    for cid in seats[shower].priv["hand"]:
        assert [l for l in lines if l.startswith("#  " + C.get(cid)[C.NAME])]
    app2, scr2 = screen_for(seats[shower])
    scr2.key("RIGHT")
    assert not [l for l in scr2.lines() if "showed" in l]  # your own hand is listed in full


def test_waiting_unit_shows_the_newest_event_and_no_choices():
    seats = start(2, "red", b"wait")
    idle = seats[1 - ENGINE.turn(seats[0].pub)[0]]
    app, scr = screen_for(idle, 72, 40)
    assert not choice_lines(scr.lines()) and scr.current() is None
    assert scr.brief().startswith("P")
    d = draw(app, scr)
    assert d.lit(0, 0, 72, 8) > 0
    scr.key("OK")  # nothing to play: nothing happens
    assert len(idle.log) == 2
