# The page by touch and by its own controls, in a real browser with a touch screen: taps on a
# unit's on-screen buttons, a long press held by a finger (BACK held: the help page), the
# phone-sized companion page, a unit's reboot, the PNG of its panel, and the link's fault knobs.
import io

import pytest
from PIL import Image

from kit.page import Page, browser, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow


def button(page, unit, key):
    return page.page.locator("section.unit[data-unit='%d'] button.key[data-key='%s']"
                             % (unit, key))


def hold(page, locator, until, what):
    """A finger on the button until the unit shows `until`, then lifted: a real touch."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page.page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    try:
        page.units[0].wait(until, 10, what)
    finally:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def tap(page, key, unit=0):
    u = page.units[unit]
    before = u.seen().keys
    button(page, unit, key).tap()
    return u.wait(lambda c: c.keys == before + 1, 10, "the tap on %s handled" % key)


def test_on_screen_buttons_by_touch(browser, site):  # noqa: F811
    with Page(browser, site, "units=2", touch=True) as page:
        u = page.units[0]
        assert u.selected() == "PING"
        tap(page, "DOWN")
        assert u.selected() == "Lake Ashtapada"
        tap(page, "UP")
        tap(page, "OK")
        assert u.text[0] == "PING"                  # the game's menu
        while u.selected() != "vs bot: easy":
            tap(page, "DOWN")
        tap(page, "OK")
        board = u.wait(lambda c: c.text[0] != "PING", 30, "the game's board").text
        assert page.units[1].text[1] == ">PING"     # the other unit saw none of it
        # BACK held by a finger: its long press, HELP, opens the game's help page; one key
        keys = u.seen().keys
        hold(page, button(page, 0, "BACK"), lambda c: c.text[0] != board[0], "the help page")
        helped = u.wait(lambda c: c.keys == keys + 1, 10, "the long press handled").text
        assert helped != board
        tap(page, "BACK")
        u.wait(lambda c: c.text[0] == board[0], 10, "back to the board")


def test_reboot_png_and_fault_knobs(browser, site):  # noqa: F811
    with Page(browser, site, "units=2") as page:
        u = page.units[1]
        u.press("DOWN")
        assert u.selected() == "Lake Ashtapada"
        with page.page.expect_download() as dl:
            page.page.click("section.unit[data-unit='1'] button.png")
        img = Image.open(io.BytesIO(open(dl.value.path(), "rb").read()))
        assert img.size == (128 * 4, 64 * 4)
        w, h, data = u.screen()
        for (x, y) in ((2, 1), (40, 20), (100, 50), (127, 63)):
            on = (data[(y >> 3) * w + x] >> (y & 7)) & 1
            assert (img.getpixel((4 * x + 1, 4 * y + 1))[2] > 100) == bool(on), (x, y)
        page.page.click("section.unit[data-unit='1'] button.reboot")
        u.wait(lambda c: c.state == "on" and c.keys == 0 and c.text[:1] == ["fathom"], 60,
               "unit 2 booted again")
        assert page.js("fathom.unit(1).boots") == 2 and page.js("fathom.unit(0).boots") == 1
        page.page.locator("#faults input[name='loss']").fill("0.25")
        page.page.locator("#faults input[name='delay_ms']").fill("40")
        assert page.js("fathom.state.ether.knobs") == {
            "loss": 0.25, "dup": 0, "corrupt": 0, "delay_ms": 40, "jitter_ms": 0, "garbage": 0}


def test_companion_page_fits_a_phone(browser, site):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    with Page(browser, site, path="companion.html", context=ctx) as page:
        assert len(page.units) == 1
        width = page.js("document.querySelector('canvas.panel').getBoundingClientRect().width")
        assert 300 <= width <= 390
        assert page.js("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
        u = page.units[0]
        while u.selected() != "Companion":
            button(page, 0, "DOWN").tap()
            u.wait(lambda c: c.keys > 0, 10, "a tap handled")
        button(page, 0, "OK").tap()
        u.wait(lambda c: c.text[0] != "fathom", 10, "the companion's menu")
