# Top-level flow: home menu -> game menu -> pair -> play -> result/audit, plus companion,
# settings and about. One cooperative loop: buttons, services (link, game runner), redraw.
# Everything past the home menu is imported when chosen and dropped again back home (shed).
import gc
import sys

from fathom.hal import clock
from fathom.hal.buttons import PRESS_CONFIRM_MS
from fathom.settings import Settings
from fathom.ui.menu import Item, Menu
from fathom.ui.font import CH

LOOP_MS = 10
DIM_CONTRAST = 0   # the panel dimmed (App._panel_due)
SECOND_MS = 1000   # a second of the panel's rest (an emulator's test shortens it: twins/hub.py)
CELL_OUT_MS = 3000  # an empty cell's last sentence stays this long before the unit turns off
REST_MAX_MS = 1000  # a resting loop still steps this often: a timer nobody declared is late by
                    # at most this, never for ever


class App:
    def __init__(self, hw, hub=None):
        self.hw = hw
        self.d = hw.display
        self.hub = hub
        self.stack = []
        self.services = []        # objects with tick(now) -> bool (True: redraw needed)
        self.dirty = True
        self.link_state = None
        self.rows = self.d.height // CH
        self.settings = Settings(hw.storage)
        self.running = True
        self.announced = False
        self.resident = None      # the modules the home menu needs (run() takes the list)
        self.n_modules = 0        # len(sys.modules) when nothing else was loaded
        self.invite = None        # the idle home menu's invitations (flow/invite.py), from run()
        self.radio_off = None     # why the radio would not start for them (Invites.off)
        self.wake_at = None       # a resting loop's next step (None: step every loop)
        self.panel = 0            # 0 lit, 1 dimmed, 2 off: the panel rests (_panel_rest)
        self.key_at = None        # when the player last pressed a key (or the loop began)
        self.mine = False         # the shown game was the player's turn (the panel rests)
        self.cell = None          # the battery gauge, on a board that reads its cell
        # the CPU's clock, slower while the panel rests (hal/speed.py): loaded the first time it
        # rests, so a game's heap, measured with the panel lit, does not carry it
        self.speed = None
        self.cell_warned = False  # the low-battery warning was shown (until it charges again)
        b = hw.profile.get("battery")
        if b is not None:
            from fathom.hal.battery import Battery
            self.cell = Battery(b, SECOND_MS)
        self.d.contrast(self.settings["contrast"])
        if hub:
            hub.buttons = hw.buttons  # the emulator paces key presses by the driver's state

    # ---- screen stack ----------------------------------------------------------------------
    def top(self):
        return self.stack[-1]

    def push(self, screen):
        self.stack.append(screen)
        self.dirty = True

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()
        self._home_back()

    def replace(self, screen):
        self.stack[-1] = screen
        self.dirty = True

    def home(self):
        del self.stack[1:]
        self._home_back()

    def leave_home(self, gid=None):
        """A game is paired or shown: what only the home menu uses leaves the heap until the
        stack comes back down to it: the menu (1.2-1.4 KB: the items, their closures, the
        list view), the invitation listener (0.8 KB: it listens only at home) and the
        declarations of the games other than `gid` (0.6 KB). Every way out of a game goes
        home, and all of it is built again there, the menu's cursor on the game just played."""
        from fathom import forget, games
        self.stack[0] = None
        inv = self.invite
        if inv is not None:
            inv.close()
            self.invite = None
            self.radio_off = inv.off  # a radio that would not start is not tried again
            forget("fathom.flow.invite")
        for g in games.IDS:
            pkg = games.package(g) + "."
            if g != gid and not any(n.startswith(pkg) for n in sys.modules):  # none in play
                forget(pkg[:-1])

    def game_flow(self):
        """The screens around a game (flow/play.py), for its screen, which belongs to the
        widget kit and so imports no flow."""
        from fathom.flow import play
        return play

    def _home_back(self):
        if self.stack[0] is None and len(self.stack) == 1:
            self.stack[0] = home_menu(self)
            if self.invite is None and self.resident is not None:
                self._listen()
        self.dirty = True

    # ---- loop ------------------------------------------------------------------------------
    def step(self, now):
        keys = self.hw.buttons.poll(now)
        t0 = clock.ticks_us()
        n = len(keys)
        if n or self.key_at is None:
            self.key_at = now
            if n and self.panel:
                self.wake_panel(now)
                n, keys = -n, ()   # the key that wakes the panel does nothing else
        inv = self.invite
        for k in keys:
            self.dirty = True
            # at home the invitation answers first (it also closes its radio before the menu
            # opens anything that may take the radio)
            if inv is None or len(self.stack) > 1 or not inv.key(k, now):
                self._key(k)
        for s in self.services:
            if s.tick(now):
                self.dirty = True
        if self.top().tick(now):
            self.dirty = True
        c = self.cell
        if c is not None and c.tick(now):
            self._cell(now)
        if inv is not None and inv.tick(now, len(self.stack) == 1 and not self.services):
            self.dirty = True
        if self.panel:
            self._turn_wakes(now)
        if self.dirty:
            self.redraw()
        for s in self.services:  # what confirms a move's receipt waits for its redraw
            late = getattr(s, "late", None)
            if late is not None:
                late(now)
        if n and self.hub:
            self.hub.key_us = clock.ticks_diff(clock.ticks_us(), t0)
            self.hub.keys_handled += abs(n)
        # At the end of a step, not inside a key's handler: a flow that passes through the home
        # menu (pop, then push the game) must not lose its modules half-way.
        if (len(self.stack) == 1 and not self.services and self.resident is not None
                and len(sys.modules) > self.n_modules):
            self.shed()
        self.wake_at = self._rest(now)

    def _key(self, k):
        top = self.top()
        try:
            top.key(k)
        except Exception as e:
            # A move the runner will not send now (its save was cut and its own copy is on its
            # way back from the partner: Runner.behind) is said on the game's problem line, not
            # a crash; the screen offered it from the game state. Anything else is a bug.
            r = getattr(top, "runner", None)
            base = sys.modules.get("fathom.games.base")  # loaded whenever a runner exists
            if r is None or base is None or not isinstance(e, base.IllegalAction):
                raise
            if not r.problem:  # a cut save's line already says what the unit waits for
                r.problem = "not sent: %s" % e

    def _cell(self, now):
        """A new reading of the cell: the top bar shows it; low, the player is told once (and
        again after a charge); empty, the game is saved and the unit turns off, saying so."""
        from fathom.hal.battery import CRITICAL_PCT, LOW_PCT
        from fathom.ui import topbar
        pct = self.cell.pct
        topbar.CELL[0] = pct
        self.dirty = True
        if pct is None:
            return   # no cell fitted: nothing to warn of
        if pct <= CRITICAL_PCT:
            self._cell_out(now)
        elif pct <= LOW_PCT and not self.cell_warned:
            self.cell_warned = True
            from fathom.ui.dialog import Message
            self.push(Message(self, "Battery low", "The battery is at %d%%: charge it soon. At "
                              "%d%% the unit saves the game and turns off." % (pct, CRITICAL_PCT)))
            if self.panel:
                self.wake_panel(now)
        elif pct > LOW_PCT + 5:
            self.cell_warned = False   # charged: the next low is told again

    def _cell_out(self, now):
        for s in self.services:   # the game is journalled as it goes; its peers are kept too
            save = getattr(s, "save", None)
            if save is not None:
                save()
        from fathom.ui.dialog import Message
        p = self.hw.profile
        key = [b["short"] for b in p["buttons"] if b["pin"] == p.get("wake")][0]
        self.push(Message(self, "Battery empty", "The battery is empty: the game is saved and "
                          "the unit turns off. Charge it, then press %s to go on." % key))
        if self.panel:
            self.wake_panel(now)
        self.redraw()
        print("fathom: battery empty, turning off")
        clock.sleep_ms(CELL_OUT_MS)   # the sentence is read before the panel goes off
        from fathom.hal.power import power_off
        power_off(self)

    def _panel_due(self, now):
        """ms until the panel dims or turns off (or, at the home menu, the unit powers off),
        None when it has no further rest to take (settings "dim", "dark" and "sleep", seconds
        without a key; 0 is never). It rests then."""
        s = self.settings
        for level, key in ((1, "dim"), (2, "dark"), (3, "sleep")):
            secs = s[key]
            if level == 3 and (len(self.stack) > 1 or self.services
                               or self.hw.profile.get("wake") is None):
                return None  # the unit powers off by itself only at the home menu
            if secs and self.panel < level:
                ms = secs * SECOND_MS - clock.ticks_diff(now, self.key_at)
                if ms > 0:
                    return ms
                if level == 3:
                    from fathom.hal.power import power_off
                    power_off(self)
                self.panel = level
                if self.speed is None:
                    from fathom.hal.speed import Speed
                    self.speed = Speed(self.hw.profile.get("chip"))
                self.speed.rest()   # nothing happens: the slower clock until the panel wakes
                if level == 1:
                    self.d.contrast(DIM_CONTRAST)
                else:
                    self.d.poweroff()
                r = self._runner()
                self.mine = r is not None and r.my_turn()
        return None

    def wake_panel(self, now):
        """The panel lit again at the player's contrast (a key, or their turn coming); its
        rest counts from now."""
        if self.speed is not None:
            self.speed.wake()   # before the redraw that follows
        self.key_at = now
        if self.panel == 2:
            self.d.poweron()
        self.d.contrast(self.settings["contrast"])
        self.panel = 0
        self.dirty = True

    def _runner(self):
        """The game's runner, under whatever is over its screen (the pause menu, a question
        the game asked as the turn came), or None."""
        st = self.stack
        i = len(st) - 1
        while i > 0:
            r = getattr(st[i], "runner", None)
            if r is not None:
                return r
            i -= 1
        return None

    def _turn_wakes(self, now):
        # a game waiting for the partner: the panel lights when the turn becomes the player's,
        # also under a question it put up in the same step (PING's report)
        r = self._runner()
        mine = r is not None and r.my_turn()
        if mine and not self.mine:
            self.wake_panel(now)
        self.mine = mine

    def _rest(self, now):
        """When the next step is due: None (every loop) while a button is in use or anything
        asks for every loop, else the soonest of what the screen, services and invitations
        ask for (wake_in: ms, or None for 'only after a key or a frame'), at most REST_MAX_MS.
        A key's edge and a frame the radio keeps end the rest early (clock.wake)."""
        w = self._panel_due(now)
        if not self.hw.buttons.idle():
            return None
        ms = REST_MAX_MS if w is None or w > REST_MAX_MS else w
        for s in self.services:
            w = s.wake_in(now) if hasattr(s, "wake_in") else 0
            if w is not None and w < ms:
                ms = w
        w = self.top().wake_in(now)
        if w is not None and w < ms:
            ms = w
        if self.cell is not None:
            w = self.cell.wake_in(now)
            if w < ms:
                ms = w
        if self.invite is not None:
            w = self.invite.wake_in(now)
            if w is not None and w < ms:
                ms = w
        return None if ms <= 0 else clock.ticks_add(now, ms)

    def shed(self):
        """Back at the home menu with nothing running: drop every fathom module loaded since
        boot (a game's flow, engine, bot and screen, the link, pairing, settings, companion),
        so the heap returns to the home menu's. Only modules nothing still runs: whatever
        needs one again imports it again."""
        from fathom import forget
        # sorted: parents before their submodules, so a forgotten package keeps the names its
        # own code uses (forget drops a submodule from a package still loaded)
        for name in sorted(sys.modules):
            if name.startswith("fathom.") and name not in self.resident:
                forget(name)
        self.n_modules = len(sys.modules)  # others (not fathom's) stay: not shed every step

    def redraw(self):
        self.dirty = False
        scr = self.top()
        over = self.invite
        if over is None or len(self.stack) > 1 or not over.showing():
            over = None
        self.d.fill(0)
        scr.draw(self.d)
        if over is not None:
            over.draw(self.d)
        self.d.show()
        if self.hub:
            self.hub.report_screen(over or scr)
        if not self.announced and len(self.stack) == 1:
            self.announced = True
            print("fathom: home")

    def run(self):
        # imported before start() counts the resident modules: shed at home, the module a UART
        # link registers its port with would be another than the one this loop sleeps on
        from fathom.hal.rest import Rest
        self.start()
        rest = Rest(self.hub, LOOP_MS)
        while self.turn() and rest.wait(self.wait_ms()):
            pass

    def wait_ms(self):
        """How long the loop may sleep before its next step: a press just read is confirmed
        PRESS_CONFIRM_MS later; a loop that cannot rest (App._rest: None) steps every LOOP_MS;
        a resting one sleeps until its next step is due, and a key's edge, a packet the radio
        kept or bytes on the cable end the sleep sooner (hal/rest.py)."""
        if self.hw.buttons.settling():
            return PRESS_CONFIRM_MS
        w = self.wake_at
        if w is None or self.dirty:
            return LOOP_MS if w is None else 0
        ms = clock.ticks_diff(w, clock.now_ms())
        return ms if ms > 0 else 0

    def start(self):
        """Everything before the loop. A host that paces the loop itself (a web page's timer,
        which must never block) calls start() once, then turn() every LOOP_MS."""
        self._listen()
        self.push(home_menu(self))
        self.resident = tuple(n for n in sys.modules if n.startswith("fathom."))
        self.n_modules = len(sys.modules)
        if self.settings.problem:
            from fathom.ui.dialog import Message
            self.push(Message(self, "Settings", self.settings.problem))
        self.redraw()
        # A game in progress survives a reboot: go straight back to it.
        if self.hw.storage.exists("game"):
            self.resume_game()

    def _listen(self):
        from fathom.flow.invite import Invites
        self.invite = Invites(self)  # the home menu listens whenever it is idle
        self.invite.off = self.radio_off

    def turn(self):
        """One pass of the loop; False once the unit stops."""
        if not self.running:
            return False
        now = clock.now_ms()
        t0 = clock.ticks_us()
        stepped = self.due(now)
        if stepped:
            self.step(now)
        hub = self.hub
        if hub is None:
            return True
        hub.work(t0, stepped)  # the loop's own time, counted for `fathom bench power`
        return hub.poll()

    def due(self, now):
        """Whether this loop takes a step: False while the loop rests (App._rest) and nothing
        woke it (run() sleeps until a step is due, so on a board this is rarely False; a host
        that paces turn() itself gets its answer every LOOP_MS)."""
        w = self.wake_at
        return clock.woken() or self.dirty or w is None or clock.ticks_diff(w, now) <= 0

    def resume_game(self):
        """Back into the saved game. An unreadable save is kept aside and explained, never a
        crash: resume() handles what goes wrong inside it, this what goes wrong around it
        (the game flow itself not fitting in memory), so a reboot cannot loop."""
        try:
            from fathom.flow.play import resume  # only now: the game flow is ~35 KB of heap
            resume(self)
        except Exception as e:
            try:  # a link game's partners are told as well (flow/aside.py, link/lost.py)
                from fathom.flow.aside import set_aside
                set_aside(self, e)
                return
            except Exception:
                pass  # that too did not load or run: set aside here, the partners not told
            del self.services[:]
            self.home()
            gc.collect()
            why = "out of memory" if isinstance(e, MemoryError) else repr(e)
            try:
                self.hw.storage.quarantine("game", why)
            except Exception:
                pass  # moved aside already, or the filesystem refuses: the menu still comes
            from fathom.ui.dialog import Message
            self.push(Message(self, "Saved game", "The saved game could not be read (%s). "
                              "It is kept aside as game.bad." % why))


