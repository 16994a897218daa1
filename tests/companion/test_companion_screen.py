# A fake app for companion screen tests (real framebuf, real Storage in a scratch folder),
# and the tests of what every mode shares: the menu, the panel, the grid, load/save.
import sys

import pytest

import fathom

_FW = fathom.__file__.rsplit("/", 2)[0]
try:
    import framebuf
except ImportError:  # CPython: the pure-Python stand-in
    sys.path.insert(0, _FW.rsplit("/", 1)[0] + "/tests/cpython_shims")
    import framebuf

from kit import memstore  # noqa: E402
from fathom.hal.storage import Storage  # noqa: E402
from fathom import games  # noqa: E402
from fathom.ui import companion as CO  # noqa: E402

MODES = [(gid, games.declaration(gid).TITLE) for gid in games.with_part("companion")]

pytestmark = pytest.mark.micropython


class Disp(framebuf.FrameBuffer):
    def __init__(self, w, h):
        self.width = w
        self.height = h
        self.buf = bytearray(w * h // 8)
        super().__init__(self.buf, w, h, framebuf.MONO_VLSB)

    def show(self):
        pass

    def lit(self):
        return sum([bin(b).count("1") for b in self.buf])


class HW:
    pass


def scratch(tag):
    # one folder per test process and tag: two xdist workers (or the two runtimes) running
    # the same test with other parameters once shared a fixed folder and raced on its files
    return memstore.fresh("comp_" + tag)


class FakeApp:
    """Just enough of fathom.app.App: the screen stack, the display, storage."""

    def __init__(self, tag="t", w=128, h=64, root=None):
        self.hw = HW()
        self.hw.storage = Storage(root or scratch(tag))
        self.d = Disp(w, h)
        self.hw.display = self.d
        self.rows = h // 8
        self.link_state = None
        self.stack = []

    def top(self):
        return self.stack[-1]

    def push(self, s):
        self.stack.append(s)

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()

    def replace(self, s):
        self.stack[-1] = s

    def draw(self):
        self.d.fill(0)
        self.top().draw(self.d)
        return self.d.lit()

    def press(self, *keys):
        for k in keys:
            self.top().key(k)
            self.draw()

    @property
    def text(self):
        return self.top().lines()

    def selected(self):
        for line in self.text[1:]:
            if line.startswith(">"):
                return line[1:]
        return None

    def choose(self, label):
        for _ in range(60):
            sel = self.selected()
            if sel is not None and sel.startswith(label):
                self.press("OK")
                return
            self.press("DOWN")
        raise AssertionError("no item %r in %r" % (label, self.text))

    def find(self, needle):
        for line in self.text:
            if needle in line:
                return line
        return None


def companion(tag, mode_title, w=128, h=64, root=None):
    app = FakeApp(tag, w, h, root)
    app.push(CO.companion_menu(app))
    app.draw()
    app.choose(mode_title)
    return app


def grid_to(app, name):
    """Move a Grid's cursor to the square named `name` (its lines say 'at NAME')."""
    for _ in range(400):
        if app.text[1] == "at " + name:
            return
        scr = app.top()
        target = None
        for cell in range(scr.nc * scr.nr):
            if scr.name(cell) == name:
                target = cell
        r, c = divmod(scr.cursor, scr.nc)
        tr, tc = divmod(target, scr.nc)
        if c != tc:
            k = "RIGHT" if tc > c else "LEFT"
        else:
            k = ("UP" if tr > r else "DOWN") if scr.flip else ("DOWN" if tr > r else "UP")
        app.press(k)
    raise AssertionError("cannot reach " + name)


# ---- the shared parts -----------------------------------------------------------------------
def test_menu_lists_every_mode():
    app = FakeApp("menu")
    app.push(CO.companion_menu(app))
    assert app.text == ["Companion", ">PING", " Lake Ashtapada", " Sugar Dog", " Periplus",
                        " Pinned Down"]


@pytest.mark.parametrize("w,h", [(128, 64), (72, 40)])
def test_every_mode_opens_and_draws(w, h):
    for _mid, title in MODES:
        app = companion("open", title, w, h)
        assert app.top().title == title
        assert app.draw() > 0
        for _ in range(len(app.text) + 2):   # open every item and come back
            app.press("DOWN")


def test_same_shape():
    assert CO.same_shape({"a": 1, "b": []}, {"a": 2, "b": [3]})
    assert not CO.same_shape({"a": 1}, {"a": 2, "b": [3]})
    assert not CO.same_shape({"a": "1", "b": []}, {"a": 2, "b": [3]})
    assert not CO.same_shape([1], {"a": 1})


def test_corrupt_file_gives_message_and_defaults():
    root = scratch("corrupt")
    st = Storage(root)
    st.write("comp_ashtapada", b"garbage that is not a valid file")
    f = open(root + "/comp_ashtapada", "wb")
    f.write(b"FS\x01\x00\x00\x00\x05abcdxxxxx")
    f.close()
    app = companion("corrupt", "Lake Ashtapada", root=root)
    assert app.top().title == "Companion"        # the message is on top
    assert "unreadable" in " ".join(app.text)
    app.press("OK")
    assert app.top().title == "Lake Ashtapada"
    assert app.find("South 10x10") is not None


def test_wrong_shape_gives_defaults():
    root = scratch("shape")
    Storage(root).write_obj("comp_sugardog", {"np": "two"})
    app = companion("shape", "Sugar Dog", root=root)
    assert "did not make sense" in " ".join(app.text)
    app.press("OK")
    assert app.find("T0 sub -") is not None


def test_number_pick_collects_sorted_set():
    app = FakeApp("pick")
    got = []
    app.push(CO.Panel(app, "base"))
    app.push(CO.NumberPick(app, "Heard", 0, 5, got.append, start=3))
    app.press("OK", "DOWN", "DOWN", "OK", "UP", "OK", "OK", "UP", "UP", "UP", "UP", "OK")
    assert app.find("list: 0,1,3") is not None
    app.press("RIGHT")
    assert got == [[0, 1, 3]]
    assert app.top().title == "base"


@pytest.mark.slow   # hundreds of random keys: make test, not the fast loop
@pytest.mark.parametrize("w,h", [(128, 64), (72, 40)])
def test_random_keys_never_crash(w, h):
    # every screen of every mode, reached by chance: no exception, always something drawn,
    # and whatever was saved loads back as valid state
    from fathom.prng import Prng
    keys = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "OK", "BACK")
    for mid, title in MODES:
        rng = Prng(b"keys", mid)
        app = companion("rnd_" + mid, title, w, h)
        for _ in range(150):
            if len(app.stack) == 1:
                app.choose(title)
            app.press(rng.choice(keys))
            assert app.draw() > 0
        m = games.part(mid, "companion")
        saved = app.hw.storage.read_obj(m.FILE)
        if saved is not None:
            assert CO.same_shape(saved, m.fresh()) and m.check(saved), mid


@pytest.mark.parametrize("mid,bad", [
    ("ashtapada", {"log": [["s", 3, ["x"]]]}),
    ("ashtapada", {"mines": [500]}),
    ("sugardog", {"torps": [[1, 9]]}),
    ("ping", {"hand": [[3, 7]]}),
    ("periplus", {"deck": [0, 0, 0]}),
    ("pinned_down", {"foes": [7]}),
])
def test_right_shape_wrong_content_gives_defaults(mid, bad):
    m = games.part(mid, "companion")
    st = m.fresh()
    st.update(bad)
    root = scratch("content_" + mid)
    Storage(root).write_obj(m.FILE, st)
    title = games.declaration(mid).TITLE
    app = companion("content_" + mid, title, root=root)
    assert "did not make sense" in " ".join(app.text)
    app.press("OK")
    assert app.top().s.st == m.fresh() or mid in ("periplus", "pinned_down")  # fresh shuffles
    assert app.draw() > 0
