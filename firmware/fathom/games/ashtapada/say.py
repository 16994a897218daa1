# Lake Ashtapada in words for the screen: what the last event did, seen from one player; what
# can be done on a square; the short status. Rules knowledge stays here and in the engine: the
# screen asks, and only draws what it is given.
from fathom.compat import const
from fathom.games.ashtapada import engine as A

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_SETUP = const("setup")
_CONCEDE = const("concede")
_READY = const("ready")
_TAG = const(0)
_SOUTH = const(0)
_NORTH = const(1)
_SIZE = const("size")
_MINES = const("mines")
_ISLAND_COUNT = const("isl")
_CALM = const("calm")
_ISLANDS = const("islands")
_BOATS = const("boats")
_PENDING = const("pend")
_PEND_BY = const(1)
_DEAD = const("dead")
_MISSED = const("miss")
_QUIET = const("quiet")
_CLEAR = const("clear")
_SONAR = const("sonar")
_REC_BY = const(0)
_END = const("end")
_MY_ISLANDS = const("islands")
_MY_MINES = const("mines")
_CHOICE_SQ = const(1)
_EV_MOVE = const("move")
_MOVE_PATH = const(1)
_EV_SOUND = const("sound")
_EV_DEPTH = const("depth")
_CHARGE_SQ = const(1)
_EV_MINE = const("mine")
_MINE_SQ = const(1)
_EV_PING = const("ping")
_PING_SQ = const(1)
_PING_TIMES = const(2)
_EV_HIT = const("hit")
_HIT_SQ = const(1)
_HIT_MINE = const(2)
_MISSES = const(2)

SIDES = ("South", "North")

_ACTIONS = (_EV_MOVE, _EV_SOUND, _EV_DEPTH)

# kinds of action on a square, one bit each (kinds())
SOUND = 1
DEPTH = 2
MOVE = 4


def you_are(player):
    return "You are P%d (%s). Lay an island, then your mines." % (player + 1, SIDES[player])


def _who(me, author):
    return "You" if author == me else "Foe"


def _boat(me, owner):
    return "Your boat" if owner == me else "The foe's boat"


def event(pub, me, log):
    """The last event of `log` in words, from `me`'s side; the set-up words before any."""
    if not log:
        return you_are(me)
    author, ev = log[-1]
    n = pub[_SIZE]
    tag = ev[_TAG]
    if tag == _SETUP:
        if False not in pub[_READY]:
            return "You are P%d (%s). Both lakes set: %s." % (
                me + 1, SIDES[me], "you begin" if me == _SOUTH else "South begins")
        if author == me:
            return "Your lake is set; the foe is setting up."
        return you_are(me) + " The foe's lake is set."
    if tag == _CONCEDE:
        return "%s conceded." % _who(me, author)
    if tag in _ACTIONS:
        return _action(pub, me, author, ev, n, len(log))
    # an answer: it settles the action just before it, whose author is the other player
    actor = 1 - author
    if tag == _EV_MINE:
        dest = pub[_BOATS][actor]
        sq = ev[_MINE_SQ]
        if sq < 0:
            return "%s moved to %s, safely." % (_boat(me, actor), A.name(dest, n))
        if actor == me:
            return "Your boat struck a mine at %s: you lose." % A.name(sq, n)
        return "The foe's boat struck your mine at %s!" % A.name(sq, n)
    if tag == _EV_PING:
        where = A.name(ev[_PING_SQ], n)
        got = ",".join([str(d) for d in ev[_PING_TIMES]])
        if actor == me:
            if not got:
                return "Your sounding at %s: no ping." % where
            return "Your sounding at %s: pings %s." % (where, got)
        if not got:
            return "Foe sounded %s: no ping back." % where
        return "Foe sounded %s: your mines ping %s." % (where, got)
    if tag == _EV_HIT:
        return _depth(pub, me, actor, ev[_HIT_SQ], ev[_HIT_MINE], n)
    return "%s: %s" % (_who(me, author), tag)


def _action(pub, me, author, ev, n, nlog):
    pend = pub[_PENDING]
    waiting = pend is not None and pend[_PEND_BY] == author
    tag = ev[_TAG]
    if tag == _EV_MOVE:
        to = A.name(ev[_MOVE_PATH][-1], n)
        if waiting:
            return "%s moves to %s..." % (_boat(me, author), to)
        return "%s moved to %s (known safe)." % (_boat(me, author), to)
    sq = ev[_CHARGE_SQ]
    where = A.name(sq, n)
    if tag == _EV_SOUND:
        return "%s sounding at %s..." % ("Your" if author == me else "Foe", where)
    if waiting:
        return "%s depth charge at %s..." % ("Your" if author == me else "Foe", where)
    # settled at once: the square was proved empty by the public record
    return _depth(pub, me, author, sq, False, n)


