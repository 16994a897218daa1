# The replay after the audit (from the result screen): the game again, event by event, with every
# player's secrets drawn. The state comes from games/replay.py (the journal read as the audit
# reads it); the board and the words for the secrets from the game's `replay` part:
#   draw(d, rp, viewer, x, y, w, h)  the board as it stood, every player's hidden state on it
#   words(rp, viewer)                lines: what the event met in the secrets ("P2 was at F6:
#                                    your ping missed it by one square"), then each player's
#                                    secrets at the time
#   KEPT (optional)                  the private state's key (a list) the words compare with
#                                    its value before the step (rp.before[player])
# RIGHT/LEFT step an event (held, they repeat), DOWN/UP a turn, OK turns between the board and
# the page of words, BACK closes it. Loaded when opened, forgotten when closed.
from fathom import games
from fathom.compat import const
from fathom.games.replay import Replay
from fathom.ui.dialog import draw_page
from fathom.ui.font import CH, put
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar

TITLE = "Replay"
_TAG = const(0)            # an event's tag (games/base.py)
_FAILED_PLAYER = const(0)  # copies of games/replay.py's names for Replay.failed
_FAILED_AT = const(1)
_FAILED_WHY = const(2)
_EVENT_LINE = const(0)     # step_text()'s first line: the event in the log's words
_LINE_BELOW = 64  # panels this tall have the step's first line of words under the board


def step_text(rp, part, viewer):
    """The words of the step shown: the event in the log's words, then the part's."""
    out = []
    if rp.last is None:
        out.append("Set-ups, as chosen")
    else:
        author, event, _kind = rp.last
        out.append("%d %s" % (rp.at - 1, _said(rp, author, event)))
    out.extend(part.words(rp, viewer))
    if rp.at == rp.end:
        f = rp.failed
        if f is not None:
            at = f[_FAILED_AT]
            where = "set-up" if at < 0 else "event %d" % at
            out.append("Replay ends here: P%d %s fails: %s"
                       % (f[_FAILED_PLAYER] + 1, where, f[_FAILED_WHY]))
        else:
            out.append("End of the game")
    return out


def _said(rp, author, event):
    from fathom.ui.happened import DEAL
    if event[_TAG] in DEAL:
        return "Sealed deal"
    return games.describe(rp.engine, rp, author, event)


def _share_public(runner):
    """The replay builds a third copy of the public state beside the seat's and an in-unit
    bot's seat's (Pinned Down's is 3.5 KB, and its replay stood at the heap budget). Once the
    game is over both seats hold the same state, and nothing changes it again: they share one."""
    if runner.seat.result() is None:
        return
    pub = runner.seat.pub
    for p in runner.peers:
        r = getattr(p, "runner", None)
        if r is not None and r.seat.pub is not pub and r.seat.pub == pub:
            r.seat.pub = pub


class ReplayScreen(Screen):
    title = TITLE

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        _share_public(runner)
        self.part = games.part(runner.seat.engine.NAME, "replay")
        self.rp = Replay(runner, getattr(self.part, "KEPT", None))
        self.viewer = runner.seat.player
        self.page = TextPage()
        self.words = False        # the page of words instead of the board
        self._text = None         # the step's words, made once per step

    def text(self):
        if self._text is None:
            self._text = step_text(self.rp, self.part, self.viewer)
        return self._text

    def draw(self, d):
        rp = self.rp
        if self.words:
            self.page.set("\n".join(self.text()))
            draw_page(d, "%s %d/%d" % (TITLE, rp.at, rp.end), self.app.link_state, self.page)
            return
        top_bar(d, TITLE, self.app.link_state, None, rp.at, rp.end, fit=True)
        w, h = d.width, d.height
        if h < _LINE_BELOW:   # the board takes every row; OK shows the words
            self.part.draw(d, rp, self.viewer, 0, CH, w, h - CH)
            return
        self.part.draw(d, rp, self.viewer, 0, CH, w, h - 2 * CH)
        put(d, self.text()[_EVENT_LINE], 0, h - CH, w // CH)

    def lines(self):
        rp = self.rp
        return ["%s %d/%d" % (TITLE, rp.at, rp.end)] + self.text()

    def key(self, k):
        rp = self.rp
        at = rp.at
        if self.words and k in ("UP", "DOWN") and self.page.key(k):
            return
        if k == "RIGHT":
            rp.forward()
        elif k == "LEFT":
            rp.back()
        elif k == "DOWN":
            rp.next_turn()
        elif k == "UP":
            rp.prev_turn()
        elif k == "OK":
            self.words = not self.words
        elif k == "BACK":
            rp.close()
            self.app.pop()
            from fathom import forget
            forget("fathom.flow.replay")
            forget("fathom.games.replay")
            return
        if rp.at != at:
            self._text = None
