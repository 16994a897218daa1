# Resuming a saved game (at boot or from its game menu): the runner and its peers rebuilt from
# the journal, a link game reconnected. Loaded for the resume only (flow/play.py forgets it
# again): nothing here runs once the game is on screen.
from fathom import games
from fathom.runner import PEERS, Runner, SAVE, load, side_name
from fathom.ui.dialog import Message


def resume(app, runner, show):
    """Rebuild a saved game and its peers; a link game reconnects through its session.
    Whatever goes wrong (a damaged or old save, a replay that raises, running out of memory),
    the save is set aside as game.bad, a screen says why, and the home menu stays usable: a
    save that cannot be resumed must never send the unit round a reboot loop."""
    try:
        _resume(app, runner, show)
    except Exception as e:
        set_aside(app, e)


def set_aside(app, e):
    from fathom.hal.storage import CorruptFile
    runner = None
    for s in app.services:
        if isinstance(s, Runner):
            runner = s
    del app.services[:]
    links = []
    if runner is not None:
        for p in runner.peers:
            if hasattr(p, "ch"):
                links.append(p)  # reconnected already: they tell the partners (below)
            elif hasattr(p, "close"):
                p.close()
    app.link_state = None
    app.home()
    why = e.why if isinstance(e, CorruptFile) else _why(e)
    import gc
    gc.collect()
    st = app.hw.storage
    player = runner.seat.player if runner is not None else _player(st)
    link = bool(links) or _linked(st)
    k = None
    if link and not links:  # the link's record may be gone: the header's secrets then speak
        from fathom.link.lost import of_save
        k = of_save(st) or of_save(st, True)  # before the save goes aside, or after
    for name in (SAVE, PEERS, side_name(1), side_name(2), side_name(3)):
        try:
            st.quarantine(name, why)
        except CorruptFile:
            pass
    app.push(Message(app, "Saved game", "The saved game could not be read (%s). "
                     "It is kept aside as game.bad; nothing else is lost." % why))
    if link:
        tell_void(app, player, links, k)


# ---- the partners of a game set aside ---------------------------------------------------------
# A link game whose save cannot be read is void: this unit's secrets are gone with it, so no
# audit can check the game. The partners hear it from the game's own keyed link (its channel is
# kept apart from the journal, in the link files), and end the game saying so
# (runner._on_void), instead of finding this unit vanished. A link that cannot be restored
# either (link.bad) tells them with link/lost.py's notice, tagged under the secrets of the
# save's header; only a save whose header is gone too leaves them to find this unit silent.
TELL_MS = 60000   # how long the home menu keeps the link open for the partners' acknowledgement


def _player(st):
    """The player this unit was in the saved game, if its header can still be read."""
    from fathom.journal import FileJournal, header_of
    try:
        return header_of(FileJournal(st, SAVE).first()).get("player")
    except Exception:
        return None


def _linked(st):
    """The game set aside was a link game (its peers' record says so)."""
    try:
        return any(d.get("kind") == "link" for d in st.read_obj(PEERS) or ())
    except Exception:
        return False


def tell_void(app, player, links, k=None):
    if not links:
        from fathom.hal import clock
        from fathom.link.peer import open_transport, restore_peers
        try:
            links = restore_peers(app.hw.storage, app.hw.profile, clock.now_ms())
        except Exception:
            if k is None or k.kind is None:
                return
            from fathom.link import lost
            try:
                t = open_transport(k.kind, app.hw.profile)
            except OSError:
                return
            app.services.append(lost.Teller(t, k, lost.SAVE, app, app.hw.storage))
            return
    msg = ["void"] if player is None else ["void", player]
    for p in links:
        p.send(msg)
    app.services.append(Telling(app, links))


