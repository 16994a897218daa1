# The toy's words: the log line of each of its events.
from fathom.compat import const
from fathom.games.base import IllegalAction

from toy.engine import ANS_WORD, EV_ANS, EV_GUESS, GUESS_NUMBER

_TAG = const(0)   # every event's first slot (games/base.py)


def describe(pub, author, event):
    if event[_TAG] == EV_GUESS:
        return "P%d guesses %d" % (author + 1, event[GUESS_NUMBER])
    if event[_TAG] == EV_ANS:
        return "P%d: %s" % (author + 1, event[ANS_WORD])
    raise IllegalAction("no such event")
