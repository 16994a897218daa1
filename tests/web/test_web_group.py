# A Sugar Dog group of three units in one web page, in a real browser: the host chooses the
# group's size in its Players menu, the others "Join a group", all through the page's keys (the
# third unit has no letters of its own: a click on its card gives it the arrows and Enter), then
# each unit's scripted player plays to the end, every screen showing a verified result.
import pytest

from kit.e2e import set_calm
from fathom_host.emulator.drive import confirm_code, confirm_group_code, open_link_join, unit_label
from kit.page import Page, browser, play_out, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow


def choose_partner(host, u):
    """Pick partner u on the host's list: named by the end of its address while names repeat,
    by its name alone once it is the only one left (the list changes as units answer)."""
    full = unit_label(u.index)
    host.wait(lambda c: any(full in l or l[1:] == "PLAYER" for l in c.text), 30,
              "unit %d listed" % u.index)
    for _ in range(10):
        sel = host.selected() or ""
        if sel.startswith(full) or sel == "PLAYER":
            host.press("OK")
            return
        host.press("DOWN")
    raise AssertionError("unit %d is not on the host's list: %r" % (u.index, host.text))


def pair_group_of_three(units, title):
    host, partners = units[0], units[1:]
    host.choose(title)
    set_calm(host, 10)
    host.choose("vs other unit")
    host.wait_text("Players", 10)
    host.choose("3: host")
    for u in partners:
        open_link_join(u, title)
    for u in partners:
        u.wait_text(unit_label(host.index), 30)
        u.choose(unit_label(host.index))
    for k, u in enumerate(partners):
        host.wait_text("Choose a unit %d/2" % (k + 1), 60)
        choose_partner(host, u)
        confirm_code(host, u)
    return confirm_group_code(units)


def test_sugar_dog_group_of_three(browser, site):  # noqa: F811
    with Page(browser, site, "units=3&seed=31&players=level=sharp|level=easy|level=easy") as page:
        units = page.units
        code = pair_group_of_three(units, "Sugar Dog")
        assert code.startswith("Group code")
        for u in units:
            u.wait(lambda c: c.text and (c.text[0].startswith("Sugar Dog") or c.reports
                                         or c.text[0] == "Result"), 120, "the game screen")
        seen = play_out(units, timeout=400)
        heads = [c.text[1] for c in seen]
        for c in seen:
            assert c.text[0] == "Result" and "verified" in c.text, c.text
        assert heads.count("You win") <= 1, heads
        print("web Sugar Dog of 3:", heads, page.stats())
        assert not page.errors, page.errors
