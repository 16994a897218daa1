# The panel rests (firmware/fathom/app.py, App._panel_due): on a board built by hw.build over the
# twins, with no key for the Settings' "dim" seconds the SSD1306 is dimmed (contrast command),
# after "dark" seconds it is turned off (display-off command, which the panel twin decodes:
# its glass goes dark); a key lights it again and does nothing else; a game waiting for the
# partner lights it when the turn becomes the player's. A lit unit runs at its profile's clock
# (cpu_mhz, set at boot: the chip's top one); while the panel rests the CPU runs at 80 MHz
# (hal/speed.py), and what wakes the panel gives back the lit clock first.

import pytest

from kit.twins import ROOT as _ROOT

import machine  # noqa: E402
from fathom.app import App, DIM_CONTRAST, LOOP_MS, home_menu  # noqa: E402
from fathom.hal import clock, hw  # noqa: E402
from fathom.ui.screen import Screen  # noqa: E402

pytestmark = pytest.mark.micropython

DOWN = 33   # esp32_devkit_ssd1306's DOWN button (active low)


class Unit:
    def __init__(self, tag, dim=30, dark=120, board="esp32_devkit_ssd1306"):
        machine.reset_twins()
        self.now = 1000
        machine.set_ticks(lambda: self.now)
        root = "/tmp/fathom-test-panel-" + tag
        self.hw = hw.build(_ROOT + "/boards/%s.json" % board, root)
        self.app = App(self.hw)
        self.app.settings.values["link"] = "uart"  # no invitations: nothing but the panel
        self.app.settings.values["dim"] = dim
        self.app.settings.values["dark"] = dark
        self.app.push(home_menu(self.app))
        self.panel = machine.PANELS[60]
        clock.woken()

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += LOOP_MS
            if self.app.due(self.now):
                self.app.step(self.now)

    def press(self, pin=DOWN):
        machine.pin_set(pin, 0)
        self.run(80)
        machine.pin_set(pin, 1)
        self.run(100)

    def lit(self):
        return self.panel.on and self.panel.contrast != DIM_CONTRAST


def test_the_panel_dims_then_turns_off_and_a_key_only_wakes_it():
    u = Unit("a", dim=30, dark=120)
    lines = u.app.top().lines()
    u.run(29000)
    assert u.lit()
    u.run(2000)
    assert u.panel.on and u.panel.contrast == DIM_CONTRAST
    u.run(90000)
    assert not u.panel.on
    assert not any(u.panel.render())          # the glass is dark
    u.press()
    assert u.lit() and u.panel.contrast == u.app.settings["contrast"]
    assert u.app.top().lines() == lines       # the waking DOWN moved nothing
    u.press()
    assert u.app.top().lines() != lines       # the next DOWN does
    u.run(29000)
    assert u.lit()                            # the count starts again from the key


def test_a_dimmed_panel_wakes_on_a_key_that_does_nothing_else():
    u = Unit("b", dim=15, dark=0)
    lines = u.app.top().lines()
    u.run(16000)
    assert u.panel.contrast == DIM_CONTRAST
    u.run(600000)
    assert u.panel.on                         # dark 0: never off
    u.press()
    assert u.lit() and u.app.top().lines() == lines


class Runner:
    """A game's runner as the app asks it: is it this player's turn."""
    mine = False

    def my_turn(self):
        return self.mine


def test_the_partners_move_that_makes_it_the_players_turn_lights_the_panel():
    u = Unit("c", dim=15, dark=60)

    class Waiting(Screen):
        title = "PING"

        def __init__(self, app):
            Screen.__init__(self, app)
            self.runner = Runner()

    scr = Waiting(u.app)
    u.app.push(scr)
    u.run(61000)
    assert not u.panel.on
    scr.runner.mine = True                    # the partner's move came in
    clock.wake()                              # as its frame wakes the loop
    u.run(20)
    assert u.lit()
    assert machine.freq() == LIT                  # the clock came back with the panel
    assert machine.FREQ_LOG == [LIT, SLOW, LIT]


def test_the_turn_lights_the_panel_under_a_question_it_put_up():
    # PING asks the turn's report in the step the turn comes: the panel stayed dark under the
    # question (the app looked for a game only on top), so the player's first key only woke it
    u = Unit("q", dim=15, dark=60)

    class Asking(Screen):
        title = "PING"

        def __init__(self, app):
            Screen.__init__(self, app)
            self.runner = Runner()

        def tick(self, now):
            if self.runner.mine and self.app.stack[-1] is self:
                self.app.push(Screen(self.app))   # the question, in the turn's own step
                return True
            return False

        def wake_in(self, now):
            return None

    scr = Asking(u.app)
    u.app.push(scr)
    u.run(61000)
    assert not u.panel.on
    scr.runner.mine = True
    clock.wake()
    u.run(20)
    assert u.app.stack[-1] is not scr and u.lit()


SLOW = 80000000
LIT = 240000000     # esp32_devkit_ssd1306's cpu_mhz


def test_the_cpu_runs_slower_while_the_panel_rests_and_the_waking_key_restores_it():
    u = Unit("d", dim=30, dark=120)
    assert machine.freq() == LIT              # set at boot, from MicroPython's 160 MHz
    u.run(29000)
    assert machine.FREQ_LOG == [LIT]          # lit: the profile's clock
    u.run(2000)
    assert u.panel.contrast == DIM_CONTRAST and machine.freq() == SLOW
    u.run(90000)
    assert not u.panel.on and machine.freq() == SLOW
    assert machine.FREQ_LOG == [LIT, SLOW]    # set once, not again when the panel turns off
    seen = []
    machine.on_panel_update(lambda addr, panel: seen.append(machine.freq()))
    u.press()
    assert u.lit() and machine.freq() == LIT
    assert seen and set(seen) == {LIT}        # every byte of the redraw at full clock
    u.run(29000)
    assert machine.FREQ_LOG == [LIT, SLOW, LIT]


def test_a_board_without_a_chip_that_slows_keeps_its_clock():
    u = Unit("e", dim=5, dark=10, board="host")
    u.run(20000)
    assert not u.panel.on
    assert machine.FREQ_LOG == []


def test_a_c3_runs_lit_at_160_mhz_its_top_clock_and_rests_at_80():
    import esp32
    esp32.set_chip("esp32c3")
    try:
        u = Unit("f", dim=5, dark=10, board="esp32c3_oled_72x40")
        assert machine.freq() == 160000000
        with pytest.raises(ValueError):
            machine.freq(LIT)                 # the C3's port has no 240 MHz
        u.run(6000)
        assert machine.freq() == SLOW
        u.press(2)                            # the C3 board's UP
        assert machine.freq() == 160000000
        assert machine.FREQ_LOG == [160000000, SLOW, 160000000]
    finally:
        esp32.set_chip(None)
