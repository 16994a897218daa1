# The PING screen drawn into a real framebuf: the board cursor and the menu of what can be done
# on a square, your own submarine only, the tracker's marks, the blind shuffle and the pick as
# a card row, the event line in words, the help page, and whole games played through the keys
# keys_for() names, every authored action checked against the one asked for.
import pytest

from fathom.games.ping.bot import SharpBot
from fathom.games.bots import RandomBot
from fathom.games.local import make_seats
from fathom.games.ping.engine import ENGINE
from fathom.games.ping import board as B
from fathom.games.ping import say as W
from fathom.runner import Runner
from fathom.games.ping import screen as ui
from fathom.ui.dialog import read_text
from fathom.games.audit import audit
from kit.ping import (SQ, game, play, M1_TORP, M1_TORP2, M2_TORP, M1_GUN,
                               M3_PING, M1_ENC, M2_DIVE, M1_LISTEN, M1_PING, M2_ENC)

from kit.play import catch_up, settle
from kit.panel import App

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (128, 32), (72, 40))


def screen_for(seat, w=128, h=64):
    app = App(w, h)
    scr = ui.screen(app, Runner(seat, [], None, "ping"))
    app.push(scr)   # a question (ui/confirm.py) goes over it, as on the unit
    return app, scr


def draw(app, scr):
    d = app.hw.display
    d.fill(0)
    scr.draw(d)
    return d


def choices(lines):
    return [l[1:] for l in lines[1:] if l[:1] in (">", " ")]


def info(lines, tag):
    for l in lines:
        if l.startswith("# " + tag + " "):
            return l[len(tag) + 3:]
    return None


def press(scr, keys):
    """Keys to the top screen: the game's, or a question it asked."""
    st = scr.app.stack
    for k in keys:
        (st[-1] if st else scr).key(k)


def square_box(scr, sq):
    """(x, y, px) of a square as the grid last laid it out, or None when scrolled away."""
    g = scr.grid
    at = g.where(B.cell(sq))
    return None if at is None else (at[0], at[1], g.px)


def inverted(d, scr, sq):
    x, y, px = square_box(scr, sq)     # the fill's top right: past any letter, over a mark
    return d.lit(x, y, px, px - 1) > px * (px - 1) // 2 and d.lit(x + px - 1, y, 1, 2) == 2


def underlined(d, scr, sq):
    x, y, px = square_box(scr, sq)
    if px >= 9:
        return d.lit(x + 1, y + px - 1, px - 2, 1) == px - 2
    # 3x5 letters: a bar at the square's right (a line under the glyph touched the letter
    # below), nothing under it
    return d.lit(x + px - 1, y + 2, 1, 3) == 3 and not d.lit(x, y + px - 1, px - 1, 1)


@pytest.mark.parametrize("w, h", SIZES)
def test_setup_is_a_cursor_on_the_map_and_ok(w, h):
    seats = make_seats(ENGINE, {}, 2, b"ui")
    app, scr = screen_for(seats[1], w, h)
    lines = scr.lines()
    assert lines[0] == "PING set up" and lines[1] == "| You are P2"
    assert info(lines, "cursor") == "M" and info(lines, "you") == "-"
    assert info(lines, "foe") == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    d = draw(app, scr)
    assert not inverted(d, scr, SQ["M"]) and underlined(d, scr, SQ["M"])
    press(scr, ["UP"])          # M -> H straight above
    assert info(scr.lines(), "cursor") == "H"
    press(scr, ["LEFT"])        # H -> G
    press(scr, ["LEFT"])        # G -> F: the reef between is jumped
    assert info(scr.lines(), "cursor") == "F"
    assert scr.keys_for(SQ["B"]) == ["UP", "RIGHT", "OK"]
    press(scr, scr.keys_for(SQ["B"]))
    assert seats[1].priv["sq"] == SQ["B"]
    d = draw(app, scr)
    assert inverted(d, scr, SQ["B"]) and info(scr.lines(), "you") == "B"