def home_menu(app):
    from fathom import games
    items = []
    if app.settings["opponent"] != "off":  # this unit lends itself as a bot opponent
        items.append(Item("Play as bot", _call("fathom.flow.pairing", "wait_as_bot")))
    # the cursor starts on the game played last: a returning player's path is OK, OK
    last = app.settings.values.get("last")
    cursor = len(items) + games.IDS.index(last) if last in games.IDS else 0
    for gid in games.IDS:
        items.append(Item(games.declaration(gid).TITLE, _open_game(gid)))
    items.append(Item("Companion", _open("fathom.ui.companion", "companion_menu")))
    items.append(Item("Settings", _open("fathom.flow.settingsmenu", "settings_menu")))
    items.append(Item("About", _open("fathom.flow.about", "About")))
    return Menu(app, "fathom", items, cursor)


def _open(modname, fn):
    def go(app):
        m = __import__(modname, None, None, (fn,))
        app.push(getattr(m, fn)(app))
    return go


def _call(modname, fn):
    def go(app):
        m = __import__(modname, None, None, (fn,))
        getattr(m, fn)(app)
    return go


def _open_game(gid):
    def go(app):
        if app.settings.values.get("last") != gid:   # written only when it changes
            app.settings.set("last", gid)
        from fathom.flow.gamemenu import game_menu
        app.push(game_menu(app, gid))
    return go
