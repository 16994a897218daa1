# Periplus rules engine: two Greek fleets on an 8x8 board, a shared 55-card deck.
# Rules and every interpretation: docs/rules/periplus.md.
#
# Secrets: only hands. Public state holds hand sizes, the deck size and the discard pile, never a
# card identity before it is played. The deck order comes from the joint seed, so every unit can
# derive it; each unit keeps it in priv to deal itself its own draws (a draw is no event of its
# own: the event that ends a turn draws for the next player), and the end-of-game audit checks
# every card a player claimed to hold.
#
# With the option sealed=1, the default (docs/SEALED_DEAL.md), the deck is sealed instead: both
# players shuffle it encrypted under both their keys, no unit can compute its order, and each
# draw of 3 is opened to the drawer by the other player's shares (answers, right after the
# event that ends a turn). The sealed cards stay in the shuffle events of the log (pub["sd"]
# says where), read back through the seat's log (Engine.bind). A reshuffle is a new sealed
# round over the public discard pile. priv then holds the deal secret (from the seat's
# salt), not the deck.
from fathom.games import periplus as D
from fathom.games.base import Engine, IllegalAction
from fathom.sealed.hooks import FOUL, SealedHooks
from fathom.prng import Prng
from fathom.games.periplus import cards as C
from fathom.games.periplus import board as B
from fathom.games.periplus.fleet import (FLEET, HITS, NSHIPS, QUINQ, SQ, LEFT, TYPE, SHEARED,
                                         ahead_dest, can_attack, can_move, grid, move_dests)
from fathom.games.periplus.say import say

DRAW = 3
HAND_LIMIT = 5
QUIET_TURNS = 30         # this many turns in a row without harm: the game is a draw

_PHASE_TAGS = {
    "discard": ("discard",),
    "move": ("move", "ahead", "pass"),
    "ahead": ("also", "halt"),
    "fire": ("fire", "pass"),
    "defend": ("take", "defend"),
}


def _distinct(hand):
    out = []
    for k in hand:
        if k not in out:
            out.append(k)
    return out


def _num(v, lo, hi, what):
    if type(v) is not int or not lo <= v < hi:
        raise IllegalAction("bad " + what)
    return v


def _shape(event, n):
    if len(event) != n:
        raise IllegalAction("%s takes %d fields" % (event[0], n - 1))