@pytest.mark.parametrize("w, h", SIZES)
def test_the_other_submarine_never_changes_a_pixel(w, h):
    """Two games alike but for where P2 hides: P1's screens are identical, pixel for pixel,
    on every square of the board and in every menu."""
    shots = []
    for there in ("S", "A"):
        seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", there)
        app, scr = screen_for(seats[0], w, h)
        seen = []
        for sq in range(B.NSQ):
            scr.grid.cursor = B.cell(sq)
            seen.append((bytes(draw(app, scr).buf), scr.lines()))
            scr.key("OK")
            seen.append((bytes(draw(app, scr).buf), scr.lines()))
            if scr.mode == ui.MENU:
                scr.key("BACK")
        shots.append(seen)
    assert shots[0] == shots[1]


def test_the_menu_offers_what_can_be_done_on_the_square():
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0])
    lines = scr.lines()
    assert lines[0] == "PING your move" and info(lines, "cursor") == "M"  # on your submarine
    assert info(lines, "hand") == "1TOR 1GUN 3PIN" and info(lines, "obj") == "- P2 -"
    scr.key("OK")
    # the report shows your square: last, never under the cursor as the menu opens
    assert choices(scr.lines()) == ["deck gun M1 GUN", "ping M3 PING", "report objective"]
    assert info(scr.lines(), "at") == "M"
    draw(app, scr)
    scr.key("BACK")
    scr.key("RIGHT")            # N: one step east, on the torpedo's run east
    scr.key("OK")
    # a quiet move first: the shot that surfaces you is never under the cursor as it opens
    assert choices(scr.lines()) == ["move M1 TORP", "move M1 GUN", "move M3 PING",
                                    "torpedo E M1 TORP"]
    scr.key("BACK")
    press(scr, ["RIGHT", "OK"])  # O: still the torpedo's run, and no move ends there
    assert choices(scr.lines()) == ["torpedo E M1 TORP"]
    press(scr, ["BACK", "UP", "UP", "OK"])  # D: nothing to do there, nothing opens
    assert info(scr.lines(), "cursor") == "D"
    assert scr.mode == ui.BOARD and not choices(scr.lines())
    # every legal action is in the menu of some square
    offered = []
    for sq in range(B.NSQ):
        offered.extend(W.label(a) for a in scr.menu_at(sq))
    assert sorted(set(offered)) == sorted(set(W.label(a) for a in seats[0].legal()))
    # the two MOVE 1 / TORPEDO cards play alike: one entry for both
    seats = game([M1_TORP, M1_TORP2, M2_TORP], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    _app, scr = screen_for(seats[0])
    press(scr, ["RIGHT", "OK"])
    assert choices(scr.lines()).count("torpedo E M1 TORP") == 1
    labels = choices(scr.lines())           # the torpedoes after the moves
    press(scr, scr.menu.keys_to(labels.index("torpedo E M1 TORP")) + ["OK"])
    assert seats[0].actions[-1] == ["torpedo", M1_TORP, B.E]


@pytest.mark.parametrize("w, h", SIZES)
def test_the_tracker_marks_and_the_event_line(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "S")
    play(seats, ["ping", M3_PING])          # P1 shows M
    app2, scr2 = screen_for(seats[1], w, h)
    assert scr2.lines()[1] == "| P1 PING from M"
    play(seats, ["end"])                    # P1 does not report M (rules §8: it could)
    play(seats, ["torpedo", M2_TORP, B.N])  # P2 fires north from S and misses
    app1, scr1 = screen_for(seats[0], w, h)
    assert scr1.lines()[1] == "| Torpedo from S heading N: miss"
    assert info(scr1.lines(), "foe") == "S"  # P2 surfaced to fire
    assert info(scr1.lines(), "take") == "M2 TORP"
    d = draw(app1, scr1)
    assert underlined(d, scr1, SQ["S"]) and not underlined(d, scr1, SQ["R"])
    assert inverted(d, scr1, SQ["M"]) and not inverted(d, scr1, SQ["S"])
    _app2, scr2 = screen_for(seats[1], w, h)
    assert info(scr2.lines(), "foe") == "M" and info(scr2.lines(), "you") == "S"


@pytest.mark.parametrize("w, h", SIZES)
def test_a_hit_the_blind_shuffle_and_the_pick_as_a_card_row(w, h):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "N")
    a1, s1 = screen_for(seats[0], w, h)
    a2, s2 = screen_for(seats[1], w, h)
    press(s1, ["OK", "OK"])                 # deck gun, on your own square
    assert seats[0].actions[-1] == ["gun", M1_GUN]
    catch_up(seats)
    settle(seats, in_order=True)                          # P2 is hit
    assert s2.lines()[1] == "| Deck gun at M: hit!"
    assert choices(s2.lines()) == ["shuffle hand"]  # the order is drawn, not chosen
    draw(a2, s2)
    assert s2.keys_for(["shuffle", 3]) == ["OK"]
    s2.key("OK")
    catch_up(seats)
    assert choices(s1.lines()) == ["cards 1+2", "cards 1+3", "cards 2+3"]
    draw(a1, s1)
    assert s1.keys_for(["disable", 1, 2]) == ["LEFT", "OK"]
    s1.key("RIGHT")
    draw(a1, s1)
    s1.key("OK")
    assert seats[0].actions[-1] == ["disable", 0, 2]
    catch_up(seats)
    settle(seats, in_order=True)
    assert s1.lines()[1] == "| P2 damaged at N"
    assert s1.lines()[0] == "PING may report"  # fired from M, not reported: the turn waits
    press(s1, s1.keys_for(["end"]))
    catch_up(seats)
    hand = info(s2.lines(), "hand").split(" ")
    assert len([c for c in hand if c.startswith("x")]) == 2, hand
    d = draw(a2, s2)
    if h >= 40:                             # the card rows struck through in the side strip
        x = s2.grid.layout(0, ui.CH, w, h - ui.CH - ui.TH) + 1
        y0 = ui.CH + 1
        if w < 128:                         # under the status, beside a map of every row
            x = s2.grid.layout(0, 0, w, h - ui.TH) + 1
            y0 += min(2, s2.status_page.count()) * ui.TH
        for i in range(3):
            y = y0 + i * ui.TH + 2
            if y + 3 > h - ui.TH:
                break
            assert (d.lit(x, y, 3 * ui.TW, 1) == 3 * ui.TW) == bool(
                seats[1].priv["hand"][i][1]), i
    scr_menu = [W.label(a) for a in s2.menu_at(SQ["N"])]
    assert [t for t in scr_menu if t.startswith("repair")]


