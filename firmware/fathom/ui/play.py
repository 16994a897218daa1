# Starting and showing a game: the runner becomes an app service, and the game's own screen
# part (fathom/games/<id>/screen.py) or, for a game that declares none, the generic one shows
# it, with what every game screen shares (GameBase). Only what runs during every game lives
# here: the rest loads when it is first needed (a module of function objects and dicts costs
# heap even when frozen): the resume (ui/resume.py, forgotten once the game shows), the
# generic screen (ui/genericscreen.py), a silent partner's overlay (ui/partner.py), Leave
# (ui/leaving.py), the game log (ui/gamelog.py), the result and the desync (ui/gameend.py).
from fathom import games
from fathom.games.base import describe  # noqa: F401  (the game screens' import of it)
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.runner import SAVE
from fathom.ui.font import CH, put, tiny_cols
from fathom.ui.menu import Item, Menu
from fathom.ui.screen import Screen, clip, cols
from fathom.ui.topbar import top_bar


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
    """Back into the saved game (ui/resume.py: whatever goes wrong is set aside and explained).
    Its module leaves again at once: nothing in it runs once the game is on screen."""
    from fathom import forget
    from fathom.ui import resume as m
    try:
        m.resume(app, runner)
    finally:
        forget("fathom.ui.resume")


class LinkWatch:
    """Keeps the header's link icon in step with the game's link."""

    def __init__(self, app, runner):
        self.app = app
        self.runner = runner

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
        from fathom.games.bots import make_bot  # here: only a unit lent as a bot plays itself
        self.bot = make_bot(runner.gid, level, s.seed + s.salt, s.player)
        self.ready_at = None

    def tick(self, now):
        r, s = self.runner, self.runner.seat
        while s.setup_legal():
            r.setup_choose(self.bot.setup(s))
        if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
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
    # or an invitation may have left more. BACK and OK on the result still land at home.
    del app.stack[1:]
    from fathom import forget
    forget("fathom.ui.gamemenu")
    runner.services = [runner, LinkWatch(app, runner)]
    level = runner.meta.get("autoplay")
    if level:
        runner.services.append(AutoPlayer(runner, level))
    app.services.extend(runner.services)
    if games.has(runner.gid, "screen"):
        scr = games.part(runner.gid, "screen").screen(app, runner)
    else:
        from fathom.ui.genericscreen import GameScreen
        scr = GameScreen(app, runner)
    app.push(scr)


def say_bye(app, runner):
    """Leave (keep): ui/leaving.py tells the partners first."""
    from fathom.ui.leaving import say_bye as bye
    bye(app, runner)


def leave(app, runner, clear=False):
    for s in getattr(runner, "services", ()):
        if s in app.services:
            app.services.remove(s)
    for p in runner.peers:
        if hasattr(p, "close"):
            p.close()
    if clear:
        runner.clear()
    app.link_state = None
    app.home()
    games.unload(runner.gid)  # the next game starts with the heap this one found


def label(eng, runner, action):
    f = getattr(eng, "label", None)
    if f:
        s = runner.seat
        return f(s.pub, s.priv, s.player, action)
    return " ".join(str(x) for x in action) if isinstance(action, list) else str(action)


def setup_label(eng, runner, choice):
    f = getattr(eng, "setup_label", None)
    if f:
        s = runner.seat
        return f(s.pub, s.priv, s.player, choice)
    return label(eng, runner, choice)


def silent(runner):
    """True while a link peer of the game has sent nothing, not even a heartbeat, for the
    channel's LOST_MS: its unit left the game, was switched off or is out of range (the
    runner's gone() waits VANISH_MS more before a claim is allowed)."""
    if runner.result() is not None:
        return False
    if runner.left:  # it said so: no need to wait out the silence
        return True
    for p in runner.peers:
        if getattr(p, "state", None) == "lost":
            return True
    return False


def partner_name(runner, player=None):
    """'P2 (Bob)' in a game of two; in a group 'P3' when it is known who, else 'a partner'
    (its host relays for everyone)."""
    s = runner.seat
    if s.n != 2:
        return "a partner" if player is None else "P%d" % (player + 1)
    name = runner.meta.get("peer")
    who = "P%d" % (2 - s.player)
    return "%s (%s)" % (who, name) if name else who


DEAL_MIN = 4   # sealed work of fewer units (a draw of 3, PING's face-down card: under 1 s on an
#                ESP32) leaves the board on the screen; the opening deal and a reshuffle get
#                the progress overlay


