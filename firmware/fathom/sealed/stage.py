# The sealed deal as a stage of a game (docs/SEALED_DEAL.md, "How an engine uses it"). The public
# part is pub["sd"], plain values (hashed, journalled and sent like any state); the private part
# is priv["sd"] (the 32-byte secret, from the seat's salt) and priv["mid"] (player 1's copy of
# player 0's shuffled deck while player 1 shuffles it, consumed card by card).
#
# The engine queues work (shuffle(), open_to()); pending() says who must author the next sealed
# event, always as an *answer* (no key press; the seat's audit recomputes it from the revealed
# salt and names a wrong one at its event); answer() computes it; apply() checks it publicly
# with no exponentiation (SealedError); private() opens the receiver's cards.
#
# pub["sd"]:
#   kc    [commit0, commit1]   each set-up's key commitment
#   keys  [Y0, Y1]             public keys, None until sent (player 0 first)
#   kinds                      card identities 0..kinds-1 (what an opening may give)
#   q     the work queue: ["s", rnd, [known cards]] a shuffle of a new round, then
#         ["o", rnd, [pos, ...], to] the other player opens those positions to `to`
#   rnd, n, m, deck            the active round: its number, cards, how many player 0 has
#                              shuffled, player 1's output (flat [c1, c2, ...]; an opened
#                              card's pair becomes None: only the open() stash needs it)
#   src                        the active round's known cards (player 0's input)
#   got   [to, [card values c1, c2, their share, ...]] the newest opening, for private()
#   w     [done, total]        work units for a progress bar (a key, a shuffled card, an
#                              opened card: 1 each), reset when the queue empties
#
# Player 0's shuffled deck is not kept in pub: only player 1 needs it (in its priv); the other
# unit checks each chunk's form and order as it passes. So a unit holds one deck, not two.
from fathom.sealed import deal
from fathom.sealed.group import Group, SealedError

TAGS = ("sk", "ss", "so")
_grp = []


def group():
    if not _grp:
        _grp.append(Group())
    return _grp[0]


def new(kinds):
    return {"kc": [None, None], "keys": [None, None], "kinds": kinds, "q": [], "rnd": -1,
            "n": 0, "m": 0, "deck": [], "src": [], "got": None, "w": [0, 0]}


def secret(salt):
    return deal.secret_from_salt(salt)


def key_commit(sec):
    return deal.key_commit(group(), _need(sec))


def set_commit(sd, player, kc):
    if not isinstance(kc, bytes) or len(kc) != 32 or sd["kc"][player] is not None:
        raise SealedError("set-up lacks its key commitment")
    sd["kc"][player] = kc
    if sd["kc"][1 - player] is not None:
        sd["w"][1] += 2


def shuffle(sd, cards):
    """Queue a new round over the known `cards` (ints < kinds); returns its round number."""
    rnd = sd["rnd"] + 1
    for it in sd["q"]:
        if it[0] == "s":
            rnd = it[1] + 1
    sd["q"].append(["s", rnd, list(cards)])
    sd["w"][1] += 2 * len(cards)
    _advance(sd)
    return rnd


def open_to(sd, to, rnd, positions):
    """Queue: the player other than `to` publishes its shares for `positions` of round rnd."""
    if positions:
        sd["q"].append(["o", rnd, list(positions), to])
        sd["w"][1] += len(positions)


def _advance(sd):
    """A shuffle at the head of the queue starts its round (the previous round's deck goes)."""
    q = sd["q"]
    if q and q[0][0] == "s" and q[0][1] != sd["rnd"] and _keyed(sd):
        sd["rnd"], sd["src"], sd["n"] = q[0][1], q[0][2], len(q[0][2])
        sd["m"], sd["deck"] = 0, []
    if not q and _keyed(sd):
        sd["w"] = [0, 0]


def _keyed(sd):
    return sd["keys"][1] is not None


def pending(sd):
    """The player who must author the next sealed event, or -1."""
    if sd["kc"][1] is None or sd["kc"][0] is None:
        return -1       # set-ups still coming
    if sd["keys"][0] is None:
        return 0
    if sd["keys"][1] is None:
        return 1
    q = sd["q"]
    if not q:
        return -1
    it = q[0]
    if it[0] == "s":
        return 0 if sd["m"] < sd["n"] else 1
    return 1 - it[3]


def progress(sd):
    """(done, total) of the sealed work under way, or None when there is none."""
    if pending(sd) < 0:
        return None
    return sd["w"][0], sd["w"][1]


def _need(sec):
    if not isinstance(sec, bytes) or len(sec) != 32:
        raise SealedError("no sealed-deal secret: the seat must seal the engine with its salt")
    return sec