def test_help_opens_with_a_long_press_and_scrolls():
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "N")
    app, scr = screen_for(seats[0], 72, 40)
    scr.key("OK")                           # a menu open underneath
    scr.key("HELP")
    d = draw(app, scr)
    lines = scr.lines()
    assert lines[0] == "PING help" and "GOAL" in " ".join(lines)
    top = scr.page.top
    scr.key("DOWN")
    assert scr.page.top == top + scr.page._rows - 1   # a page, one line kept
    draw(app, scr)
    assert d.lit(0, 0, 72, 8) > 0
    assert scr.keys_for(["ping", M3_PING])[0] == "BACK"
    scr.key("BACK")
    assert scr.mode == ui.MENU and scr.page is None


def test_the_help_text_ships_beside_the_game():
    text = read_text(ui.HELP_FILE)
    for word in ("GOAL", "TORPEDO", "DECK GUN", "DIVE", "KEYS", "SET-UP", "BACK"):
        assert word in text, word


# ---- whole games through the keys keys_for() names -----------------------------------------
def _same(asked, done):
    """An action authored for the one asked: the same, or its twin card, or (a shuffle) any
    order: the screen draws that itself."""
    if asked == done:
        return True
    if isinstance(asked, list) and asked[0] == "shuffle":
        return done[0] == "shuffle"
    return W.label(asked) == W.label(done)


def tick(app, scr, now):
    """The loop's tick of the top screen; a question the game put up is ticked past its wait
    (a person reads it before answering)."""
    scr.tick(now)
    top = app.stack[-1]
    if top is not scr:
        top.tick(now)
        top.tick(now + ui.ASK_WAIT_MS)