class GameBase(Screen):
    """What every game screen shares: the pause menu, the switch to the result, the sealed
    deal's progress overlay while its work runs, and the partner's side: a silent partner is
    said so in the status and, once, in an overlay."""

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        self.eng = runner.seat.engine
        self.title = self.eng.TITLE
        # bound once: a getattr in tick would allocate a bound method on every loop
        self.progress = getattr(self.eng, "deal_progress", None)
        self.asked = None  # when the vanished partner's choices were last offered
        self.told = False  # the silent partner's overlay was shown for this silence

    def tick(self, now):
        r = self.runner
        if r.desync is not None:
            from fathom.ui.gameend import DesyncScreen
            self.app.replace(DesyncScreen(self.app, r))
            return True
        if r.result() is not None:
            from fathom.ui.gameend import ResultScreen
            self.app.replace(ResultScreen(self.app, r))
            return True
        if r.gone():
            if self.asked is None or ticks_diff(now, self.asked) >= r.vanish_ms:
                self.asked = now  # "Wait" asks again only after another limit
                menu = Menu(self.app, "Partner vanished", [
                    Item("Wait", lambda a: a.pop()),
                    Item("Claim the game", lambda a: _claim(a, r))])
                if getattr(self.app.stack[-1], "partner", False):
                    self.app.replace(menu)  # the claim supersedes "not answering"
                else:
                    self.app.push(menu)
                return True
        else:
            self.asked = None
        if silent(r):
            if not self.told and self.app.stack[-1] is self:
                self.told = True  # once per silence: "Wait" means wait, the status says it
                from fathom.ui.partner import PartnerScreen
                self.app.push(PartnerScreen(self.app, self))
                return True
        elif self.told:
            self.told = False
            return True
        pr = self.deal_progress()
        if pr is not None and pr[1] >= DEAL_MIN and self.app.stack[-1] is self:
            self.app.push(DealScreen(self.app, self))
            return True
        return False

    def deal_progress(self):
        """(done, total) of the sealed deal's work under way, or None."""
        return self.progress(self.runner.seat.pub) if self.progress is not None else None

    def pause(self):
        r = self.runner
        items = [Item("Back to game", lambda a: a.pop()),
                 Item("Game log", lambda a: _log(a, r)),
                 Item("Leave (keep)", lambda a: say_bye(a, r)),
                 Item("Concede", lambda a: (a.pop(), r.concede()))]
        if r.gone():
            items.append(Item("Claim the game", lambda a: _claim(a, r)))
        self.app.push(Menu(self.app, "Paused", items))

    def status(self):
        r = self.runner
        who = r.waiting_for()
        if r.gone():
            return "partner vanished"
        if r.left:
            return "partner left"
        if silent(r):
            return "no answer"
        if r.problem:
            return clip(r.problem, 40)
        if who is None:
            return "waiting"
        if who == r.seat.player:
            return "set up" if r.seat.setup_legal() else "your move"
        return "waiting for P%d" % (who + 1)


class DealScreen(Screen):
    """Over the game while the sealed deal's work runs (the opening deal, a reshuffle): who is
    working and a bar of done / total, which moves as the runner authors one sealed step a
    tick. It closes by itself when the work is done (or the game ends); BACK pauses."""
    title = "Sealed deal"

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        self.pr = None
        self.text = self.count = ""
        self._read()

    def _read(self):
        """Rebuild the strings when the progress moved (a redraw allocates nothing)."""
        r = self.game.runner
        pr = self.game.deal_progress()
        if pr is None or pr == self.pr:
            return False
        self.pr = pr
        who = r.waiting_for()
        mine = who is None or who == r.seat.player
        self.text = "Shuffling" if mine else "P%d shuffles" % (who + 1)
        self.count = "%d/%d" % pr
        return True

    def tick(self, now):
        r = self.game.runner
        if r.desync is not None or r.result() is not None or self.game.deal_progress() is None:
            self.app.pop()   # the game screen, on top again, shows what comes next
            return True
        return self._read() or GameBase.tick(self.game, now)

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state, fit=True)
        w = d.width
        n = cols(d)
        small = len(self.text) > n
        put(d, self.text, 0, CH, tiny_cols(w) if small else n, 1, small)
        y = 2 * CH + 1
        bh = min(6, d.height - y - CH - 1)   # the count needs a row under the bar
        if bh < 3:
            bh, y = 3, d.height - 4
        done, total = self.pr
        d.rect(0, y, w, bh, 1)
        d.fill_rect(1, y + 1, (w - 2) * done // max(1, total), bh - 2, 1)
        if y + bh + 1 + CH <= d.height:
            put(d, self.count, 0, y + bh + 1, n)

    def lines(self):
        return [self.title, self.text, self.count]

    def key(self, k):
        if k == "BACK":
            self.game.pause()


def _log(app, runner):
    from fathom.ui.gamelog import LogScreen
    app.push(LogScreen(app, runner))


def _claim(app, runner):
    if runner.gone():  # the partner may have come back while the menu was open
        runner.claim()
    app.pop()


