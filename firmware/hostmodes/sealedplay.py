# Two players running the sealed deal against each other in one process, with each player's
# own work timed and counted apart: the tests' end-to-end protocol and `fathom bench deal`
# (which runs this under the MicroPython runtimes). Host only: a unit runs the steps from its
# engine, one event at a time.
import hashlib
import time

from fathom.sealed import deal
from fathom.sealed.group import Group
from hostmodes.sealedtable import Table

try:
    _us = time.ticks_us
    _diff = time.ticks_diff
except AttributeError:  # CPython
    def _us():
        return int(time.perf_counter() * 1000000)

    def _diff(a, b):
        return a - b


class Player:
    """One unit's side: its secret, its copy of the public table, its cost so far."""

    def __init__(self, grp, index, secret):
        self.grp = grp
        self.i = index
        self.secret = secret
        self.us = 0
        self.exps = 0
        self.hand = {}      # (rnd, pos) -> card it opened for itself

    def work(self, fn, *args):
        g = self.grp
        before = g.n_pow + g.n_comb
        t = _us()
        out = fn(*args)
        self.us += _diff(_us(), t)
        self.exps += g.n_pow + g.n_comb - before
        return out


class Game:
    """The public log of one sealed deal between two Players, applied by both tables."""

    def __init__(self, secrets, kinds, bits=None):
        self.kinds = kinds   # card identities 0..kinds-1
        self.grp = Group(bits) if bits else Group()
        deal.release()
        self.players = [Player(self.grp, i, secrets[i]) for i in (0, 1)]
        self.commits = [p.work(deal.key_commit, self.grp, p.secret) for p in self.players]
        self.sources = {}
        self.tables = [Table(self.grp, self.commits, self.sources) for _ in (0, 1)]
        self.log = []

    def post(self, author, ev):
        for t in self.tables:
            t.apply(author, ev)
        self.log.append((author, ev))

    def keys(self):
        for p in self.players:
            self.post(p.i, ["sk", p.work(deal.public_key, self.grp, p.secret)])

    def shuffle(self, rnd, cards):
        """Round rnd: player 0 shuffles the known `cards`, then player 1 shuffles that."""
        self.sources[rnd] = list(cards)
        n = len(cards)
        step = deal.chunk_cards(self.grp)
        for p in self.players:
            t = self.tables[p.i]
            src = self.sources[rnd] if p.i == 0 else t.mid[rnd]
            s = p.work(deal.Shuffle, self.grp, t.joint, p.secret, rnd, src, n)
            for first in range(0, n, step):
                self.post(p.i, ["ss", rnd, first, p.work(s.chunk, first, step)])
        deal.release()

    def give(self, rnd, to, positions):
        """Open `positions` to player `to`: the other publishes its shares, `to` opens them."""
        other = self.players[1 - to]
        t = self.tables[other.i]
        shares = [other.work(deal.share, self.grp, other.secret, t.card(rnd, pos)[0])
                  for pos in positions]
        self.post(other.i, ["so", rnd, list(positions), shares])
        me = self.players[to]
        mine = self.tables[to]
        got = []
        for pos in positions:
            c1, c2 = mine.card(rnd, pos)
            theirs = mine.shares[(rnd, pos, other.i)]
            k = me.work(deal.open_card, self.grp, me.secret, c1, c2, theirs, self.kinds)
            me.hand[(rnd, pos)] = k
            got.append(k)
        return got

    def claims(self, player):
        return [(r, pos, k) for (r, pos), k in self.players[player].hand.items()]

    def cost(self):
        """Per player: [microseconds, exponentiations] since the last call."""
        out = [[p.us, p.exps] for p in self.players]
        for p in self.players:
            p.us = p.exps = 0
        return out


def secrets_for(seed):
    return [hashlib.sha256(b"sealedplay %s %d" % (seed, i)).digest() for i in (0, 1)]


PING_CARDS = 16
PERIPLUS_CARDS = 55


def ping_deal(g):
    """PING: 0-2 player 0's hand, 3-5 player 1's, 6 face down in the play area, 7-15 aside."""
    g.keys()
    g.shuffle(0, range(PING_CARDS))
    return g.give(0, 0, [0, 1, 2]), g.give(0, 1, [3, 4, 5])


def periplus_setup(g):
    """Periplus: the 55-card deck sealed and the first player's first draw of 3 opened."""
    g.keys()
    g.shuffle(0, range(PERIPLUS_CARDS))
    return g.give(0, 0, [0, 1, 2])


def measure(bits=None, seed=b"bench"):
    """The bench's figures on this runtime: per phase, each player's ms and exponentiations."""
    out = {}
    g = Game(secrets_for(seed), PING_CARDS, bits)
    ping_deal(g)
    out["ping_deal"] = g.cost()
    g = Game(secrets_for(seed), PERIPLUS_CARDS, bits)
    periplus_setup(g)
    out["periplus_setup"] = g.cost()
    g.give(0, 1, [3, 4, 5])
    out["draw3"] = g.cost()
    g.shuffle(1, range(30))
    out["reshuffle30"] = g.cost()
    out["bits"] = g.grp.bits
    return out


def engine_game(gid, k=0, level="sharp"):
    """One whole sealed game of `gid` between two seats (the engines, as units play it), each
    unit's work timed and its exponentiations counted apart: during play (its answers, and the
    cards opened to it) and in its end-of-game audit of the other (which recomputes every
    sealed step the other authored). Bot thinking is left out."""
    from fathom import games
    from fathom.games import local
    from fathom.games.audit import audit
    from fathom.games.bots import make_bot
    from fathom.prng import Prng
    from fathom.sealed import stage
    eng = games.engine(gid)
    seed = Prng(b"dealbench", b"%d" % k).token(16)
    seats = local.make_seats(eng, eng.options({"sealed": 1}), 2, seed)
    bots = [make_bot(gid, level, seed, p) for p in (0, 1)]
    grp = stage.group()
    play = [[0, 0], [0, 0]]
    at_end = [[0, 0], [0, 0]]

    def work(cost, p, fn, *args):
        before = grp.n_pow + grp.n_comb
        t = _us()
        out = fn(*args)
        cost[p][0] += _diff(_us(), t)
        cost[p][1] += grp.n_pow + grp.n_comb - before
        return out

    deal.release()
    events = opens = 0
    while seats[0].result() is None:
        s = local.next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        action = bots[s.player].act(s) if s.my_turn(acting=True) else None
        ev = work(play, s.player, s.author, action)
        for o in seats:
            if o is not s:
                work(play, o.player, o.receive, s.player, ev, s.ck)
        events += 1
        opens += len(ev[2]) if ev[0] == "so" else 0
    reveals = [s.reveal() for s in seats]
    for s in seats:
        v = work(at_end, s.player, audit, s, 1 - s.player, reveals[1 - s.player])
        if v is not None:
            raise ValueError("%s: audit failed: %r" % (gid, v))
    deal.release()
    return {"play": play, "audit": at_end, "events": events, "cards_opened": opens,
            "rounds": seats[0].pub["sd"]["rnd"] + 1}
