# The one question before a step that cannot be taken back (conceding, showing your own square,
# leaving a group, joining another unit's game): its words over two answers, the cursor on
# the safe one, so that the keys that led here (OK, OK...) pressed once more do nothing the
# player did not choose. Loaded only when a question is asked: the game screens are on the
# play path, whose heap has no room to spare.
from fathom.hal.clock import ticks_diff
from fathom.ui.font import CH
from fathom.ui.listview import ListView
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar

SAFE = 0   # the safe answer's row: first, where the cursor opens


class Confirm(Screen):
    """`text` above the answers [safe, step]; the step's answer runs `do(app)` after this
    screen closes, the safe one and BACK only close it. With `wait` (ms) it takes no key and
    shows no answers until it has been up that long: a question that comes up by itself (an
    invitation's) must not take keys typed for the screen before it. With `watch`, called on
    every tick with the question, the screen that asked keeps it true while it is up: new words
    (q.page.set) or, once what it asks about has passed, closing it; True when it did."""

    def __init__(self, app, title, text, step, do, safe="No", wait=0, watch=None):
        Screen.__init__(self, app)
        self.watch = watch
        self.title = title
        self.text = text
        self.do = do
        self.wait = wait
        self.since = None         # when it was first ticked (the app ticks the top screen)
        self.page = TextPage(text, app.hw.display.width < 128)
        self.view = ListView((safe, step), SAFE, fixed=True, fit=True, whole=True)

    def tick(self, now):
        if self.watch is not None and self.watch(self):
            return True
        if self.since is None:
            self.since = now
        if self.wait and ticks_diff(now, self.since) >= self.wait:
            self.wait = 0         # read: the answers show and the keys count
            return True
        return self.page.turn(now)   # words longer than the box: read without a key

    def wake_in(self, now):
        if self.since is None:
            return 0
        if self.wait:
            return max(0, self.wait - ticks_diff(now, self.since))
        at = self.page.turn_at
        if at is None:
            return 0 if self.page.last_top() else None
        if at is False:
            # only a key changes it now, or what its watch sees (the loop steps on a frame)
            return None
        return max(0, ticks_diff(at, now))

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state, fit=True)
        h = d.height - CH
        lh = 2 * CH              # both answers always show
        self.page.draw(d, 0, CH, d.width, h - lh)
        if not self.wait:
            self.view.draw(d, 0, d.height - lh, d.width, lh)

    def lines(self):
        v = self.view
        if self.wait:
            return [self.title, self.text]
        return [self.title, self.text] + [(">" if i == v.cursor else " ") + v.labels[i]
                                          for i in range(2)]

    def keys_for(self, label):
        """The keys that choose the answer `label` (the ux bench and tests answer by name)."""
        i = list(self.view.labels).index(label)
        return self.view.keys_to(i) + ["OK"]

    def key(self, k):
        if self.wait:
            return                # not read yet: the key was meant for the screen before
        if k in ("LEFT", "RIGHT"):  # the words, where a small panel cannot show them all
            self.page.key("UP" if k == "LEFT" else "DOWN")
        elif self.view.key(k):
            return
        elif k == "OK":
            self.app.pop()
            if self.view.cursor != SAFE:
                self.do(self.app)
        elif k == "BACK":
            self.app.pop()


def ask(app, title, text, step, do, safe="No", wait=0, watch=None):
    app.push(Confirm(app, title, text, step, do, safe, wait, watch))


def concede(app, runner):
    """Concede from a menu over a game (the pause menu, the silent partner's overlay): 'Keep
    playing' under the cursor, so the OK that chose Concede, pressed again, ends nothing."""
    def do(a):
        a.pop()  # the menu it was asked from
        runner.concede()
    ask(app, "Concede?", "The game ends and you lose it.", "Concede", do, "Keep playing")
