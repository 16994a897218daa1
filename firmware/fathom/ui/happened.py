# What happened since this player's own last action, in words, newest first: the stack every
# game screen shows in its event line or panel, so that nothing the others did (nor the answer
# to one's own move) is replaced before it could be read. The words are the game's own (its
# say/describe module, from the reader's side), given one event and the one before it; this
# module only keeps them. Bounded whatever the game's length: at most MAX lines, the sealed
# deal's many messages folded into one line per deal, and a turn that brings more lines than
# that (a Periplus fleet ahead with every ship following, then discards) folds its oldest ones
# into the last line, joined by " / ", rather than losing them before they were read.
# Where the stack is longer than its box, the box turns through it once, newest first, each
# page held for as long as its words take to read, and then rests on the newest: no line comes
# round again until something new happens. The line a screen starts with (who you are) is
# context, not news: the first event replaces it. A player out of the game (pin()) reads that
# above everything else.

MAX = 10                     # lines kept: older ones fold into the last
FOLD = 200                   # characters the folded last line keeps (its newest parts)
JOIN = " / "
LOOK = 12                    # events read back when a screen opens on a game under way
DEAL = ("sk", "ss", "so")    # the sealed deal's messages (sealed/hooks.DEAL_TAGS)


def deal_line(shuffled):
    """A run of the sealed deal's messages in words a newcomer reads: what the units did
    (a count of its messages, "Sealed deal: 36 steps", told nobody anything)."""
    return "Deck shuffled in secret" if shuffled else "Cards dealt in secret"


def fold(older, newer):
    """Two lines as one, oldest first; past FOLD characters its oldest parts go, whole."""
    t = older + JOIN + newer
    while len(t) > FOLD and JOIN in t:
        t = t.split(JOIN, 1)[1]
    return t


class Happened:
    """`words(prev, author, event)` -> the line for `event` from this seat's side (`prev`
    the (author, event) before it, or None); `start` the line before any event. update()
    folds in the events the seat got since the last call; lines is the stack, newest first."""

    def __init__(self, seat, words, start):
        self.seat = seat
        self.words = words
        self.lines = [start]
        self.start = True         # lines[-1] is the start line, until the first event
        self.first = None         # pinned above the stack (pin()): why this player waits
        self.text = start         # the lines joined, one per paragraph (a TextPage wraps it)
        self.deal = 0             # sealed messages in the newest line (0: it is no deal)
        self.shuffled = False     # and whether they shuffled the deck, or only dealt cards
        self.n = max(0, seat.n_log - LOOK)
        self._new = True          # the stack changed since the page last turned round
        self.update()

    def newest(self):
        """The line read first: the pinned one, else the newest event's."""
        if self.first is not None:
            return self.first
        return self.lines[0] if self.lines else ""

    def update(self):
        """Fold in new events; True when the stack changed."""
        s = self.seat
        n = s.n_log
        if n == self.n:
            return False
        prev = s.log[self.n - 1] if self.n else None
        lines = self.lines
        for rec in s.records(self.n, n):
            author, ev = rec[1], rec[2]
            if author == s.player and len(rec) > 5:
                del lines[:]      # this player acted: what came before had its chance
                self.deal = 0
                self.shuffled = False
                self.start = False
            elif self.start and lines:
                lines.pop()       # news: who you are was context, not news
                self.start = False
            if ev[0] in DEAL:
                self.deal += 1
                if ev[0] != DEAL[2]:   # a key or a shuffle: the deck is shuffled
                    self.shuffled = True
                if self.deal > 1:
                    lines[0] = deal_line(self.shuffled)
                else:
                    lines.insert(0, deal_line(self.shuffled))
            else:
                self.deal = 0
                self.shuffled = False
                try:
                    line = self.words(prev, author, ev)
                except Exception as e:  # a news line must never take the screen down
                    line = "P%d: %s (%s)" % (author + 1, ev[0], type(e).__name__)
                if line and not (lines and lines[0] == line):  # (both set-ups: one line)
                    lines.insert(0, line)
            if len(lines) > MAX:
                oldest = lines.pop()
                lines[-1] = fold(oldest, lines[-1])
            prev = (author, ev)
        self.n = n
        self._join()
        return True

    def pin(self, line):
        """`line` above the stack from now on (None: nothing); True when that changed."""
        if line == self.first:
            return False
        self.first = line
        self._join()
        return True

    def _join(self):
        self.text = "\n".join(self.lines if self.first is None else [self.first] + self.lines)
        self._new = True

    def turn(self, page, now):
        """Turn `page` (the TextPage showing the stack) when the stack is longer than its box
        (TextPage.turn: the newest rests in view once read round); True when it turned."""
        if self._new:
            self._new = False
            page.turn_at = None   # the stack changed: read round again, even to the same text
        return page.turn(now)