def _depth(pub, me, actor, sq, hit, n):
    where = A.name(sq, n)
    foe = 1 - actor
    left = pub[_MINES] - len(pub[_DEAD][foe])
    if actor == me:
        if hit:
            return "Your depth charge at %s: hit! %d foe mines left." % (where, left)
        return "Your depth charge at %s: miss (%d/%d)." % (where, len(pub[_MISSED][me]),
                                                            _MISSES)
    if hit:
        return "Foe depth charge at %s: hit, %d of your mines left." % (where, left)
    return "Foe depth charge at %s: miss (%d/%d)." % (where, len(pub[_MISSED][actor]),
                                                       _MISSES)


def status(pub, me):
    """Short status lines (at most 14 characters each; "Draw: 100 turns" 15, drawn where
    they fit), most important first."""
    foe = 1 - me
    m = pub[_MINES]
    return ["Foe mines %d/%d" % (m - len(pub[_DEAD][foe]), m),
            "My mines %d/%d" % (m - len(pub[_DEAD][me]), m),
            "Misses %d/%d" % (len(pub[_MISSED][me]), _MISSES),
            _draw_in(pub[_CALM] - pub[_QUIET])]   # turns with no mine lost


def _draw_in(n):
    """The quiet spell's end in words with its unit ("Draw in 58" read as seconds)."""
    return "Draw: %d turn%s" % (n, "" if n == 1 else "s")


def setup_status(pub, priv):
    return ["Set up", "Islands %d/%d" % (len(priv[_MY_ISLANDS]), pub[_ISLAND_COUNT]),
            "Mines %d/%d" % (len(priv[_MY_MINES]), pub[_MINES])]


def target(action):
    """The square an action or set-up choice is aimed at (a move's last square)."""
    if action[_TAG] == _EV_MOVE:
        return action[_MOVE_PATH][-1]
    return action[_CHARGE_SQ]   # a charge, or a set-up choice (A.CHOICE_SQ, the same slot)


def kinds(legal, cells):
    """bytearray over the lake: SOUND|DEPTH|MOVE bits for what can be done on each square."""
    out = bytearray(cells)
    for a in legal:
        tag = a[_TAG]
        out[target(a)] |= SOUND if tag == _EV_SOUND else DEPTH if tag == _EV_DEPTH else MOVE
    return out


def _rank(a):
    # soundings first, then moves (short paths first), depth charges last: the rarest, and
    # in a menu that wraps round its ends the last row is one UP away
    if a[_TAG] == _EV_MOVE:
        return 16 + len(a[_MOVE_PATH])
    return 0 if a[_TAG] == _EV_SOUND else 32


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
    if action[_TAG] == _EV_SOUND:
        return "Sound"
    if action[_TAG] == _EV_DEPTH:
        return "Depth"
    path = action[_MOVE_PATH]
    if paths < 2 or len(path) < 2:
        return "Move"
    n = pub[_SIZE]
    return "Via " + "-".join([A.name(s, n) for s in path[:-1]])


# ---- the lake as one player knows it: one byte per square, rebuilt once per event ----------
CAND = 1       # an enemy mine may still be here (rule 6.3 overlay)
CERT = 2       # an enemy mine must be here
SOUNDED = 4    # this player dropped a sounding charge here
MISSED = 8     # a depth charge missed here (either side's)
ISLAND = 0x10
MINE = 0x20    # own live mine
DEAD = 0x30    # a destroyed mine (own or enemy)


