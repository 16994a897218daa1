# `fathom replay` (host only): a unit's saved, finished game replayed by the unit's own replay
# screen (fathom/flow/replay.py) into a real framebuf of the panel's size, stepped with its
# RIGHT key as a player steps it. One line a step on stdout:
#   fathom-replay {"at": i, "end": n, "fb": "<MONO_VLSB hex>", "lines": [title, words...]}
# or one `fathom-replay-error {"error": "..."}` line. Run as
#   micropython -m hostmodes.replayrun STORAGE_DIR WIDTH HEIGHT
import binascii
import json
import sys

import framebuf


class _App:
    """What a screen reads of the app: its link icon (none: the game is over) and the stack."""
    link_state = None

    def __init__(self, d):
        self.stack = []
        self.d = d

    def push(self, s):
        self.stack.append(s)

    def pop(self):
        self.stack.pop()


class _Panel(framebuf.FrameBuffer):
    def __init__(self, w, h):
        self.buf = bytearray(w * ((h + 7) // 8))
        super().__init__(self.buf, w, h, framebuf.MONO_VLSB)
        self.width = w
        self.height = h


def _error(msg):
    print("fathom-replay-error " + json.dumps({"error": msg}))


def frames(root, w, h):
    """Yield (screen, panel) at each step of the saved game's replay, from the set-ups on."""
    from fathom import games
    from fathom.hal.storage import Storage
    from fathom.runner import load
    from fathom.flow.gameend import ResultScreen
    r = load(Storage(root), games.engine)
    if r is None:
        raise ValueError("no saved game in %s" % root)
    d = _Panel(w, h)
    app = _App(d)
    res = ResultScreen(app, r)
    app.push(res)
    if r.seat.result() is None:
        raise ValueError("the saved game is not finished")
    if not res._replay():
        raise ValueError("no replay: " + " / ".join(res._text()))
    res.key("RIGHT")            # the result screen's own key opens the replay
    scr = app.stack[-1]
    while True:
        d.fill(0)
        scr.draw(d)
        yield scr, d
        if scr.rp.at >= scr.rp.end:
            break
        scr.key("RIGHT")
    scr.key("BACK")


def main(argv):
    root, w, h = argv[0], int(argv[1]), int(argv[2])
    try:
        for scr, d in frames(root, w, h):
            print("fathom-replay " + json.dumps({
                "at": scr.rp.at, "end": scr.rp.end,
                "fb": binascii.hexlify(d.buf).decode(), "lines": scr.lines()}))
    except Exception as e:
        _error("%s: %s" % (type(e).__name__, e))


if __name__ == "__main__":
    main(sys.argv[1:])
