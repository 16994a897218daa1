# Starting and showing a game: the runner becomes an app service, and the game's own screen
# part (fathom/games/<id>/screen.py) or, for a game that declares none, the generic one shows
# it, built on what every game screen shares (ui/gamebase.py, helpers in ui/gamekit.py); and
# the screens around it, which that screen opens through App.game_flow(). Only
# what runs during every game lives here: the rest loads when it is first needed (a module of function objects and dicts costs
# heap even when frozen): the resume (flow/resume.py, forgotten once the game shows), the
# generic screen (ui/genericscreen.py), a silent partner's overlay (flow/partner.py), Leave
# (flow/leaving.py), the game log (flow/gamelog.py), the result and the desync (flow/gameend.py).
from fathom import games
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.runner import SAVE
from fathom.ui.font import TH, tiny, tiny_width


def saved_game_of(app):
    """The id of the saved game, read from its journal's header only; None if there is none
    or it cannot be read (resume() then explains and sets it aside)."""
    from fathom.journal import FileJournal, header_of
    try:
        if not app.hw.storage.exists(SAVE):
            return None
        return header_of(FileJournal(app.hw.storage, SAVE).first()).get("gid")
    except Exception:
        return None


def start_vs_bot(app, gid, opts, level, seed, n):
    """This unit's player 0 against (or with) n-1 bots, each behind its own runner and seat."""
    from fathom.peers import vs_bots  # here: a link game never loads the bots' peers
    from fathom.runner import Runner
    show(app, vs_bots(Runner, app.hw.storage, gid, opts, level, seed, n))


def resume(app, runner=None):
    """Back into the saved game (flow/resume.py: whatever goes wrong is set aside and explained).
    Its module leaves again at once: nothing in it runs once the game is on screen."""
    from fathom import forget
    try:
        from fathom.flow import resume as m
    except Exception as e:  # its code did not load: the save goes aside all the same, and
        from fathom.flow.aside import set_aside  # a link game's partners are told
        set_aside(app, e)
        return
    try:
        m.resume(app, runner, show)  # passed: flow/resume.py does not import this module
    finally:
        forget("fathom.flow.resume")


class LinkWatch:
    """Keeps the header's link icon in step with the game's link."""

    def __init__(self, app, runner):
        self.app = app
        self.runner = runner

    def wake_in(self, now):
        return None  # the link's state changes only at the runner's ticks, in the same step

    def tick(self, now):
        st = None
        for p in self.runner.peers:
            st = getattr(p, "state", None) or st
        if st != self.app.link_state:
            self.app.link_state = st
            return True
        return False


class AutoPlayer:
    """Plays this unit's own seat with a bot: the unit as a demonstration opponent."""
    THINK_MS = 300

    def __init__(self, runner, level):
        s = runner.seat
        self.runner = runner
        from fathom.games.bots import LEVELS, levels, make_bot  # only a lent unit plays itself
        offered = levels(runner.gid)
        if level in LEVELS and level not in offered:   # Settings' Opponent: hard, in a game
            level = offered[-1]                          # that offers no hard level
        self.bot = make_bot(runner.gid, level, s.seed + s.salt, s.player)
        self.ready_at = None

    def tick(self, now):
        r, s = self.runner, self.runner.seat
        while s.setup_legal():
            r.setup_choose(self.bot.setup(s))
        if s.result() is None and r.my_turn() and s.my_turn(acting=True):
            if self.ready_at is None:
                self.ready_at = ticks_add(now, self.THINK_MS)
            elif ticks_diff(now, self.ready_at) >= 0:
                self.ready_at = None
                r.play(self.bot.act(s))
                return True
        return False


