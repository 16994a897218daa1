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
from fathom.compat import const
from fathom.games import periplus as D
from fathom.games.base import Engine, IllegalAction, check_int, check_size
from fathom.sealed import hooks as H
from fathom.sealed.hooks import FOUL, SealedHooks
from fathom.games.periplus import cards as C
from fathom.games.periplus import board as B
from fathom.games.periplus import fleet as F

# The schema's names this module reads (the engine's, the fleet's, and base's): private
# copies that MicroPython folds into the code, so they cost no heap; a test holds each
# to its schema.
_CONCEDED = const("conceded")
_TURN_ACT = const("act")
_TURN_ANSWER = const("answer")
_TAG = const(0)
_SETUP_PUBLIC = const(1)
_SHIPS = const("ships")
_ISLANDS = const("isl")
_MOVED = const("moved")
_QUINQ = const(3)
_NSHIPS = const(8)
_TYPE = const(0)
_SQUARE = const(1)
_LEFT = const(2)
_SHEARED = const(3)

# ---- the schema ------------------------------------------------------------------------------
# Names that the screen, the bots or say.py import have no leading underscore; the rest fold
# away when compiled. The strings are what saves, hashes and the link carry: they never change.
#
# Events (the rules page's "Events on the link"): EV_<X> is the tag, <X>_<SLOT> its slots. A
# card is its kind (a cards.CARDS index), a ship its id (player * 8 + its starting column).
_EV_DISCARD = const("discard")  # Orders, over the hand limit: one card discarded
_DISCARD_CARD = const(1)        #   the card
_EV_MOVE = const("move")        # Maneuver: one ship moved by a Move card
_MOVE_CARD = const(1)           #   the card
_MOVE_SHIP = const(2)           #   the ship
_MOVE_TO = const(3)             #   the square it moves to
_EV_AHEAD = const("ahead")      # Maneuver: a fleet move, its first ship straight ahead
_AHEAD_CARD = const(1)          #   the Move card (its range is the fleet's)
_AHEAD_SHIP = const(2)          #   the first ship
_EV_ALSO = const("also")        # another ship joins the fleet move
_ALSO_SHIP = const(1)           #   the ship
_EV_HALT = const("halt")        # the fleet move ends
_EV_PASS = const("pass")        # no maneuver, or no attack (which ends the turn)
_EV_FIRE = const("fire")        # Fire: an attack, which the defender answers
_FIRE_CARD = const(1)           #   the attack card
_FIRE_SHIP = const(2)           #   the attacking ship
_FIRE_TARGET = const(3)         #   the ship attacked
_EV_TAKE = const("take")        # the defender takes the hit
_EV_DEFEND = const("defend")    # the defender negates the attack:
_DEFEND_CARD = const(1)         #   with this Defense card
EV_FOUL = FOUL                 # sealed deal: a card share opened no card (SealedHooks)
# Every event that plays a card from a hand carries it in the same slot.
_PLAYED = (_EV_DISCARD, _EV_MOVE, _EV_AHEAD, _EV_FIRE, _EV_DEFEND)
_PLAYED_CARD = const(1)        # the card of an event in _PLAYED
# The deal state's count of cards in play and its round (pub[_SEALED], sealed/stage.py).
_DEAL_CARDS = const("n")
_DEAL_ROUND = const("rnd")

# Public state: pub[...]
# ISLANDS                     the island squares, sorted                  (fleet.py)
# SHIPS                       every ship by id: [type, square or -1 sunk, hits left, sheared]
#                             (fleet.py: TYPE, SQUARE, LEFT, SHEARED)
_READY = const("ready")     # per player: set-up in (base.READY)
_TURN = const("turn")        # whose turn it is (the attacker while the defender answers)
_PHASE = const("phase")      # the stage of the turn, one of the PH_* below
_TURNS = const("n")         # turns ended: every unit deals the next draw when it changes
_HAND = const("hand")        # per player: how many cards in hand
_DECK = const("deck")        # cards left in the deck
_DISCARDS = const("discard")  # the face-up discard pile, in play order
_SHUF = const("shuf")       # reshuffles so far (each reshuffle's order has its own stream)
_PILE = const("pile")       # the pile the last draw reshuffled into the deck, else None
# MOVED                       ships moved this turn (a ram needs one that moved) (fleet.py)
_FLEET_RANGE = const("fleet")  # the range of the fleet move under way, 0 when none
_PENDING = const("pending")  # during PH_DEFEND the attack: [card, attacker, target]
_P_CARD = const(0)           #   the attack card,
_P_BY = const(1)             #   the attacking ship,
_P_AT = const(2)             #   the ship attacked
_QUIET = const("quiet")     # turns in a row without harm
_HARM = const("harm")       # this turn harmed a ship (a hit point lost or oars sheared)
_END = const("end")         # once over: [winner or -1 for a draw, reason]
_SEALED = const("sd")        # with the sealed deal: its work queue (sealed/stage.py)
_CARD_SHARES = const("so")   # the deal's event that opens cards to their receiver (sealed/hooks)

