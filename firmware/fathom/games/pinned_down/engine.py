# Pinned Down rules engine: a cooperative fleet of 1 to 4 players against the attack deck.
# Rules and every interpretation: docs/rules/pinned_down.md. The state's keys and every
# event's slots are named in schema.py; the turn sequence is phases.py, one handler per
# (phase, event); what a player may do is choices.py; ships and fights are fleet.py and
# fights.py. This class is the contract the framework calls (games/base.py).
#
# Secrets: each player's hand and draw-deck order (priv, derived per player from the joint
# seed). pub holds hand and deck sizes, a count of cards drawn (each unit deals its own draws
# from its own deck copy) and the shared attack, location and damage decks, whose order only
# the cards that allow a peek show on the screen. No event asks another unit a question: every
# card a player uses is revealed by the event that uses it, and the audit checks the hand.
from fathom.compat import const
from fathom import res  # noqa: F401  (leaves first: imports nest shallow on the C stack)
from fathom.prng import Prng
from fathom.games import pinned_down as D
from fathom.games.base import Engine, IllegalAction
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import choices as CH
from fathom.games.pinned_down import deckfile
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down import phases as P

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_REFILL = const(4)
_PLAYER_COUNT = const("n")
_AFFILIATIONS = const("aff")
_DECK_LISTS = const("lists")
_LEVEL = const("lvl")
_PHASE = const("ph")
_TURN = const("turn")
_LEAD = const("lead")
_CURRENT = const("cur")
_READY = const("ready")
_ACTIONS = const("acts")
_THREAT = const("threat")
_DISTANCE = const("dist")
_LOCATIONS = const("locs")
_JUMP_OPTIONS = const("lopts")
_PROPOSED = const("prop")
_OBJECTIONS = const("rej")
_TO_CONFIRM = const("conf")
_CLOAK_QUEUE = const("cq")
_FIGHTERS = const("fs")
_ASSIGNED = const("asg")
_FIGHTS = const("fights")
_FIGHT_WINDOW = const("fw")
_WRAP_QUEUE = const("wq")
_FOES = const("foes")
_AMBUSH = const("ab")
_TABLE = const("tbl")
_SHIPS = const("ships")
_LAST_FIGHT = const("last")
_HAND_SIZES = const("hs")
_DECK_SIZES = const("dn")
_DRAWN = const("drawn")
_DISCARDS = const("disc")
_DESTROYED = const("dest")
_SHOWN = const("shown")
_ATTACK_DECK = const("adeck")
_ATTACK_DISCARD = const("adisc")
_LOCATION_DECK = const("ldeck")
_DAMAGE_DECK = const("ddeck")
_DAMAGE_DISCARD = const("ddisc")
_CHANCE_KEY = const("key")
_CHANCE_COUNT = const("rc")
_END = const("end")
_PHASE_SETUP = const("setup")
_PHASE_MAIN = const("main")
_PHASE_JUMP = const("jump")
_PHASE_JUMP_CONFIRM = const("jconf")
_PHASE_CLOAK = const("cloak")
_PHASE_ASSIGN = const("assign")
_PHASE_ASSIGN_CONFIRM = const("aconf")
_PHASE_FIGHT = const("fight")
_PHASE_WRAP = const("wrap")
_HAND = const("hand")
_DECK = const("deck")
_DEALT = const("drawn")
_SHUFFLE_KEY = const("key")
_SHUFFLES = const("sh")
_SHIP_OWNER = const(0)
_NEXT = const(0)
_EV_PLAY = const("play")
_EV_USE = const("use")
_EV_MOVE = const("move")
_EV_SPARE = const("spare")
_EV_SHOW = const("show")
_EV_READY = const("ready")
_EV_JUMP = const("jump")
_EV_AGREE = const("yes")
_EV_OBJECT = const("no")
_EV_CLOAK = const("cloak")
_EV_DEFEND = const("def")
_EV_PASS = const("pass")
_EV_RESOLVE = const("fight")
_EV_DISCARD = const("discard")
_EV_KEEP = const("keep")
_TAG = const(0)
_CONCEDED = const("conceded")

_ACT = const("act")
_CONFIRM = {_EV_AGREE: P.agree, _EV_OBJECT: P.object_}   # the others confirm a proposal


