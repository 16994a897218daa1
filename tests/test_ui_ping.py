# The PING screen drawn into a real framebuf on 128x64 and 72x40: set-up, the map with your own
# submarine only, the tracker's dots, the highlighted choice on the map (move, torpedo path,
# deck gun reach), the hand with disabled cards, the blind shuffle and pick, the log and cards
# pages, and whole games played through the screens' keys with every phase drawn.
import pytest

from fathom.games.ping.bot import SharpBot
from fathom.games.bots import RandomBot
from fathom.games.local import make_seats
from fathom.games.ping.engine import ENGINE
from fathom.games.ping import board as B
from fathom.runner import Runner
from fathom.games.ping import screen as ui
from test_ping_helpers import (SQ, game, play, M1_TORP, M1_TORP2, M2_TORP, M1_GUN,
                               M3_PING, M1_ENC, M2_DIVE, M1_LISTEN)

from uikit import App

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (72, 40))


def screen_for(seat, w=128, h=64):
    app = App(w, h)
    return app, ui.screen(app, Runner(seat, [], None, "ping"))


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def geometry(d, sq):
    big, px, py, _sx = ui.layout(d)
    x, y = ui.cell(big, px, py, sq)
    box, hot = ui.boxes(big, x, y)
    return big, box, hot, ui.dot(big, x, y)


def framed(d, sq):
    _big, _box, hot, _dot = geometry(d, sq)
    n, full = d.outline(hot)
    return n == full


def dotted(d, sq):
    _big, _box, _hot, (x, y, w) = geometry(d, sq)
    return d.lit(x, y, w, w) == w * w


def choices(lines):
    return [l[1:] for l in lines[1:] if l[:1] in (">", " ")]


def info(lines, tag):
    for l in lines:
        if l.startswith("# " + tag + " "):
            return l[len(tag) + 3:]
    return None


def pick(scr, text):
    labels = [t for _a, t in scr.choices()]
    scr.cursor = labels.index(text)


def deliver(seats):
    """Bring every seat's log up to the longest one (the link's job on a unit)."""
    for a in seats:
        for b in seats:
            while len(b.log) < len(a.log):
                au, ev = a.log[len(b.log)]
                b.receive(au, ev)


def answers(seats):
    """Author what needs no decision (set-up commits, answers) and deliver it."""
    moved = True
    while moved:
        moved = False
        for s in seats:
            t = s.to_move()
            if t is None or t[0] != s.player or s.result() is not None:
                continue
            if (t[1] == "setup" and not s.setup_legal() and len(s.log) == s.player) \
                    or t[1] == "answer":
                s.author()
                deliver(seats)
                moved = True


@pytest.mark.parametrize("w, h", SIZES)
def test_setup_lists_every_square_and_frames_the_cursor_on_the_map(w, h):
    seats = make_seats(ENGINE, {}, 2, b"ui")
    app, scr = screen_for(seats[0], w, h)
    lines = scr.lines()
    assert lines[0] == "PING set up"
    ch = choices(lines)
    assert len(ch) == 26 and ch[0] == "start A" and ch[-1] == "start Z"
    assert lines[[i for i in range(len(lines)) if lines[i].startswith(">")][0]] == ">start A"
    assert info(lines, "you") == "-" and info(lines, "foe") == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    d = draw(app, scr)
    assert framed(d, SQ["A"]) and not framed(d, SQ["B"])
    for sq in range(26):
        assert dotted(d, sq)  # nothing public yet: the adversary can be anywhere
    scr.key("DOWN")
    d = draw(app, scr)
    assert framed(d, SQ["B"]) and not framed(d, SQ["A"])
    scr.key("OK")
    assert seats[0].priv["sq"] == SQ["B"] and scr.choices() == []
    d = draw(app, scr)
    _big, box, _hot, _dot = geometry(d, SQ["B"])
    x, y, bw, bh = box
    assert d.lit(x, y, bw, bh) > bw * bh // 2  # your submarine: an inverted letter
    assert info(scr.lines(), "you") == "B"


@pytest.mark.parametrize("w, h", SIZES)
def test_the_other_submarine_never_changes_a_pixel(w, h):
    """Two games alike but for where P2 hides: P1's screens are identical, pixel for pixel."""
    shots = []
    for there in ("S", "A"):
        seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", there)
        app, scr = screen_for(seats[0], w, h)
        seen = []
        for k in range(len(scr.choices())):
            scr.cursor = k
            seen.append((bytes(draw(app, scr).buf), scr.lines()))
        shots.append(seen)
        assert info(scr.lines(), "you") == "M"
    assert shots[0] == shots[1]