# Phases (pub[PHASE]).
_PH_SETUP = const("setup")      # fleets being placed
_PH_DISCARD = const("discard")  # the player to act holds more than 5: discard (Orders)
_PH_MOVE = const("move")        # Maneuver: EV_MOVE, EV_AHEAD or EV_PASS
_PH_AHEAD = const("ahead")      # a fleet move under way: EV_ALSO or EV_HALT
_PH_FIRE = const("fire")        # Fire: EV_FIRE or EV_PASS
_PH_DEFEND = const("defend")    # the attacked player answers: EV_TAKE or EV_DEFEND
_PH_OVER = const("over")        # the game is over

# Private state: priv[...]
_HELD = const("hand")        # the player's hand, card kinds sorted
_ROW = const("row")          # the ship types placed so far in the set-up, column order
_ORDER = const("deck")      # sealed deal off: the rest of the deck order (never shown)
_KEY = const("key")         # sealed deal off: the seed of every reshuffle (never shown)
_DEALT = const("n")         # pub[_TURNS] when this unit last dealt
_SECRET = const("sd")       # sealed deal on: this player's deal secret

_DRAW = const(3)             # cards drawn at the start of a turn (Orders)
_HAND_LIMIT = const(5)       # cards a hand may keep
QUIET_TURNS = 30         # this many turns in a row without harm: the game is a draw


