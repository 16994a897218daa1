# The units' web page in a real browser: two units paired for PING through the page's keyboard
# keys, then played to the end by each unit's scripted player (hostmodes/uxplayer: a bot
# decides, the screen's keys_for says which keys, the page's press path presses them), both
# screens ending on a verified result, whose replay then opens and steps. The firmware is the unchanged firmware/ on MicroPython's
# WebAssembly port; the radio between the units is the page's ether.
import pytest

from fathom_host.emulator.drive import pair
from kit.page import Page, browser, play_out, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow


def lit(screen):
    """The lit pixels of a panel the page drew: (w, h, MONO_VLSB bytes)."""
    w, h, ram = screen
    return {(x, y) for y in range(h) for x in range(w) if ram[(y >> 3) * w + x] >> (y & 7) & 1}


FG = (120, 210, 255)   # the page's lit colour (web/app.js)


def gif_frames(path):
    """Each frame of a GIF the page saved, as its lit pixels."""
    from PIL import Image
    out = []
    with Image.open(path) as im:
        assert im.size == (128, 64), im.size
        for i in range(im.n_frames):
            im.seek(i)
            px = im.convert("RGB").load()
            out.append({(x, y) for y in range(im.size[1]) for x in range(im.size[0])
                        if px[x, y] == FG})
    return out


def test_ping_two_units_to_a_verified_end(browser, site):  # noqa: F811
    with Page(browser, site, "units=2&player=level=sharp&seed=3") as page:
        a, b = page.units
        pair([a, b], "PING")
        seen = play_out([a, b])
        for c in seen:
            assert c.text[0] == "Result" and "verified" in c.text, c.text
            assert [r for r in c.reports if r.get("result") is True], c.reports
        # one game, two seats: one won, the other lost, both telling the same story after
        heads = sorted(c.text[1] for c in seen)
        assert heads == ["You lose", "You win"] and seen[0].text[2] == seen[1].text[2], heads
        # the replay after the audit, with both submarines: the same firmware in the page
        assert "RIGHT: Replay" in a.text, a.text
        a.press("RIGHT")
        assert a.text[0].startswith("Replay 0/"), a.text
        # the page's GIF button records the replay as it is stepped, and saves it
        gif = "section.unit[data-unit='0'] button.gif"
        first = a.screen()
        page.page.click(gif)
        shown = [first]
        for k in (1, 2, 3):
            a.press("RIGHT")
            assert a.text[0].startswith("Replay %d/" % k), a.text
            shown.append(a.screen())
        assert [t for t in a.text if t.startswith("P2 at ")], a.text
        with page.page.expect_download() as saved:
            page.page.click(gif)
        assert saved.value.suggested_filename == "fathom-unit1.gif"
        frames = gif_frames(saved.value.path())
        assert frames[0] == lit(first) and len(frames) >= 4, len(frames)
        for step in shown[1:]:
            assert lit(step) in frames   # every step the player saw is a frame of the GIF
        a.press("BACK")
        assert a.text[0] == "Result", a.text
        radio = page.js("fathom.state.ether.totals.espnow")
        assert radio["delivered"] > 20 and radio["lost"] == 0, radio  # over the page's ether
        stats = page.stats()
        print("web PING: load %.2f s, step mean %.2f ms over %d steps" % (
            page.load_s, stats["units"][0]["mean_ms"], stats["units"][0]["steps"]))
        assert not page.errors, page.errors
