# Words, not codes, and sentences that read right: what the screens say where they said
# "You boat moved", "Calm in 58" or "saved on both units" in a group of three.
import pytest

from fathom.games.ashtapada import say as lake_say
from test_ashtapada_screen import game as lake_game
from test_ashtapada_screen import play as lake_play
from test_ashtapada_screen import screen_for as lake_screen

pytestmark = pytest.mark.micropython


def test_lake_names_whose_boat_moved_in_a_sentence():
    seats = lake_game()
    _a0, s0 = lake_screen(seats, 0)
    _a1, s1 = lake_screen(seats, 1)
    move = [a for a in seats[0].legal() if a[0] == "move"][0]
    lake_play(seats, 0, move)
    mine, theirs = s0.lines()[1], s1.lines()[1]
    assert mine.startswith("| Your boat mov"), mine
    assert theirs.startswith("| The foe's boat mov"), theirs
    assert "You boat" not in mine + theirs


def test_lake_tells_the_draw_to_come_in_words():
    seats = lake_game()
    st = lake_say.status(seats[0].pub, 0)
    assert [s for s in st if s.startswith("Draw: ") and s.endswith(" turns")], st
    assert lake_say._draw_in(1) == "Draw: 1 turn"
    assert max(len(s) for s in st) <= 14, st
    assert not [s for s in st if "Calm" in s], st


@pytest.mark.parametrize("small", [False, True])
def test_a_row_note_stays_clear_of_the_scroll_bar(small):
    # the bar ran over the last digit of "Lake 10" (an option's value, a row's note)
    from kit.panel import Panel
    from fathom.ui.listview import ListView
    labels = ["Lake %d" % i for i in range(12)]
    for w in (128, 72, 125):
        d = Panel(w, 64)
        v = ListView(labels, notes=["%d" % (i + 1) for i in range(12)], bar=True, small=small)
        v.cursor = 5
        v.draw(d, 0, 8, w, 56)
        bare = Panel(w, 64)
        ListView(labels, notes=[""] * 12, bar=True, small=small, cursor=5).draw(bare, 0, 8, w, 56)
        for y in range(8, 64):          # nothing but the bar in the box's last two columns
            for x in (w - 2, w - 1):
                assert d.pixel(x, y) == bare.pixel(x, y), (w, x, y)


def test_an_option_cut_by_the_foot_of_its_list_still_shows_its_value():
    # at 72x40 the game menu's last row read "SEALED DEAL" with no on/off: "(link)" and the
    # value had wrapped onto a row below the box
    from kit.panel import Panel
    from fathom.ui.listview import ListView
    labels = ["vs other unit", "How to play", "vs bot: easy", "vs bot: sharp",
              "Sealed deal (link)"]

    def box(value):
        d = Panel(72, 40)
        v = ListView(labels, notes=["", "", "", "", value], fixed=True, whole=True, small=True,
                     cursor=3)
        v.draw(d, 0, 8, 72, 32)
        return d
    on, bare = box("on"), box("")
    y = 8 + 4 * 6                       # the last row in the box
    assert any(on.pixel(x, yy) != bare.pixel(x, yy) for x in range(50, 72)
               for yy in range(y, y + 5))


def test_pinned_down_titles_name_a_turn_and_a_player_apart():
    # "T1 Main" beside "P2 Main" read as two players
    from fathom.games.local import next_author
    from fathom.games.pinned_down.bot import EasyBot
    from fathom.games.pinned_down import say as pd_say
    from test_pinned_down_screen import deliver, start
    from test_pinned_down_screen import screen_for as pd_screen
    seats = start(2, "red", b"words")
    bots = [EasyBot(b"w", 0), EasyBot(b"w", 1)]
    seen_turn = seen_other = jumps = 0
    for _ in range(400):
        if seats[0].result() is not None:
            break
        mover = next_author(seats)
        for s in seats:
            t = pd_screen(s, 128, 64)[1].brief()
            assert not (t[:1] == "T" and t[1:2].isdigit()), t
            if t.startswith("You: "):
                seen_turn += 1
            elif t.startswith("P") and t[1:2].isdigit():
                assert t[2:4] == ": ", t
                seen_other += 1
        for a in mover.legal():
            if a[0] == "jump":
                label = pd_say.action(mover.pub, a)        # "jump Ion Storm +2"
                jumps += 1
                assert " d" not in label and "+" in label, label
        deliver(seats, mover, bots[mover.player].act(mover))
    assert seen_turn and seen_other and jumps


