# Top-level flow: home menu -> game menu -> pair -> play -> result/audit, plus companion,
# settings and about. One cooperative loop: buttons, services (link, game runner), redraw.
import gc

from fathom import VERSION
from fathom.hal import clock
from fathom.settings import Settings
from fathom.ui.menu import Item, Menu
from fathom.ui.screen import CH, Screen, header

LOOP_MS = 10


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
        self.dirty = True

    def replace(self, screen):
        self.stack[-1] = screen
        self.dirty = True

    def home(self):
        del self.stack[1:]
        self.dirty = True

    # ---- loop ------------------------------------------------------------------------------
    def step(self, now):
        keys = self.hw.buttons.poll(now)
        t0 = clock.ticks_us()
        for k in keys:
            self.top().key(k)
            self.dirty = True
        for s in self.services:
            if s.tick(now):
                self.dirty = True
        if self.top().tick(now):
            self.dirty = True
        if self.dirty:
            self.redraw()
        if keys and self.hub:
            self.hub.key_us = clock.ticks_diff(clock.ticks_us(), t0)
            self.hub.keys_handled += len(keys)

    def redraw(self):
        self.dirty = False
        scr = self.top()
        self.d.fill(0)
        scr.draw(self.d)
        self.d.show()
        if self.hub:
            self.hub.report_text(scr.lines())
        if not self.announced and len(self.stack) == 1:
            self.announced = True
            print("fathom: home")

    def run(self):
        self.push(home_menu(self))
        if self.settings.problem:
            from fathom.ui.dialog import Message
            self.push(Message(self, "Settings", self.settings.problem))
        self.redraw()
        # A game in progress survives a reboot: go straight back to it.
        if self.hw.storage.exists("game"):
            self.resume_game()
        while self.running:
            self.step(clock.now_ms())
            if self.hub and not self.hub.poll():
                break
            clock.sleep_ms(LOOP_MS)


    def resume_game(self):
        """Back into the saved game. An unreadable save is kept aside and explained, never a
        crash: resume() handles what goes wrong inside it, this what goes wrong around it
        (the game flow itself not fitting in memory), so a reboot cannot loop."""
        try:
            from fathom.ui.play import resume  # only now: the game flow is ~35 KB of heap
            resume(self)
        except Exception as e:
            del self.services[:]
            del self.stack[1:]
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
    for gid, title, _mod in games.GAMES:
        ok = games.available(gid)
        items.append(Item(title, _open_game(gid), ok, "" if ok else "soon"))
    if app.settings["opponent"] != "off":  # this unit lends itself as a bot opponent
        items.insert(0, Item("Play as bot", _call("fathom.ui.pairing", "wait_as_bot")))
    items.append(Item("Companion", _open("fathom.ui.companion", "companion_menu")))
    items.append(Item("Settings", lambda a: a.push(settings_menu(a))))
    items.append(Item("About", lambda a: a.push(About(a))))
    return Menu(app, "fathom", items)


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
        from fathom.ui.gamemenu import game_menu
        app.push(game_menu(app, gid))
    return go


def settings_menu(app):
    s = app.settings

    def edit_name(a):
        from fathom.ui.textinput import TextInput

        def done(a2, v):
            s.set("name", v)
            a2.pop()
            a2.replace(settings_menu(a2))
        a.push(TextInput(a, "Player name", s["name"], 10, done))

    def cycle(key, apply=None):
        def go(a):
            v = s.cycle(key)
            if apply:
                apply(a, v)
            a.stack[0] = home_menu(a)  # the home menu shows "Play as bot" per this setting
            a.replace(settings_menu(a))
            a.top().cursor = KEYS.index(key)
        return go

    def contrast(a, v):
        a.d.contrast(v)

    def forget(a):
        from fathom.link.connect import forget_pairings
        forget_pairings(a.hw.storage)
        from fathom.ui.dialog import Message
        a.push(Message(a, "Pairing", "Pairing forgotten."))

    KEYS = ("name", "link", "contrast", "opponent")
    items = [
        Item("Name", edit_name, True, s["name"]),
        Item("Link", cycle("link"), True, "ESP-NOW" if s["link"] == "espnow" else "UART"),
        Item("Contrast", cycle("contrast", contrast), True, str(s["contrast"])),
        Item("Opponent", cycle("opponent"), True, s["opponent"]),
        Item("Key test", lambda a: a.push(KeyTest(a))),
        Item("Forget pair", forget),
    ]
    return Menu(app, "Settings", items)


class About(Screen):
    title = "About"

    def _text(self):
        gc.collect()
        p = self.app.hw.profile
        return ["fathom " + VERSION, p.get("title", p["name"])[:40], "board " + p["name"],
                "free %d B" % gc.mem_free()]

    def draw(self, d):
        header(d, self.title, self.app.link_state)
        y = CH + 2
        for line in self._text():
            for i in range(0, len(line), d.width // CH):
                if y + CH > d.height:
                    return
                d.text(line[i:i + d.width // CH], 0, y, 1)
                y += CH

    def lines(self):
        return [self.title] + self._text()


class KeyTest(Screen):
    """Shows each key as it arrives; BACK twice in a row leaves (so BACK itself can be tested)."""
    title = "Key test"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.seen = []

    def key(self, k):
        if k == "BACK" and self.seen and self.seen[-1] == "BACK":
            self.app.pop()
            return
        self.seen.append(k)
        self.seen = self.seen[-5:]

    def draw(self, d):
        header(d, self.title, None)
        for i, k in enumerate(self.seen[-(self.app.rows - 2):]):
            d.text(k, 0, (i + 1) * CH, 1)
        d.text("BACK x2 exits", 0, d.height - CH, 1)

    def lines(self):
        return [self.title] + self.seen
