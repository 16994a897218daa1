# Pinned Down's data, named: every key of the public and private state, every slot of a ship
# and of the records it holds, and every slot of every event (docs/rules/pinned_down.md,
# "Events"), each with its meaning. This is the declaration; the firmware never imports it.
# Each module that reads the state (the engine, phases, choices, fleet, fights, the words,
# the screen, the bot) declares the names it reads as private copies, `_NAME = const(...)`
# under the same name, which MicroPython folds into the code: no module global, no heap. As
# globals of a module imported for `K.NAME` they took 1 KB of a unit's heap for the whole
# game. tests/engines/test_engine_schema.py holds every copy to this file; the tests read it
# as `K`.
#
# The key strings and event shapes are what the hash chain, the journal and the link carry:
# they must never change, or a saved game no longer resumes and two firmware versions no longer
# agree. Only the names here are for the reader.
from fathom.compat import const

# The framework's names (games/base.py), as Pinned Down reads them.
TAG = const(0)                  # every event's first slot: its tag
SETUP_PUBLIC = const(1)         # [SETUP, public part, commitment]: Pinned Down's is None
CONCEDED = const("conceded")    # set by the framework (Engine.concede): who conceded

# ---- the rules' numbers that more than one module reads -------------------------------------
REFILL = const(4)               # cards drawn at set-up and refilled at wrap-up
GOAL = const(10)                # the distance that wins

# ---- the public state (pub): the same on every unit --------------------------------------
PLAYER_COUNT = const("n")       # number of players, 1 to 4
AFFILIATIONS = const("aff")     # per player: the deck's affiliation ("purple", "red", ...)
DECK_LISTS = const("lists")     # per player: the deck file's card ids, in file order
LEVEL = const("lvl")            # the difficulty option: "easy", "normal" or "hard"
PHASE = const("ph")             # the phase now: one of the PHASE_ values below
TURN = const("turn")            # the turn number, 0 during set-up
LEAD = const("lead")            # the lead player: proposes the jump and the assignment
CURRENT = const("cur")          # main phase: the player whose action is next
READY = const("ready")          # per player: set-up sent (then) or ready in this main phase
ACTIONS = const("acts")         # per player: main-phase actions taken this turn
THREAT = const("threat")        # the threat pool
DISTANCE = const("dist")        # the distance travelled (GOAL wins)
LOCATIONS = const("locs")       # the locations jumped to, the newest (the one in force) last
JUMP_OPTIONS = const("lopts")   # the locations revealed to jump to now
PROPOSED = const("prop")        # the index in JUMP_OPTIONS the lead proposed
OBJECTIONS = const("rej")       # objections in the joint decision open now
TO_CONFIRM = const("conf")      # players still to agree to the proposal, the next first
CLOAK_QUEUE = const("cq")       # ships whose owners still decide to cloak, the next first
FIGHTERS = const("fs")          # the ships that fight this attack (alive, not cloaked)
ASSIGNED = const("asg")         # per fighter so far: the index in FOES it defends against
FIGHTS = const("fights")        # the fights: FIGHT_ records
FIGHT_WINDOW = const("fw")      # players still to act before the next fight, the lead last
WRAP_QUEUE = const("wq")        # players still to wrap up, the next first
FOES = const("foes")            # the attackers revealed this turn: FOE_ records
AMBUSH = const("ab")            # power every attacker gains this turn (Ambush)
TABLE = const("tbl")            # attack cards lying on the table: TOKEN_ records
SHIPS = const("ships")          # every player starship ever in play: SHIP_ records
LAST_FIGHT = const("last")      # the fight resolved last: [index, fleet power, enemy, outcome]
HAND_SIZES = const("hs")        # per player: cards in hand
DECK_SIZES = const("dn")        # per player: cards left in the draw deck
DRAWN = const("drawn")          # per player: cards drawn so far (each unit deals its own)
DISCARDS = const("disc")        # per player: the discard pile
DESTROYED = const("dest")       # per player: the ship cards destroyed (uniques stay gone)
SHOWN = const("shown")          # per player: the last hand shown, SHOWN_ record, or None
ATTACK_DECK = const("adeck")    # the attack deck, top first
ATTACK_DISCARD = const("adisc")  # the attack discard pile
LOCATION_DECK = const("ldeck")  # the location deck, top first
DAMAGE_DECK = const("ddeck")    # the damage deck, top first
DAMAGE_DISCARD = const("ddisc")  # the damage discard pile
CHANCE_KEY = const("key")       # public chance: the key of reshuffles and random discards
CHANCE_COUNT = const("rc")      # public chance: draws taken from CHANCE_KEY so far
END = const("end")              # None while playing, else [won, reason]

