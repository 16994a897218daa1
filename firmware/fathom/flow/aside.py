# The save set aside when the resume's own code cannot run (flow/resume.py did not load: a
# module left half-written by an update, or a heap too full for it). What App.resume_game
# would do, and the partners of a link game told all the same: link/lost.py's notice needs
# only the save's header, neither the link's record nor the resume's code. Loaded only then.
from fathom.runner import PEERS, SAVE, side_name
from fathom.ui.dialog import Message


def set_aside(app, e):
    from fathom.link import lost
    st = app.hw.storage
    k = lost.of_save(st)  # read before the save goes aside
    del app.services[:]
    app.home()
    why = "out of memory" if isinstance(e, MemoryError) else "%s: %s" % (type(e).__name__, e)
    for name in (SAVE, PEERS, side_name(1), side_name(2), side_name(3)):
        try:
            st.quarantine(name, why)
        except Exception:  # CorruptFile: moved aside (or there was none), as asked
            pass
    app.push(Message(app, "Saved game", "The saved game could not be read (%s). "
                     "It is kept aside as game.bad; nothing else is lost." % why))
    if k is None or k.kind is None:
        return  # no partner to tell: a game on this unit alone, or a header unread
    from fathom.link.peer import open_transport
    try:
        t = open_transport(k.kind, app.hw.profile)
    except OSError:
        return  # no radio: the partners find this unit silent, as when it is switched off
    app.services.append(lost.Teller(t, k, lost.SAVE, app, st))
