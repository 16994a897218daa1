# Pairing and game agreement on screen: pick a nearby unit (ESP-NOW) or use the cable (UART),
# compare the six-digit code, agree on the game, then hand over to the game screen.
import os

from fathom import games
from fathom.games.seat import Seat
from fathom.hal import clock
from fathom.link.connect import Connector, open_transport, restore_peer
from fathom.runner import Runner
from fathom.ui.dialog import Message
from fathom.ui.screen import CH, Screen, clip, cols, header, rows, wrap


def start_link_game(app, gid, opts):
    kind = app.settings["link"]
    try:
        t = open_transport(kind, app.hw.profile)
    except Exception as e:
        app.push(Message(app, "Link", "The %s link could not start: %s" % (kind, e)))
        return
    c = Connector(t, kind, app.settings["name"], app.hw.storage, gid, opts, clock.ticks_ms())
    app.push(PairScreen(app, c))


def wait_as_bot(app):
    """Opponent mode: take whatever game a partner proposes and let the bot play it."""
    start_link_game(app, None, None)


class PairScreen(Screen):
    title = "Link"

    def __init__(self, app, conn):
        Screen.__init__(self, app)
        self.c = conn
        self.cursor = 0
        self.now = clock.ticks_ms()
        self.bot = app.settings["opponent"] != "off"

    def tick(self, now):
        self.now = now
        changed = self.c.tick(now)
        st = self.c.state
        if self.bot:
            self._autopilot(now)
        if st == "ready":
            self._start()
            return True
        return changed or st == "discover"

    def _autopilot(self, now):
        st = self.c.state
        if st == "discover":
            near = self.c.nearby(now)
            if near:
                self.c.choose(near[0][0], now)
        elif st == "confirm" and not self.c.hs._confirmed:
            self.c.confirm(True)
        elif st == "offer":
            self.c.accept(True)

    def _start(self):
        c, app = self.c, self.app
        s = c.setup
        eng = games.engine(s.game)
        opts = eng.options(s.opts)
        seat = Seat(eng, opts, 2, s.seed, s.player(), os.urandom(16))
        meta = {"vs": "link", "peer": c.hs.peer_name, "link": c.kind}
        if self.bot:
            meta["autoplay"] = app.settings["opponent"]
        runner = Runner(seat, [c.peer(app.hw.storage)], app.hw.storage, s.game, meta)
        runner.save()
        app.pop()
        from fathom.ui.play import show
        show(app, runner)

    def _text(self):
        c = self.c
        st = c.state
        if st == "discover":
            near = c.nearby(self.now)
            if not near:
                return ["Looking for", "units nearby..."], []
            return ["Choose a unit:"], [name + ("" if v == 1 else " (v%d)" % v)
                                        for _m, name, v in near]
        if st == "handshake":
            return ["Connecting..."], []
        if st == "confirm":
            done = c.hs._confirmed
            return ["Code " + c.code(), "Same on both?" if not done else "waiting for",
                    "OK yes BACK no" if not done else "the other unit"], []
        if st == "setup":
            return ["Agreeing on", "the game..."], []
        if st == "offer":
            game, opts = c.offer()
            title = game
            try:
                title = games.engine(game).TITLE
            except Exception:
                pass
            desc = " ".join("%s=%s" % (k, opts[k]) for k in sorted(opts))
            return ["Partner offers", title, desc, "OK accept"], []
        if st == "failed":
            return ["Link failed:"] + [c.error or "?"], []
        return [st], []

    def draw(self, d):
        header(d, self.title, None)
        text, choices = self._text()
        y = CH
        for line in text:
            for part in wrap(line, cols(d)):
                if y + CH <= d.height:
                    d.text(part, 0, y, 1)
                y += CH
        for i, name in enumerate(choices[:rows(d) - 1 - len(text)]):
            marker = ">" if i == self.cursor else " "
            d.text(clip(marker + name, cols(d)), 0, y + i * CH, 1)

    def lines(self):
        text, choices = self._text()
        return [self.title] + text + [(">" if i == self.cursor else " ") + n
                                      for i, n in enumerate(choices)]

    def key(self, k):
        c = self.c
        st = c.state
        if st == "discover":
            near = c.nearby(self.now)
            if k == "DOWN" and near:
                self.cursor = (self.cursor + 1) % len(near)
            elif k == "UP" and near:
                self.cursor = (self.cursor - 1) % len(near)
            elif k == "OK" and near:
                c.choose(near[min(self.cursor, len(near) - 1)][0], self.now)
            elif k == "BACK":
                self._close()
        elif st == "confirm":
            if k == "OK":
                c.confirm(True)
            elif k == "BACK":
                c.confirm(False)
        elif st == "offer":
            if k == "OK":
                c.accept(True)
            elif k == "BACK":
                c.accept(False)
                self._close()
        elif k == "BACK" or (st == "failed" and k == "OK"):
            self._close()

    def _close(self):
        self.c.t.close()
        self.app.pop()


def reconnect(app, runner):
    """The saved game's link peer on a freshly opened transport, or None after telling why."""
    try:
        return [restore_peer(app.hw.storage, app.hw.profile, clock.ticks_ms())]
    except Exception as e:
        app.push(Message(app, "Resume", "The link of the saved game could not be restored "
                         "(%s). The game is kept." % e))
        return None
