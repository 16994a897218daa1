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
#
# This module is the deal's one apply and its schema: the events' slots, the queue's items and
# the fields above, named here (private: MicroPython folds them; hooks.py and the host's
# hostmodes/sealedtable.py keep copies, held equal by tests/source/test_record_names.py).
from fathom.compat import const
from fathom.sealed import deal
from fathom.sealed.group import Group, SealedError

_TAG = const(0)                 # every event's first slot (games/base.py)
_KEY_SHARE = const("sk")        # ["sk", key]: a player's public key, player 0's first
_KEY = const(1)
_SHUFFLE_CHUNK = const("ss")    # ["ss", round, first position, [c1, c2, ...]]: a shuffle chunk
_SHUFFLE_ROUND = const(1)
_SHUFFLE_FROM = const(2)
_SHUFFLE_CARDS = const(3)
_CARD_SHARES = const("so")      # ["so", round, [position, ...], [share, ...]]: cards opened
_OPEN_ROUND = const(1)
_OPEN_POSITIONS = const(2)
_OPEN_SHARES = const(3)
_Q_SHUFFLE = const("s")         # the queue's items: ["s", round, [known cards]] a new round,
_Q_OPEN = const("o")            # ["o", round, [position, ...], to] an opening to `to`
_Q_KIND = const(0)
_Q_ROUND = const(1)
_Q_CARDS = const(2)
_Q_POSITIONS = const(2)
_Q_TO = const(3)
_GOT_TO = const(0)              # sd["got"]: [to, round, at] the newest opening
_GOT_ROUND = const(1)
_GOT_AT = const(2)              # the log index of player 1's first chunk of that round
_DONE = const(0)                # sd["w"]: [done, total] work units
_TOTAL = const(1)
_P0 = const(0)                  # sd["kc"], sd["keys"], sd["at"] by player: 0 keys and shuffles
_P1 = const(1)                  # first, 1 second (the other shuffles 0's output)
_HEAD = const(0)                # the queue's item due now
_C1 = const(0)                  # card(): (c1, c2), c1 the part a share is made from
_AUTHOR = const(0)              # the log's entries: (author, event)
_EVENT = const(1)

_grp = None


def group():
    """The games' group, made once (its fixed-base tables are cached in deal.py)."""
    global _grp
    if _grp is None:
        _grp = Group()
    return _grp


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
        sd["w"][_TOTAL] += 2


def shuffle(sd, cards):
    """Queue a new round over the known `cards` (ints < kinds); returns its round number."""
    rnd = sd["rnd"] + 1
    for it in sd["q"]:
        if it[_Q_KIND] == _Q_SHUFFLE:
            rnd = it[_Q_ROUND] + 1
    sd["q"].append([_Q_SHUFFLE, rnd, list(cards)])
    sd["w"][_TOTAL] += 2 * len(cards)
    _advance(sd)
    return rnd


def open_to(sd, to, rnd, positions):
    """Queue: the player other than `to` publishes its shares for `positions` of round rnd."""
    if positions:
        sd["q"].append([_Q_OPEN, rnd, list(positions), to])
        sd["w"][_TOTAL] += len(positions)


def _advance(sd):
    """A shuffle at the head of the queue starts its round (the previous round's is done)."""
    q = sd["q"]
    if q:
        it = q[_HEAD]
        if it[_Q_KIND] == _Q_SHUFFLE and it[_Q_ROUND] != sd["rnd"] and _keyed(sd):
            sd["rnd"], sd["src"], sd["n"] = it[_Q_ROUND], it[_Q_CARDS], len(it[_Q_CARDS])
            sd["m"], sd["k"], sd["at"], sd["dig"], sd["op"] = 0, 0, [-1, -1], b"", 0
    elif _keyed(sd):
        sd["w"] = [0, 0]


def _keyed(sd):
    return sd["keys"][_P1] is not None


def pending(sd):
    """The player who must author the next sealed event, or -1."""
    kc, keys = sd["kc"], sd["keys"]
    if kc[_P1] is None or kc[_P0] is None:
        return -1       # set-ups still coming
    if keys[_P0] is None:
        return _P0
    if keys[_P1] is None:
        return _P1
    q = sd["q"]
    if not q:
        return -1
    it = q[_HEAD]
    if it[_Q_KIND] == _Q_SHUFFLE:
        return _P0 if sd["m"] < sd["n"] else _P1
    return 1 - it[_Q_TO]


def progress(sd):
    """(done, total) of the sealed work under way, or None when there is none."""
    if pending(sd) < 0:
        return None
    w = sd["w"]
    return w[_DONE], w[_TOTAL]


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
    ev = e[_EVENT]
    if e[_AUTHOR] != author or ev[_TAG] != _SHUFFLE_CHUNK or ev[_SHUFFLE_ROUND] != rnd or \
            ev[_SHUFFLE_FROM] != first:
        raise SealedError("log event %d is not player %d's chunk %d of round %d"
                          % (i, author, first, rnd))
    return ev[_SHUFFLE_CARDS]


