# The unit's settings, persisted through storage on every change and read back at boot.
DEFAULTS = {
    "name": "PLAYER",
    "link": "espnow",       # or "uart"
    "contrast": 160,
    "opponent": "off",      # off | easy | sharp: this unit answers link games as a bot
    "last": "",             # the game opened last: the home menu's cursor starts on it
    "starts": {},           # game id -> how it was started last ("vs bot: easy"): that
#                             game's menu opens there (never started: on How to play)
}
CHOICES = {
    "link": ("espnow", "uart"),
    "contrast": (32, 96, 160, 255),
    "opponent": ("off", "easy", "sharp"),
}
FILE = "settings"


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