def _distinct(hand):
    out = []
    for k in hand:
        if k not in out:
            out.append(k)
    return out


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
            _ISLANDS: isl, _SHIPS: [[0, -1, 0, 0] for _ in range(2 * _NSHIPS)],
            _READY: [False, False], _TURN: first, _PHASE: _PH_SETUP, _TURNS: 0,
            _HAND: [_DRAW if p == first else 0 for p in range(2)], _DECK: C.DECK_SIZE - _DRAW,
            _DISCARDS: [], _SHUF: 0, _PILE: None,
            _MOVED: [], _FLEET_RANGE: 0, _PENDING: None, _QUIET: 0, _HARM: False, _END: None,
        }
        if sealed:
            from fathom.sealed import stage
            sd = pub[_SEALED] = stage.new(C.NKINDS)
            stage.open_to(sd, first, stage.shuffle(sd, C.full_deck()), list(range(_DRAW)))
        return pub

    def new_private(self, pub, player, rng):
        """The deck order from the joint seed, with the first player's first draw dealt."""
        if _SEALED in pub:  # sealed: cards arrive by the deal's openings (apply_private)
            return {_SECRET: None, _HELD: [], _ROW: [], _DEALT: 0}
        deck = rng.shuffle(C.full_deck())
        hand = sorted(deck[:_DRAW]) if player == pub[_TURN] else []
        return {_ORDER: deck[_DRAW:], _KEY: rng.token(16), _HELD: hand, _ROW: [], _DEALT: 0}

    def setup_legal(self, pub, priv, player):
        row = priv[_ROW]
        if len(row) >= _NSHIPS:
            return []
        return [t for t in range(4) if row.count(t) < F.FLEET[t]]

    def setup_apply(self, pub, priv, player, choice):
        if choice not in self.setup_legal(pub, priv, player):
            raise IllegalAction("no such ship left to place")
        priv[_ROW].append(choice)

    def setup_public(self, pub, priv, player):
        if _SEALED in pub:
            from fathom.sealed import stage
            return [list(priv[_ROW]), stage.key_commit(priv[_SECRET])]
        return list(priv[_ROW])

    # ---- play ------------------------------------------------------------------------------
    def turn(self, pub):
        if pub.get(_CONCEDED) is not None or pub[_END] is not None:
            return None
        ph = pub[_PHASE]
        if ph == _PH_SETUP:
            return None
        if _SEALED in pub:
            from fathom.sealed import stage
            a = stage.pending(pub[_SEALED])
            if a >= 0:
                return (a, _TURN_ANSWER)
        if ph == _PH_DEFEND:
            return (1 - pub[_TURN], _TURN_ACT)
        return (pub[_TURN], _TURN_ACT)

    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t != (player, _TURN_ACT):
            return []
        if priv.get(FOUL):
            return [[EV_FOUL]]
        ph = pub[_PHASE]
        hand = _distinct(priv[_HELD])
        if ph == _PH_DISCARD:
            return [[_EV_DISCARD, k] for k in hand]
        if ph == _PH_DEFEND:
            out = [[_EV_TAKE]]
            d = C.defense_for(pub[_PENDING][_P_CARD])
            if d in hand:
                out.append([_EV_DEFEND, d])
            return out
        g = F.grid(pub)
        base = player * _NSHIPS
        if ph == _PH_AHEAD:
            out = [[_EV_HALT]]
            for s in range(base, base + _NSHIPS):
                if (s not in pub[_MOVED] and F.can_move(pub, player, s)
                        and F.ahead_dest(pub, g, s, pub[_FLEET_RANGE]) >= 0):
                    out.append([_EV_ALSO, s])
            return out
        out = [[_EV_PASS]]
        if ph == _PH_MOVE:
            for k in hand:
                if C.ctype(k) != C.MOVE:
                    continue
                for s in range(base, base + _NSHIPS):
                    if not F.can_move(pub, player, s):
                        continue
                    for d in F.move_dests(pub, g, s, k):
                        out.append([_EV_MOVE, k, s, d])
                    if C.rng(k) != C.KNIGHT and F.ahead_dest(pub, g, s, C.rng(k)) >= 0:
                        out.append([_EV_AHEAD, k, s])
        elif ph == _PH_FIRE:
            foe = (1 - player) * _NSHIPS
            for k in hand:
                if not C.is_attack(k):
                    continue
                for s in range(base, base + _NSHIPS):
                    for t in range(foe, foe + _NSHIPS):
                        if F.can_attack(pub, g, player, s, k, t):
                            out.append([_EV_FIRE, k, s, t])
        return out

    def act(self, pub, priv, player, action):
        # An action is its event: every choice is public once made (rules: "Events").
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("not a legal action: %r" % (action,))
        return list(action)

    def answer(self, pub, priv, player):
        if priv.get(FOUL):
            return [EV_FOUL]
        ev = self.sealed_answer(pub, priv, player)
        if ev is None:
            raise IllegalAction("Periplus asks no queries")
        return ev

    def default_action(self, pub, priv, player):
        """What the runner sends for a defender who does not answer in time: take the hit."""
        if self.turn(pub) == (player, _TURN_ACT) and pub[_PHASE] == _PH_DEFEND:
            return [_EV_TAKE]
        return None

    # ---- events ----------------------------------------------------------------------------
    # Engine.apply checks shape, author and turn, then runs HANDLERS[phase(pub)][tag]; while a
    # step of the sealed deal is due only the deal's events go (SealedHooks).
    def phase(self, pub):
        return H.DEAL if self.dealing(pub) else pub[_PHASE]

    def _foul(self, pub, author, event):
        """A card share that opened no card ends the game: its receiver names the sender
        (docs/SEALED_DEAL.md)."""
        if _SEALED not in pub:
            raise IllegalAction("foul not allowed now")
        check_size(event, 1)
        pub[_END] = [author, "foul: P%d's card share opened no card" % (2 - author)]
        pub[_PHASE] = _PH_OVER

    def apply_setup(self, pub, author, event):
        """A fleet: 2 Biremes, 3 Triremes, 2 Quadriremes and 1 Quinquereme in any order on the
        back row, made public in the set-up event (rules: "Set-up")."""
        check_size(event, 3)
        row = event[_SETUP_PUBLIC]
        if pub[_PHASE] != _PH_SETUP or pub[_READY][author]:
            raise IllegalAction("set-up already done")
        kc = None
        if _SEALED in pub:   # [row, key commitment]
            if not isinstance(row, list) or len(row) != 2:
                raise IllegalAction("set-up must carry the row and the key commitment")
            row, kc = row
        if not isinstance(row, list) or len(row) != _NSHIPS:
            raise IllegalAction("set-up row must list 8 ships")
        for t in row:
            check_int(t, 0, 4, "ship type")
        for t in range(4):
            if row.count(t) != F.FLEET[t]:
                raise IllegalAction("fleet must be 2 Bi, 3 Tr, 2 Qd, 1 Qq")
        if kc is not None:
            from fathom.sealed import stage
            self.sealed_call(stage.set_commit, pub[_SEALED], author, kc)
        r0 = B.back_row(author) * B.SIZE
        for c in range(_NSHIPS):
            pub[_SHIPS][author * _NSHIPS + c] = [row[c], r0 + c, F.HITS[row[c]], 0]
        pub[_READY][author] = True
        if False not in pub[_READY]:
            pub[_PHASE] = _PH_MOVE          # the first player's first draw was dealt at the start

    def _pay(self, pub, player, k):
        if pub[_HAND][player] < 1:
            raise IllegalAction("no card in hand")
        pub[_HAND][player] -= 1
        pub[_DISCARDS].append(k)

    def _draw(self, pub, p):
        """Draw 3 (Orders); an empty deck reshuffles the discard pile, and a hand over 5 must
        discard before it maneuvers (rules: "Orders")."""
        took = min(_DRAW, pub[_DECK])
        if _SEALED in pub:   # open the drawn positions to the drawer (and a reshuffle's first)
            from fathom.sealed import stage
            sd = pub[_SEALED]
            top = sd[_DEAL_CARDS] - pub[_DECK]
            stage.open_to(sd, p, sd[_DEAL_ROUND], list(range(top, top + took)))
            if took < _DRAW and pub[_DISCARDS]:
                more = min(_DRAW - took, len(pub[_DISCARDS]))
                stage.open_to(sd, p, stage.shuffle(sd, sorted(pub[_DISCARDS])),
                              list(range(more)))
        pub[_DECK] -= took
        pile = None
        if took < _DRAW and pub[_DISCARDS]:
            pile = sorted(pub[_DISCARDS])
            pub[_DISCARDS] = []
            pub[_SHUF] += 1
            more = min(_DRAW - took, len(pile))
            pub[_DECK] = len(pile) - more
            took += more
        pub[_PILE] = pile
        pub[_HAND][p] += took
        pub[_PHASE] = _PH_DISCARD if pub[_HAND][p] > _HAND_LIMIT else _PH_MOVE

    def _discard(self, pub, p, event):
        """Orders: over the hand limit, discard one card at a time down to 5."""
        check_size(event, 2)
        k = check_int(event[_DISCARD_CARD], 0, C.NKINDS, "card")
        self._pay(pub, p, k)
        if pub[_HAND][p] <= _HAND_LIMIT:
            pub[_PHASE] = _PH_MOVE

    def _mover(self, pub, p, sid):
        """A ship of the mover's that can move: afloat and with its oars (rules: "Shear Oars")."""
        check_int(sid, 0, 2 * _NSHIPS, "ship")
        if not F.can_move(pub, p, sid):
            raise IllegalAction("that ship cannot move")
        return sid

    def _move_card(self, k):
        check_int(k, 0, C.NKINDS, "card")
        if C.ctype(k) != C.MOVE:
            raise IllegalAction("not a Move card")
        return k

    def _move(self, pub, p, event):
        """Maneuver: one ship exactly the card's range in a straight line over free squares,
        or a knight's jump (rules: "Maneuver"); then the Fire phase."""
        check_size(event, 4)
        k = self._move_card(event[_MOVE_CARD])
        s = self._mover(pub, p, event[_MOVE_SHIP])
        d = check_int(event[_MOVE_TO], 0, 64, "square")
        if d not in F.move_dests(pub, F.grid(pub), s, k):
            raise IllegalAction("move not allowed by that card")
        self._pay(pub, p, k)
        pub[_SHIPS][s][_SQUARE] = d
        pub[_MOVED] = [s]
        pub[_PHASE] = _PH_FIRE

    def _ahead(self, pub, p, event):
        """A fleet move: the first ship straight ahead by the card's range; others may follow
        the same distance (rules: "Maneuver", fleet move). Knight cards move one ship only."""
        check_size(event, 3)
        k = self._move_card(event[_AHEAD_CARD])
        if C.rng(k) == C.KNIGHT:
            raise IllegalAction("knight cards cannot move ships ahead")
        s = self._mover(pub, p, event[_AHEAD_SHIP])
        d = F.ahead_dest(pub, F.grid(pub), s, C.rng(k))
        if d < 0:
            raise IllegalAction("way ahead blocked")
        self._pay(pub, p, k)
        pub[_FLEET_RANGE] = C.rng(k)
        pub[_MOVED] = []
        self._go_ahead(pub, p, s, d)

    def _also(self, pub, p, event):
        """One more ship of the fleet move, the same distance straight ahead, each ship once."""
        check_size(event, 2)
        s = self._mover(pub, p, event[_ALSO_SHIP])
        if s in pub[_MOVED]:
            raise IllegalAction("that ship has moved")
        d = F.ahead_dest(pub, F.grid(pub), s, pub[_FLEET_RANGE])
        if d < 0:
            raise IllegalAction("way ahead blocked")
        self._go_ahead(pub, p, s, d)

    def _go_ahead(self, pub, p, s, d):
        pub[_SHIPS][s][_SQUARE] = d
        pub[_MOVED].append(s)
        pub[_PHASE] = _PH_AHEAD
        g = F.grid(pub)
        for o in range(p * _NSHIPS, (p + 1) * _NSHIPS):
            if (o not in pub[_MOVED] and F.can_move(pub, p, o)
                    and F.ahead_dest(pub, g, o, pub[_FLEET_RANGE]) >= 0):
                return
        self._halt(pub, p, [_EV_HALT])   # nobody else can follow: the fleet move is over

    def _halt(self, pub, p, event):
        check_size(event, 1)
        pub[_FLEET_RANGE] = 0
        pub[_PHASE] = _PH_FIRE

    def _pass(self, pub, p, event):
        """No maneuver (on to Fire), or no attack (the turn ends)."""
        check_size(event, 1)
        if pub[_PHASE] == _PH_MOVE:
            pub[_PHASE] = _PH_FIRE
        else:
            self._end_turn(pub)

    def _fire(self, pub, p, event):
        """Fire: one attack card, from one ship at one enemy ship in its reach (a ram only from
        a ship that moved this turn); the defender answers before it lands (rules: "Fire")."""
        check_size(event, 4)
        k = check_int(event[_FIRE_CARD], 0, C.NKINDS, "card")
        if not C.is_attack(k):
            raise IllegalAction("not an attack card")
        s = check_int(event[_FIRE_SHIP], 0, 2 * _NSHIPS, "ship")
        t = check_int(event[_FIRE_TARGET], 0, 2 * _NSHIPS, "target")
        if not F.can_attack(pub, F.grid(pub), p, s, k, t):
            raise IllegalAction("attack not possible")
        self._pay(pub, p, k)
        pub[_PENDING] = [k, s, t]
        pub[_PHASE] = _PH_DEFEND

    def _take(self, pub, p, event):
        """The hit lands: Shear Oars cripples, the Ram does 2, every other attack 1; a sunk
        Quinquereme ends the game (rules: "Damage", "Victory")."""
        check_size(event, 1)
        atk = pub[_PENDING]
        k = atk[_P_CARD]
        ship = pub[_SHIPS][atk[_P_AT]]
        pub[_PENDING] = None
        if k == C.SHEAR_OARS:
            if not ship[_SHEARED]:
                ship[_SHEARED] = 1
                pub[_HARM] = True
        else:
            ship[_LEFT] = max(0, ship[_LEFT] - C.damage(k))
            pub[_HARM] = True
            if ship[_LEFT] == 0:
                ship[_SQUARE] = -1
                if ship[_TYPE] == _QUINQ:
                    pub[_END] = [pub[_TURN], "Quinquereme sunk"]
                    pub[_PHASE] = _PH_OVER
                    return
        self._end_turn(pub)

    def _defend(self, pub, p, event):
        """Only the Defense card of the attack's type negates it (rules: "Defense")."""
        check_size(event, 2)
        d = check_int(event[_DEFEND_CARD], 0, C.NKINDS, "card")
        if d != C.defense_for(pub[_PENDING][_P_CARD]):
            raise IllegalAction("that card does not negate this attack")
        self._pay(pub, p, d)
        pub[_PENDING] = None
        self._end_turn(pub)

    def _end_turn(self, pub):
        """The turn passes and the next player draws; 30 turns without harm are a draw (rules:
        "Interpretation: the game always ends")."""
        pub[_QUIET] = 0 if pub[_HARM] else pub[_QUIET] + 1
        pub[_HARM] = False
        pub[_MOVED] = []
        pub[_FLEET_RANGE] = 0
        if pub[_QUIET] >= QUIET_TURNS:
            pub[_END] = [-1, "no harm in %d turns" % QUIET_TURNS]
            pub[_PHASE] = _PH_OVER
            return
        pub[_TURN] = 1 - pub[_TURN]
        pub[_TURNS] += 1
        self._draw(pub, pub[_TURN])

    def apply_private(self, pub, priv, player, author, event):
        if _SEALED in pub:
            return self._sealed_private(pub, priv, player, author, event)
        if author == player and event[_TAG] in _PLAYED:
            if event[_PLAYED_CARD] in priv[_HELD]:
                priv[_HELD].remove(event[_PLAYED_CARD])
        if priv[_DEALT] != pub[_TURNS]:          # this event ended a turn: the next player drew
            priv[_DEALT] = pub[_TURNS]
            self._deal(pub, priv, player == pub[_TURN])

    def _sealed_private(self, pub, priv, player, author, event):
        tag = event[_TAG]
        if author == player and tag in _PLAYED:
            if event[_PLAYED_CARD] in priv[_HELD]:
                priv[_HELD].remove(event[_PLAYED_CARD])
        if tag == _CARD_SHARES:
            got = self.sealed_private(pub, priv, player, event)
            if got:
                priv[_HELD] = sorted(priv[_HELD] + [k for k in got if k >= 0])

    def _deal(self, pub, priv, mine):
        """Mirror the public draw on this unit's copy of the deck order. The cards go to the
        hand only on the drawer's unit; the other unit drops them unread."""
        deck = priv[_ORDER]
        took = deck[:_DRAW]
        deck = deck[_DRAW:]
        if pub[_PILE] is not None:
            from fathom.prng import Prng
            deck = Prng(priv[_KEY], b"reshuffle%d" % pub[_SHUF]).shuffle(list(pub[_PILE]))
            need = _DRAW - len(took)
            took += deck[:need]
            deck = deck[need:]
        priv[_ORDER] = deck
        if mine:
            priv[_HELD] = sorted(priv[_HELD] + took)

    def result(self, pub):
        c = pub.get(_CONCEDED)
        if c is not None:
            return ([1 - c], "conceded")
        e = pub[_END]
        if e is None:
            return None
        winner, reason = e
        return ([] if winner < 0 else [winner], reason)


# Which handler plays an event, by the phase of the turn and the event's tag (the rules' turn:
# Orders, Maneuver, Fire, and the defender's answer), and the sealed deal's steps.
PeriplusEngine.HANDLERS = {
    _PH_DISCARD: {_EV_DISCARD: PeriplusEngine._discard},
    _PH_MOVE: {_EV_MOVE: PeriplusEngine._move, _EV_AHEAD: PeriplusEngine._ahead,
              _EV_PASS: PeriplusEngine._pass},
    _PH_AHEAD: {_EV_ALSO: PeriplusEngine._also, _EV_HALT: PeriplusEngine._halt},
    _PH_FIRE: {_EV_FIRE: PeriplusEngine._fire, _EV_PASS: PeriplusEngine._pass},
    _PH_DEFEND: {_EV_TAKE: PeriplusEngine._take, _EV_DEFEND: PeriplusEngine._defend},
    H.DEAL: {t: SealedHooks.deal_step for t in H.DEAL_TAGS},
}
PeriplusEngine.ANY_PHASE = {EV_FOUL: PeriplusEngine._foul}

ENGINE = PeriplusEngine()
