# Pinned Down's sharp bot (hard shares its search): the work of its slowest decision, the fight
# assignment, stays bounded, and the figures it works out once per attack (bot.figures, the
# `fx` of fights.build and fights.sums) give what the engine's own functions give.
# The hard bot's own rule, its cloaks, holds in games where each kind of cloak decision comes up.
import pytest

from fathom.games import local
from fathom.games.pinned_down import bot as B
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down.engine import ENGINE

pytestmark = pytest.mark.micropython

# The work of a decision: the calls into the fight rules it makes (each a pass over a fight's
# ships or the attackers). `fathom bench bots` seed 11 (b"bench11") reaches a 15-attacker
# attack with three ships, one assigned: 225 assignments weighed. Before the figures were
# worked out once per attack, that decision made 26,020 of these calls (23,478 of them
# foe_power; 11.2 s on the ESP32 estimate); with them, 767 (0.56 s).
WORK_MAX = 2500
COUNTED = ((FT, "build"), (FT, "sums"), (FT, "foe_power"), (F, "power"), (F, "abilities"))


class Counted:
    """A module function wrapped to count its calls (the original back on close)."""

    def __init__(self, mod, name, box):
        self.mod, self.name, self.orig = mod, name, getattr(mod, name)
        orig = self.orig

        def counted(*a):
            box[0] += 1
            return orig(*a)
        setattr(mod, name, counted)

    def close(self):
        setattr(self.mod, self.name, self.orig)


class Watched(B.SharpBot):
    """The sharp bot, each decision's position (phase, attackers) and counted work noted."""

    def __init__(self, seed, player, box, log, check=None):
        super().__init__(seed, player)
        self.box, self.log, self.check = box, log, check

    def act(self, seat):
        pub = seat.pub
        if self.check:
            self.check(pub)
        self.box[0] = 0
        a = super().act(seat)
        self.log.append((self.box[0], pub["ph"], len(pub["foes"])))
        return a


def test_the_slowest_known_assignment_does_bounded_work():
    box, log = [0], []
    wraps = [Counted(m, n, box) for m, n in COUNTED]
    try:
        seed = b"bench11"
        local.play(ENGINE, ENGINE.options(), 2, seed,
                   [Watched(seed, p, box, log) for p in range(2)])
    finally:
        for w in wraps:
            w.close()
    work, phase, foes = max(log)
    # the game still reaches the big attack this test is about
    assert max(n for _w, ph, n in log if ph == "assign") >= 15, max(log)
    assert work <= WORK_MAX, (work, phase, foes)


def _held_to_the_engine(seen):
    """A check of a position: every assignment the bot would weigh (every 7th, for time) built
    and summed with the figures as without them."""
    def check(pub):
        ph = pub["ph"]
        if ph not in ("assign", "fight"):
            return
        fx = B.figures(pub)
        seen[0] += 1
        seen[1] += len([1 for x in fx[3] if x[0] is None])
        if ph == "fight":
            for fight in pub["fights"]:
                assert FT.sums(pub, fight, fx) == FT.sums(pub, fight, None), fight
            return
        fs, nf, prefix = pub["fs"], len(pub["foes"]), list(pub["asg"])
        for i in range(0, min(nf ** (len(fs) - len(prefix)), 240), 7):
            c = list(prefix)
            x = i
            while len(c) < len(fs):
                c.append(x % nf)
                x //= nf
            fights = FT.build(pub, c, fx)
            assert fights == FT.build(pub, c, None), c
            for fight in fights:
                assert FT.sums(pub, fight, fx) == FT.sums(pub, fight, None), (c, fight)
    return check


def test_the_figures_worked_out_once_give_the_engines_fights_and_sums():
    # four players: every affiliation's deck in play, so ships whose power hangs on the fight
    # (the Ac'arr swarm, an Inertia Stabilizer aboard) are weighed too
    seen = [0, 0]   # positions checked, ships among them whose power hangs on the fight
    for g in range(2):
        seed = b"figures%d" % g
        opts = ENGINE.options({"deck": C.AFFS[g]})
        local.play(ENGINE, opts, 4, seed,
                   [Watched(seed, p, [0], [], _held_to_the_engine(seen)) for p in range(4)])
    assert seen[0] >= 20 and seen[1] >= 1, seen


class Cloaks(B.HardBot):
    """The hard bot, each cloak decision noted: (flagship, goal reached, last flagship, cloak)."""

    def __init__(self, seed, player, log):
        super().__init__(seed, player)
        self.log = log

    def act(self, seat):
        pub = seat.pub
        a = super().act(seat)
        if pub["ph"] == "cloak":
            s = pub["cq"][0]
            self.log.append((bool(C.kw(pub["ships"][s][1], "F")), pub["dist"] >= 10,
                             F.flagships_left(pub) == 1, a[1]))
        return a


def test_the_hard_partner_cloaks_its_flagship_when_that_fight_decides_the_game():
    # the purple deck's ships cloak: every kind of decision comes up in these games
    log = []
    opts = ENGINE.options()
    opts["deck"] = "purple"
    for i in range(8):
        seed = b"cloak%d" % i
        local.play(ENGINE, opts, 2, seed, [Cloaks(seed, p, log) for p in range(2)])
    flag = [(final, last, on) for f, final, last, on in log if f]
    assert flag and all(on == (1 if final or last else 0) for final, last, on in flag), flag
    assert {(final or last) for final, last, _on in flag} == {True, False}, flag
    crew_at_goal = [on for f, final, _last, on in log if not f and final]
    assert crew_at_goal and not any(crew_at_goal), log
