# Lake Ashtapada in words for the screen: what the last event did, seen from one player; what
# can be done on a square; the short status. Rules knowledge stays here and in the engine: the
# screen asks, and only draws what it is given.
from fathom.games.ashtapada import engine as A
from fathom.games import base

SIDES = ("South", "North")

_ACTIONS = (A.EV_MOVE, A.EV_SOUND, A.EV_DEPTH)

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
    n = pub[A.SIZE]
    tag = ev[base.TAG]
    if tag == base.SETUP:
        if False not in pub[A.READY]:
            return "You are P%d (%s). Both lakes set: %s." % (
                me + 1, SIDES[me], "you begin" if me == A.SOUTH else "South begins")
        if author == me:
            return "Your lake is set; the foe is setting up."
        return you_are(me) + " The foe's lake is set."
    if tag == base.CONCEDE:
        return "%s conceded." % _who(me, author)
    if tag in _ACTIONS:
        return _action(pub, me, author, ev, n, len(log))
    # an answer: it settles the action just before it, whose author is the other player
    actor = 1 - author
    if tag == A.EV_MINE:
        dest = pub[A.BOATS][actor]
        sq = ev[A.MINE_SQ]
        if sq < 0:
            return "%s boat moved to %s, safely." % (_who(me, actor), A.name(dest, n))
        if actor == me:
            return "Your boat struck a mine at %s: you lose." % A.name(sq, n)
        return "The foe's boat struck your mine at %s!" % A.name(sq, n)
    if tag == A.EV_PING:
        where = A.name(ev[A.PING_SQ], n)
        got = ",".join([str(d) for d in ev[A.PING_TIMES]])
        if actor == me:
            if not got:
                return "Your sounding at %s: no ping." % where
            return "Your sounding at %s: pings %s." % (where, got)
        if not got:
            return "Foe sounded %s: no ping back." % where
        return "Foe sounded %s: your mines ping %s." % (where, got)
    if tag == A.EV_HIT:
        return _depth(pub, me, actor, ev[A.HIT_SQ], ev[A.HIT_MINE], n)
    return "%s: %s" % (_who(me, author), tag)


def _action(pub, me, author, ev, n, nlog):
    pend = pub[A.PENDING]
    waiting = pend is not None and pend[A.PEND_BY] == author
    tag = ev[base.TAG]
    if tag == A.EV_MOVE:
        to = A.name(ev[A.MOVE_PATH][-1], n)
        if waiting:
            return "%s boat moves to %s..." % (_who(me, author), to)
        return "%s boat moved to %s (known safe)." % (_who(me, author), to)
    sq = ev[A.CHARGE_SQ]
    where = A.name(sq, n)
    if tag == A.EV_SOUND:
        return "%s sounding at %s..." % ("Your" if author == me else "Foe", where)
    if waiting:
        return "%s depth charge at %s..." % ("Your" if author == me else "Foe", where)
    # settled at once: the square was proved empty by the public record
    return _depth(pub, me, author, sq, False, n)


def _depth(pub, me, actor, sq, hit, n):
    where = A.name(sq, n)
    foe = 1 - actor
    left = pub[A.MINES] - len(pub[A.DEAD][foe])
    if actor == me:
        if hit:
            return "Your depth charge at %s: hit! %d foe mines left." % (where, left)
        return "Your depth charge at %s: miss (%d/%d)." % (where, len(pub[A.MISSED][me]),
                                                            A.MISSES)
    if hit:
        return "Foe depth charge at %s: hit, %d of your mines left." % (where, left)
    return "Foe depth charge at %s: miss (%d/%d)." % (where, len(pub[A.MISSED][actor]),
                                                       A.MISSES)


def status(pub, me):
    """Short status lines (at most 14 characters each), most important first."""
    foe = 1 - me
    m = pub[A.MINES]
    return ["Foe mines %d/%d" % (m - len(pub[A.DEAD][foe]), m),
            "My mines %d/%d" % (m - len(pub[A.DEAD][me]), m),
            "Misses %d/%d" % (len(pub[A.MISSED][me]), A.MISSES),
            "Calm in %d" % (pub[A.CALM] - pub[A.QUIET])]


def setup_status(pub, priv):
    return ["Set up", "Islands %d/%d" % (len(priv[A.MY_ISLANDS]), pub[A.ISLAND_COUNT]),
            "Mines %d/%d" % (len(priv[A.MY_MINES]), pub[A.MINES])]


def target(action):
    """The square an action or set-up choice is aimed at (a move's last square)."""
    if action[base.TAG] == A.EV_MOVE:
        return action[A.MOVE_PATH][-1]
    return action[A.CHARGE_SQ]   # a charge, or a set-up choice (A.CHOICE_SQ, the same slot)


