# The About screen: version, board and free heap. Loaded when chosen, not at boot.
import gc

from fathom import VERSION
from fathom.ui.dialog import draw_page
from fathom.ui.screen import Screen
from fathom.ui.textpage import TextPage


class About(Screen):
    title = "About"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.page = TextPage()

    def _text(self):
        gc.collect()
        p = self.app.hw.profile
        return ["fathom " + VERSION, p.get("title", p["name"])[:40], "board " + p["name"],
                "free %d B" % gc.mem_free()]

    def draw(self, d):
        self.page.set("\n".join(self._text()))
        draw_page(d, self.title, self.app.link_state, self.page)

    def key(self, k):
        if not self.page.key(k):
            Screen.key(self, k)

    def lines(self):
        return [self.title] + self._text()
