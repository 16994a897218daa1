# Pinned Down rules engine: a cooperative fleet of 1 to 4 players against the attack deck.
# Rules and every interpretation: docs/rules/pinned_down.md. The state's keys and every
# event's slots are named in schema.py (K); the turn sequence is phases.py, one handler per
# (phase, event); what a player may do is choices.py; ships and fights are fleet.py and
# fights.py. This class is the contract the framework calls (games/base.py).
#
# Secrets: each player's hand and draw-deck order (priv, derived per player from the joint
# seed). pub holds hand and deck sizes, a count of cards drawn (each unit deals its own draws
# from its own deck copy) and the shared attack, location and damage decks, whose order only
# the cards that allow a peek show on the screen. No event asks another unit a question: every
# card a player uses is revealed by the event that uses it, and the audit checks the hand.
from fathom import res  # noqa: F401  (leaves first: imports nest shallow on the C stack)
from fathom.prng import Prng
from fathom.games import pinned_down as D
from fathom.games.base import SETUP, Engine, IllegalAction, event_tag
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import schema as K
from fathom.games.pinned_down import choices as CH
from fathom.games.pinned_down import deckfile
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down import phases as P
from fathom.games.pinned_down import say
from fathom.games.pinned_down.phases import GOAL, REFILL, extra_threat  # noqa: F401

_ACT = "act"
_NONE = {}          # the handlers of a phase that takes no event (shared, never written)
_CONFIRM = {K.EV_AGREE: P.agree, K.EV_OBJECT: P.object_}   # the others confirm a proposal
_MALFORMED = (TypeError, IndexError, KeyError, AttributeError)   # a slot a handler trips on


