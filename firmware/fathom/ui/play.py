# Starting, resuming and showing a game: the runner becomes an app service, and the game's own
# screen part (fathom/games/<id>/screen.py) or, for a game that declares none, the generic one
# shows it. Then the result and the audit.
from fathom import games
from fathom.games.base import describe
from fathom.games.bots import make_bot
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.peers import BotPeer, vs_bots
from fathom.runner import PEERS, Runner, SAVE, WITHHELD, load, side_name
from fathom.ui.dialog import Message, draw_page
from fathom.ui.font import CH, put, tiny_cols
from fathom.ui.listview import ListView
from fathom.ui.menu import Item, Menu
from fathom.ui.screen import Screen, clip, cols, rows
from fathom.ui.textpage import TextPage
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
    show(app, vs_bots(Runner, app.hw.storage, gid, opts, level, seed, n))


def resume(app, runner=None):
    """Rebuild a saved game and its peers; a link game reconnects through its session.
    Whatever goes wrong (a damaged or old save, a replay that raises, running out of memory),
    the save is set aside as game.bad, a screen says why, and the home menu stays usable: a
    save that cannot be resumed must never send the unit round a reboot loop."""
    try:
        _resume(app, runner)
    except Exception as e:
        set_aside(app, e)


def set_aside(app, e):
    from fathom.hal.storage import CorruptFile
    runner = None
    for s in app.services:
        if isinstance(s, Runner):
            runner = s
    del app.services[:]
    if runner is not None:
        for p in runner.peers:
            if hasattr(p, "close"):
                p.close()
    app.link_state = None
    del app.stack[1:]
    why = e.why if isinstance(e, CorruptFile) else _why(e)
    import gc
    gc.collect()
    st = app.hw.storage
    for name in (SAVE, PEERS, side_name(1), side_name(2), side_name(3)):
        try:
            st.quarantine(name, why)
        except CorruptFile:
            pass
    app.push(Message(app, "Saved game", "The saved game could not be read (%s). "
                     "It is kept aside as game.bad; nothing else is lost." % why))


def _why(e):
    if isinstance(e, MemoryError):
        return "out of memory"
    return "%s: %s" % (type(e).__name__, e)


def _resume(app, runner):
    if runner is None:
        runner = load(app.hw.storage, games.engine)
        if runner is None:
            return
    peers = []
    for saved in getattr(runner, "saved_peers", []):
        if saved and saved.get("kind") == "bot":
            peers.append(BotPeer.restore(Runner, app.hw.storage, games.engine, saved,
                                         lambda s, saved=saved: make_bot(
                                             runner.gid, saved["level"], s.seed, s.player)))
    if runner.meta.get("vs") == "link":
        peers = reconnect(app)
        if peers is None:
            return
    runner.peers = peers
    runner.resync()
    for p in peers:
        if isinstance(p, BotPeer):
            p.runner.resync()
    show(app, runner)


def reconnect(app):
    """The saved game's link peers on a freshly opened transport, or None after telling why.
    Here, not in pairing: resuming needs no pairing, and pairing hands over to show() here, so
    the two modules import each other in one direction only."""
    from fathom.hal import clock
    from fathom.link.peer import restore_peers
    try:
        return restore_peers(app.hw.storage, app.hw.profile, clock.now_ms())
    except Exception as e:
        app.push(Message(app, "Resume", "The link of the saved game could not be restored "
                         "(%s). The game is kept." % e))
        return None


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
    runner.services = [runner, LinkWatch(app, runner)]
    level = runner.meta.get("autoplay")
    if level:
        runner.services.append(AutoPlayer(runner, level))
    app.services.extend(runner.services)
    if games.has(runner.gid, "screen"):
        scr = games.part(runner.gid, "screen").screen(app, runner)
    else:
        scr = GameScreen(app, runner)
    app.push(scr)


def say_bye(app, runner):
    """Leave (keep): tell the partners first, so their screens say so at once. The bye goes
    out on a poll, so a short screen keeps the link ticking until it is acknowledged (or
    LEAVE_MS: a partner out of range learns it from the silence instead)."""
    if not any(hasattr(p, "ch") for p in runner.peers):
        leave(app, runner)  # nobody on a link to tell (solo, vs the in-unit bot)
        return
    runner.bye("left")
    app.push(Leaving(app, runner))


