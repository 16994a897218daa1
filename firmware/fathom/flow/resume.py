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
    if runner is not None:
        for p in runner.peers:
            if hasattr(p, "close"):
                p.close()
    app.link_state = None
    app.home()
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
        peers = reconnect(app)
        if peers is None:
            return
        bots = []
    runner.peers = peers
    runner.resync()
    for p in bots:
        p.runner.resync()
    show(app, runner)


def reconnect(app):
    """The saved game's link peers on a freshly opened transport, or None after telling why.
    Here, not in pairing: resuming needs no pairing, and pairing hands over to flow/play.py's
    show(), so the modules import each other in one direction only."""
    from fathom.hal import clock
    from fathom.link.peer import restore_peers
    try:
        return restore_peers(app.hw.storage, app.hw.profile, clock.now_ms())
    except Exception as e:
        app.push(Message(app, "Resume", "The link of the saved game could not be restored "
                         "(%s). The game is kept." % e))
        return None
