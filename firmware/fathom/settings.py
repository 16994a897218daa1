# The unit's settings, persisted through storage on every change and read back at boot.
DEFAULTS = {
    "name": "",             # "" until the player names the unit: its radio name (radio_name)
    "link": "espnow",       # or "uart"
    "contrast": 160,
    "dim": 30,              # seconds without a key before the panel dims (0: never)
    "dark": 120,            # ... and before it turns off (0: never)
    "sleep": 900,           # ... and, at the home menu, before the unit powers off (0: never)
    "opponent": "off",      # off | easy | sharp | hard: this unit answers link games as a bot
    "last": "",             # the game opened last: the home menu's cursor starts on it
    "starts": {},           # game id -> how it was started last ("vs bot: easy"): that
#                             game's menu opens there (never started: on How to play)
}
CHOICES = {
    "link": ("espnow", "uart"),
    "contrast": (32, 96, 160, 255),
    "dim": (15, 30, 60, 120, 0),
    "dark": (60, 120, 300, 600, 0),
    "sleep": (300, 900, 1800, 0),
    "opponent": ("off", "easy", "sharp", "hard"),
}
FILE = "settings"
OLD_DEFAULT = "PLAYER"      # every unit's name before units were told apart: not a choice


def told_apart(name, mac):
    """`name` with the end of the unit's address, as a list shows a name another unit also
    has (two units both renamed ANN): the same four digits a radio name ends in."""
    return "%s %02X%02X" % (name, mac[-2], mac[-1])


def radio_name():
    """The unit's name until its player chooses one: 'UNIT' and the end of its radio address,
    the same at every boot and different on each unit. machine.unique_id() is the chip's base
    MAC, which is the Wi-Fi station's (ESP-NOW's) address, read without starting the radio."""
    try:
        import machine
        uid = bytes(machine.unique_id())
    except Exception:  # no machine (CPython tests): one name for all, as before
        return "UNIT"
    return "UNIT %02X%02X" % (uid[-2], uid[-1])


class Settings:
    def __init__(self, storage):
        self.storage = storage
        self.values = dict(DEFAULTS)
        import os
        env = os.getenv("FATHOM_LINK") if hasattr(os, "getenv") else None
        if env in CHOICES["link"]:  # the emulator's --link picks the first default
            self.values["link"] = env
        self.problem = None
        try:
            saved = storage.read_obj(FILE)
        except Exception as e:  # a corrupt file is kept aside by storage; defaults go on
            saved = None
            self.problem = "Settings were unreadable (%s); defaults in use." % e
        if isinstance(saved, dict):
            for k, v in saved.items():
                if isinstance(k, str) and k.startswith("opts_") and isinstance(v, dict):
                    self.values[k] = v  # a game's last options
                elif k in DEFAULTS and type(v) is type(DEFAULTS[k]):
                    if k not in CHOICES or v in CHOICES[k]:
                        self.values[k] = v
        if self.values["name"] in ("", OLD_DEFAULT):
            self.values["name"] = radio_name()

    def __getitem__(self, k):
        return self.values[k]

    def set(self, k, v):
        self.values[k] = v
        self.storage.write_obj(FILE, self.values)

    def cycle(self, k):
        choices = CHOICES[k]
        i = choices.index(self.values[k]) if self.values[k] in choices else -1
        self.set(k, choices[(i + 1) % len(choices)])
        return self.values[k]