class Leaving(Screen):
    title = "Leaving"

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        self.page = TextPage("Telling your partner the game is kept...")
        self.since = None

    def tick(self, now):
        if self.since is None:
            self.since = now
        from fathom.link.channel import LEAVE_MS  # here: a game on one unit never loads the link
        if self.runner.bye_sent() or ticks_diff(now, self.since) >= LEAVE_MS:
            leave(self.app, self.runner)
            return True
        return False

    def lines(self):
        return [self.title, self.page.text]

    def draw(self, d):
        draw_page(d, self.title, self.app.link_state, self.page)

    def key(self, k):
        pass  # a moment: the screen goes by itself


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
            self.app.replace(DesyncScreen(self.app, r))
            return True
        if r.result() is not None:
            self.app.replace(ResultScreen(self.app, r))
            return True
        if r.gone():
            if self.asked is None or ticks_diff(now, self.asked) >= r.vanish_ms:
                self.asked = now  # "Wait" asks again only after another limit
                menu = Menu(self.app, "Partner vanished", [
                    Item("Wait", lambda a: a.pop()),
                    Item("Claim the game", lambda a: _claim(a, r))])
                if isinstance(self.app.stack[-1], PartnerScreen):
                    self.app.replace(menu)  # the claim supersedes "not answering"
                else:
                    self.app.push(menu)
                return True
        else:
            self.asked = None
        if silent(r):
            if not self.told and self.app.stack[-1] is self:
                self.told = True  # once per silence: "Wait" means wait, the status says it
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
                 Item("Game log", lambda a: a.push(LogScreen(a, r))),
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