def card(log, at, author, rnd, pos, grp=None):
    """(c1, c2) of card `pos` of `author`'s shuffle output in round rnd, its first chunk at log
    index `at`."""
    step = deal.chunk_cards(grp or group())
    first = pos - pos % step
    vals = _chunk(log, at + pos // step, author, rnd, first)
    j = 2 * (pos - first)
    return vals[j], vals[j + 1]


class _Chunks:
    """Player 0's shuffled deck as the flat sequence [c1, c2, ...] player 1's Shuffle reads,
    fetched from the log one chunk at a time (the newest kept: a shuffle event's two cards are
    read back to back)."""

    def __init__(self, log, sd, grp=None):
        self.log, self.rnd, self.at, self.n = _need_log(log), sd["rnd"], sd["at"][_P0], sd["n"]
        self.first = -1
        self.vals = None
        self.step = deal.chunk_cards(grp or group())

    def __len__(self):
        return 2 * self.n

    def __getitem__(self, k):
        pos = k >> 1
        first = pos - pos % self.step
        if first != self.first:
            self.vals = _chunk(self.log, self.at + pos // self.step, _P0, self.rnd, first)
            self.first = first
        return self.vals[k - 2 * first]


# ---- authoring (the answer a player's secret gives) ------------------------------------------
def answer(sd, priv, player, log):
    grp = group()
    sec = _need(priv["sd"])
    if pending(sd) != player:
        raise SealedError("no sealed step for this player")
    keys = sd["keys"]
    if keys[player] is None:
        return [_KEY_SHARE, deal.public_key(grp, sec)]
    it = sd["q"][_HEAD]
    rnd = sd["rnd"]
    if it[_Q_KIND] == _Q_OPEN:
        pos = it[_Q_POSITIONS]
        at = sd["at"][_P1]
        return [_CARD_SHARES, rnd, list(pos),
                [deal.share(grp, sec, card(log, at, _P1, rnd, p)[_C1]) for p in pos]]
    step = deal.chunk_cards(grp)
    joint = deal.joint_key(grp, keys[_P0], keys[_P1])
    if player == _P0:
        first, src = sd["m"], sd["src"]
    else:
        first, src = sd["k"], _Chunks(log, sd)
    s = deal.Shuffle(grp, joint, sec, rnd, src, sd["n"])
    return [_SHUFFLE_CHUNK, rnd, first, s.chunk(first, step)]


# ---- the public checks (every unit, no exponentiation) ----------------------------------------
def _tail(c1):
    return c1[-8:]   # the low bytes: uniform, where the top byte of an element is not


def apply(sd, author, ev, grp=None):
    """The deal's one apply: every unit's engine runs it (hooks.deal_step), and so does the
    host's table (hostmodes/sealedtable.py). Checks an event completely, with no
    exponentiation, before it changes sd; SealedError otherwise."""
    grp = grp or group()
    if pending(sd) != author:
        raise SealedError("no sealed step of player %d now" % author)
    tag = ev[_TAG]
    w = sd["w"]
    if tag == _KEY_SHARE:
        if len(ev) != 2 or sd["keys"][author] is not None:
            raise SealedError("key out of order")
        sd["keys"][author] = deal.check_key(grp, ev[_KEY], sd["kc"][author])
        if author == _P1:
            deal.release()   # the key's table: player 1's unit waits out player 0's shuffle
        sd["got"] = None
        w[_DONE] += 1
        _advance(sd)
        return
    it = sd["q"][_HEAD] if sd["q"] else None
    if it is None or len(ev) != 4:
        raise SealedError("malformed sealed event")
    if tag == _SHUFFLE_CHUNK:
        if it[_Q_KIND] != _Q_SHUFFLE or ev[_SHUFFLE_ROUND] != sd["rnd"]:
            raise SealedError("no shuffle of that round now")
        n = sd["n"]
        have = sd["m"] if author == _P0 else sd["k"]
        vals = deal.read_chunk(grp, ev[_SHUFFLE_CARDS], ev[_SHUFFLE_FROM], n, have)
        c = len(vals) // 2
        if c != min(deal.chunk_cards(grp), n - have):
            raise SealedError("a shuffle chunk of %d cards" % c)   # card() counts on the size
        if author == _P1:   # checked before anything changes
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
        if author == _P0:
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
        w[_DONE] += c
    elif tag == _CARD_SHARES:
        pos, shares = it[_Q_POSITIONS], ev[_OPEN_SHARES]
        if it[_Q_KIND] != _Q_OPEN or ev[_OPEN_ROUND] != it[_Q_ROUND] or \
                ev[_OPEN_ROUND] != sd["rnd"] or ev[_OPEN_POSITIONS] != pos or \
                not isinstance(shares, list) or len(shares) != len(pos):
            raise SealedError("not the shares asked for now")
        op = sd["op"]
        for p, s in zip(pos, shares):
            if type(p) is not int or not 0 <= p < sd["n"] or (op >> p) & 1:
                raise SealedError("card %r cannot be opened" % (p,))
            deal.read_share(grp, s)
            op |= 1 << p
        sd["op"] = op
        sd["got"] = [it[_Q_TO], it[_Q_ROUND], sd["at"][_P1]]
        sd["q"].pop(0)
        w[_DONE] += len(pos)
    else:
        raise SealedError("unknown sealed event %r" % (tag,))
    _advance(sd)


# ---- the private side ----------------------------------------------------------------------
def private(sd, priv, player, ev, log):
    """After apply: the receiver of an opening gets its cards (a list of card ids, -1 for a
    card that opens to nothing: the other unit cheated). None when this event gives this
    player nothing."""
    got = sd["got"]
    if ev[_TAG] != _CARD_SHARES or got is None or got[_GOT_TO] != player:
        return None
    grp = group()
    sec = _need(priv["sd"])
    out = []
    rnd, at = got[_GOT_ROUND], got[_GOT_AT]
    for p, theirs in zip(ev[_OPEN_POSITIONS], ev[_OPEN_SHARES]):
        c1, c2 = card(log, at, _P1, rnd, p)
        out.append(deal.open_card(grp, sec, c1, c2, theirs, sd["kinds"]))
    return out
