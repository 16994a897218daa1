# The toy's companion mode: a tally of guesses for a paper game of Toy, kept in one file.
from fathom.ui.companion import Panel, Store, load, open_with

FILE = "c_toy"


def fresh():
    return {"guesses": 0}


def check(st):
    return type(st["guesses"]) is int and st["guesses"] >= 0


def open_mode(app):
    st, problem = load(app, FILE, fresh, check)
    open_with(app, Tally(app, Store(app, FILE, st)), problem)


class Tally(Panel):
    def __init__(self, app, store):
        Panel.__init__(self, app, "Toy")
        self.s = store

    def info(self):
        return ["guesses: %d" % self.s.st["guesses"]]

    def items(self):
        return [("Count a guess", self.count, None)]

    def count(self):
        self.s.st["guesses"] += 1
        self.s.save()