class PartnerScreen(Screen):
    """Over the game while a partner's unit is silent: what is known, in words, and what can
    be done. It closes by itself when the partner is heard again or the game ends."""
    title = "No answer"

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        r = game.runner
        if r.left:
            self.title = "Partner left"
            self.text = ("%s left the game. It is saved on both units: play goes on when it is "
                         "resumed there." % partner_name(r, min(r.left)))
        else:
            self.text = ("%s is not answering: the unit left the game, was switched off or is "
                         "out of range. The game is saved on both units." % partner_name(r))
        self.page = TextPage(self.text)
        self.items = [Item("Wait", lambda a: a.pop()),
                      Item("Leave (keep)", lambda a: say_bye(a, r)),
                      Item("Concede", lambda a: (a.pop(), r.concede()))]
        self.view = ListView([it.label for it in self.items])

    def tick(self, now):
        r = self.game.runner
        if r.desync is not None or r.result() is not None or not silent(r):
            self.app.pop()  # the game screen, on top again, shows what happened
            return True
        return GameBase.tick(self.game, now)  # it asks about a claim once the partner vanished

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state)
        h = d.height - CH
        lh = min(len(self.items), max(1, h // CH - 2)) * CH
        self.page.draw(d, 0, CH, d.width, h - lh)
        self.view.draw(d, 0, d.height - lh, d.width, lh)

    def lines(self):
        return [self.title, self.text] + [(">" if i == self.view.cursor else " ") + it.label
                                          for i, it in enumerate(self.items)]

    def key(self, k):
        if k in ("LEFT", "RIGHT"):  # the text, when a small panel cannot show all of it
            self.page.key("UP" if k == "LEFT" else "DOWN")
        elif self.view.key(k):
            return
        elif k == "OK":
            self.items[self.view.cursor].action(self.app)
        elif k == "BACK":
            self.app.pop()  # as "Wait"


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


def _claim(app, runner):
    if runner.gone():  # the partner may have come back while the menu was open
        runner.claim()
    app.pop()


class GameScreen(GameBase):
    """The generic game screen: the last log lines over a list view of the legal choices,
    the position among them in the top bar."""

    def __init__(self, app, runner):
        GameBase.__init__(self, app, runner)
        self.view = ListView()

    # the cursor is the list view's; game screens set and read it as their own
    @property
    def cursor(self):
        return self.view.cursor

    @cursor.setter
    def cursor(self, i):
        self.view.cursor = i

    def choices(self):
        s = self.runner.seat
        if s.setup_legal():
            return [(c, setup_label(self.eng, self.runner, c)) for c in s.setup_legal()]
        return [(a, label(self.eng, self.runner, a)) for a in s.legal()]

    def draw(self, d):
        ch = self.choices()
        v = self.view
        v.set([text for _c, text in ch])
        n_log = max(0, min(2, rows(d) - 3)) if ch else rows(d) - 1
        y0 = (n_log + 1) * CH
        title = self.title + " " + self.status()
        if ch and not v.fits(d.height - y0):
            top_bar(d, title, self.app.link_state, None, v.cursor + 1, v.count())
        else:
            top_bar(d, title, self.app.link_state)
        log = self.runner.seat.log
        i = 1
        for a, e in log[-n_log:] if n_log else ():
            put(d, describe(self.eng, self.runner.seat, a, e), 0, i * CH, cols(d))
            i += 1
        v.draw(d, 0, y0, d.width, d.height - y0)

    def lines(self):
        # [title+status, "| " log lines (up to 3), then one line per choice: ">" cursor or " "]
        out = [self.title + " " + self.status()]
        for a, e in self.runner.seat.log[-3:]:
            out.append("| " + describe(self.eng, self.runner.seat, a, e))
        for i, (_c, text) in enumerate(self.choices()):
            out.append((">" if i == self.cursor else " ") + text)
        return out

    def keys_for(self, action):
        """The keys that author `action` from here: to its row, then OK."""
        ch = self.choices()
        self.view.set([text for _c, text in ch])
        for i, (c, _text) in enumerate(ch):
            if c == action:
                return self.view.keys_to(i) + ["OK"]
        raise ValueError("not a choice here: %r" % (action,))

    def key(self, k):
        ch = self.choices()
        if k == "BACK":
            self.pause()
        elif not ch:
            return
        elif k in ("UP", "DOWN"):
            self.view.set([text for _c, text in ch])
            self.view.key(k)
        elif k == "OK":
            choice = ch[min(self.cursor, len(ch) - 1)][0]
            if self.runner.seat.setup_legal():
                self.runner.setup_choose(choice)
            else:
                self.runner.play(choice)
            self.cursor = 0


class _LogRows:
    """The game log as a sequence for a list view: "N text" per entry, read from the journal
    a window at a time (the whole log never sits in the heap)."""
    SPAN = 8

    def __init__(self, seat):
        self.s = seat
        self.lo = 0
        self.buf = []

    def __len__(self):
        return len(self.s.log)

    def __getitem__(self, i):
        if not self.lo <= i < self.lo + len(self.buf):
            s = self.s
            self.lo = max(0, i - self.SPAN // 2)
            self.buf = []
            for a, e in s.events(self.lo, self.lo + self.SPAN):
                self.buf.append("%d %s" % (self.lo + len(self.buf), describe(s.engine, s, a, e)))
        return self.buf[i - self.lo]


class LogScreen(Screen):
    """The game log: a list view from the newest entry back, the highlighted entry wrapped
    whole so no line is ever cut for good."""
    title = "Game log"

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        rows_ = _LogRows(runner.seat)
        self.view = ListView(rows_, max(0, len(rows_) - 1))

    def draw(self, d):
        v = self.view
        h = d.height - CH
        if v.fits(h):
            top_bar(d, self.title, self.app.link_state)
        else:
            top_bar(d, self.title, self.app.link_state, None, v.cursor + 1, v.count())
        v.draw(d, 0, CH, d.width, h)

    def lines(self):
        v = self.view
        out = [self.title]
        for i in range(v.top, min(v.count(), v.top + self.app.rows - 1)):
            out.append(v.labels[i])
        return out

    def key(self, k):
        if self.view.key(k):
            return
        if k in ("BACK", "OK", "LEFT"):
            self.app.pop()


def verdict_text(runner):
    if runner.claimed:
        return "not verified: no reveal, no audit"
    if len(runner.verdicts) < runner.seat.n - 1:
        return "audit: waiting"
    bad = [(p, v) for p, v in runner.verdicts.items() if v is not None]
    if not bad:
        return "verified"
    bad.sort(key=lambda pv: pv[1] == WITHHELD)  # a failed audit says more: it comes first
    p, v = bad[0]
    if v == WITHHELD:
        return "P%d did not reveal: not verified, counts as a loss" % (p + 1)
    idx, reason = v
    where = "set-up" if idx < 0 else "event %d" % idx
    return "P%d %s fails: %s" % (p + 1, where, reason)


class TextScreen(Screen):
    """A text page under the title: `_text()` gives its paragraphs; UP/DOWN scroll."""

    def __init__(self, app, runner):
        Screen.__init__(self, app)
        self.runner = runner
        self.page = TextPage()

    def draw(self, d):
        self.page.set("\n".join(self._text()))
        draw_page(d, self.title, self.app.link_state, self.page)

    def lines(self):
        return [self.title] + self._text()


class ResultScreen(TextScreen):
    title = "Result"

    def _text(self):
        r = self.runner
        winners, reason = r.result()
        me = r.seat.player
        if r.claimed:
            head = "Game claimed"
        elif r.seat.engine.COOPERATIVE:
            head = "Fleet wins" if me in winners else "Fleet lost"
        elif not winners:
            head = "Draw"
        elif me in winners:
            head = "You win" if len(winners) == 1 else "Your side wins"
        else:
            head = "You lose"
        pub = r.seat.pub
        c = pub.get("conceded") if isinstance(pub, dict) else None
        if c is not None:  # say who, in words: "conceded" alone leaves it to guess
            reason = "You conceded" if c == me else (
                partner_name(r) if r.seat.n == 2 else "P%d" % (c + 1)) + " conceded"
        return [head, reason, verdict_text(r)]

    def tick(self, now):
        return self.runner.changed

    def key(self, k):
        if self.page.key(k):
            return
        if k == "OK" and self.runner.finished():
            leave(self.app, self.runner, clear=True)
        elif k == "BACK":
            self.app.push(LogScreen(self.app, self.runner))


class DesyncScreen(TextScreen):
    title = "DESYNC"

    def _text(self):
        idx, reason = self.runner.desync
        return ["Units disagree at event %d." % idx, reason, "Both logs are kept.",
                "OK: home"]

    def key(self, k):
        if self.page.key(k):
            return
        if k == "OK":
            leave(self.app, self.runner)  # the save stays: the logs are evidence