# The phases, in turn order (PHASE). Each has its handler table in engine.py.
PHASE_SETUP = const("setup")    # every unit sends its set-up
PHASE_MAIN = const("main")      # deploy, play, move, use, spare, show, ready (rule 8.1)
PHASE_JUMP = const("jump")      # the lead proposes a location (rule 8.2)
PHASE_JUMP_CONFIRM = const("jconf")   # the others agree or object to the jump
PHASE_CLOAK = const("cloak")    # each ship that can cloak: its owner decides (rule 8.3)
PHASE_ASSIGN = const("assign")  # the lead assigns the fighters to attackers (rule 8.4)
PHASE_ASSIGN_CONFIRM = const("aconf")  # the others agree or object to the assignment
PHASE_FIGHT = const("fight")    # fight windows, then the lead resolves a fight (rule 8.5)
PHASE_WRAP = const("wrap")      # each player discards or keeps, then draws (rule 8.6)
PHASE_OVER = const("over")      # the game has ended

# ---- the private state (priv): one player's, never leaves the unit ------------------------
HAND = const("hand")            # the cards in hand
DECK = const("deck")            # the draw deck in order, top first
DEALT = const("drawn")          # cards this unit has dealt itself (catches up to pub DRAWN)
SHUFFLE_KEY = const("key")      # the key of this deck's reshuffles (Call to Arms)
SHUFFLES = const("sh")          # reshuffles so far

# ---- records inside pub -------------------------------------------------------------------
# a player starship, SHIPS[s]
SHIP_OWNER = const(0)           # the player who deployed it
SHIP_CARD = const(1)            # its card id
SHIP_DAMAGE = const(2)          # the damage cards under it
SHIP_ABOARD = const(3)          # its characters and equipment: ABOARD_ records
SHIP_ALIVE = const(4)           # False once destroyed (the record stays: indices are stable;
                                # its three lists become the empty tuple, fleet.destroy)
SHIP_BOOST = const(5)           # power added by effects this turn
SHIP_CLOAKED = const(6)         # cloaked this attack
SHIP_USED = const(7)            # its own power used this turn
SHIP_OVERLOADS = const(8)       # per damage card (same order): 1 if an overload attached it
# a character or equipment card aboard a ship, SHIPS[s][SHIP_ABOARD][i]
ABOARD_OWNER = const(0)         # the player who deployed it (only they may move it)
ABOARD_CARD = const(1)          # its card id
ABOARD_USED = const(2)          # its power used this turn
# an attacker revealed this turn, FOES[f]
FOE_CARD = const(0)             # its attack card id
FOE_BEATEN = const(1)           # True once a fight against it was won
# a fight, FIGHTS[k]
FIGHT_SHIPS = const(0)          # the fighters in it
FIGHT_FOES = const(1)           # the attackers in it (indices in FOES)
FIGHT_DONE = const(2)           # True once resolved
# an attack card staying on the table (The End Draws Near), TABLE[t]
TOKEN_CARD = const(0)           # its card id
TOKEN_COUNT = const(1)          # its tokens: the threat it adds each attack phase
# a hand shown, SHOWN[p]
SHOWN_TURN = const(0)           # the turn it was shown in (once per turn)
SHOWN_CARDS = const(1)          # the cards, sorted

