# Leaving a game: home with its services stopped (leave(), also the result's way out), and
# Leave (keep): the bye to the partners and the short screen that waits for its ack. Loaded
# when the player leaves or the game ends, not for every game.
from fathom import games
from fathom.hal.clock import ticks_diff
from fathom.ui.dialog import draw_page
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage


def leave(app, runner, clear=False):
    runner.seat.journal.commit()  # a step's records are written by late(), which stops here
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


def say_bye(app, runner, asked=False):
    """Leave (keep): tell the partners first, so their screens say so at once. The bye goes
    out on a poll, so a short screen keeps the link ticking until it is acknowledged (or
    LEAVE_MS: a partner out of range learns it from the silence instead). Leaving a group
    stops every other player's game: asked once, the cursor on Stay."""
    if runner.seat.n > 2 and not asked:
        from fathom.ui.confirm import ask
        ask(app, "Leave the group?", "Every other player waits until you resume the game "
            "here.", "Leave", lambda a: say_bye(a, runner, True), "Stay")
        return
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
