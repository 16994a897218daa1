# The units' web page in a real browser, against the unix-port emulator: the same keys give the
# same panel pixel for pixel, at 128x64 and at 72x40 (whose OK is a long DOWN and BACK a chord);
# a reload in the middle of a game resumes it, as a reboot does on a unit.
import pytest

from fathom_host.emulator.units import Emulator
from kit.page import Page, browser, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow

# (board, the keys pressed: (key, long)) -> the panels compared after them
KEYS = {"host": [("DOWN", False), ("OK", False), ("DOWN", False)],
        "esp32c3_oled_72x40": [("DOWN", False), ("DOWN", False), ("DOWN", True)]}


def emulator_panel(board, keys):
    with Emulator(n=1, board=board) as emu:
        emu.start()
        u = emu.units[0]
        for key, long in keys:
            u.press(key, long=long)
        return u.screen.w, u.screen.h, u.screen.data, u.text


def test_panels_match_the_unix_port_pixel_for_pixel(browser, site):  # noqa: F811
    with Page(browser, site, "units=2&boards=host,esp32c3_oled_72x40") as page:
        for u, board in zip(page.units, KEYS):
            for key, long in KEYS[board]:
                u.press(key, long=long)
            w, h, data, text = emulator_panel(board, KEYS[board])
            assert u.text == text
            got = u.screen()
            assert got[:2] == (w, h)
            assert got[2] == data, "the page's panel differs from the unix port's"
            assert sum(bin(b).count("1") for b in data) > 100  # a drawn screen, not a blank
        # the canvas is the panel's own size, pixel-exact, scaled by the page
        sizes = page.js("[...document.querySelectorAll('canvas.panel')].map(c => "
                        "[c.width, c.height, c.getBoundingClientRect().width])")
        assert sizes[0][:2] == [128, 64] and sizes[1][:2] == [72, 40]
        assert sizes[1][2] == 72 * 5
        # the canvas shows what the twin's glass shows
        lit = page.js("(() => { const c = document.querySelectorAll('canvas.panel')[1];"
                      "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                      "let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] > 60) n++;"
                      "return n; })()")
        assert lit == sum(bin(b).count("1") for b in page.units[1].screen()[2])
        assert not page.errors, page.errors


def test_the_72x40_chord_is_back(browser, site):  # noqa: F811
    with Page(browser, site, "units=1&board=esp32c3_oled_72x40") as page:
        u = page.units[0]
        u.press("DOWN", long=True)          # OK: the first game's menu
        assert u.text[0] != "fathom"
        u.press("BACK")                     # BOOT + UP together
        u.wait(lambda c: c.text[:1] == ["fathom"], 10, "the home menu again")


def test_a_reload_mid_game_resumes_it(browser, site):  # noqa: F811
    with Page(browser, site, "units=1&fast=1&player=level=sharp,path=PING/vs bot: easy,moves=3") as page:
        u = page.units[0]
        seen = u.wait(lambda c: c.reports, 120, "the scripted player's three moves")
        assert seen.reports[0].get("result") is False, seen.reports  # stopped mid-game
        before = u.text
        assert before[0] != "fathom" and not any("Result" in l for l in before), before
        saved = page.js("Object.keys(localStorage).filter(k => k.startsWith('fathom.unit0.'))")
        assert "fathom.unit0.game" in saved, saved
        page.url = page.url.split("?")[0] + "?units=1"   # no scripted player this time
        page.open()
        u = page.units[0]
        # a question put up again takes a moment before its answers show: wait for all of it
        u.wait(lambda c: c.text == before, 30, "the same screen again: %r" % (before,))