# the first of a list in pub that is read from one end
NEXT = const(0)                 # a queue's next: TO_CONFIRM, CLOAK_QUEUE, FIGHT_WINDOW, ...
TOP = const(0)                  # a deck's top card: ATTACK_DECK, LOCATION_DECK, DAMAGE_DECK

# ---- events: [tag, slots...]; every card a player uses is named by the event --------------
# The tags are the words the link and the journal carry (EV_ names them for the handler
# table and the rules page's event table, which a test holds to these names); TAG (base) is
# every event's first slot.
EV_PLAY = const("play")         # main phase or a fight window: play a card from the hand
EV_USE = const("use")           # main phase: use a power (a ship's own, or a card's aboard)
EV_MOVE = const("move")         # main phase: move one's character or equipment
EV_SPARE = const("spare")       # main phase: discard a ship card to repair its class
EV_SHOW = const("show")         # main phase: show the whole hand (once a turn)
EV_READY = const("ready")       # main phase: done for this phase
EV_JUMP = const("jump")         # jump phase: the lead proposes a location
EV_AGREE = const("yes")         # a proposal: this player agrees
EV_OBJECT = const("no")         # a proposal: this player objects (back to the lead)
EV_CLOAK = const("cloak")       # attack phase: cloak the next ship, or not
EV_DEFEND = const("def")        # assignment: the next fighter's attacker
EV_PASS = const("pass")         # a fight window: done playing effects
EV_RESOLVE = const("fight")     # a fight window: the lead resolves a fight
EV_DISCARD = const("discard")   # wrap-up: discard a card, then draw
EV_KEEP = const("keep")         # wrap-up: keep the hand, then draw
# ["play", card] / ["play", card, target] / ["play", card, ship, damage]
PLAY_CARD = const(1)            # the card played from the hand
PLAY_TARGET = const(2)          # a ship (deploy aboard, boost, repair), a fight (fight
#                                 effects), a card (Call to Arms, Salvage) or 0/1 (a peek:
#                                 1 sends the top card to the bottom)
PLAY_DAMAGE = const(3)          # repairs: the index of the damage card under the ship
# ["use", ship, OWN_POWER] (overload) / ["use", ship, OWN_POWER, to ship, damage] (repair) /
# ["use", ship, aboard, choice]
USE_SHIP = const(1)             # the ship whose power, or whose card aboard, is used
USE_ABOARD = const(2)           # the index of the card aboard, or OWN_POWER
USE_CHOICE = const(3)           # aboard: 0/1 (peek), a damage index (repair), a card (Salvage)
USE_REPAIR_SHIP = const(3)      # the ship's own repair: the ship repaired
USE_REPAIR_DAMAGE = const(4)    # ... and the index of its damage card
OWN_POWER = const(-1)           # USE_ABOARD when the ship's own card is used
# ["move", ship, aboard, to ship]
MOVE_SHIP = const(1)            # the ship the card is aboard
MOVE_ABOARD = const(2)          # the index of the card aboard
MOVE_TO = const(3)              # the ship it moves to
# ["spare", card, ship, damage]
SPARE_CARD = const(1)           # the ship card discarded for spare parts
SPARE_SHIP = const(2)           # the ship repaired (same class)
SPARE_DAMAGE = const(3)         # the index of its damage card
SHOW_CARDS = const(1)           # ["show", cards]: the whole hand, sorted
JUMP_OPTION = const(1)          # ["jump", i]: the index in JUMP_OPTIONS proposed
CLOAK_ON = const(1)             # ["cloak", 1 or 0]: 1 cloaks the next ship in CLOAK_QUEUE
DEFEND_FOE = const(1)           # ["def", f]: the next fighter defends against FOES[f]
RESOLVE_FIGHT = const(1)        # ["fight", k]: the lead resolves FIGHTS[k]
DISCARD_CARD = const(1)         # ["discard", card]: wrap-up discard
# ["ready"], ["pass"], ["keep"], ["yes"], ["no"]: the tag alone
