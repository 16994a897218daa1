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
    assert [s for s in st if s.startswith("Draw in ")], st
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