def test_a_played_card_is_told_with_where_it_went():
    # "P2 PLAYED DAMAGE CONTROL KIT:" read as cut before its target
    from fathom.games.local import next_author
    from fathom.games.pinned_down.bot import SharpBot
    from fathom.games.pinned_down import cards as C
    from fathom.games.pinned_down import say as pd_say
    from test_pinned_down_screen import deliver, start
    told = 0
    for seed in (b"a", b"b", b"c"):
        seats = start(2, "red", b"told" + seed)
        bots = [SharpBot(seed, 0), SharpBot(seed, 1)]
        for _ in range(300):
            if seats[0].result() is not None:
                break
            mover = next_author(seats)
            act = bots[mover.player].act(mover)
            deliver(seats, mover, act)
            if act[0] == "play" and len(act) > 2:
                c = C.get(act[1])
                if c[C.TYPE] in (C.CHAR, C.EQUIP):
                    line = pd_say.news(seats[0].pub, 0, mover.player, act)
                    assert (c[C.NAME] + " on ") in line, line
                    told += 1
    assert told


# ---- Periplus: ships and cards by name where a row has room ---------------------------------
class _Unit:
    """A test panel app with what uxplayer's Drawn wraps (app.d, app.redraw)."""

    def __init__(self, w, h):
        from kit.panel import App
        self.app = App(w, h)
        self.app.d = self.app.hw.display
        self.app.redraw = self.redraw

    def redraw(self):
        d = self.app.d
        d.fill(0)
        self.app.stack[-1].draw(d)


def _drawn(scr_of, w, h):
    from hostmodes.uxplayer import Drawn
    u = _Unit(w, h)
    scr = scr_of(u.app)
    u.app.push(scr)
    return u, scr, Drawn(u.app)


def test_periplus_names_the_ship_under_the_cursor_and_the_hand_at_128x64():
    # "b2 D 4/4" (D the Quadrireme) and "Hand PER HPX TRB": codes where the panel has room
    from fathom.games.periplus import cards as C
    from fathom.games.periplus.fleet import SHIP_NAMES
    from fathom.games.periplus import screen as P
    from test_periplus_screen import make_screen, my_phase, new_game, play_until
    rs = new_game()
    assert play_until(rs, my_phase("move"))
    u, scr, drawn = _drawn(lambda app: P.screen(app, rs[0]), 128, 64)
    try:
        u.app.redraw()
        at = [ln for ln in scr.lines() if ln.startswith("@ ")][0]
        assert at.split()[4] in SHIP_NAMES and at.split()[3] in ("your", "foe"), at
        assert at.split()[4].upper() in drawn.words, drawn.words
        for k in rs[0].seat.priv["hand"]:
            for word in C.name(k).upper().split():
                assert word in drawn.words or word + "," in drawn.words, (word, drawn.words)
        for code in ("PER", "HPX", "TRB", "RRM", "PRG"):
            assert code not in drawn.words
    finally:
        drawn.close()
    _a, small = make_screen(rs, 72, 40)       # 33 px beside the board: the board's letter
    assert small.where_t[3:4] in "BTDQ", small.where_t


def test_periplus_news_names_the_ship_that_moved():
    from fathom.games.periplus import say as W
    from fathom.games.periplus.fleet import SHIP_NAMES
    from test_periplus_screen import my_phase, new_game, play_until
    rs = new_game()
    assert play_until(rs, my_phase("fire"))
    s = rs[0].seat
    log = [(a, e) for a, e in s.log if e[0] == "move"]
    assert log
    line = W.news(s.pub, log[-1:], 0)
    assert [n for n in SHIP_NAMES if (" %s to " % n) in line], line


@pytest.mark.parametrize("size", [(128, 64), (72, 40)])
def test_periplus_setup_says_where_the_ship_goes_whole(size):
    # "Bireme: 2 hits, 2 left. Goes to" was cut before its square (and at 72x40 after "Bireme:")
    from fathom.games.periplus import screen as P
    from test_periplus_screen import new_game
    rs = new_game()
    u, scr, drawn = _drawn(lambda app: P.screen(app, rs[0]), *size)
    try:
        u.app.redraw()
        assert scr.stage == P.CARDS
        assert {"BIREME,", "GOES", "TO", "A1"} <= drawn.words, drawn.words
        assert not drawn.cut, drawn.cut
    finally:
        drawn.close()