def kinds(legal, cells):
    """bytearray over the lake: SOUND|DEPTH|MOVE bits for what can be done on each square."""
    out = bytearray(cells)
    for a in legal:
        tag = a[base.TAG]
        out[target(a)] |= SOUND if tag == A.EV_SOUND else DEPTH if tag == A.EV_DEPTH else MOVE
    return out


def _rank(a):
    # soundings first, then moves (short paths first), depth charges last: the rarest, and
    # in a menu that wraps round its ends the last row is one UP away
    if a[base.TAG] == A.EV_MOVE:
        return 16 + len(a[A.MOVE_PATH])
    return 0 if a[base.TAG] == A.EV_SOUND else 32


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
    if action[base.TAG] == A.EV_SOUND:
        return "Sound"
    if action[base.TAG] == A.EV_DEPTH:
        return "Depth"
    path = action[A.MOVE_PATH]
    if paths < 2 or len(path) < 2:
        return "Move"
    n = pub[A.SIZE]
    return "Via " + "-".join([A.name(s, n) for s in path[:-1]])


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
    n = pub[A.SIZE]
    m = bytearray(n * n)
    missed = pub[A.MISSED]
    for sq in missed[A.SOUTH] + missed[A.NORTH]:
        m[sq] = MISSED
    for who, c, _d, _nd in A.reports(pub):
        if who == me:
            m[c] |= SOUNDED
    ncert = 0
    if False not in pub[A.READY] and pub[A.END] is None:
        cand = A.candidates(pub, me)
        for sq in range(n * n):
            if cand[sq]:
                m[sq] |= CAND
        cert = A.certain(pub, me, cand)
        for sq in cert:
            m[sq] |= CERT
        ncert = len(cert)
    for sq in priv[A.MY_MINES]:
        m[sq] = MINE
    dead = pub[A.DEAD]
    for sq in dead[A.SOUTH] + dead[A.NORTH]:
        m[sq] = DEAD
    isl = pub[A.ISLANDS]
    for sq in isl[A.SOUTH] + isl[A.NORTH] + priv[A.MY_ISLANDS]:
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
    n = pub[A.SIZE]
    out = []
    for who, c, dists, _nd in A.reports(pub):
        if who == me:
            out.append("%s: %s" % (A.name(c, n), ",".join([str(x) for x in dists]) or "none"))
    return out


# ---- the engine's words: the generic choice list's labels and the log screen's lines ----------
_SIDE = "SN"


def label(pub, action):
    """'move D5-D6-E6', 'sound D4', 'depth E5'."""
    n = pub[A.SIZE]
    if action[base.TAG] == A.EV_MOVE:
        return "move " + "-".join([A.name(s, n) for s in action[A.MOVE_PATH]])
    return "%s %s" % (action[base.TAG], A.name(action[A.CHARGE_SQ], n))


def setup_label(pub, choice):
    """'island C3', 'mine B2'."""
    return "%s %s" % (choice[base.TAG], A.name(choice[A.CHOICE_SQ], pub[A.SIZE]))


def describe(pub, author, event):
    """One log line of at most 21 characters, e.g. 'S sound D4: 2,3'."""
    n = pub[A.SIZE]
    tag = event[base.TAG] if isinstance(event, list) and event else "?"
    me = _SIDE[author] if author in (0, 1) else "?"
    foe = _SIDE[1 - author] if author in (0, 1) else "?"
    try:
        if tag == base.SETUP:
            line = me + " ready"
        elif tag == base.CONCEDE:
            line = me + " concedes"
        elif tag == A.EV_MOVE:
            line = "%s move to %s" % (me, A.name(event[A.MOVE_PATH][-1], n))
        elif tag == A.EV_SOUND or tag == A.EV_DEPTH:
            line = "%s %s %s" % (me, tag, A.name(event[A.CHARGE_SQ], n))
        elif tag == A.EV_MINE:
            sq = event[A.MINE_SQ]
            line = foe + " safe passage" if sq < 0 else "%s hit mine %s" % (foe, A.name(sq, n))
        elif tag == A.EV_HIT:
            line = "%s depth %s: %s" % (foe, A.name(event[A.HIT_SQ], n),
                                        "hit" if event[A.HIT_MINE] else "miss")
        elif tag == A.EV_PING:
            where = A.name(event[A.PING_SQ], n)
            got = ",".join([str(d) for d in event[A.PING_TIMES]]) or "none"
            line = "%s sound %s: %s" % (foe, where, got)
            if len(line) > 21:
                line = "%s %s:%s" % (foe, where, got)
        else:
            line = me + " " + str(tag)
    except (IndexError, TypeError, ValueError):
        line = me + " " + str(tag)
    return line if len(line) <= 21 else line[:20] + "+"
