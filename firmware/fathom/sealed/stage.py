# The sealed deal as a stage of a game (docs/SEALED_DEAL.md, "How an engine uses it"). The public
# part is pub["sd"], plain values (hashed, journalled and sent like any state); the private part
# is priv["sd"], the 32-byte secret from the seat's salt.
#
# The engine queues work (shuffle(), open_to()); pending() says who must author the next sealed
# event, always as an *answer* (no key press; the seat's audit recomputes it from the revealed
# salt and names a wrong one at its event); answer() computes it; apply() checks it publicly
# with no exponentiation (SealedError); private() opens the receiver's cards.
#
# No unit holds the sealed deck: its values are in the shuffle events, which every seat has in
# its log already (journalled, on flash on a unit). pub["sd"] says where each round's chunks are
# in the log, and answer() and private() read the few cards they need back from it through the
# engine's `log` (Engine.bind: a sequence of (author, event), Seat.log on a unit, a list in
# tests). A 55-card deck is 12 KB of heap on a 32-bit build; this is 0.5 KB at most.
#
# pub["sd"]:
#   kc    [commit0, commit1]   each set-up's key commitment
#   keys  [Y0, Y1]             public keys, None until sent (player 0 first)
#   kinds                      card identities 0..kinds-1 (what an opening may give)
#   q     the work queue: ["s", rnd, [known cards]] a shuffle of a new round, then
#         ["o", rnd, [pos, ...], to] the other player opens those positions to `to`
#   i                          the log index of the next event: the engine counts every event
#                              it applies (count()), so a chunk's place in the log is known
#   rnd, n, src                the active round: its number, cards, known cards (player 0's
#                              input)
#   m, k                       cards player 0, player 1 has shuffled in it
#   at    [i0, i1]             log index of player 0's, player 1's first chunk of the round:
#                              chunks are consecutive events of chunk_cards() cards each
#   dig                        the last 8 bytes of each card's c1 player 1 has sent in the
#                              round, while it shuffles (a repeated card is refused live)
#   op                         the round's opened positions, a bit mask
#   got   [to, rnd, i1]        the newest opening (receiver, round, where its chunks are), for
#                              private(); None after any other sealed event
#   w     [done, total]        work units for a progress bar (a key, a shuffled card, an
#                              opened card: 1 each), reset when the queue empties
from fathom.sealed import deal
from fathom.sealed.group import Group, SealedError

_grp = []


def group():
    if not _grp:
        _grp.append(Group())
    return _grp[0]


def new(kinds):
    return {"kc": [None, None], "keys": [None, None], "kinds": kinds, "q": [], "i": 0,
            "rnd": -1, "n": 0, "m": 0, "k": 0, "at": [-1, -1], "src": [], "dig": b"", "op": 0,
            "got": None, "w": [0, 0]}


def count(sd):
    """The engine applied one more event (any event, set-ups included)."""
    sd["i"] += 1


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
    """A shuffle at the head of the queue starts its round (the previous round's is done)."""
    q = sd["q"]
    if q and q[0][0] == "s" and q[0][1] != sd["rnd"] and _keyed(sd):
        sd["rnd"], sd["src"], sd["n"] = q[0][1], q[0][2], len(q[0][2])
        sd["m"], sd["k"], sd["at"], sd["dig"], sd["op"] = 0, 0, [-1, -1], b"", 0
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


# ---- the deck, read back from the log ------------------------------------------------------
def _need_log(log):
    if log is None:
        raise SealedError("no log to read the sealed deck from: the seat must bind the engine "
                          "to its log (Engine.bind)")
    return log


def _chunk(log, i, author, rnd, first):
    """The values of the shuffle event at log index i, which must be `author`'s chunk of round
    rnd starting at card `first` (anything else is a broken log or a broken index: loud)."""
    e = _need_log(log)[i]
    ev = e[1]
    if e[0] != author or ev[0] != "ss" or ev[1] != rnd or ev[2] != first:
        raise SealedError("log event %d is not player %d's chunk %d of round %d"
                          % (i, author, first, rnd))
    return ev[3]