def test_choice_labels_the_hand_and_twin_cards():
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0])
    lines = scr.lines()
    assert lines[0] == "PING your move"
    assert choices(lines) == [
        "report M", "1TOR go H", "1TOR go N", "1TOR go R", "1TOR torp N", "1TOR torp E",
        "1TOR torp S", "1GUN go H", "1GUN go N", "1GUN go R", "1GUN deck gun", "3PNG go C",
        "3PNG go H", "3PNG go I", "3PNG go N", "3PNG go R", "3PNG go T", "3PNG go X",
        "3PNG ping"]
    assert info(lines, "hand") == "1TOR 1GUN 3PNG"
    assert info(lines, "obj") == "- P2 -"
    assert [ui.label(seats[0], a, True) for a, _t in scr.choices()][:6] == [
        "rep M", "1TO H", "1TO N", "1TO R", "1TO torN", "1TO torE"]
    for a, _t in scr.choices():
        assert len(ui.label(seats[0], a, True)) <= 8  # a 9-column panel with the cursor mark
    # the two MOVE 1 / TORPEDO cards play alike: one entry each, not two
    seats = game([M1_TORP, M1_TORP2, M2_TORP], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    _app, scr = screen_for(seats[0])
    labels = [t for _a, t in scr.choices()]
    assert labels.count("1TOR go H") == 1 and labels.count("1TOR torp E") == 1
    assert len(seats[0].legal()) > len(labels)


@pytest.mark.parametrize("w, h", SIZES)
def test_the_highlighted_choice_is_drawn_on_the_map(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0], w, h)
    pick(scr, "3PNG go T")
    d = draw(app, scr)
    assert framed(d, SQ["T"]) and not framed(d, SQ["N"])
    pick(scr, "1TOR torp E")  # the torpedo's path: every square it runs through
    d = draw(app, scr)
    assert framed(d, SQ["N"]) and framed(d, SQ["O"]) and not framed(d, SQ["R"])
    pick(scr, "1GUN deck gun")  # the deck gun's reach: your square and its neighbours
    d = draw(app, scr)
    for s in "HMNR":
        assert framed(d, SQ[s]), s
    assert not framed(d, SQ["O"]) and not framed(d, SQ["S"])
    # the card the choice plays is marked in the hand strip
    big, _px, _py, sx = ui.layout(d)
    y = ui.CH if big else 0

    def marked(row):
        return d.lit(sx, y + row * ui.CH, ui.CH, ui.CH)
    before = [marked(i) for i in range(3)]
    pick(scr, "3PNG ping")
    d = draw(app, scr)
    after = [marked(i) for i in range(3)]
    assert after[2] > before[2] and after[1] < before[1]


@pytest.mark.parametrize("w, h", SIZES)
def test_the_tracker_follows_what_is_public(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "S")
    play(seats, ["ping", M3_PING])          # P1 shows M
    play(seats, ["torpedo", M2_TORP, B.N])  # P2 fires north from S and misses
    app1, scr1 = screen_for(seats[0], w, h)
    app2, scr2 = screen_for(seats[1], w, h)
    assert info(scr1.lines(), "foe") == "S"  # P2 surfaced to fire
    assert info(scr2.lines(), "foe") == "M"
    d = draw(app1, scr1)
    assert dotted(d, SQ["S"]) and not dotted(d, SQ["R"]) and not dotted(d, SQ["A"])
    _big, _box, hot, _dot = geometry(d, SQ["S"])
    assert d.pixel(hot[0], hot[1]) and d.pixel(hot[0] + hot[2] - 1, hot[1] + hot[3] - 1)
    # P2's unit still draws its own submarine at S, P1's draws its own at M
    for d, me in ((d, "M"), (draw(app2, scr2), "S")):
        _big, box, _hot, _dot = geometry(d, SQ[me])
        assert d.lit(box[0], box[1], box[2], box[3]) > box[2] * box[3] // 2


@pytest.mark.parametrize("w, h", SIZES)
def test_a_hit_the_blind_shuffle_and_pick_and_the_disabled_cards(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "N")
    a1, s1 = screen_for(seats[0], w, h)
    a2, s2 = screen_for(seats[1], w, h)
    pick(s1, "1GUN deck gun")
    s1.key("OK")
    deliver(seats)
    answers(seats)  # P2 is hit
    assert s2.lines()[0] == "PING your move"
    assert choices(s2.lines()) == ["shuffle hand"]  # the order is drawn, not chosen
    draw(a2, s2)
    s2.key("OK")
    deliver(seats)
    assert choices(s1.lines()) == ["disable 1+2", "disable 1+3", "disable 2+3"]
    draw(a1, s1)
    s1.key("DOWN")
    s1.key("OK")
    deliver(seats)
    answers(seats)
    hand = info(s2.lines(), "hand").split(" ")
    assert len(hand) == 3 and len([c for c in hand if c.startswith("x")]) == 2, hand
    # the last disabled card: the first choice (cursor) plays the first card, marked apart
    i = [k for k in range(3) if seats[1].priv["hand"][k][1]][-1]
    repair = ui.code(seats[1].priv["hand"][i][0]) + " repair"
    assert repair in choices(s2.lines())
    d = draw(a2, s2)
    big, _px, _py, sx = ui.layout(d)
    y = (ui.CH if big else 0) + i * ui.CH + 3
    x0 = sx + (ui.CH if big else 0)
    assert d.lit(x0, y, 3 * ui.CH, 1) == 3 * ui.CH  # struck through