class Telling:
    """A service while the home menu shows: the link of a game set aside, open until every
    partner acknowledged its "void" (or TELL_MS), then closed. What partners say meanwhile no
    longer has a game to go to. The partners yet to answer are owed link/lost.py's notice (kept
    through a reboot, said from the home menu until each comes back), if the header of the
    save set aside still gives the key to tag it with."""

    def __init__(self, app, links):
        self.app = app
        self.links = links
        self.since = None
        self.k = None           # the save's secrets (lost.Keys), read at the first tick
        self.rest = None        # the players not yet told, as last owed

    def tick(self, now):
        from fathom.hal.clock import ticks_diff
        if self.since is None:
            self.since = now
        for p in self.links:
            p.receive()
            while p.recv() is not None:
                pass
            p.flush(now)
        self._owe()
        if not self.rest or ticks_diff(now, self.since) >= TELL_MS:
            for p in self.links:
                p.close()
            self.app.services.remove(self)
        return False

    def _owe(self):
        from fathom.link import lost
        st = self.app.hw.storage
        if self.rest is None:
            self.k = lost.of_save(st, True)
        k = self.k
        if k is None:  # the header went with the save: the link is the one way to tell
            rest = [i for i, p in enumerate(self.links) if p.ch.pending()]
        elif k.relay:  # a host's links are its partners' in player order (Runner.seat_of)
            rest = [i + 1 for i, p in enumerate(self.links) if p.ch.pending()]
        else:
            rest = [0 if k.n > 2 else 1 - k.me] if self.links[0].ch.pending() else []
        if rest != self.rest:
            self.rest = rest
            if k is not None:
                lost.owe(st, k, lost.SAVE, rest)


def _why(e):
    if isinstance(e, MemoryError):
        return "out of memory"
    return "%s: %s" % (type(e).__name__, e)


def _resume(app, runner, show):
    if runner is None:
        runner = load(app.hw.storage, games.engine)
        if runner is None:
            return
    peers = []
    for saved in getattr(runner, "saved_peers", []):
        if saved and saved.get("kind") == "bot":
            # here: a link game never loads the bots' peers
            from fathom.games.bots import make_bot
            from fathom.peers import BotPeer
            peers.append(BotPeer.restore(Runner, app.hw.storage, games.engine, saved,
                                         lambda s, saved=saved: make_bot(
                                             runner.gid, saved["level"], s.seed, s.player)))
    bots = peers
    if runner.meta.get("vs") == "link":
        peers = reconnect(app, runner, show)
        if peers is None:
            return
        bots = []
    runner.peers = peers
    runner.resync()
    for p in bots:
        p.runner.resync()
    show(app, runner)
    if runner.notice:  # over the game until the player has read it (a key)
        app.push(Message(app, "Saved game", runner.notice))


def reconnect(app, runner, show):
    """The saved game's link peers on a freshly opened transport, or None after telling why.
    Here, not in pairing: resuming needs no pairing, and pairing hands over to flow/play.py's
    show(), so the modules import each other in one direction only."""
    from fathom.hal import clock
    from fathom.link.peer import restore_peers
    try:
        return restore_peers(app.hw.storage, app.hw.profile, clock.now_ms())
    except (OSError, MemoryError) as e:  # the radio or the heap, not the record: try again
        app.push(Message(app, "Resume", "The link of the saved game could not be restored "
                         "(%s). The game is kept." % e))
    except Exception as e:  # the record is damaged or gone: its keys with it, for good
        lost_link(app, runner, show, e)
    return None


def lost_link(app, runner, show, e):
    """The game's link record cannot be read: without its keys the game cannot go on. It ends
    void here, and the partners are told with a notice tagged under the save's own secrets
    (link/lost.py), so their screens say so in words instead of finding this unit vanished."""
    from fathom.link import lost
    from fathom.link.peer import open_transport
    from fathom.runner import LOST
    s = runner.seat
    if s.result() is not None and not runner.claimed:
        # played out already: its result stands (a reveal still owed is ruled withheld there)
        runner.peers = []
        show(app, runner)
        app.push(Message(app, "Link lost", "This game's link could not be read (%s). The "
                         "game was over: its result is kept." % e))
        return
    try:
        t = open_transport(runner.meta.get("link", "espnow"), app.hw.profile)
    except OSError as o:
        app.push(Message(app, "Resume", "The radio did not start (%s). The game is kept." % o))
        return
    k = lost.Keys(s.seed, runner.keys, s.player, s.n, None, runner.relay)
    runner.peers = [lost.Teller(t, k, lost.LINK, None, app.hw.storage)]
    if not runner.claimed:
        runner.void(s.player, LOST)
    show(app, runner)
    app.push(Message(app, "Link lost", "This game's link could not be read (%s). Without its "
                     "keys the game cannot go on: it is void, and the other %s told." % (
                         e,
                         "unit is" if s.n == 2 else "units are")))
