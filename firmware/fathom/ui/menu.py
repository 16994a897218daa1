# A menu: a top bar and a list view of items; disabled items are shown (ending in '-') but
# cannot be chosen. Items are fixed once in a menu (a changed setting builds a new one), so the
# list lays its rows out once per panel width and a cursor move allocates nothing. On a
# narrow panel a menu whose labels would be cut in 8x8 shows them in the 3x5 font.
from fathom.ui.font import CH
from fathom.ui.listview import ListView, ViewCursor
from fathom.ui.screen import Screen
from fathom.ui.topbar import top_bar


class Item:
    def __init__(self, label, action=None, enabled=True, note=""):
        self.label = label
        self.action = action      # callable(app) run on OK
        self.enabled = enabled
        self.note = note          # short right-hand text, e.g. a setting's value


class Menu(ViewCursor, Screen):
    def __init__(self, app, title, items, cursor=0):
        Screen.__init__(self, app)
        self.title = title
        self.items = items
        labels = []
        notes = []
        for it in items:
            labels.append(it.label if it.enabled else it.label + "-")
            notes.append(it.note)
        self.view = ListView(labels, cursor, notes, True, True, False, True, True)

    def draw(self, d):
        top_bar(d, self.title, self.app.link_state, fit=True)  # "Lake Ashtapada" whole
        self.view.draw(d, 0, CH, d.width, d.height - CH)  # with a scroll bar: see listview

    def lines(self):
        out = [self.title]
        for i, it in enumerate(self.items):
            mark = ">" if i == self.cursor else " "
            text = it.label + ("" if it.enabled else " (unavailable)")
            if it.note:
                text += ": " + it.note
            out.append(mark + text)
        return out

    def keys_for(self, label):
        """The keys that open the first item whose label starts with `label`."""
        for i, it in enumerate(self.items):
            if it.label.startswith(label):
                return self.view.keys_to(i) + ["OK"]
        raise ValueError("no item %r in %s" % (label, self.title))

    def key(self, k):
        if self.view.key(k):
            return
        if k in ("OK", "RIGHT"):
            it = self.items[self.cursor]
            if it.enabled and it.action:
                it.action(self.app)
        elif k in ("BACK", "LEFT"):
            self.app.pop()
