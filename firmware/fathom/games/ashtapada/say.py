# Lake Ashtapada in words for the screen: what the last event did, seen from one player; what
# can be done on a square; the short status. Rules knowledge stays here and in the engine: the
# screen asks, and only draws what it is given.
from fathom.games.ashtapada import engine as A

SIDES = ("South", "North")

# kinds of action on a square, one bit each (kinds())
SOUND = 1
DEPTH = 2
MOVE = 4


def you_are(player):
    return "You are P%d (%s). Lay an island, then your mines." % (player + 1, SIDES[player])


def _who(me, author):
    return "You" if author == me else "Foe"


def event(pub, me, log):
    """The last event of `log` in words, from `me`'s side; the set-up words before any."""
    if not log:
        return you_are(me)
    author, ev = log[-1]
    n = pub["size"]
    tag = ev[0]
    if tag == "setup":
        if pub["ready"][0] and pub["ready"][1]:
            return "You are P%d (%s). Both lakes set: %s." % (
                me + 1, SIDES[me], "you begin" if me == A.SOUTH else "South begins")
        if author == me:
            return "Your lake is set; the foe is setting up."
        return you_are(me) + " The foe's lake is set."
    if tag == "concede":
        return "%s conceded." % _who(me, author)
    if tag in ("move", "sound", "depth"):
        return _action(pub, me, author, ev, n, len(log))
    # an answer: it settles the action just before it, whose author is the other player
    actor = 1 - author
    if tag == "mine":
        dest = pub["boats"][actor]
        if ev[1] < 0:
            return "%s boat moved to %s, safely." % (_who(me, actor), A.name(dest, n))
        if actor == me:
            return "Your boat struck a mine at %s: you lose." % A.name(ev[1], n)
        return "The foe's boat struck your mine at %s!" % A.name(ev[1], n)
    if tag == "ping":
        where = A.name(ev[1], n)
        got = ",".join([str(d) for d in ev[2]])
        if actor == me:
            if not got:
                return "Your sounding at %s: no ping." % where
            return "Your sounding at %s: pings %s." % (where, got)
        if not got:
            return "Foe sounded %s: no ping back." % where
        return "Foe sounded %s: your mines ping %s." % (where, got)
    if tag == "hit":
        return _depth(pub, me, actor, ev[1], ev[2], n)
    return "%s: %s" % (_who(me, author), tag)


def _action(pub, me, author, ev, n, nlog):
    pend = pub["pend"]
    waiting = pend is not None and pend[1] == author
    tag = ev[0]
    if tag == "move":
        to = A.name(ev[1][-1], n)
        if waiting:
            return "%s boat moves to %s..." % (_who(me, author), to)
        return "%s boat moved to %s (known safe)." % (_who(me, author), to)
    where = A.name(ev[1], n)
    if tag == "sound":
        return "%s sounding at %s..." % ("Your" if author == me else "Foe", where)
    if waiting:
        return "%s depth charge at %s..." % ("Your" if author == me else "Foe", where)
    # settled at once: the square was proved empty by the public record
    return _depth(pub, me, author, ev[1], False, n)


def _depth(pub, me, actor, sq, hit, n):
    where = A.name(sq, n)
    foe = 1 - actor
    left = pub["mines"] - len(pub["dead"][foe])
    if actor == me:
        if hit:
            return "Your depth charge at %s: hit! %d foe mines left." % (where, left)
        return "Your depth charge at %s: miss (%d/%d)." % (where, len(pub["miss"][me]),
                                                            A.MISSES)
    if hit:
        return "Foe depth charge at %s: hit, %d of your mines left." % (where, left)
    return "Foe depth charge at %s: miss (%d/%d)." % (where, len(pub["miss"][actor]),
                                                       A.MISSES)


def status(pub, me):
    """Short status lines (at most 14 characters each), most important first."""
    foe = 1 - me
    m = pub["mines"]
    return ["Foe mines %d/%d" % (m - len(pub["dead"][foe]), m),
            "My mines %d/%d" % (m - len(pub["dead"][me]), m),
            "Misses %d/%d" % (len(pub["miss"][me]), A.MISSES),
            "Calm in %d" % (pub["calm"] - pub["quiet"])]


