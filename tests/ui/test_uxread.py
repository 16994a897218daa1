# How `fathom bench ux` knows what a player could read (hostmodes/uxplayer: Drawn, Reading):
# from the strings the app really draws, frame by frame. An event counts as read only once all
# its words were on the panel before the player's next action; a drawn line that ends in '~'
# is a cut line. Fast: one PING exchange on real screens, in-process.
import pytest

from fathom.games.ping import board as B
from fathom.games.ping import screen as ping_ui
from fathom.runner import Runner
from fathom.ui.font import put
from hostmodes.uxplayer import Drawn, Reading

from kit.ping import M1_ENC, M1_GUN, M1_TORP, M2_DIVE, M2_TORP, M3_PING, game, play
from kit.panel import App

pytestmark = pytest.mark.micropython


class Unit(App):
    """uikit's App with what Drawn wraps: the display as app.d and a redraw of the top."""

    def __init__(self, w, h):
        App.__init__(self, w, h)
        self.d = self.hw.display

    def redraw(self):
        self.d.fill(0)
        self.stack[-1].draw(self.d)


def unit_for(seat):
    u = Unit(128, 64)
    u.push(ping_ui.screen(u, Runner(seat, [], None, "ping")))
    return u


def test_an_event_drawn_before_the_next_action_is_read_and_one_never_drawn_is_not():
    # P1 off the objectives (a PING or deck gun from one keeps the turn open for a report)
    # and out of the deck gun's reach of S
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "G", "S")
    u = unit_for(seats[1])
    drawn = Drawn(u)
    try:
        rd = Reading(drawn)
        scr = u.stack[-1]
        u.redraw()
        rd.look(scr, seats[1])
        play(seats, ["ping", M3_PING])      # P1 pings from G: P2's screen must say so
        rd.look(scr, seats[1])
        assert not rd.read()                # not drawn yet
        u.redraw()
        assert rd.read() and "PING" in drawn.words
        play(seats, ["torpedo", M2_TORP, B.N])   # P2's own move: nothing was missed
        rd.look(scr, seats[1])
        assert rd.unseen == 0 and rd.events >= 2
        play(seats, ["gun", M1_GUN])        # P1 again, and P2 moves before any redraw
        rd.look(scr, seats[1])
        assert not rd.read()
        rd.act()                            # what P2 did next came before any frame
        assert rd.unseen >= 1 and rd.examples
    finally:
        drawn.close()


def test_a_drawn_line_that_ends_in_a_cut_is_counted_once():
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "S")
    u = unit_for(seats[0])
    drawn = Drawn(u)
    try:
        u.redraw()
        assert not drawn.cut, drawn.cut
        for _ in range(2):                  # two frames, one cut line
            del drawn.runs[:]
            put(u.d, "Captain Rhee (2/3 power)", 0, 56, 15, 1, True)   # as a screen would
            drawn._frame()
        assert drawn.cut == {"Captain Rhee (~"}
    finally:
        drawn.close()


def test_a_word_split_with_a_hyphen_reads_whole_once_both_parts_are_drawn():
    from fathom.ui import font
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "S")
    u = unit_for(seats[0])
    drawn = Drawn(u)
    try:
        del drawn.runs[:]
        font.tiny(u.d, "Foe Quinqu-", 40, 20)     # as a TextPage draws a wrapped word
        drawn._frame()
        assert "QUINQUEREME" not in drawn.words
        del drawn.runs[:]
        font.tiny(u.d, "Foe Quinqu-", 40, 20)
        font.tiny(u.d, "ereme a8", 40, 20 + font.TH)
        drawn._frame()
        assert "QUINQUEREME" in drawn.words and not drawn.cut
    finally:
        drawn.close()


def test_a_word_split_at_a_page_end_reads_whole_once_the_next_page_is_drawn():
    # Periplus's one-row event line at 72x40 holds 8 columns: "Quinquereme" turns through it
    # as "Foe" / "Quinque-" / "reme c4", each page in the same box (bench ux counted that event
    # unseen)
    from fathom.ui import font
    seats = game([M1_TORP, M1_GUN, M3_PING], [M2_TORP, M1_ENC, M2_DIVE], "M", "S")
    u = unit_for(seats[0])
    drawn = Drawn(u)
    try:
        for rows in (["Foe"], ["Quinque-"], ["reme c4"]):
            del drawn.runs[:]
            for i, row in enumerate(rows):
                font.tiny(u.d, row, 40, 20 + i * font.TH)
            drawn._frame()
        assert "QUINQUEREME" in drawn.words and "C4" in drawn.words
        # a page that ends in another box does not join: the word is not made up
        for x, row in ((40, "Quinque-"), (0, "reme c4")):
            del drawn.runs[:]
            font.tiny(u.d, row, x, 20)
            drawn._frame()
        assert "QUINQUEREME" not in drawn.words
    finally:
        drawn.close()
