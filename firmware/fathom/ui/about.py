# The About screen: version, board and free heap. Loaded when chosen, not at boot.
import gc

from fathom import VERSION
from fathom.ui.screen import CH, Screen, header


class About(Screen):
    title = "About"

    def _text(self):
        gc.collect()
        p = self.app.hw.profile
        return ["fathom " + VERSION, p.get("title", p["name"])[:40], "board " + p["name"],
                "free %d B" % gc.mem_free()]

    def draw(self, d):
        header(d, self.title, self.app.link_state)
        y = CH + 2
        for line in self._text():
            for i in range(0, len(line), d.width // CH):
                if y + CH > d.height:
                    return
                d.text(line[i:i + d.width // CH], 0, y, 1)
                y += CH

    def lines(self):
        return [self.title] + self._text()
