# The toy's words: the log line of each of its events.
from fathom.games.base import TAG, IllegalAction

from toy.engine import ANS_WORD, EV_ANS, EV_GUESS, GUESS_NUMBER


def describe(pub, author, event):
    if event[TAG] == EV_GUESS:
        return "P%d guesses %d" % (author + 1, event[GUESS_NUMBER])
    if event[TAG] == EV_ANS:
        return "P%d: %s" % (author + 1, event[ANS_WORD])
    raise IllegalAction("no such event")
