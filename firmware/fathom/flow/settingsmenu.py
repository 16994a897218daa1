# The Settings screen and its key test. Loaded when chosen, not at boot: the home menu's heap
# holds only what the home menu draws (the app drops this module again back home).
from fathom.ui.font import CH, TH, tiny
from fathom.ui.menu import Item, Menu
from fathom.ui.screen import Screen
from fathom.ui.topbar import top_bar

KEYS = ("name", "link", "contrast", "dim", "dark", "sleep", "opponent")   # the cycling rows, in menu order


def settings_menu(app):
    s = app.settings

    def edit_name(a):
        from fathom.ui.textinput import TextInput

        def done(a2, v):
            s.set("name", v)
            a2.pop()
            a2.replace(settings_menu(a2))
        a.push(TextInput(a, "Unit name", s["name"], 10, done))  # as other units list it

    def cycle(key, apply=None):
        def go(a):
            from fathom.app import home_menu
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

    items = [
        Item("Name", edit_name, True, s["name"]),
        Item("Link", cycle("link"), True, "ESP-NOW" if s["link"] == "espnow" else "UART"),
        Item("Contrast", cycle("contrast", contrast), True, str(s["contrast"])),
        Item("Dim", cycle("dim"), True, _after(s["dim"])),
        Item("Panel off", cycle("dark"), True, _after(s["dark"])),
        Item("Sleep", cycle("sleep"), True, _after(s["sleep"])),
        Item("Opponent", cycle("opponent"), True, s["opponent"]),
        Item("Key test", lambda a: a.push(KeyTest(a))),
        Item("Forget pair", forget),
    ]
    if app.hw.profile.get("wake") is not None:   # a board that can wake from deep sleep
        items.append(Item("Power off", _power_off))
    return Menu(app, "Settings", items)


def _power_off(app):
    from fathom.hal.power import power_off
    power_off(app)


def _after(secs):
    """A panel's rest time as the settings row shows it: 30s, 2m, never."""
    if not secs:
        return "never"
    return "%dm" % (secs // 60) if secs % 60 == 0 else "%ds" % secs


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
        top_bar(d, self.title, None)
        n = (d.height - CH - TH) // CH         # rows between the bar and the hint
        for i, k in enumerate(self.seen[-n:] if n else ()):
            d.text(k, 0, (i + 1) * CH, 1)
        tiny(d, "BACK TWICE: EXIT", 0, d.height - TH + 1)  # 3x5: fits a 72 px panel

    def lines(self):
        return [self.title] + self.seen