@pytest.mark.parametrize("w, h", SIZES)
def test_log_and_cards_pages(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "S")
    play(seats, ["ping", M3_PING])
    play(seats, ["move", M1_ENC, SQ["R"], 0])  # face down
    app, scr = screen_for(seats[0], w, h)
    assert info(scr.lines(), "area") == "R:?(down)"
    scr.key("RIGHT")
    lines = scr.lines()
    assert lines[0] == "PING log" and all(l.startswith("# ") for l in lines[1:])
    text = " ".join(l[2:] for l in lines[1:])  # wrapped to the panel's width
    assert text.startswith("1 P1 ready 2 P2 ready 3 P1 PING M 4 P2 face-down card"), text
    draw(app, scr)
    scr.key("RIGHT")
    lines = scr.lines()
    assert lines[0] == "PING cards"
    assert "#  " + B.card_name(M1_TORP) in lines and "# R ? down" in lines, lines
    assert "# obj - P2 -" in lines and "# foe 26:" in lines, lines  # P2 never surfaced
    # P2's own face-down card: its unit knows it, P1's does not
    _app2, scr2 = screen_for(seats[1], w, h)
    scr2.key("RIGHT")
    scr2.key("RIGHT")
    assert "# L " + ui.code(M1_ENC) + " down" in scr2.lines()
    assert info(screen_for(seats[1], w, h)[1].lines(), "area") == "L:1ENC(down)"
    draw(app, scr)
    scr.key("UP")
    scr.key("DOWN")
    draw(app, scr)
    scr.key("OK")
    assert scr.lines()[0] == "PING your move"
    scr.key("LEFT")
    assert scr.lines()[0] == "PING cards"
    scr.key("BACK")
    assert scr.lines()[0] == "PING your move" and choices(scr.lines())


def check_lines(lines):
    assert lines[0].startswith("PING ")
    k = 1
    while k < len(lines) and lines[k].startswith("| "):
        k += 1
    assert k <= 4
    while k < len(lines) and lines[k].startswith("# "):
        k += 1
    assert all(l[:1] in (">", " ") for l in lines[k:])
    assert len([l for l in lines[k:] if l.startswith(">")]) == (1 if lines[k:] else 0)


def screen_game(seed, bots):
    """P1 on a 128x64 panel, P2 on a 72x40 one; each plays what its bot would, found among
    the screen's choices and played with DOWN and OK; both screens drawn after every event.
    Returns the log."""
    seats = make_seats(ENGINE, {}, 2, seed)
    scr = [screen_for(seats[0], 128, 64), screen_for(seats[1], 72, 40)]
    rounds = 0
    while seats[0].result() is None:
        moved = False
        for p in (0, 1):
            app, sc = scr[p]
            s = seats[p]
            ch = sc.choices()
            if not ch:
                continue
            if s.setup_legal():
                want = ui.label(s, bots[p].setup(s))
            else:
                want = ui.label(s, bots[p].act(s))
            labels = [t for _a, t in ch]
            if labels == ["shuffle hand"]:
                want = labels[0]  # the screen draws the order itself
            target = labels.index(want)
            sc.cursor = 0
            for _ in range(target):
                sc.key("DOWN")
            sc.key("OK")
            deliver(seats)
            answers(seats)
            moved = True
        assert moved
        for app, sc in scr:
            draw(app, sc)
            check_lines(sc.lines())
        rounds += 1
        assert rounds < 1000
    for app, sc in scr:
        draw(app, sc)  # the final position still draws
        check_lines(sc.lines())
    assert seats[0].audit(1, seats[1].reveal()) is None
    assert seats[1].audit(0, seats[0].reveal()) is None
    return seats[0].log


def test_whole_games_through_the_screen_keys():
    tags = []
    for seed, bots in ((b"g1", (SharpBot(b"g1", 0), RandomBot(b"g1", 1))),
                       (b"r2", (RandomBot(b"r2", 0), RandomBot(b"r2", 1))),
                       (b"g2", (RandomBot(b"g2", 0), SharpBot(b"g2", 1)))):
        for _a, ev in screen_game(seed, bots):
            if ev[0] not in tags:
                tags.append(ev[0])
    for t in ("up", "down", "report", "listen", "seen", "hand", "hit", "miss", "shuffle",
              "disable", "damage"):
        assert t in tags, (t, tags)
