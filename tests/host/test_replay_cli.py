# `fathom replay DIR`: a unit's saved, finished game (player 0 against the in-unit bot, everything
# journalled in real storage) replayed by the unit's firmware in the host's MicroPython; its
# frames are the replay screen's panel for the same steps, drawn here in this process, and the
# GIF, the PNG strip, the text and the page hold them.

import pytest

from fathom import games
from fathom.flow.gameend import ResultScreen

from kit.host import fathom
from kit.memstore import MemStorage
from kit.panel import App
from kit.play import bot_step, solo

pytestmark = pytest.mark.slow   # a whole game, then its replay in a MicroPython process


def finished_save(gid, seed):
    store = MemStorage()
    me, bot = solo(gid, seed, store)
    now = 0
    while not (me.finished() and all(p.runner.finished() for p in me.peers)):
        now += 300
        bot_step(me, bot, now)
        assert now < 300 * 20000, "the game never ended"
    assert all(v is None for v in me.verdicts.values())
    return store, me


def panel_frames(runner, w, h):
    """The replay screen's panel at every step, RIGHT after RIGHT, in this process."""
    app = App(w, h)
    app.push(ResultScreen(app, runner))
    app.stack[-1].key("RIGHT")
    scr = app.stack[-1]
    out = []
    while True:
        d = app.hw.display
        d.fill(0)
        scr.draw(d)
        out.append(bytes(d.buf))
        if scr.rp.at >= scr.rp.end:
            return out
        scr.key("RIGHT")


@pytest.mark.parametrize("gid", games.IDS)
def test_fathom_replay_frames_are_the_units_panel(gid, tmp_path):
    from PIL import Image
    store, me = finished_save(gid, b"cli " + gid.encode())
    gif = tmp_path / "game.gif"
    r = fathom("replay", store.root, "--out", str(gif), "--text", str(tmp_path / "game.txt"),
               "--html", str(tmp_path / "game.html"), "--scale", "1", timeout=600)
    assert r.returncode == 0, r.stderr + r.stdout
    want = panel_frames(me, 128, 64)
    assert len(want) == me.seat.n_log + 1
    img = Image.open(gif)
    assert img.n_frames == len(want)
    from fathom_host.replay import image
    for i, fb in enumerate(want):
        img.seek(i)
        got = img.convert("RGB")
        assert got.tobytes() == image(fb, 128, 64).tobytes(), "frame %d" % i
    text = (tmp_path / "game.txt").read_text()
    assert "[0/%d]" % me.seat.n_log in text and "[%d/%d]" % ((me.seat.n_log,) * 2) in text
    page = (tmp_path / "game.html").read_text()
    assert page.count("data:image/png;base64,") == len(want) and 'type="range"' in page


def test_fathom_replay_png_strip_at_72x40_and_bad_input(tmp_path):
    from PIL import Image
    store, me = finished_save("sugardog", b"cli strip")
    out = tmp_path / "strip.png"
    r = fathom("replay", store.root, "--out", str(out), "--size", "72x40", "--scale", "2",
               timeout=600)
    assert r.returncode == 0, r.stderr
    img = Image.open(out)
    assert img.size == (144, (80 + 2) * (me.seat.n_log + 1))
    empty = tmp_path / "none"
    empty.mkdir()
    r = fathom("replay", str(empty), "--out", str(out))
    assert r.returncode == 1 and "no saved game" in r.stderr
    r = fathom("replay", store.root)
    assert r.returncode == 1 and "--out" in r.stderr
