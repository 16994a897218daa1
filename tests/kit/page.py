# The units' web page (fathom web) in a real browser for the tests: Debian's chromium driven by
# Playwright, the page built into a fresh folder and served on loopback. A PageUnit is driven
# like the emulator's Unit (press, choose, wait_text, text), through the page's own keyboard
# keys, so the key-driving helpers of fathom_host.emulator.drive work on it unchanged.
import atexit
import json
import pathlib
import shutil
import threading
import time

import pytest

from fathom_host import FathomError, web
from fathom_host.emulator.units import Unit

CHROMIUM = "/usr/bin/chromium"
READY_S = 90          # a page of units booting on a loaded two-core machine
WAIT_S = 30
# the page's keys for each unit (as in `fathom emu`): units past the second take the focused
# unit's keys after a click on their card
LETTERS = ({"UP": "w", "DOWN": "s", "LEFT": "a", "RIGHT": "d", "OK": "e", "BACK": "r"},
           {"UP": "i", "DOWN": "k", "LEFT": "j", "RIGHT": "l", "OK": "o", "BACK": "p"})
FOCUS = {"UP": "ArrowUp", "DOWN": "ArrowDown", "LEFT": "ArrowLeft", "RIGHT": "ArrowRight",
         "OK": "Enter", "BACK": "Backspace"}


# One page server and one browser per test process, whichever test modules ask for them (each
# module imports the fixtures: two Playwright instances cannot run in one process).
_shared = {}


def _close():
    if "browser" in _shared:
        _shared.pop("browser").close()
        _shared.pop("playwright").stop()
    if "server" in _shared:
        _shared["server"].shutdown()
        _shared.pop("server").server_close()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The built page, served on loopback: its base URL."""
    if "server" not in _shared:
        folder = web.build(tmp_path_factory.mktemp("web") / "site")
        server = _shared["server"] = web.make_server(folder, port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        atexit.register(_close)
    return "http://127.0.0.1:%d/" % _shared["server"].server_address[1]


@pytest.fixture(scope="session")
def browser():
    if "browser" not in _shared:
        if shutil.which(CHROMIUM) is None and not pathlib.Path(CHROMIUM).exists():
            raise FathomError("no %s: `make setup` installs Debian's chromium" % CHROMIUM)
        from playwright.sync_api import sync_playwright
        _shared["playwright"] = sync_playwright().start()
        _shared["browser"] = _shared["playwright"].chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"])
        atexit.register(_close)
    return _shared["browser"]


class Page:
    """One browser tab on the page, with its units."""

    def __init__(self, browser, site, query="", path="index.html", touch=False, context=None):
        self.context = context or browser.new_context(has_touch=touch,
                                                      viewport={"width": 1400, "height": 900})
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = site + path + ("?" + query if query else "")
        self.open()

    def open(self):
        t0 = time.monotonic()
        self.page.goto(self.url)
        self.wait_ready()
        self.load_s = time.monotonic() - t0

    def reload(self):
        t0 = time.monotonic()
        self.page.reload()
        self.wait_ready()
        self.load_s = time.monotonic() - t0

    def wait_ready(self):
        self.page.wait_for_function("window.fathom && (fathom.ready || fathom.error)",
                                    timeout=READY_S * 1000)
        err = self.js("fathom.error")
        if err:
            raise FathomError("the page did not start: %s" % err)
        self.units = [PageUnit(self, i) for i in range(self.js("fathom.state.units.length"))]
        for u in self.units:
            u.wait(lambda c: c.text, READY_S, "boot")

    def js(self, expr, arg=None):
        if arg is None:
            return self.page.evaluate("() => " + expr)
        return self.page.evaluate("(arg) => " + expr, arg)

    def stats(self):
        return self.js("fathom.stats()")

    def close(self):
        self.context.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Seen:
    def __init__(self, d):
        self.text = d["text"]
        self.keys = d["keys"]
        self.state = d["state"]
        self.reports = [json.loads(r) for r in d["reports"]]


class PageUnit:
    def __init__(self, page, index):
        self.page = page
        self.index = index
        self.extra_env = {}

    def seen(self):
        d = self.page.js("({text: fathom.unit(arg).text, keys: fathom.unit(arg).keys, "
                         "state: fathom.unit(arg).state, reports: fathom.unit(arg).reports"
                         ".filter(r => r.kind === 'U').map(r => r.text)})", self.index)
        return _Seen(d)

    @property
    def text(self):
        return self.seen().text

    def screen(self):
        """(w, h, MONO_VLSB bytes) of the panel the page drew."""
        d = self.page.js("({w: fathom.unit(arg).screen.w, h: fathom.unit(arg).screen.h, "
                         "hex: fathom.unit(arg).screenHex()})", self.index)
        return d["w"], d["h"], bytes.fromhex(d["hex"])

    def console(self):
        return "\n".join(self.page.js("fathom.unit(arg).console", self.index))

    def wait(self, pred, timeout=WAIT_S, what="condition"):
        end = time.monotonic() + timeout
        while True:
            c = self.seen()
            if c.state == "crashed":
                raise FathomError("unit %d stopped waiting for %s:\n%s" % (
                    self.index, what, self.console()[-3000:]))
            if pred(c):
                return c
            if time.monotonic() > end:
                raise FathomError("unit %d: timed out waiting for %s; screen:\n%s\n%s" % (
                    self.index, what, "\n".join(c.text), self.console()[-1500:]))
            self.page.page.wait_for_timeout(30)  # the page's own timer runs meanwhile

    def wait_text(self, needle, timeout=WAIT_S):
        return self.wait(lambda c: any(needle in line for line in c.text), timeout, repr(needle))

    def press(self, key, long=False, wait=True):
        """The page's keyboard key for this unit's `key` (Shift: a long press); by default
        until the unit has handled it."""
        before = self.seen().keys
        kb = self.page.page.keyboard
        if self.index < len(LETTERS):
            name = LETTERS[self.index][key]
            name = name.upper() if long else name
        else:
            self.page.page.click("section.unit[data-unit='%d'] header" % self.index)
            name = FOCUS[key]
        kb.press(("Shift+" if long and len(name) > 1 else "") + name)
        if wait:
            self.wait(lambda c: c.keys > before, WAIT_S, "key %s handled" % key)

    # the menu helpers of the emulator's units, which read .text and press()
    selected = Unit.selected
    choose = Unit.choose


def finished(c):
    t = c.text
    return bool(t) and t[0] == "Result" and not any("audit: waiting" in l for l in t)


def play_out(units, timeout=300):
    """Until every unit shows its verified-or-not result and its scripted player reported."""
    end = time.monotonic() + timeout
    while True:
        seen = [u.seen() for u in units]
        errs = [r for c in seen for r in c.reports if "error" in r]
        if errs:
            raise FathomError("a scripted player failed: %r\n%s" % (
                errs, "\n\n".join("\n".join(c.text) for c in seen)))
        if all(c.reports and finished(c) for c in seen):
            return seen
        if time.monotonic() > end:
            raise FathomError("the game did not finish in %d s:\n%s" % (
                timeout, "\n\n".join("\n".join(c.text) for c in seen)))
        units[0].page.page.wait_for_timeout(200)