def keyed_game(seed, bots, sizes, counts):
    """Each seat plays what its bot chooses, through the keys its screen names; every screen
    drawn after every event. Returns the log."""
    seats = make_seats(ENGINE, {}, 2, seed)
    scr = [screen_for(seats[0], *sizes[0]), screen_for(seats[1], *sizes[1])]
    rounds = now = 0
    while seats[0].result() is None:
        moved = False
        for p in (0, 1):
            app, sc = scr[p]
            s = seats[p]
            now += 1000
            tick(app, sc, now)                 # as the unit's loop does: a turn's question
            if s.setup_legal():
                want = bots[p].setup(s)
                keys = sc.keys_for(want)
                press(sc, keys)
                assert s.setup_choices[-1] == want
            elif s.legal():
                want = bots[p].act(s)
                keys = sc.keys_for(want)
                n = len(s.actions)
                press(sc, keys)
                assert len(s.actions) == n + 1 and _same(want, s.actions[-1]), (
                    want, keys, s.actions[-1])
            else:
                continue
            counts.append(len(keys))
            catch_up(seats)
            settle(seats, in_order=True)
            moved = True
            draw(app, sc)
        assert moved
        for app, sc in scr:
            draw(app, sc)
            assert sc.lines()[0].startswith("PING ")
        rounds += 1
        assert rounds < 1000
    for app, sc in scr:
        draw(app, sc)  # the final position still draws
    assert audit(seats[0], 1, seats[1].reveal()) is None
    assert audit(seats[1], 0, seats[0].reveal()) is None
    return seats[0].log