def card(log, at, author, rnd, pos):
    """(c1, c2) of card `pos` of `author`'s shuffle output in round rnd, its first chunk at log
    index `at`."""
    step = deal.chunk_cards(group())
    first = pos - pos % step
    vals = _chunk(log, at + pos // step, author, rnd, first)
    j = 2 * (pos - first)
    return vals[j], vals[j + 1]


class _Chunks:
    """Player 0's shuffled deck as the flat sequence [c1, c2, ...] player 1's Shuffle reads,
    fetched from the log one chunk at a time (the newest kept: a shuffle event's two cards are
    read back to back)."""

    def __init__(self, log, sd):
        self.log, self.rnd, self.at, self.n = _need_log(log), sd["rnd"], sd["at"][0], sd["n"]
        self.first = -1
        self.vals = None
        self.step = deal.chunk_cards(group())

    def __len__(self):
        return 2 * self.n

    def __getitem__(self, k):
        pos = k >> 1
        first = pos - pos % self.step
        if first != self.first:
            self.vals = _chunk(self.log, self.at + pos // self.step, 0, self.rnd, first)
            self.first = first
        return self.vals[k - 2 * first]


# ---- authoring (the answer a player's secret gives) ------------------------------------------
def answer(sd, priv, player, log):
    grp = group()
    sec = _need(priv["sd"])
    if pending(sd) != player:
        raise SealedError("no sealed step for this player")
    if sd["keys"][player] is None:
        return ["sk", deal.public_key(grp, sec)]
    it = sd["q"][0]
    rnd = sd["rnd"]
    if it[0] == "o":
        pos = it[2]
        return ["so", rnd, list(pos),
                [deal.share(grp, sec, card(log, sd["at"][1], 1, rnd, p)[0]) for p in pos]]
    step = deal.chunk_cards(grp)
    joint = deal.joint_key(grp, sd["keys"][0], sd["keys"][1])
    if player == 0:
        first, src = sd["m"], sd["src"]
    else:
        first, src = sd["k"], _Chunks(log, sd)
    s = deal.Shuffle(grp, joint, sec, rnd, src, sd["n"])
    return ["ss", rnd, first, s.chunk(first, step)]


# ---- the public checks (every unit, no exponentiation) ----------------------------------------
def _tail(c1):
    return c1[-8:]   # the low bytes: uniform, where the top byte of an element is not


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
        have = sd["m"] if author == 0 else sd["k"]
        vals = deal.read_chunk(grp, ev[3], ev[2], n, have)
        c = len(vals) // 2
        if c != min(deal.chunk_cards(grp), n - have):
            raise SealedError("a shuffle chunk of %d cards" % c)   # card() counts on the size
        if author == 1:   # checked before anything changes
            dig = sd["dig"]
            for j in range(0, len(vals), 2):
                t = _tail(vals[j])
                o = dig.find(t)
                while o >= 0 and o % 8:
                    o = dig.find(t, o + 1)
                if o >= 0:
                    raise SealedError("a card appears twice in the shuffled deck")
                dig += t
        if have == 0:
            sd["at"][author] = sd["i"]
        if author == 0:
            sd["m"] += c
            if sd["m"] == n:
                deal.release()   # player 0's tables: its unit only waits now
        else:
            sd["k"] += c
            sd["dig"] = dig
            if sd["k"] == n:
                sd["dig"] = b""
                sd["q"].pop(0)
                deal.release()     # the comb tables: only while a shuffle runs
        sd["got"] = None
        sd["w"][0] += c
    elif tag == "so":
        if it[0] != "o" or ev[1] != it[1] or ev[1] != sd["rnd"] or ev[2] != it[2] or \
                not isinstance(ev[3], list) or len(ev[3]) != len(it[2]):
            raise SealedError("not the shares asked for now")
        op = sd["op"]
        for p, s in zip(it[2], ev[3]):
            if type(p) is not int or not 0 <= p < sd["n"] or (op >> p) & 1:
                raise SealedError("card %r cannot be opened" % (p,))
            deal.read_share(grp, s)
            op |= 1 << p
        sd["op"] = op
        sd["got"] = [it[3], it[1], sd["at"][1]]
        sd["q"].pop(0)
        sd["w"][0] += len(it[2])
    else:
        raise SealedError("unknown sealed event %r" % (tag,))
    _advance(sd)


# ---- the private side ----------------------------------------------------------------------
def private(sd, priv, player, ev, log):
    """After apply: the receiver of an opening gets its cards (a list of card ids, -1 for a
    card that opens to nothing: the other unit cheated). None when this event gives this
    player nothing."""
    got = sd["got"]
    if ev[0] != "so" or got is None or got[0] != player:
        return None
    grp = group()
    sec = _need(priv["sd"])
    out = []
    for p, theirs in zip(ev[2], ev[3]):
        c1, c2 = card(log, got[2], 1, got[1], p)
        out.append(deal.open_card(grp, sec, c1, c2, theirs, sd["kinds"]))
    return out