# ---- the game log and the sealed deal in words ---------------------------------------------
@pytest.mark.parametrize("gid", ["ping", "periplus"])
@pytest.mark.parametrize("size", [(128, 64), (72, 40)])
def test_the_game_log_cuts_no_row(gid, size):
    # rows ended in '~' ("5 P1 shuffles~", "Game ~" at 72x40): every row is wrapped whole now
    from fathom.flow.gamelog import LogScreen
    from test_gamelog import _deal_then_moves
    r = _deal_then_moves(gid, 12)
    u, scr, drawn = _drawn(lambda app: LogScreen(app, r), *size)
    try:
        n = scr.view.count()
        for i in range(n):
            scr.view.cursor = i
            u.app.redraw()
            assert not drawn.cut, (i, drawn.cut)
            row = scr.view.labels[i].upper().split()
            words = set(w.lstrip(">") for w in drawn.words)      # (">" marks the cursor)
            assert set(row) <= words, (row, drawn.words)          # the highlighted row whole
        assert "step" not in " ".join(scr.view.labels[i] for i in range(n))
    finally:
        drawn.close()


def test_the_sealed_deal_is_told_in_words_not_steps():
    # "SEALED DEAL: 36 STEPS / 1 STEP": a count of messages told a newcomer nothing
    from fathom.ui.happened import Happened
    from test_sealed_screens import linked
    rs = linked("periplus", b"deal words")
    s = rs[1].seat
    h = Happened(s, lambda prev, a, e: "P%d %s" % (a + 1, e[0]), "start")
    seen = set()
    now = 0
    while now < 600000 and not {"Deck shuffled in secret", "Cards dealt in secret"} <= seen:
        for r in rs:
            r.tick(now)
            t = r.seat
            if t.result() is None and t.my_turn() and t.to_move()[1] == "act" and \
                    t.engine.deal_progress(t.pub) is None:
                from fathom.games.bots import make_bot
                r.play(make_bot("periplus", "random", b"w", t.player).act(t))
        h.update()
        seen.update(h.lines)
        assert not [x for x in h.lines if "step" in x], h.lines
        now += 10
    assert "Deck shuffled in secret" in seen and "Cards dealt in secret" in seen, seen


def test_ping_names_the_card_you_take_next_in_the_hands_form_at_72x40():
    # "TK 1LST": a code of its own ('LST' is in no help line), where the hand says "1 LSTN"
    from fathom.games.ping import say as ping_say
    from kit.ping import M1_ENC, M1_GUN, M1_TORP, M2_DIVE, M2_TORP, M3_PING, game, play
    from test_ping_screen import screen_for as ping_screen
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "G", "S")
    play(seats, ["ping", M3_PING])
    _app, scr = ping_screen(seats[1], 72, 40)
    scr.refresh()
    rows = scr.side_short
    i = rows.index("TAKE")
    take = rows[i + 1]
    forms = [ping_say.util_short(u) for u in range(6)]
    assert take in ("-", "?") or take.split()[-1] in forms, rows
    assert not [r for r in rows if r.startswith("TK")], rows


def test_periplus_hand_gives_way_to_its_codes_only_when_the_names_do_not_fit():
    # five long names took four rows of the panel and left what happened three
    from fathom.games.periplus import cards as C
    from fathom.games.periplus import say as W
    from fathom.games.periplus import screen as P
    from test_periplus_screen import my_phase, new_game, play_until
    rs = new_game()
    assert play_until(rs, my_phase("move"))
    u, scr, drawn = _drawn(lambda app: P.screen(app, rs[0]), 128, 64)
    try:
        hand = rs[0].seat.priv["hand"]
        for kinds, named in (([0, 4], True), ([23, 3, 21, 6, 2], False)):
            hand[:] = kinds
            scr.ch = None                       # the hand changed: rebuild as after an event
            u.app.redraw()
            u.app.redraw()
            want = C.name(kinds[-1]).upper().split()[-1] if named else W.CODE[kinds[-1]]
            assert want in drawn.words or want + "," in drawn.words, (kinds, drawn.words)
            assert len(scr.hand_page.lines(scr.layout(u.app.d)[5] - 1, 64)) <= P.HAND_ROWS
    finally:
        drawn.close()


def test_periplus_discard_at_128x64_gives_what_happened_every_row_left():
    # one row at the panel's foot turned through a turn told by name for longer than the panel
    # stays lit (30 s), and the next key only woke the panel
    from fathom.ui.font import TH
    from test_periplus_screen import draw, make_screen, my_phase, new_game, play_until
    rs = new_game()
    assert play_until(rs, my_phase("discard"))
    _app, scr = make_screen(rs, 128, 64)
    draw(scr)
    assert scr.news_page._bh >= 4 * TH, scr.news_page._bh