def test_whole_games_through_the_keys_keys_for_names():
    tags = []
    counts = []
    for seed, bots, sizes in ((b"g1", (SharpBot(b"g1", 0), RandomBot(b"g1", 1)),
                               ((128, 64), (72, 40))),
                              (b"r2", (RandomBot(b"r2", 0), RandomBot(b"r2", 1)),
                               ((128, 32), (128, 64))),
                              (b"g2", (RandomBot(b"g2", 0), SharpBot(b"g2", 1)),
                               ((72, 40), (128, 32)))):
        for _a, ev in keyed_game(seed, bots, sizes, counts):
            if ev[0] not in tags:
                tags.append(ev[0])
    for t in ("up", "down", "report", "listen", "seen", "hand", "hit", "miss", "shuffle",
              "disable", "damage"):
        assert t in tags, (t, tags)
    counts.sort()
    median = counts[len(counts) // 2]
    p90 = counts[len(counts) * 9 // 10]
    print("ping keys per action: median %d, p90 %d over %d" % (median, p90, len(counts)))
    assert median <= 4 and p90 <= 8, (median, p90)


def test_sharp_players_need_at_most_four_keys_an_action_at_both_sizes():
    # bench ux's PING median was 5 at 72x40 (sharp against sharp): a report before the card
    # took six keys through the boat's menu; the turn's question takes two
    for w, h in ((128, 64), (72, 40)):
        counts = []
        for g in range(3):
            seed = b"k%d" % g
            keyed_game(seed, (SharpBot(seed, 0), SharpBot(seed + b"'", 1)), ((w, h), (w, h)),
                       counts)
        counts.sort()
        median = counts[len(counts) // 2]
        assert median <= 4 and counts[len(counts) * 9 // 10] <= 8, (w, h, median, counts)


def test_ok_where_nothing_can_be_done_says_why_in_one_line():
    # OK on such a square used to do nothing, with no word why
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0], 128, 64)
    scr.refresh()
    empty = [sq for sq in range(B.NSQ) if not scr.menu_at(sq)]
    assert empty, "every square has an action"
    scr.grid.cursor = B.cell(empty[0])
    n = len(seats[0].log)
    scr.key("OK")
    assert len(seats[0].log) == n and scr.mode == ui.BOARD
    why = info(scr.lines(), "why")
    assert why == "No card reaches %s." % ui._LETTERS[empty[0]]
    for w, h in SIZES:                     # on the panel too, in one line that is not cut
        app2, scr2 = screen_for(seats[0], w, h)
        scr2.grid.cursor = B.cell(empty[0])
        scr2.key("OK")
        d = draw(app2, scr2)
        assert d.lit(0, 0, w, h)
        assert len(why) <= (w + 1) // 4       # the 3x5 bottom line holds it whole
    scr.key("LEFT" if B.cell(empty[0]) % B.COLS else "RIGHT")
    assert info(scr.lines(), "why") is None  # the cursor moved: the reason goes


def test_the_72x40_map_shows_every_row_with_no_edge_dotted():
    # at 72x40 the map showed 4 of its 5 rows and scrolled; now the bar is over the side
    # strip only and every row shows wherever the cursor goes
    seats = make_seats(ENGINE, {}, 2, b"ui")
    app, scr = screen_for(seats[0], 72, 40)
    g = scr.grid

    def dotted(y):
        row = [d.pixel(x, y) for x in range(g.x0, g.x0 + g.vc * g.px)]
        return row.count(1) >= len(row) // 2 - 1 and 0 in row

    for first in ("UP", "DOWN"):
        for _ in range(B.NROWS):
            scr.key(first)
            d = draw(app, scr)
            assert g.vr == B.NROWS and g.fr == 0
            assert not dotted(g.y0 - 1) and not dotted(g.y0 + g.vr * g.px)


@pytest.mark.parametrize("w, h", [(128, 64), (72, 40)])
def test_the_report_after_a_utility_card_through_the_keys(w, h):
    # ping.txt: the unencrypted report "can be done at any point during your turn": here after
    # a PING from A, the objective where the turn began, with the square public already
    seats = game([M1_PING, M1_ENC, M2_DIVE], [M2_TORP, M1_GUN, M2_ENC], "A", "S")
    a1, s1 = screen_for(seats[0], w, h)
    a2, s2 = screen_for(seats[1], w, h)
    press(s1, s1.keys_for(["ping", M1_PING]))
    assert seats[0].actions[-1] == ["ping", M1_PING]
    catch_up(seats)
    assert s1.lines()[0] == "PING may report"
    draw(a1, s1)
    keys = s1.keys_for(["report"])
    assert len(keys) <= 3                    # OK on the boat, where the cursor waits, and OK
    press(s1, keys)
    assert seats[0].actions[-1] == ["report"]
    catch_up(seats)
    assert s2.lines()[1] == "| P1 reported objective A"
    assert seats[1].my_turn() and seats[0].pub["rep"][0] == 1
    draw(a2, s2)


@pytest.mark.parametrize("w, h", ((128, 64), (72, 40)))
def test_showing_your_square_asks_once_and_the_menu_never_opens_on_it(w, h):
    # OK, OK on an objective square used to report it: your square shown to the adversary
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0], w, h)
    n = len(seats[0].actions)
    press(scr, ["OK"])
    assert scr.menu.labels[scr.menu.cursor] != W.label(["report"], w < 128)
    press(scr, ["UP", "OK"])                # round to the report: it asks
    ask = app.stack[-1]
    assert ask is not scr and ask.lines()[0] == "Report?", ask.lines()
    assert "your submarine at M" in ask.lines()[1]
    assert ask.lines()[2:] == [">Keep it hidden", " Report"]
    draw(app, ask)
    press(scr, ["OK"])                      # the OK again: nothing is shown
    assert app.stack[-1] is scr and len(seats[0].actions) == n and scr.mode == ui.MENU
    press(scr, ["OK", "BACK"])              # asked again, BACK: still nothing
    assert app.stack[-1] is scr and len(seats[0].actions) == n
    press(scr, ["OK", "DOWN", "OK"])        # chosen: reported
    assert app.stack[-1] is scr and seats[0].actions[-1] == ["report"]
    # what a player with a plan presses: the menu, the report, the question's step
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0], w, h)
    press(scr, scr.keys_for(["report"]))
    assert seats[0].actions[-1] == ["report"]


