# A game screen's title bar keeps one font at a size: its titles change with every question
# ("Move: ship?", "Fire: target?", "P2 plays"), and one set in 8x8 beside one in 3x5 on the
# same screen read as two different things ("PING YOUR MOVE" beside "PING your move"). Each
# game is played through its own keys (keys_for, as a person would) against a bot at both
# sizes, and every frame's title is read from the strings the screen drew (hostmodes/uxplayer's
# Drawn): 8x8 text at the top row, or 3x5 text on the bar left of its right-hand field. (A
# screen over the game, a question or the result, is a screen of its own.)
import pytest

from fathom import games
from fathom.games import local
from fathom.games.bots import make_bot
from fathom.peers import pipe_pair
from fathom.runner import Runner
from hostmodes.uxplayer import Drawn

from kit.panel import App

SIZES = [(128, 64), (72, 40)]


class Unit(App):
    def __init__(self, w, h):
        App.__init__(self, w, h)
        self.d = self.hw.display

    def redraw(self):
        self.d.fill(0)
        self.stack[-1].draw(self.d)


def title_fonts(drawn, w):
    """The fonts of the frame's title: '8x8' and/or '3x5' (none on a bar with no title)."""
    out = set()
    for y, x, t, step, end in drawn.runs:
        if not t.strip() or end > w - 12:      # the field ("P1", "3/9") and link icon sit
            continue                          # at the right end
        if y == 0 and step == 8:
            out.add("8x8")
        elif y == 1 and step != 8:
            out.add("3x5")
    return out


def play(gid, w, h, seed, limit=120):
    opts = {"sealed": 0} if gid in ("ping", "periplus") else {}
    eng = games.engine(gid)
    seats = local.make_seats(eng, eng.options(opts), 2, seed)
    a, b = pipe_pair()
    rs = [Runner(seats[0], [a]), Runner(seats[1], [b])]
    for r in rs:
        r.services = [r]
    bots = [make_bot(gid, "random", seed, p) for p in (0, 1)]
    u = Unit(w, h)
    scr = games.part(gid, "screen").screen(u, rs[0])
    u.push(scr)
    drawn = Drawn(u)
    seen = {}
    now = 0
    try:
        for _ in range(limit):
            for r in rs:
                r.tick(now)
            s1 = rs[1].seat
            while s1.setup_legal():
                rs[1].setup_choose(bots[1].setup(s1))
            if s1.result() is None and s1.my_turn() and s1.to_move()[1] == "act":
                rs[1].play(bots[1].act(s1))
            for r in rs:
                r.tick(now)
            scr.tick(now)
            u.redraw()
            for f in title_fonts(drawn, w) if u.stack[-1] is scr else ():
                seen.setdefault(f, scr.lines()[0])
            s0 = rs[0].seat
            if s0.result() is not None:
                break
            if s0.setup_legal() or (s0.my_turn() and s0.to_move()[1] == "act"):
                act = bots[0].setup(s0) if s0.setup_legal() else bots[0].act(s0)
                keys = scr.keys_for(act) or []
                for k in keys:
                    scr.key(k)
                    scr.tick(now)
                    u.redraw()
                    for f in title_fonts(drawn, w) if u.stack[-1] is scr else ():
                        seen.setdefault(f, scr.lines()[0])
                if not keys:
                    if s0.setup_legal():
                        rs[0].setup_choose(act)
                    else:
                        rs[0].play(act)
            now += 50
    finally:
        drawn.close()
    return seen


@pytest.mark.parametrize("gid", ["ping", "ashtapada", "sugardog", "periplus", "pinned_down"])
@pytest.mark.parametrize("size", SIZES)
def test_a_game_title_keeps_one_font_at_a_size(gid, size):
    seen = play(gid, size[0], size[1], b"font " + gid.encode())
    assert len(seen) <= 1, (gid, size, seen)
