# The end of a game: the result with the audit's verdict, or the desync that stopped it.
# Loaded when the game ends, not while it is played.
from fathom.runner import CLAIMED, WITHHELD
from fathom.ui.dialog import draw_page
from fathom.flow.leaving import leave
from fathom.ui.gamekit import partner_name
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage


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
        if runner.keys is not None:  # a group: a relayed reveal names its host too
            from fathom.link.grouptags import withheld
            return withheld(runner.seat.player, p)
        return "P%d did not reveal: not verified, counts as a loss" % (p + 1)
    idx, reason = v
    where = "set-up" if idx < 0 else "event %d" % idx
    return "P%d %s fails: %s" % (p + 1, where, reason)


REPLAY = "RIGHT: Replay"  # the game again with every secret (flow/replay.py), once audited


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
            head = "Game claimed" if r.claimed == CLAIMED else "Game void"
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
        out = [head, reason, verdict_text(r)]
        if r.receipts and False in r.receipts.values():
            from fathom.link.grouptags import unconfirmed
            out += [unconfirmed(q) for q in sorted(r.receipts) if r.receipts[q] is False]
        if self._replay():
            out.append(REPLAY)
        return out

    def _replay(self):
        r = self.runner
        if r.claimed or len(r.verdicts) != r.seat.n - 1 or WITHHELD in r.verdicts.values():
            return False
        from fathom import games
        return games.has(r.seat.engine.NAME, "replay")

    def tick(self, now):
        return self.runner.changed

    def key(self, k):
        if self.page.key(k):
            return
        if k == "OK" and self.runner.finished():
            leave(self.app, self.runner, clear=True)
        elif k == "BACK":
            from fathom.flow.gamelog import LogScreen
            self.app.push(LogScreen(self.app, self.runner))
        elif k == "RIGHT" and self._replay():
            from fathom import forget
            # the game's screen left the stack for this one: its module and the kit's game
            # base leave the heap before the replay rebuilds the game beside the seat
            for name in ("fathom.games.%s.screen" % self.runner.gid, "fathom.ui.gamebase",
                         "fathom.ui.genericscreen"):
                forget(name)
            from fathom.flow.replay import ReplayScreen
            self.app.push(ReplayScreen(self.app, self.runner))


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