@pytest.mark.parametrize("w, h", ((128, 64), (72, 40)))
def test_a_turn_that_starts_on_an_unreported_objective_offers_the_report_once(w, h):
    # the report before the card cost six keys through the boat's menu (OK, UP, UP, OK and
    # the question's DOWN, OK): the turn now asks it first, the cursor on Not now
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0], w, h)
    n = len(seats[0].actions)
    scr.tick(1000)
    ask = app.stack[-1]
    # what came since your last move heads it (the question covers the board's event line)
    assert ask is not scr and ask.lines() == [
        "Report M?", "You are P1: you start\nA report shows P2 your submarine at M."]
    press(scr, ["DOWN", "OK"])              # keys meant for the board, just before it came
    assert app.stack[-1] is ask and len(seats[0].actions) == n
    ask.tick(1000)
    ask.tick(1000 + ui.ASK_WAIT_MS - 1)
    assert ask.lines()[2:] == [], "answers before the wait is over"
    ask.tick(1000 + ui.ASK_WAIT_MS)
    assert ask.lines()[2:] == [">Not now", " Report"]
    draw(app, ask)
    assert scr.keys_for(["report"]) == ["DOWN", "OK"]
    press(scr, scr.keys_for(["report"]))
    assert app.stack[-1] is scr and seats[0].actions[-1] == ["report"]
    scr.tick(3000)
    assert app.stack[-1] is scr, "asked again after the report"

    # Not now: nothing shown, not asked again this turn, the report still on the boat's menu
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0], w, h)
    scr.tick(1000)
    ask = app.stack[-1]
    ask.tick(1000)
    ask.tick(1000 + ui.ASK_WAIT_MS)
    keys = scr.keys_for(["move", M1_TORP, SQ["N"], 0])
    assert keys[0] == "OK"                  # Not now, then the move as before
    press(scr, ["OK"])
    assert app.stack[-1] is scr and len(seats[0].actions) == n
    scr.tick(3000)
    assert app.stack[-1] is scr
    assert W.label(["report"], w < 128) in [scr._label(a) for a in scr.menu_at(SQ["M"])]


def test_the_turns_report_question_closes_once_the_game_moves_on_under_it():
    # a unit that plays its own seat (lent as a bot) asked it and nobody answered: the game
    # went on under the question, whose screen never let the game's end be shown
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app, scr = screen_for(seats[0])
    scr.tick(1000)
    ask = app.stack[-1]
    assert ask is not scr
    ask.tick(1000)
    assert app.stack[-1] is ask              # nothing happened: it stays
    play(seats, ["report"])                  # played by other means than its answer
    ask.tick(1100)
    assert app.stack[-1] is scr
    # a seat its unit plays itself is not asked at all
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], "M", "S")
    app = App(128, 64)
    scr = ui.screen(app, Runner(seats[0], [], None, "ping", {"autoplay": "sharp"}))
    app.push(scr)
    scr.tick(1000)
    assert app.stack[-1] is scr


@pytest.mark.parametrize("at, reported", (("S", 0), ("M", 0b100)))
def test_no_report_is_offered_off_an_objective_or_on_one_reported(at, reported):
    seats = game([M1_TORP, M1_GUN, M3_PING], [M1_LISTEN, M1_ENC, M2_DIVE], at, "S")
    seats[0].priv["done"] = reported         # completed before: the report is not legal
    app, scr = screen_for(seats[0])
    scr.tick(1000)
    assert app.stack[-1] is scr and scr.lines()[0] == "PING your move"


@pytest.mark.parametrize("w, h", ((128, 64), (72, 40)))
def test_the_start_square_is_chosen_not_taken_where_the_cursor_opened(w, h):
    # the first OK of a game used to fix the start on M, where both units open the cursor
    seats = make_seats(ENGINE, {}, 2, b"ui")
    app, scr = screen_for(seats[0], w, h)
    press(scr, ["OK"])
    ask = app.stack[-1]
    assert ask.lines()[0] == "Start at M?" and ask.lines()[2:] == [">Choose again",
                                                                   " Start at M"]
    draw(app, ask)
    press(scr, ["OK"])
    assert app.stack[-1] is scr and seats[0].priv["sq"] < 0 and seats[0].setup_legal()
    assert scr.keys_for(SQ["M"]) == ["OK", "DOWN", "OK"]
    press(scr, scr.keys_for(SQ["M"]))
    assert seats[0].priv["sq"] == SQ["M"]
    # a square the player moved to is a choice: one OK takes it
    app, scr = screen_for(seats[1], w, h)
    press(scr, ["RIGHT", "OK"])
    assert app.stack[-1] is scr and seats[1].priv["sq"] == SQ["N"]