class PinnedDown(Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS
    COOPERATIVE = True

    # The events each phase accepts and the rule that plays each one (phases.py). A tag the
    # phase does not list is refused before anything changes.
    HANDLERS = {
        K.PHASE_MAIN: {K.EV_PLAY: P.play, K.EV_USE: P.use, K.EV_MOVE: P.move, K.EV_SPARE: P.spare,
                       K.EV_SHOW: P.show, K.EV_READY: P.ready},
        K.PHASE_JUMP: {K.EV_JUMP: P.jump},
        K.PHASE_JUMP_CONFIRM: _CONFIRM,
        K.PHASE_CLOAK: {K.EV_CLOAK: P.cloak},
        K.PHASE_ASSIGN: {K.EV_DEFEND: P.defend},
        K.PHASE_ASSIGN_CONFIRM: _CONFIRM,
        K.PHASE_FIGHT: {K.EV_PLAY: P.play, K.EV_PASS: P.pass_, K.EV_RESOLVE: P.fight},
        K.PHASE_WRAP: {K.EV_DISCARD: P.discard, K.EV_KEEP: P.keep},
    }

    # ---- set-up (rule 6) -------------------------------------------------------------------
    def new_game(self, opts, nplayers, rng):
        if not 1 <= nplayers <= 4:
            raise IllegalAction("Pinned Down takes 1 to 4 players")
        opts = self.options(opts)
        i0 = C.AFFS.index(opts["deck"])
        affs, lists, ships = [], [], []
        for p in range(nplayers):
            aff, flag, deck = deckfile.load(C.AFFS[(i0 + p) % 4])
            affs.append(aff)
            lists.append(deck)
            ships.append(F.new_ship(p, flag))
        n = nplayers
        return {
            K.PLAYER_COUNT: n, K.AFFILIATIONS: affs, K.DECK_LISTS: lists,
            K.LEVEL: opts["level"], K.READY: [False] * n, K.ACTIONS: [0] * n,
            K.PHASE: K.PHASE_SETUP, K.LEAD: rng.below(n), K.CURRENT: 0, K.TURN: 0,
            K.THREAT: 0, K.DISTANCE: 0, K.LOCATIONS: [], K.JUMP_OPTIONS: [], K.PROPOSED: 0,
            K.OBJECTIONS: 0, K.TO_CONFIRM: [], K.CLOAK_QUEUE: [], K.FIGHTERS: [],
            K.ASSIGNED: [], K.FIGHTS: [], K.FIGHT_WINDOW: [], K.WRAP_QUEUE: [], K.FOES: [],
            K.AMBUSH: 0, K.TABLE: [], K.SHIPS: ships, K.LAST_FIGHT: None,
            K.HAND_SIZES: [REFILL] * n, K.DECK_SIZES: [len(d) - REFILL for d in lists],
            K.DRAWN: [REFILL] * n, K.DISCARDS: [[] for _ in range(n)],
            K.DESTROYED: [[] for _ in range(n)], K.SHOWN: [None] * n,
            K.ATTACK_DECK: rng.shuffle(C.expand(C.ATTACK)), K.ATTACK_DISCARD: [],
            K.LOCATION_DECK: rng.shuffle(C.expand(C.LOCATIONS)),
            K.DAMAGE_DECK: rng.shuffle(C.expand(C.DAMAGE)), K.DAMAGE_DISCARD: [],
            K.CHANCE_KEY: rng.token(16), K.CHANCE_COUNT: 0, K.END: None,
        }

    def new_private(self, pub, player, rng):
        """This player's shuffled draw deck (its own stream of the joint seed) and hand."""
        r = Prng(rng.token(32), b"deck%d" % player)
        deck = r.shuffle(list(pub[K.DECK_LISTS][player]))
        return {K.HAND: deck[:REFILL], K.DECK: deck[REFILL:], K.DEALT: REFILL,
                K.SHUFFLE_KEY: r.token(16), K.SHUFFLES: 0}

    # ---- turn order ------------------------------------------------------------------------
    def turn(self, pub):
        """Who acts: in the main phase the player in rotation; the lead proposes; each other
        player confirms in turn; a ship's owner decides its cloak; the fight window and the
        wrap-up go round from the lead."""
        if pub.get(K.CONCEDED) is not None or pub[K.END] is not None:
            return None
        ph = pub[K.PHASE]
        if ph == K.PHASE_MAIN:
            return (pub[K.CURRENT], _ACT)
        if ph == K.PHASE_JUMP or ph == K.PHASE_ASSIGN:
            return (pub[K.LEAD], _ACT)
        if ph == K.PHASE_JUMP_CONFIRM or ph == K.PHASE_ASSIGN_CONFIRM:
            return (pub[K.TO_CONFIRM][K.NEXT], _ACT)
        if ph == K.PHASE_CLOAK:
            return (pub[K.SHIPS][pub[K.CLOAK_QUEUE][K.NEXT]][K.SHIP_OWNER], _ACT)
        if ph == K.PHASE_FIGHT:
            return (pub[K.FIGHT_WINDOW][K.NEXT], _ACT)
        if ph == K.PHASE_WRAP:
            return (pub[K.WRAP_QUEUE][K.NEXT], _ACT)
        return None

    # ---- legal actions (choices.py) --------------------------------------------------------
    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t[0] != player:
            return []
        ph = pub[K.PHASE]
        if ph == K.PHASE_MAIN:
            return CH.main_choices(pub, player, priv)
        if ph == K.PHASE_JUMP:
            return [["jump", i] for i in range(len(pub[K.JUMP_OPTIONS]))]
        if ph == K.PHASE_JUMP_CONFIRM or ph == K.PHASE_ASSIGN_CONFIRM:
            return [["yes"], ["no"]]
        if ph == K.PHASE_CLOAK:
            return [["cloak", 1], ["cloak", 0]]
        if ph == K.PHASE_ASSIGN:
            return [["def", a] for a in CH.def_options(pub)]
        if ph == K.PHASE_FIGHT:
            return CH.fight_choices(pub, player, priv)
        if ph == K.PHASE_WRAP:
            return [["keep"]] + [["discard", c] for c in CH.distinct(priv[K.HAND])]
        return []

    def spares(self, pub, cid):
        return CH.spares(pub, cid)

    def def_options(self, pub):
        return CH.def_options(pub)

    def open_fights(self, pub):
        return CH.open_fights(pub)

    # ---- fights, as the screen forecasts them and the bot scores them (fights.py) ----------
    def foe_power(self, pub, f):
        return FT.foe_power(pub, f)

    def fights_for(self, pub, asg):
        """The fights a full assignment would make (pub unchanged): the forecast the screen
        shows and the bot scores, built by the rule the assignment then runs."""
        return FT.build(pub, asg)

    def forecast(self, pub, fight):
        """(fleet power, its destinies, enemy power, its destinies, outcome) of `fight` as
        resolve() would count it before the destiny cards are drawn."""
        pp, pd, ep, ed, n = FT.sums(pub, fight)
        return pp, pd, ep, ed, FT.outcome(pp, ep, n)

    def resolve(self, pub, k):
        P.resolve(pub, k)

    # ---- acting ----------------------------------------------------------------------------
    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("not a legal action: %r" % (action,))
        if action[K.TAG] == "show":
            return ["show", sorted(priv[K.HAND])]
        return list(action)

    def answer(self, pub, priv, player):
        raise IllegalAction("Pinned Down asks no queries")

    # ---- events ----------------------------------------------------------------------------
    def seats(self, pub):
        return pub[K.PLAYER_COUNT]

    def phase(self, pub):
        return pub[K.PHASE]

    def apply(self, pub, author, event):
        """Engine.apply's checks and dispatch through HANDLERS, with two differences the base
        API does not offer yet (games/base.py):
        - the set-up guard is the phase: base reads pub["ready"] for it, a key Pinned Down
          also uses for the main phase's ready players (and pub's keys cannot change: the hash
          chain of every saved game covers them);
        - a handler returns the phase step its event runs into (phases.py), and the steps run
          here one after another, from this frame, so their depth on the C stack does not
          grow with the phases one event crosses."""
        tag = event_tag(event)
        if type(author) is not int or not 0 <= author < self.seats(pub):
            raise IllegalAction("bad author %r" % (author,))
        if tag == SETUP:
            step = P.setup(self, pub, author, event)
        else:
            ph = self.phase(pub)
            if ph == K.PHASE_SETUP:
                raise IllegalAction("play before every set-up is in")
            t = self.turn(pub)
            if t is None:
                raise IllegalAction("game is over")
            if t[0] != author:
                raise IllegalAction("out of turn: player %d sent, player %d to play"
                                    % (author, t[0]))
            handler = self.HANDLERS.get(ph, _NONE).get(tag)
            if handler is None:
                raise IllegalAction("%s not allowed in the %s phase" % (tag, ph))
            try:
                step = handler(self, pub, author, event)
            except IllegalAction:
                raise
            except _MALFORMED:   # a slot of the wrong type: refused before anything changed
                raise IllegalAction("malformed %s event" % tag)
        while step is not None:
            step = step(pub)

    def apply_private(self, pub, priv, player, author, event):
        P.apply_private(pub, priv, player, author, event)

    def result(self, pub):
        if pub.get(K.CONCEDED) is not None:
            return ([], "conceded")
        e = pub[K.END]
        if e is None:
            return None
        won, reason = e
        return (list(range(pub[K.PLAYER_COUNT])) if won else [], reason)

    # ---- for the UI ------------------------------------------------------------------------

    def label(self, pub, priv, player, action):
        try:
            return say.action(pub, action)
        except Exception:
            return " ".join(str(x) for x in action)


ENGINE = PinnedDown()