def lake(pub, priv, me, since=None, known=None):
    """(codes, certain squares, candidates): the lake's squares as `me` knows them: a base in
    the high nibble (island, own mine, destroyed mine) else flags in the low one. `since`: the
    candidates an earlier call gave for this game (engine.candidates starts from them, as the
    bot's do: what the record proves only grows); None before the deduction starts. `known`:
    (candidates, certain squares) an earlier call gave for a state of the same deduce_key,
    taken as they are (the deduction is not worked out again)."""
    n = pub[_SIZE]
    m = bytearray(n * n)
    missed = pub[_MISSED]
    for sq in missed[_SOUTH] + missed[_NORTH]:
        m[sq] = MISSED
    for who, c, _d, _nd in A.reports(pub):
        if who == me:
            m[c] |= SOUNDED
    cand, cert = known if known is not None else _deduce(pub, me, since)
    if cand is not None:
        for sq in range(n * n):
            if cand[sq]:
                m[sq] |= CAND
        for sq in cert:
            m[sq] |= CERT
    for sq in priv[_MY_MINES]:
        m[sq] = MINE
    dead = pub[_DEAD]
    for sq in dead[_SOUTH] + dead[_NORTH]:
        m[sq] = DEAD
    isl = pub[_ISLANDS]
    for sq in isl[_SOUTH] + isl[_NORTH] + priv[_MY_ISLANDS]:
        m[sq] = ISLAND
    return m, cert, cand


def _deduce(pub, me, since):
    """(candidates, certain squares) of the rule 6.3 overlay, or (None, []) before both lakes
    are set or once the game is over."""
    if False in pub[_READY] or pub[_END] is not None:
        return None, []
    cand = A.candidates(pub, me, since)
    return cand, A.certain(pub, me, cand)


def deduce_key(pub, me):
    """What the deduction reads, as counts: every list it reads only grows, so two states of
    one game with equal keys give the same deduction (a partner's move mostly leaves it as it
    was: it is not worked out again)."""
    mine = 0
    for rec in pub[_SONAR]:
        if rec[_REC_BY] == me:    # its charger
            mine += 1
    isl = pub[_ISLANDS]
    ready = pub[_READY]
    return (mine, len(pub[_DEAD][1 - me]), len(pub[_MISSED][me]), len(pub[_CLEAR][me]),
            len(isl[_SOUTH]) + len(isl[_NORTH]), ready[_SOUTH], ready[_NORTH],
            pub[_END] is None)


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
    n = pub[_SIZE]
    out = []
    for who, c, dists, _nd in A.reports(pub):
        if who == me:
            out.append("%s: %s" % (A.name(c, n), ",".join([str(x) for x in dists]) or "none"))
    return out


# ---- the engine's words: the generic choice list's labels and the log screen's lines ----------
_SIDE = "SN"


def label(pub, action):
    """'move D5-D6-E6', 'sound D4', 'depth E5'."""
    n = pub[_SIZE]
    if action[_TAG] == _EV_MOVE:
        return "move " + "-".join([A.name(s, n) for s in action[_MOVE_PATH]])
    return "%s %s" % (action[_TAG], A.name(action[_CHARGE_SQ], n))


def setup_label(pub, choice):
    """'island C3', 'mine B2'."""
    return "%s %s" % (choice[_TAG], A.name(choice[_CHOICE_SQ], pub[_SIZE]))


def describe(pub, author, event):
    """One log line of at most 21 characters, e.g. 'S sound D4: 2,3'."""
    n = pub[_SIZE]
    tag = event[_TAG] if isinstance(event, list) and event else "?"
    me = _SIDE[author] if author in (0, 1) else "?"
    foe = _SIDE[1 - author] if author in (0, 1) else "?"
    try:
        if tag == _SETUP:
            line = me + " ready"
        elif tag == _CONCEDE:
            line = me + " concedes"
        elif tag == _EV_MOVE:
            line = "%s move to %s" % (me, A.name(event[_MOVE_PATH][-1], n))
        elif tag == _EV_SOUND or tag == _EV_DEPTH:
            line = "%s %s %s" % (me, tag, A.name(event[_CHARGE_SQ], n))
        elif tag == _EV_MINE:
            sq = event[_MINE_SQ]
            line = foe + " safe passage" if sq < 0 else "%s hit mine %s" % (foe, A.name(sq, n))
        elif tag == _EV_HIT:
            line = "%s depth %s: %s" % (foe, A.name(event[_HIT_SQ], n),
                                        "hit" if event[_HIT_MINE] else "miss")
        elif tag == _EV_PING:
            where = A.name(event[_PING_SQ], n)
            got = ",".join([str(d) for d in event[_PING_TIMES]]) or "none"
            line = "%s sound %s: %s" % (foe, where, got)
            if len(line) > 21:
                line = "%s %s:%s" % (foe, where, got)
        else:
            line = me + " " + str(tag)
    except (IndexError, TypeError, ValueError):
        line = me + " " + str(tag)
    return line if len(line) <= 21 else line[:20] + "+"
