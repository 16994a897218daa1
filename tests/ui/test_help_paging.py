# A help page is read a page at a time at every panel size: DOWN turns to the next page
# keeping one line of the last on top (so no line is skipped), RIGHT turns a whole page, UP and
# LEFT come back. A line a press took some 130 presses through PING's help at 128x64.
import pytest

from fathom import games
from fathom.games.local import make_seats
from fathom.games.ping import screen as ping_ui
from fathom.games.ping.engine import ENGINE as PING
from fathom.runner import Runner
from fathom.ui.dialog import show_help
from kit.panel import App

pytestmark = pytest.mark.micropython

SIZES = ((128, 64), (72, 40), (128, 32))


def help_screen(gid, w, h):
    """The help page as a player opens it: PING's own (HELP on its board), else show_help."""
    app = App(w, h)
    if gid == "ping":
        scr = ping_ui.screen(app, Runner(make_seats(PING, {}, 2, b"help")[0], [], None, "ping"))
        app.push(scr)
        scr.draw(app.hw.display)
        scr.key("HELP")
        return app, scr, lambda: scr.page
    show_help(app, "help", "games/%s/help.txt" % gid)
    scr = app.stack[-1]
    return app, scr, lambda: scr.page


def read_through(app, scr, page, key):
    """(presses, tops seen) from the top of the page to its end with `key`."""
    d = app.hw.display
    scr.draw(d)
    tops = [page().top]
    for n in range(1, 400):
        scr.key(key)
        d.fill(0)
        scr.draw(d)
        tops.append(page().top)
        if page().top == page().last_top():
            return n, tops
    raise AssertionError("the page never reached its end with %s" % key)


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("gid", games.IDS)
def test_down_turns_a_page_and_skips_no_line(gid, w, h):
    app, scr, page = help_screen(gid, w, h)
    scr.draw(app.hw.display)
    p = page()
    rows, last = p._rows, p.last_top()
    assert last > 0, "the help fits one page: nothing to turn"
    presses, tops = read_through(app, scr, page, "DOWN")
    steps = [b - a for a, b in zip(tops, tops[1:])]
    assert max(steps) <= rows - 1, "a line was skipped: %s (%d rows)" % (steps, rows)
    assert presses <= -(-last // max(1, rows - 1)), (presses, last, rows)
    for _ in range(presses):
        scr.key("UP")
    assert page().top == 0


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("gid", games.IDS)
def test_right_turns_a_whole_page(gid, w, h):
    app, scr, page = help_screen(gid, w, h)
    scr.draw(app.hw.display)
    rows, last = page()._rows, page().last_top()
    presses, tops = read_through(app, scr, page, "RIGHT")
    assert tops[1] == min(rows, last)
    assert presses == -(-last // rows)
    scr.key("LEFT")
    assert page().top < last


# Help opens on what to do now: its first page, at every size, is the NOW paragraph (the keys
# for the next action), the rules after it; PING's help was 165 lines, some 24 pages.
@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("gid", games.IDS)
def test_help_opens_on_what_to_do_now(gid, w, h):
    from fathom.ui.dialog import read_text
    text = read_text("games/%s/help.txt" % gid)
    paras = [p for p in text.split("\n") if p.strip()]
    first = 1 if paras[0].isupper() and len(paras[0]) < 20 else 0   # past a title line
    now = paras[first]
    if now == "NOW":
        now = paras[first + 1]
    else:
        assert now.startswith("NOW: "), now
    assert "OK" in now and ("arrows" in now.lower() or "UP/DOWN" in now), now
    app, scr, page = help_screen(gid, w, h)
    scr.draw(app.hw.display)
    p = page()
    shown = " ".join(p.lines(p._bw, p._bh)[:p.rows()]).replace("- ", "").replace("-", "")
    words = shown.split()
    flat = (paras[0] + " NOW " + now).replace("-", "")   # hyphens the wrap added, and words'
    assert words and all(wd in flat for wd in words), (shown, now)


# pages at 128x64, the what-to-do-now page, the rules and a short line on the bots' levels
@pytest.mark.parametrize("gid, most", [("ping", 18), ("ashtapada", 22), ("sugardog", 25),
                                       ("pinned_down", 22), ("periplus", 34)])
def test_help_is_short_enough_to_page_through(gid, most):
    app, scr, page = help_screen(gid, 128, 64)
    scr.draw(app.hw.display)
    presses, _tops = read_through(app, scr, page, "DOWN")
    assert presses + 1 <= most, presses