def show(app, runner):
    # The menus the game was started from are never seen again (every way out of a game goes
    # home), so they leave the heap now: the game's menu holds its module's closures, pairing
    # or an invitation may have left more; the home menu too, built again on the way home.
    # BACK and OK on the result still land at home.
    del app.stack[1:]
    app.leave_home(runner.gid)
    from fathom import forget
    forget("fathom.flow.gamemenu")
    level = runner.meta.get("autoplay")
    if not level and runner.meta.get("vs") != "bot":
        forget("fathom.games.bots")  # the game menu's list of levels: no bot plays here
    runner.draw_first = True  # App.step calls its late() after the redraw
    runner.services = [runner, LinkWatch(app, runner)]
    bots = [p for p in runner.peers if hasattr(p, "bot")]
    if level:
        bots.append(AutoPlayer(runner, level))
        runner.services.append(bots[-1])
    # before the screen is built: a screen that runs a service of its own (Periplus's answer
    # clock) adds it to both lists itself, and leave() removes each service once
    app.services.extend(runner.services)
    if games.has(runner.gid, "screen"):
        scr = games.part(runner.gid, "screen").screen(app, runner)
    else:
        from fathom.ui.genericscreen import GameScreen
        scr = GameScreen(app, runner)
    if bots:
        t = Thinking(app, scr, bots)
        runner.services.append(t)
        app.services.append(t)
    app.push(scr)


class Thinking:
    """A bot on the move says so: from the pause before its move until the move is played, the
    game screen's foot reads "P2 thinking..." (the bot's seat). The decision runs inside the
    loop and a hard bot's may take a second or two on an ESP32: the word is on the panel before
    the decision starts, so a long one never looks like a unit that hung. The screen's own draw
    and lines (the emulator's text) are wrapped here, so no game screen knows of bots."""

    def __init__(self, app, scr, bots):
        self.app = app
        self.bots = bots     # BotPeers and the AutoPlayer: ready_at is set while one waits
        self.who = -1
        self.word = None     # built when the thinker changes, never per frame
        self.scr = scr
        self.inner_draw, self.inner_lines = scr.draw, scr.lines
        scr.draw, scr.lines = self.draw, self.lines

    def wake_in(self, now):
        return None   # the bots' pauses are the runner's and the AutoPlayer's to time

    def tick(self, now):
        who = -1
        for b in self.bots:
            if b.ready_at is not None:
                who = b.runner.seat.player
        if who == self.who:
            return False
        self.who = who
        self.word = None if who < 0 else "P%d thinking..." % (who + 1)
        return True

    def draw(self, d):
        self.inner_draw(d)
        w = self.word
        if w is not None:
            tw = tiny_width(w)
            x, y = d.width - tw - 3, d.height - TH - 2
            d.fill_rect(x, y, tw + 3, TH + 2, 0)      # a dark margin, then the inverted word
            d.fill_rect(x + 1, y + 1, tw + 2, TH + 1, 1)
            tiny(d, w, x + 2, y + 2, 0)

    def lines(self):
        out = self.inner_lines()
        if self.word is not None:
            out = list(out) + [self.word]
        return out


# The screens around a game. Its screen (ui/gamebase.py) belongs to the widget kit, below the
# flows, so it reaches them through App.game_flow(), which is this module.
def ended(app, runner):
    """The result, or the desync that stopped the game."""
    services = getattr(runner, "services", ())  # (show() gives a runner its services)
    for s in services:  # no bot thinks now, and the word holds the game's screen, which
        if isinstance(s, Thinking):  # leaves the heap before the replay opens
            services.remove(s)
            if s in app.services:
                app.services.remove(s)
            break
    from fathom.flow.gameend import DesyncScreen, ResultScreen
    app.replace((ResultScreen if runner.desync is None else DesyncScreen)(app, runner))


def silent_partner(app, game):
    from fathom.flow.partner import PartnerScreen
    app.push(PartnerScreen(app, game))


def log(app, runner):
    from fathom.flow.gamelog import LogScreen
    app.push(LogScreen(app, runner))


def bye(app, runner):
    from fathom.flow.leaving import say_bye
    say_bye(app, runner)