# ---- authoring (the answer a player's secret gives) ------------------------------------------
def answer(sd, priv, player):
    grp = group()
    sec = _need(priv["sd"])
    if pending(sd) != player:
        raise SealedError("no sealed step for this player")
    if sd["keys"][player] is None:
        return ["sk", deal.public_key(grp, sec)]
    it = sd["q"][0]
    if it[0] == "o":
        rnd, pos = it[1], it[2]
        deck = sd["deck"]
        return ["so", rnd, list(pos), [deal.share(grp, sec, deck[2 * p]) for p in pos]]
    step = deal.chunk_cards(grp)
    n = sd["n"]
    joint = deal.joint_key(grp, sd["keys"][0], sd["keys"][1])
    if player == 0:
        first = sd["m"]
        s = deal.Shuffle(grp, joint, sec, sd["rnd"], sd["src"], n)
        return ["ss", sd["rnd"], first, s.chunk(first, step)]
    first = len(sd["deck"]) // 2
    mid = priv["mid"]
    s = deal.Shuffle(grp, joint, sec, sd["rnd"], mid, n)
    out = s.chunk(first, step)
    for i in range(first, min(first + step, n)):   # consumed: one deck on this unit, not two
        j = s.perm[i]
        mid[2 * j] = mid[2 * j + 1] = None
    return ["ss", sd["rnd"], first, out]


# ---- the public checks (every unit, no exponentiation) ----------------------------------------
def apply(sd, author, ev):
    grp = group()
    if pending(sd) != author:
        raise SealedError("no sealed step of player %d now" % author)
    tag = ev[0]
    if tag == "sk":
        if len(ev) != 2 or sd["keys"][author] is not None:
            raise SealedError("key out of order")
        sd["keys"][author] = deal.check_key(grp, ev[1], sd["kc"][author])
        if author == 1:
            deal.release()   # the key's table: player 1's unit waits out player 0's shuffle
        sd["got"] = None
        sd["w"][0] += 1
        _advance(sd)
        return
    it = sd["q"][0] if sd["q"] else None
    if it is None or len(ev) != 4:
        raise SealedError("malformed sealed event")
    if tag == "ss":
        if it[0] != "s" or ev[1] != sd["rnd"]:
            raise SealedError("no shuffle of that round now")
        n = sd["n"]
        if author == 0:
            vals = deal.read_chunk(grp, ev[3], ev[2], n, sd["m"])
            sd["m"] += len(vals) // 2
            if sd["m"] == n:
                deal.release()   # player 0's tables: its unit only waits now
        else:
            deck = sd["deck"]
            vals = deal.read_chunk(grp, ev[3], ev[2], n, len(deck) // 2)
            done = len(deck) + len(vals) == 2 * n
            if done and not deal.distinct(deck + vals):   # checked before anything changes
                raise SealedError("a card appears twice in the shuffled deck")
            deck.extend(vals)
            if done:
                sd["q"].pop(0)
                deal.release()     # the comb tables: only while a shuffle runs
        sd["got"] = None
        sd["w"][0] += len(vals) // 2
    elif tag == "so":
        if it[0] != "o" or ev[1] != it[1] or ev[1] != sd["rnd"] or ev[2] != it[2] or \
                not isinstance(ev[3], list) or len(ev[3]) != len(it[2]):
            raise SealedError("not the shares asked for now")
        deck = sd["deck"]
        got = []
        for p, s in zip(it[2], ev[3]):
            if type(p) is not int or not 0 <= p < sd["n"] or deck[2 * p] is None:
                raise SealedError("card %r cannot be opened" % (p,))
            got.extend((deck[2 * p], deck[2 * p + 1], deal.read_share(grp, s)))
        for p in it[2]:
            deck[2 * p] = deck[2 * p + 1] = None
        sd["got"] = [it[3], got]
        sd["q"].pop(0)
        sd["w"][0] += len(it[2])
    else:
        raise SealedError("unknown sealed event %r" % (tag,))
    _advance(sd)


# ---- the private side ----------------------------------------------------------------------
def private(sd, priv, player, author, ev):
    """After apply: player 1 keeps player 0's shuffle chunks; the receiver of an opening gets
    its cards (a list of card ids, -1 for a card that opens to nothing: the other unit
    cheated). None when this event gives this player nothing."""
    tag = ev[0]
    if tag == "ss" and player == 1:
        if author == 0:
            if ev[2] == 0:
                priv["mid"] = []
            priv["mid"].extend(ev[3])
        elif sd["rnd"] != ev[1] or not sd["q"] or sd["q"][0][0] != "s":
            priv["mid"] = []   # its shuffle is done: every card consumed
        return None
    if tag != "so" or sd["got"] is None or sd["got"][0] != player:
        return None
    grp = group()
    sec = _need(priv["sd"])
    g = sd["got"][1]
    out = []
    for i in range(0, len(g), 3):
        out.append(deal.open_card(grp, sec, g[i], g[i + 1], g[i + 2], sd["kinds"]))
    return out