class PeriplusEngine(SealedHooks, Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS

    # ---- setup -----------------------------------------------------------------------------
    def new_game(self, opts, nplayers, rng):
        if nplayers != 2:
            raise IllegalAction("Periplus is for 2 players")
        # read before the defaults fill in: a save from before the option (opts without
        # "sealed") is a seeded game and stays one, though a new game's default is sealed
        sealed = (opts or {}).get("sealed")
        opts = self.options(opts)
        first = rng.below(2)
        isl = []
        while len(isl) < opts["islands"]:
            sq = 16 + rng.below(16)          # rows 3-4, mirrored into rows 5-6: no side favoured
            if sq not in isl:
                isl.append(sq)
                isl.append(63 - sq)
        isl.sort()
        pub = {
            "isl": isl, "ships": [[0, -1, 0, 0] for _ in range(2 * NSHIPS)],
            "ready": [False, False], "turn": first, "phase": "setup", "n": 0,
            "hand": [DRAW if p == first else 0 for p in range(2)], "deck": C.DECK_SIZE - DRAW,
            "discard": [], "shuf": 0, "pile": None,
            "moved": [], "fleet": 0, "pending": None, "quiet": 0, "harm": False, "end": None,
        }
        if sealed:
            from fathom.sealed import stage
            sd = pub["sd"] = stage.new(C.NKINDS)
            stage.open_to(sd, first, stage.shuffle(sd, C.full_deck()), list(range(DRAW)))
        return pub

    def new_private(self, pub, player, rng):
        """The deck order from the joint seed, with the first player's first draw dealt."""
        if "sd" in pub:  # sealed: cards arrive by the deal's openings (apply_private)
            return {"sd": None, "hand": [], "row": [], "n": 0}
        deck = rng.shuffle(C.full_deck())
        hand = sorted(deck[:DRAW]) if player == pub["turn"] else []
        return {"deck": deck[DRAW:], "key": rng.token(16), "hand": hand, "row": [], "n": 0}

    def setup_legal(self, pub, priv, player):
        row = priv["row"]
        if len(row) >= NSHIPS:
            return []
        return [t for t in range(4) if row.count(t) < FLEET[t]]

    def setup_apply(self, pub, priv, player, choice):
        if choice not in self.setup_legal(pub, priv, player):
            raise IllegalAction("no such ship left to place")
        priv["row"].append(choice)

    def setup_public(self, pub, priv, player):
        if "sd" in pub:
            from fathom.sealed import stage
            return [list(priv["row"]), stage.key_commit(priv["sd"])]
        return list(priv["row"])

    # ---- play ------------------------------------------------------------------------------
    def turn(self, pub):
        if pub.get("conceded") is not None or pub["end"] is not None:
            return None
        ph = pub["phase"]
        if ph == "setup":
            return None
        if "sd" in pub:
            from fathom.sealed import stage
            a = stage.pending(pub["sd"])
            if a >= 0:
                return (a, "answer")
        if ph == "defend":
            return (1 - pub["turn"], "act")
        return (pub["turn"], "act")

    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t[0] != player or t[1] != "act":
            return []
        if priv.get(FOUL):
            return [[FOUL]]
        ph = pub["phase"]
        hand = _distinct(priv["hand"])
        if ph == "discard":
            return [["discard", k] for k in hand]
        if ph == "defend":
            out = [["take"]]
            d = C.defense_for(pub["pending"][0])
            if d in hand:
                out.append(["defend", d])
            return out
        g = grid(pub)
        base = player * NSHIPS
        if ph == "ahead":
            out = [["halt"]]
            for s in range(base, base + NSHIPS):
                if (s not in pub["moved"] and can_move(pub, player, s)
                        and ahead_dest(pub, g, s, pub["fleet"]) >= 0):
                    out.append(["also", s])
            return out
        out = [["pass"]]
        if ph == "move":
            for k in hand:
                if C.ctype(k) != C.MOVE:
                    continue
                for s in range(base, base + NSHIPS):
                    if not can_move(pub, player, s):
                        continue
                    for d in move_dests(pub, g, s, k):
                        out.append(["move", k, s, d])
                    if C.rng(k) != C.KNIGHT and ahead_dest(pub, g, s, C.rng(k)) >= 0:
                        out.append(["ahead", k, s])
        elif ph == "fire":
            foe = (1 - player) * NSHIPS
            for k in hand:
                if not C.is_attack(k):
                    continue
                for s in range(base, base + NSHIPS):
                    for t in range(foe, foe + NSHIPS):
                        if can_attack(pub, g, player, s, k, t):
                            out.append(["fire", k, s, t])
        return out

    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("not a legal action: %r" % (action,))
        return list(action)

    def answer(self, pub, priv, player):
        if priv.get(FOUL):
            return [FOUL]
        ev = self.sealed_answer(pub, priv, player)
        if ev is None:
            raise IllegalAction("Periplus asks no queries")
        return ev

    def default_action(self, pub, priv, player):
        """What the runner sends for a defender who does not answer in time: take the hit."""
        if self.turn(pub) == (player, "act") and pub["phase"] == "defend":
            return ["take"]
        return None

    # ---- events ----------------------------------------------------------------------------
    def _apply(self, pub, author, event):   # SealedHooks.apply counts it
        if not isinstance(event, list) or not event or not isinstance(event[0], str):
            raise IllegalAction("malformed event")
        if type(author) is not int or not 0 <= author < 2:
            raise IllegalAction("bad author")
        tag = event[0]
        if tag == "setup":
            return self._setup(pub, author, event)
        t = self.turn(pub)
        if t is None:
            raise IllegalAction("no play now (set-up missing or game over)")
        if t[0] != author:
            raise IllegalAction("out of turn")
        if "sd" in pub:
            from fathom.sealed import stage
            if tag == FOUL:
                _shape(event, 1)
                pub["end"] = [author, "foul: P%d's card share opened no card" % (2 - author)]
                pub["phase"] = "over"
                return
            if tag in stage.TAGS:
                return self._sealed(stage.apply, pub["sd"], author, event)
            if stage.pending(pub["sd"]) >= 0:
                raise IllegalAction("%s during the sealed deal" % tag)
        if tag not in _PHASE_TAGS[pub["phase"]]:
            raise IllegalAction("%s not allowed in the %s phase" % (tag, pub["phase"]))
        getattr(self, "_ev_" + tag)(pub, author, event)

    def _sealed(self, fn, sd, author, x):
        from fathom.sealed.group import SealedError
        try:
            fn(sd, author, x)
        except SealedError as e:
            raise IllegalAction("sealed deal: %s" % e)
        except (TypeError, IndexError, KeyError, AttributeError):
            raise IllegalAction("malformed sealed-deal event")

    def _setup(self, pub, author, event):
        _shape(event, 3)
        row = event[1]
        if pub["phase"] != "setup" or pub["ready"][author]:
            raise IllegalAction("set-up already done")
        kc = None
        if "sd" in pub:   # [row, key commitment]
            if not isinstance(row, list) or len(row) != 2:
                raise IllegalAction("set-up must carry the row and the key commitment")
            row, kc = row
        if not isinstance(row, list) or len(row) != NSHIPS:
            raise IllegalAction("set-up row must list 8 ships")
        for t in row:
            _num(t, 0, 4, "ship type")
        for t in range(4):
            if row.count(t) != FLEET[t]:
                raise IllegalAction("fleet must be 2 Bi, 3 Tr, 2 Qd, 1 Qq")
        if kc is not None:
            from fathom.sealed import stage
            self._sealed(stage.set_commit, pub["sd"], author, kc)
        r0 = B.back_row(author) * B.SIZE
        for c in range(NSHIPS):
            pub["ships"][author * NSHIPS + c] = [row[c], r0 + c, HITS[row[c]], 0]
        pub["ready"][author] = True
        if pub["ready"][0] and pub["ready"][1]:
            pub["phase"] = "move"          # the first player's first draw was dealt at the start

    def _pay(self, pub, player, k):
        if pub["hand"][player] < 1:
            raise IllegalAction("no card in hand")
        pub["hand"][player] -= 1
        pub["discard"].append(k)

    def _draw(self, pub, p):
        took = min(DRAW, pub["deck"])
        if "sd" in pub:   # open the drawn positions to the drawer (and a reshuffle's first)
            from fathom.sealed import stage
            sd = pub["sd"]
            top = sd["n"] - pub["deck"]
            stage.open_to(sd, p, sd["rnd"], list(range(top, top + took)))
            if took < DRAW and pub["discard"]:
                more = min(DRAW - took, len(pub["discard"]))
                stage.open_to(sd, p, stage.shuffle(sd, sorted(pub["discard"])),
                              list(range(more)))
        pub["deck"] -= took
        pile = None
        if took < DRAW and pub["discard"]:
            pile = sorted(pub["discard"])
            pub["discard"] = []
            pub["shuf"] += 1
            more = min(DRAW - took, len(pile))
            pub["deck"] = len(pile) - more
            took += more
        pub["pile"] = pile
        pub["hand"][p] += took
        pub["phase"] = "discard" if pub["hand"][p] > HAND_LIMIT else "move"

    def _ev_discard(self, pub, p, event):
        _shape(event, 2)
        k = _num(event[1], 0, C.NKINDS, "card")
        self._pay(pub, p, k)
        if pub["hand"][p] <= HAND_LIMIT:
            pub["phase"] = "move"

    def _mover(self, pub, p, sid):
        _num(sid, 0, 2 * NSHIPS, "ship")
        if not can_move(pub, p, sid):
            raise IllegalAction("that ship cannot move")
        return sid

    def _move_card(self, event):
        k = _num(event[1], 0, C.NKINDS, "card")
        if C.ctype(k) != C.MOVE:
            raise IllegalAction("not a Move card")
        return k

    def _ev_move(self, pub, p, event):
        _shape(event, 4)
        k = self._move_card(event)
        s = self._mover(pub, p, event[2])
        d = _num(event[3], 0, 64, "square")
        if d not in move_dests(pub, grid(pub), s, k):
            raise IllegalAction("move not allowed by that card")
        self._pay(pub, p, k)
        pub["ships"][s][SQ] = d
        pub["moved"] = [s]
        pub["phase"] = "fire"

    def _ev_ahead(self, pub, p, event):
        _shape(event, 3)
        k = self._move_card(event)
        if C.rng(k) == C.KNIGHT:
            raise IllegalAction("knight cards cannot move ships ahead")
        s = self._mover(pub, p, event[2])
        d = ahead_dest(pub, grid(pub), s, C.rng(k))
        if d < 0:
            raise IllegalAction("way ahead blocked")
        self._pay(pub, p, k)
        pub["fleet"] = C.rng(k)
        pub["moved"] = []
        self._go_ahead(pub, p, s, d)

    def _ev_also(self, pub, p, event):
        _shape(event, 2)
        s = self._mover(pub, p, event[1])
        if s in pub["moved"]:
            raise IllegalAction("that ship has moved")
        d = ahead_dest(pub, grid(pub), s, pub["fleet"])
        if d < 0:
            raise IllegalAction("way ahead blocked")
        self._go_ahead(pub, p, s, d)

    def _go_ahead(self, pub, p, s, d):
        pub["ships"][s][SQ] = d
        pub["moved"].append(s)
        pub["phase"] = "ahead"
        g = grid(pub)
        for o in range(p * NSHIPS, (p + 1) * NSHIPS):
            if (o not in pub["moved"] and can_move(pub, p, o)
                    and ahead_dest(pub, g, o, pub["fleet"]) >= 0):
                return
        self._ev_halt(pub, p, ["halt"])   # nobody else can follow: the fleet move is over

    def _ev_halt(self, pub, p, event):
        _shape(event, 1)
        pub["fleet"] = 0
        pub["phase"] = "fire"

    def _ev_pass(self, pub, p, event):
        _shape(event, 1)
        if pub["phase"] == "move":
            pub["phase"] = "fire"
        else:
            self._end_turn(pub)

    def _ev_fire(self, pub, p, event):
        _shape(event, 4)
        k = _num(event[1], 0, C.NKINDS, "card")
        if not C.is_attack(k):
            raise IllegalAction("not an attack card")
        s = _num(event[2], 0, 2 * NSHIPS, "ship")
        t = _num(event[3], 0, 2 * NSHIPS, "target")
        if not can_attack(pub, grid(pub), p, s, k, t):
            raise IllegalAction("attack not possible")
        self._pay(pub, p, k)
        pub["pending"] = [k, s, t]
        pub["phase"] = "defend"

    def _ev_take(self, pub, p, event):
        _shape(event, 1)
        k, _s, t = pub["pending"]
        ship = pub["ships"][t]
        pub["pending"] = None
        if k == C.SHEAR_OARS:
            if not ship[SHEARED]:
                ship[SHEARED] = 1
                pub["harm"] = True
        else:
            ship[LEFT] = max(0, ship[LEFT] - C.damage(k))
            pub["harm"] = True
            if ship[LEFT] == 0:
                ship[SQ] = -1
                if ship[TYPE] == QUINQ:
                    pub["end"] = [pub["turn"], "Quinquereme sunk"]
                    pub["phase"] = "over"
                    return
        self._end_turn(pub)

    def _ev_defend(self, pub, p, event):
        _shape(event, 2)
        d = _num(event[1], 0, C.NKINDS, "card")
        if d != C.defense_for(pub["pending"][0]):
            raise IllegalAction("that card does not negate this attack")
        self._pay(pub, p, d)
        pub["pending"] = None
        self._end_turn(pub)

    def _end_turn(self, pub):
        pub["quiet"] = 0 if pub["harm"] else pub["quiet"] + 1
        pub["harm"] = False
        pub["moved"] = []
        pub["fleet"] = 0
        if pub["quiet"] >= QUIET_TURNS:
            pub["end"] = [-1, "no harm in %d turns" % QUIET_TURNS]
            pub["phase"] = "over"
            return
        pub["turn"] = 1 - pub["turn"]
        pub["n"] += 1
        self._draw(pub, pub["turn"])

    def apply_private(self, pub, priv, player, author, event):
        if "sd" in pub:
            return self._sealed_private(pub, priv, player, author, event)
        if author == player and event[0] in ("discard", "move", "ahead", "fire", "defend"):
            if event[1] in priv["hand"]:
                priv["hand"].remove(event[1])
        if priv["n"] != pub["n"]:          # this event ended a turn: the next player drew
            priv["n"] = pub["n"]
            self._deal(pub, priv, player == pub["turn"])

    def _sealed_private(self, pub, priv, player, author, event):
        tag = event[0]
        if author == player and tag in ("discard", "move", "ahead", "fire", "defend"):
            if event[1] in priv["hand"]:
                priv["hand"].remove(event[1])
        if tag == "so":
            got = self.sealed_private(pub, priv, player, event)
            if got:
                priv["hand"] = sorted(priv["hand"] + [k for k in got if k >= 0])

    def _deal(self, pub, priv, mine):
        """Mirror the public draw on this unit's copy of the deck order. The cards go to the
        hand only on the drawer's unit; the other unit drops them unread."""
        deck = priv["deck"]
        took = deck[:DRAW]
        deck = deck[DRAW:]
        if pub["pile"] is not None:
            deck = Prng(priv["key"], b"reshuffle%d" % pub["shuf"]).shuffle(list(pub["pile"]))
            need = DRAW - len(took)
            took += deck[:need]
            deck = deck[need:]
        priv["deck"] = deck
        if mine:
            priv["hand"] = sorted(priv["hand"] + took)

    def result(self, pub):
        c = pub.get("conceded")
        if c is not None:
            return ([1 - c], "conceded")
        e = pub["end"]
        if e is None:
            return None
        return ([] if e[0] < 0 else [e[0]], e[1])

    def describe(self, pub, author, event):
        try:
            return "P%d %s" % (author + 1, say(pub, event))
        except Exception:  # a log line must never take the screen down
            return "P%d %s" % (author + 1, event[0])


ENGINE = PeriplusEngine()