class PinnedDown(Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS
    COOPERATIVE = True

    # The events each phase accepts and the rule that plays each one (phases.py). A tag the
    # phase does not list is refused before anything changes.
    HANDLERS = {
        _PHASE_MAIN: {_EV_PLAY: P.play, _EV_USE: P.use, _EV_MOVE: P.move, _EV_SPARE: P.spare,
                       _EV_SHOW: P.show, _EV_READY: P.ready},
        _PHASE_JUMP: {_EV_JUMP: P.jump},
        _PHASE_JUMP_CONFIRM: _CONFIRM,
        _PHASE_CLOAK: {_EV_CLOAK: P.cloak},
        _PHASE_ASSIGN: {_EV_DEFEND: P.defend},
        _PHASE_ASSIGN_CONFIRM: _CONFIRM,
        _PHASE_FIGHT: {_EV_PLAY: P.play, _EV_PASS: P.pass_, _EV_RESOLVE: P.fight},
        _PHASE_WRAP: {_EV_DISCARD: P.discard, _EV_KEEP: P.keep},
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
            _PLAYER_COUNT: n, _AFFILIATIONS: affs, _DECK_LISTS: lists,
            _LEVEL: opts["level"], _READY: [False] * n, _ACTIONS: [0] * n,
            _PHASE: _PHASE_SETUP, _LEAD: rng.below(n), _CURRENT: 0, _TURN: 0,
            _THREAT: 0, _DISTANCE: 0, _LOCATIONS: [], _JUMP_OPTIONS: [], _PROPOSED: 0,
            _OBJECTIONS: 0, _TO_CONFIRM: [], _CLOAK_QUEUE: [], _FIGHTERS: [],
            _ASSIGNED: [], _FIGHTS: [], _FIGHT_WINDOW: [], _WRAP_QUEUE: [], _FOES: [],
            _AMBUSH: 0, _TABLE: [], _SHIPS: ships, _LAST_FIGHT: None,
            _HAND_SIZES: [_REFILL] * n, _DECK_SIZES: [len(d) - _REFILL for d in lists],
            _DRAWN: [_REFILL] * n, _DISCARDS: [[] for _ in range(n)],
            _DESTROYED: [[] for _ in range(n)], _SHOWN: [None] * n,
            _ATTACK_DECK: rng.shuffle(C.expand(C.ATTACK)), _ATTACK_DISCARD: [],
            _LOCATION_DECK: rng.shuffle(C.expand(C.LOCATIONS)),
            _DAMAGE_DECK: rng.shuffle(C.expand(C.DAMAGE)), _DAMAGE_DISCARD: [],
            _CHANCE_KEY: rng.token(16), _CHANCE_COUNT: 0, _END: None,
        }

    def new_private(self, pub, player, rng):
        """This player's shuffled draw deck (its own stream of the joint seed) and hand."""
        r = Prng(rng.token(32), b"deck%d" % player)
        deck = r.shuffle(list(pub[_DECK_LISTS][player]))
        return {_HAND: deck[:_REFILL], _DECK: deck[_REFILL:], _DEALT: _REFILL,
                _SHUFFLE_KEY: r.token(16), _SHUFFLES: 0}

    # ---- turn order ------------------------------------------------------------------------
    def turn(self, pub):
        """Who acts: in the main phase the player in rotation; the lead proposes; each other
        player confirms in turn; a ship's owner decides its cloak; the fight window and the
        wrap-up go round from the lead."""
        if pub.get(_CONCEDED) is not None or pub[_END] is not None:
            return None
        ph = pub[_PHASE]
        if ph == _PHASE_MAIN:
            return (pub[_CURRENT], _ACT)
        if ph == _PHASE_JUMP or ph == _PHASE_ASSIGN:
            return (pub[_LEAD], _ACT)
        if ph == _PHASE_JUMP_CONFIRM or ph == _PHASE_ASSIGN_CONFIRM:
            return (pub[_TO_CONFIRM][_NEXT], _ACT)
        if ph == _PHASE_CLOAK:
            return (pub[_SHIPS][pub[_CLOAK_QUEUE][_NEXT]][_SHIP_OWNER], _ACT)
        if ph == _PHASE_FIGHT:
            return (pub[_FIGHT_WINDOW][_NEXT], _ACT)
        if ph == _PHASE_WRAP:
            return (pub[_WRAP_QUEUE][_NEXT], _ACT)
        return None

    # ---- legal actions (choices.py) --------------------------------------------------------
    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t[0] != player:
            return []
        ph = pub[_PHASE]
        if ph == _PHASE_MAIN:
            return CH.main_choices(pub, player, priv)
        if ph == _PHASE_FIGHT:
            return CH.fight_choices(pub, player, priv)
        if ph == _PHASE_WRAP:
            return [[_EV_KEEP]] + [[_EV_DISCARD, c] for c in CH.distinct(priv[_HAND])]
        return CH.question(pub, ph) or []

    # ---- acting ----------------------------------------------------------------------------
    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("not a legal action: %r" % (action,))
        if action[_TAG] == _EV_SHOW:
            return [_EV_SHOW, sorted(priv[_HAND])]
        return list(action)

    def answer(self, pub, priv, player):
        raise IllegalAction("Pinned Down asks no queries")

    # ---- events ----------------------------------------------------------------------------
    def seats(self, pub):
        return pub[_PLAYER_COUNT]

    def phase(self, pub):
        return pub[_PHASE]

    def set_up(self, pub):
        """Play waits for the set-up phase to end (pub[READY] cannot say it: Pinned Down also
        keeps the main phase's ready players there, and pub's keys never change)."""
        return pub[_PHASE] != _PHASE_SETUP

    def apply_setup(self, pub, author, event):
        return P.setup(self, pub, author, event)

    def apply_private(self, pub, priv, player, author, event):
        P.apply_private(pub, priv, player, author, event)

    def result(self, pub):
        if pub.get(_CONCEDED) is not None:
            return ([], "conceded")
        e = pub[_END]
        if e is None:
            return None
        won, reason = e
        return (list(range(pub[_PLAYER_COUNT])) if won else [], reason)


ENGINE = PinnedDown()