def setup_status(pub, priv):
    return ["Set up", "Islands %d/%d" % (len(priv["islands"]), pub["isl"]),
            "Mines %d/%d" % (len(priv["mines"]), pub["mines"])]


def target(action):
    """The square an action or set-up choice is aimed at (a move's last square)."""
    return action[1][-1] if action[0] == "move" else action[1]


def kinds(legal, cells):
    """bytearray over the lake: SOUND|DEPTH|MOVE bits for what can be done on each square."""
    out = bytearray(cells)
    for a in legal:
        out[target(a)] |= SOUND if a[0] == "sound" else DEPTH if a[0] == "depth" else MOVE
    return out


def _rank(a):
    # soundings first, then moves (short paths first), depth charges last: the rarest, and
    # in a menu that wraps round its ends the last row is one UP away
    if a[0] == "move":
        return 16 + len(a[1])
    return 0 if a[0] == "sound" else 32


def order(legal):
    """The legal actions in the order a menu lists them."""
    out = list(legal)
    out.sort(key=_rank)
    return out


def at(legal, sq):
    """The legal actions aimed at square sq, in menu order."""
    return order([a for a in legal if target(a) == sq])


def menu_label(pub, action, paths):
    """A menu line (a narrow panel's) for an action on the square under the cursor: 'Sound',
    'Depth' (a depth charge), 'Move', or with several ways there 'Via D5-D6'."""
    if action[0] == "sound":
        return "Sound"
    if action[0] == "depth":
        return "Depth"
    if paths < 2 or len(action[1]) < 2:
        return "Move"
    n = pub["size"]
    return "Via " + "-".join([A.name(s, n) for s in action[1][:-1]])


def setup_hint(choice):
    return "OK: island here" if choice == "island" else "OK: mine here"


# ---- the lake as one player knows it: one byte per square, rebuilt once per event ----------
CAND = 1       # an enemy mine may still be here (rule 6.3 overlay)
CERT = 2       # an enemy mine must be here
SOUNDED = 4    # this player dropped a sounding charge here
MISSED = 8     # a depth charge missed here (either side's)
ISLAND = 0x10
MINE = 0x20    # own live mine
DEAD = 0x30    # a destroyed mine (own or enemy)


def lake(pub, priv, me):
    """(codes, certain count): the lake's squares as `me` knows them: a base in the high
    nibble (island, own mine, destroyed mine) else flags in the low one."""
    n = pub["size"]
    m = bytearray(n * n)
    for sq in pub["miss"][0] + pub["miss"][1]:
        m[sq] = MISSED
    for who, c, _d, _nd in A.reports(pub):
        if who == me:
            m[c] |= SOUNDED
    ncert = 0
    if pub["ready"][0] and pub["ready"][1] and pub["end"] is None:
        cand = A.candidates(pub, me)
        for sq in range(n * n):
            if cand[sq]:
                m[sq] |= CAND
        cert = A.certain(pub, me, cand)
        for sq in cert:
            m[sq] |= CERT
        ncert = len(cert)
    for sq in priv["mines"]:
        m[sq] = MINE
    for sq in pub["dead"][0] + pub["dead"][1]:
        m[sq] = DEAD
    for sq in pub["islands"][0] + pub["islands"][1] + priv["islands"]:
        m[sq] = ISLAND
    return m, ncert


# what a square's code means, for the line under the cursor (constant strings: no allocation)
def here(code):
    base = code & 0xF0
    if base == ISLAND:
        return "island"
    if base == MINE:
        return "your mine"
    if base == DEAD:
        return "destroyed mine"
    if code & CERT:
        return "a mine is here"
    if code & MISSED:
        return "a miss"
    if code & CAND:
        return "mine may be here"
    if code & SOUNDED:
        return "you sounded here"
    return "open water"


def sonar(pub, me):
    """Your soundings and their reports, oldest first, e.g. 'B2: 2,3'."""
    n = pub["size"]
    out = []
    for who, c, dists, _nd in A.reports(pub):
        if who == me:
            out.append("%s: %s" % (A.name(c, n), ",".join([str(x) for x in dists]) or "none"))
    return out
