# Pinned Down's turn sequence (docs/rules/pinned_down.md, "Turn sequence (rule 8)"): the
# handler of every event each phase accepts, and the steps between phases that no event
# starts (the jump's upkeep, the attack's threat and reveal, the wrap-up's draws).
#
# A handler is handler(engine, pub, author, event): the engine's table (engine.HANDLERS) maps
# phase -> tag -> handler. It checks the event against the rules first (choices.check), so a
# refused event changes nothing, then plays it. One event can cross several phases (a
# confirmed jump runs the location, the attack phase, the reveal and its attack events), so a
# handler and each step return the step that follows (a function of pub) or None, instead of
# calling it: the engine runs them one after another from its own frame. Called in a chain
# they would stand 11 Python frames deep, ~2.7 KB of an ESP32's 8 KB C stack budget
# (the budgets in docs/ARCHITECTURE.md), deeper with every phase one event crosses.
from fathom.compat import const
from fathom.prng import Prng
from fathom.games.base import IllegalAction
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import choices as CH
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_PLAYER_COUNT = const("n")
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
_SHOWN = const("shown")
_ATTACK_DECK = const("adeck")
_ATTACK_DISCARD = const("adisc")
_LOCATION_DECK = const("ldeck")
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
_PHASE_OVER = const("over")
_HAND = const("hand")
_DECK = const("deck")
_DEALT = const("drawn")
_SHUFFLE_KEY = const("key")
_SHUFFLES = const("sh")
_SHIP_OWNER = const(0)
_SHIP_CARD = const(1)
_SHIP_DAMAGE = const(2)
_SHIP_ABOARD = const(3)
_SHIP_ALIVE = const(4)
_SHIP_BOOST = const(5)
_SHIP_CLOAKED = const(6)
_SHIP_USED = const(7)
_ABOARD_OWNER = const(0)
_ABOARD_CARD = const(1)
_ABOARD_USED = const(2)
_FOE_CARD = const(0)
_FOE_BEATEN = const(1)
_FIGHT_SHIPS = const(0)
_FIGHT_FOES = const(1)
_FIGHT_DONE = const(2)
_TOKEN_COUNT = const(1)
_PLAY_CARD = const(1)
_PLAY_TARGET = const(2)
_PLAY_DAMAGE = const(3)
_USE_SHIP = const(1)
_USE_ABOARD = const(2)
_USE_CHOICE = const(3)
_USE_REPAIR_SHIP = const(3)
_USE_REPAIR_DAMAGE = const(4)
_OWN_POWER = const(-1)
_MOVE_SHIP = const(1)
_MOVE_ABOARD = const(2)
_MOVE_TO = const(3)
_SPARE_CARD = const(1)
_SPARE_SHIP = const(2)
_SPARE_DAMAGE = const(3)
_SHOW_CARDS = const(1)
_JUMP_OPTION = const(1)
_CLOAK_ON = const(1)
_DEFEND_FOE = const(1)
_RESOLVE_FIGHT = const(1)
_DISCARD_CARD = const(1)
_TAG = const(0)
_SETUP_PUBLIC = const(1)

_REFILL = const(4)        # cards drawn at set-up and refilled at wrap-up (schema.py)
_GOAL = const(10)         # distance that wins (schema.py)
_MAX_REJECT = const(2)    # a joint proposal rejected this often stands the next time
_MAX_REVEAL = const(40)   # attack cards revealed per phase at most (a guard)
LEVEL_THREAT = {"easy": 0, "normal": 1, "hard": 3}   # extra (x) per attack phase
_PLAYER_THREAT = const(7)  # extra (x) per attack phase for each player beyond the first


def extra_threat(pub):
    """The difficulty's own (x) at the start of each attack phase ("Balance and bots")."""
    return LEVEL_THREAT[pub[_LEVEL]] + _PLAYER_THREAT * (pub[_PLAYER_COUNT] - 1)


# ---- the shared moves of every phase ------------------------------------------------------
def add_threat(pub, x):
    """Add (x) or remove (-x): the pool never goes below 0 (rule 9, Add / remove)."""
    pub[_THREAT] = max(0, pub[_THREAT] + x)


def draw(pub, p, k):
    """Player p draws k cards: an empty draw deck draws nothing (rule 5). pub counts them;
    p's unit deals them from its own deck (Engine.apply_private)."""
    k = max(0, min(k, pub[_DECK_SIZES][p]))
    pub[_DECK_SIZES][p] -= k
    pub[_HAND_SIZES][p] += k
    pub[_DRAWN][p] += k


def end(pub, won, reason):
    pub[_END] = [won, reason]
    pub[_PHASE] = _PHASE_OVER


def run(pub, step):
    """Run phase step `step` and every step it hands on."""
    while step is not None:
        step = step(pub)


# ---- set-up (rule 6) ----------------------------------------------------------------------
def setup(eng, pub, p, event):
    """A unit's set-up is secret (its own deck order); the first turn starts when every
    unit has sent one."""
    if len(event) != 3 or event[_SETUP_PUBLIC] is not None:
        raise IllegalAction("set-up carries nothing public")
    if pub[_PHASE] != _PHASE_SETUP or pub[_READY][p]:
        raise IllegalAction("set-up already done")
    pub[_READY][p] = True
    return start_turn if False not in pub[_READY] else None


# ---- 1. main phase: players act in rotation from the lead until every one is ready ---------
def start_turn(pub):
    """A new turn: the lead acts first, boosts, cloaks and used powers wear off, and the
    "beginning of your turn" texts fire (Cantrell: draw)."""
    pub[_TURN] += 1
    pub[_PHASE] = _PHASE_MAIN
    n = pub[_PLAYER_COUNT]
    pub[_READY] = [False] * n
    pub[_ACTIONS] = [0] * n
    pub[_CURRENT] = pub[_LEAD]
    pub[_AMBUSH] = 0
    pub[_LAST_FIGHT] = None
    for ship in pub[_SHIPS]:
        ship[_SHIP_BOOST] = 0
        ship[_SHIP_CLOAKED] = False
        ship[_SHIP_USED] = 0
        for a in ship[_SHIP_ABOARD]:
            a[_ABOARD_USED] = 0
    for s in F.alive(pub):
        for a in pub[_SHIPS][s][_SHIP_ABOARD]:
            if C.kw(a[_ABOARD_CARD], "DRW"):
                draw(pub, a[_ABOARD_OWNER], 1)


def _acted(pub, p):
    """One main-phase action taken (the guard counts them): the next player's turn."""
    pub[_ACTIONS][p] += 1
    return _next_main(pub)


def _next_main(pub):
    """The next player not yet ready acts; when every player is ready, the fleet jumps."""
    n = pub[_PLAYER_COUNT]
    for i in range(1, n + 1):
        q = (pub[_CURRENT] + i) % n
        if not pub[_READY][q]:
            pub[_CURRENT] = q
            return None
    return jump_start


def ready(eng, pub, p, event):
    """Ready: this player is skipped for the rest of the main phase."""
    CH.check(pub, p, event)
    pub[_READY][p] = True
    return _next_main(pub)


def show(eng, pub, p, event):
    """Show hand (once a turn): the other players read it on their fleet page."""
    CH.check(pub, p, event)
    pub[_SHOWN][p] = [pub[_TURN], list(event[_SHOW_CARDS])]
    return _acted(pub, p)


def play(eng, pub, p, event):
    """Play a card from the hand (rule 7): its threat goes to the pool; a ship deploys, a
    character or equipment goes aboard, an effect happens and is discarded. In a fight
    window (threat-0 effects) the window stays with the player."""
    CH.check(pub, p, event)
    cid = event[_PLAY_CARD]
    c = C.get(cid)
    pub[_HAND_SIZES][p] -= 1
    pub[_THREAT] += c[C.THREAT]
    t = c[C.TYPE]
    if t == C.SHIP:
        pub[_SHIPS].append(F.new_ship(p, cid))
    elif t in (C.CHAR, C.EQUIP):
        pub[_SHIPS][event[_PLAY_TARGET]][_SHIP_ABOARD].append([p, cid, 0])
    else:
        _effect(pub, p, cid, event)
        pub[_DISCARDS][p].append(cid)
    if pub[_PHASE] == _PHASE_MAIN:
        return _acted(pub, p)
    return None


def _effect(pub, p, cid, event):
    """An effect card's keywords, in card order (docs: Keywords)."""
    ships = pub[_SHIPS]
    for k in C.get(cid)[C.KEYWORDS]:
        if k == "RMC":          # False Echoes: remove (1) per ship that can cloak
            add_threat(pub, -len([s for s in F.alive(pub) if "CK" in F.abilities(pub, s)]))
        elif k.startswith("RM"):
            add_threat(pub, -int(k[2:]))
        elif k == "PKL" and event[_PLAY_TARGET] == 1:     # peek: the top to the bottom
            pub[_LOCATION_DECK].append(pub[_LOCATION_DECK].pop(0))
        elif k.startswith("BO"):
            ships[event[_PLAY_TARGET]][_SHIP_BOOST] += int(k[2:])
        elif k in ("PDS", "PDD"):   # a ship from the draw deck: it adds its own threat too
            x = event[_PLAY_TARGET] if k == "PDS" else "A2"
            pub[_DECK_SIZES][p] -= 1
            pub[_THREAT] += C.get(x)[C.THREAT]
            ships.append(F.new_ship(p, x))
        elif k == "REP":
            F.repair(pub, event[_PLAY_TARGET], event[_PLAY_DAMAGE])
        elif k == "RET":        # Salvage: a card from the discard pile back to the hand
            pub[_DISCARDS][p].remove(event[_PLAY_TARGET])
            pub[_HAND_SIZES][p] += 1
        elif k.startswith("FT") or k.startswith("FA"):
            for s in pub[_FIGHTS][event[_PLAY_TARGET]][_FIGHT_SHIPS]:
                if (k.startswith("FT") and ships[s][_SHIP_OWNER] == p) or (
                        k.startswith("FA") and F.is_acarr(ships[s][_SHIP_CARD])):
                    ships[s][_SHIP_BOOST] += int(k[2:])


def use(eng, pub, p, event):
    """Use a power, once a turn: the ship's own (overload for power, or repair any ship) or
    a card's aboard (peek at the attack deck, retrieve from the discard pile, repair; a
    damage-control card is discarded by its repair). An overload can end the game."""
    CH.check(pub, p, event)
    s, i = event[_USE_SHIP], event[_USE_ABOARD]
    ship = pub[_SHIPS][s]
    if i == _OWN_POWER:
        ship[_SHIP_USED] = 1
        if len(event) == 3:     # overload (rule 9.3): power now, a damage card attached
            ship[_SHIP_BOOST] += max(F.keyword_total(F.abilities(pub, s), "OV"), 0)
            F.damage(pub, s, True)
        else:
            F.repair(pub, event[_USE_REPAIR_SHIP], event[_USE_REPAIR_DAMAGE])
    else:
        a = ship[_SHIP_ABOARD][i]
        a[_ABOARD_USED] = 1
        kws = C.get(a[_ABOARD_CARD])[C.KEYWORDS]
        choice = event[_USE_CHOICE]
        if "PKA" in kws:
            if choice == 1:
                pub[_ATTACK_DECK].append(pub[_ATTACK_DECK].pop(0))
        elif "RET" in kws:
            pub[_DISCARDS][p].remove(choice)
            pub[_HAND_SIZES][p] += 1
        else:
            F.repair(pub, s, choice)
            if "DCK" in kws:
                ship[_SHIP_ABOARD].pop(i)
                pub[_DISCARDS][a[_ABOARD_OWNER]].append(a[_ABOARD_CARD])
    if pub[_END] is None:
        return _acted(pub, p)
    return None


def move(eng, pub, p, event):
    """Move one's own character or equipment to another ship with room (rule 7)."""
    CH.check(pub, p, event)
    a = pub[_SHIPS][event[_MOVE_SHIP]][_SHIP_ABOARD].pop(event[_MOVE_ABOARD])
    pub[_SHIPS][event[_MOVE_TO]][_SHIP_ABOARD].append(a)
    return _acted(pub, p)


def spare(eng, pub, p, event):
    """Spare parts: discard a ship card to repair a ship of its class (a discard, not a play:
    no threat)."""
    CH.check(pub, p, event)
    pub[_HAND_SIZES][p] -= 1
    pub[_DISCARDS][p].append(event[_SPARE_CARD])
    F.repair(pub, event[_SPARE_SHIP], event[_SPARE_DAMAGE])
    return _acted(pub, p)


# ---- joint decisions: the lead proposes, the others agree or object -----------------------
def _decide(pub, ph):
    pub[_PHASE] = ph
    pub[_OBJECTIONS] = 0


def _propose(pub, ph, done):
    """Ask the others to agree in turn; alone, or after _MAX_REJECT objections, the proposal
    stands and `done` is next ("Simultaneous play on one log")."""
    if pub[_PLAYER_COUNT] > 1 and pub[_OBJECTIONS] < _MAX_REJECT:
        pub[_PHASE] = ph
        n = pub[_PLAYER_COUNT]
        pub[_TO_CONFIRM] = [(pub[_LEAD] + i) % n for i in range(1, n)]
        return None
    return done


def agree(eng, pub, p, event):
    """Agree: when the last one agrees, the jump or the assignment stands."""
    CH.check(pub, p, event)
    pub[_TO_CONFIRM].pop(0)
    if pub[_TO_CONFIRM]:
        return None
    return do_jump if pub[_PHASE] == _PHASE_JUMP_CONFIRM else fights_start


def object_(eng, pub, p, event):
    """Object: the decision goes back to the lead, who proposes again."""
    CH.check(pub, p, event)
    pub[_OBJECTIONS] += 1
    pub[_TO_CONFIRM] = []
    if pub[_PHASE] == _PHASE_JUMP_CONFIRM:
        pub[_PHASE] = _PHASE_JUMP
    else:
        pub[_ASSIGNED] = []
        pub[_FIGHTS] = []
        pub[_PHASE] = _PHASE_ASSIGN


# ---- 2. jump phase ------------------------------------------------------------------------
def jump_start(pub):
    """Every alive ship's upkeep is added; the top two locations (three with Navigator Sul
    aboard) are revealed. No location left: the fleet is lost."""
    for s in F.alive(pub):
        add_threat(pub, C.kwnum(pub[_SHIPS][s][_SHIP_CARD], "U"))
    k = 2
    for s in F.alive(pub):
        if [1 for a in pub[_SHIPS][s][_SHIP_ABOARD] if C.kw(a[_ABOARD_CARD], "NAV")]:
            k = 3
    pub[_JUMP_OPTIONS] = pub[_LOCATION_DECK][:k]
    pub[_LOCATION_DECK] = pub[_LOCATION_DECK][k:]
    if not pub[_JUMP_OPTIONS]:
        end(pub, False, "no location left")
        return None
    _decide(pub, _PHASE_JUMP)
    return None


def jump(eng, pub, p, event):
    """The lead proposes a location."""
    CH.check(pub, p, event)
    pub[_PROPOSED] = event[_JUMP_OPTION]
    return _propose(pub, _PHASE_JUMP_CONFIRM, do_jump)


def do_jump(pub):
    """The fleet jumps: the location goes on the table (the others to the bottom of the
    deck), its distance is added and its "when the fleet jumps here" text happens."""
    i = pub[_PROPOSED]
    opts = pub[_JUMP_OPTIONS]
    loc = opts[i]
    pub[_LOCATION_DECK].extend(opts[:i] + opts[i + 1:])
    pub[_JUMP_OPTIONS] = []
    pub[_LOCATIONS].append(loc)
    pub[_DISTANCE] += C.get(loc)[C.POWER]
    for k in C.get(loc)[C.KEYWORDS]:
        if k == "DFL":
            for s in F.alive(pub):
                if C.kw(pub[_SHIPS][s][_SHIP_CARD], "F"):
                    F.damage(pub, s, False)
        elif k == "DRA":
            for q in range(pub[_PLAYER_COUNT]):
                draw(pub, q, 1)
        elif k == "RPX":
            for s in F.alive(pub):
                if pub[_SHIPS][s][_SHIP_DAMAGE]:
                    F.repair(pub, s, F.worst_damage(pub, s))
        elif k.startswith("ADD"):
            add_threat(pub, int(k[3:]))
        elif k in ("OVH", "DHI"):
            s = F.strongest(pub)
            if s >= 0:
                F.damage(pub, s, k == "OVH")
    return attack_start if pub[_END] is None else None


# ---- 3. attack phase ----------------------------------------------------------------------
def attack_start(pub):
    """The threat of the attack: the table's tokens, two per location, one per ship, the
    difficulty's own, less Silent Whisper's remove (2); then the cloaking decisions."""
    for t in pub[_TABLE]:
        add_threat(pub, t[_TOKEN_COUNT])
    ships = F.alive(pub)
    add_threat(pub, 2 * len(pub[_LOCATIONS]) + len(ships) + extra_threat(pub))
    for s in ships:
        add_threat(pub, -C.kwnum(pub[_SHIPS][s][_SHIP_CARD], "RM"))
    cq = []
    for s in ships:   # a loop, not a comprehension: one frame less under can_cloak
        if F.can_cloak(pub, s):
            cq.append(s)
    pub[_CLOAK_QUEUE] = cq
    pub[_PHASE] = _PHASE_CLOAK
    return None if cq else reveal


def cloak(eng, pub, p, event):
    """The owner of the next ship that can cloak decides: cloak (fight nowhere this turn)
    or fight. After the last, the attack deck is revealed."""
    CH.check(pub, p, event)
    s = pub[_CLOAK_QUEUE].pop(0)
    pub[_SHIPS][s][_SHIP_CLOAKED] = event[_CLOAK_ON] == 1
    return None if pub[_CLOAK_QUEUE] else reveal


def reveal(pub):
    """Attack cards are revealed one by one, each paid from the pool; the first that costs
    more than the pool is discarded and revealing stops. Attackers stay, events happen."""
    for _ in range(_MAX_REVEAL):
        card = F.attack_top(pub)
        if card is None:
            break
        c = C.get(card)
        if c[C.THREAT] > pub[_THREAT]:
            pub[_ATTACK_DISCARD].append(card)
            break
        pub[_THREAT] -= c[C.THREAT]
        if c[C.TYPE] == C.FOE:
            pub[_FOES].append([card, False])
        else:
            _attack_event(pub, card)
        if pub[_END] is not None:
            return None
    return assign_start


def _attack_event(pub, card):
    """An attack event's text, as it is revealed; then it is discarded, unless it stays on
    the table with its tokens (The End Draws Near)."""
    kws = C.get(card)[C.KEYWORDS]
    if "TOK" in kws:
        if F.unique_ok(pub, card):
            pub[_TABLE].append([card, 0])
            return
    elif "AMB" in kws:
        pub[_AMBUSH] += 1
    elif "SAB" in kws:
        s = F.strongest(pub)
        if s >= 0:
            F.damage(pub, s, False)
    elif "WEA" in kws:          # Weary: a random character (not immune) is discarded
        crew = []
        for s in F.alive(pub):
            aboard = pub[_SHIPS][s][_SHIP_ABOARD]
            for i in range(len(aboard)):
                cid = aboard[i][_ABOARD_CARD]
                if C.get(cid)[C.TYPE] == C.CHAR and not C.kw(cid, "IW"):
                    crew.append([s, i])
        if crew:
            s, i = crew[F.rng(pub).below(len(crew))]
            a = pub[_SHIPS][s][_SHIP_ABOARD].pop(i)
            pub[_DISCARDS][a[_ABOARD_OWNER]].append(a[_ABOARD_CARD])
    elif "TRK" in kws:
        for ship in pub[_SHIPS]:
            ship[_SHIP_CLOAKED] = False
    pub[_ATTACK_DISCARD].append(card)


# ---- 4. assignment phase ------------------------------------------------------------------
def assign_start(pub):
    """The uncloaked alive ships fight; no attacker or no fighter: no fights."""
    pub[_FIGHTERS] = [s for s in F.alive(pub) if not pub[_SHIPS][s][_SHIP_CLOAKED]]
    pub[_ASSIGNED] = []
    pub[_FIGHTS] = []
    if not pub[_FOES] or not pub[_FIGHTERS]:
        return wrap_start
    _decide(pub, _PHASE_ASSIGN)
    return None


def defend(eng, pub, p, event):
    """The lead assigns the next fighter an attacker; with the last, the fights are built
    (fights.build: the leftover attackers join) and proposed."""
    CH.check(pub, p, event)
    pub[_ASSIGNED].append(event[_DEFEND_FOE])
    if len(pub[_ASSIGNED]) != len(pub[_FIGHTERS]):
        return None
    pub[_FIGHTS] = FT.build(pub, pub[_ASSIGNED], None)
    return _propose(pub, _PHASE_ASSIGN_CONFIRM, fights_start)


# ---- 5. fights ----------------------------------------------------------------------------
def fights_start(pub):
    pub[_PHASE] = _PHASE_FIGHT
    _window(pub)


def _window(pub):
    """Before each fight a window: every player but the lead in order, the lead last."""
    n, lead = pub[_PLAYER_COUNT], pub[_LEAD]
    pub[_FIGHT_WINDOW] = [(lead + i) % n for i in range(1, n)] + [lead]


def pass_(eng, pub, p, event):
    """Pass: done playing effects in this window."""
    CH.check(pub, p, event)
    pub[_FIGHT_WINDOW].pop(0)


def fight(eng, pub, p, event):
    """The lead resolves a fight; then the next window, or wrap-up after the last."""
    CH.check(pub, p, event)
    resolve(pub, event[_RESOLVE_FIGHT])
    if pub[_END] is not None:
        return None
    if CH.open_fights(pub):
        _window(pub)
        return None
    return wrap_start


def resolve(pub, k):
    """Rule 8.5: the power sums with the battle destinies, then win (the attackers are
    beaten), overpowered (every ship in the fight destroyed) or damaged (a card each)."""
    fight_ = pub[_FIGHTS][k]
    fight_[_FIGHT_DONE] = True
    pp, pd, ep, ed, n = FT.sums(pub, fight_, None)
    # the battle destinies, the fleet's first, each the top attack card's threat: drawn
    # here rather than in a helper, whose reshuffle would add two frames to the deepest
    # chain under apply (no power above depends on the attack deck)
    for i in range(pd + ed):
        card = F.attack_top(pub)
        if card is None:
            continue
        pub[_ATTACK_DISCARD].append(card)
        if i < pd:
            pp += C.get(card)[C.THREAT]
        else:
            ep += C.get(card)[C.THREAT]
    ships = pub[_SHIPS]
    fighters = [s for s in fight_[_FIGHT_SHIPS] if ships[s][_SHIP_ALIVE]]  # before any is lost
    won = FT.outcome(pp, ep, n)
    if won == FT.WIN:
        for f in fight_[_FIGHT_FOES]:
            foe = pub[_FOES][f]
            pub[_ATTACK_DISCARD].append(foe[_FOE_CARD])
            foe[_FOE_BEATEN] = True
    elif won == FT.OVERPOWERED:
        for s in fighters:
            F.destroy(pub, s)
    elif won == FT.DAMAGED:
        for s in fighters:
            F.damage(pub, s, False)
    pub[_LAST_FIGHT] = [k, pp, ep, won]


# ---- 6. wrap-up ---------------------------------------------------------------------------
def wrap_start(pub):
    pub[_PHASE] = _PHASE_WRAP
    n = pub[_PLAYER_COUNT]
    pub[_WRAP_QUEUE] = [(pub[_LEAD] + i) % n for i in range(n)]


def discard(eng, pub, p, event):
    """Discard one card from the hand, then draw up to the hand size."""
    CH.check(pub, p, event)
    pub[_HAND_SIZES][p] -= 1
    pub[_DISCARDS][p].append(event[_DISCARD_CARD])
    return _wrapped(pub, p)


def keep(eng, pub, p, event):
    """Keep the hand, then draw up to the hand size."""
    CH.check(pub, p, event)
    return _wrapped(pub, p)


def _wrapped(pub, p):
    """After the last player: the attackers left are discarded, each table card gains a
    token, and the fleet wins at the goal distance; else the lead passes on."""
    draw(pub, p, _REFILL - pub[_HAND_SIZES][p])
    pub[_WRAP_QUEUE].pop(0)
    if pub[_WRAP_QUEUE]:
        return None
    for foe in pub[_FOES]:
        if not foe[_FOE_BEATEN]:
            pub[_ATTACK_DISCARD].append(foe[_FOE_CARD])
    pub[_FOES] = []
    pub[_FIGHTS] = []
    for t in pub[_TABLE]:
        t[_TOKEN_COUNT] += 1
    if pub[_DISTANCE] >= _GOAL:
        end(pub, True, "distance %d reached" % pub[_DISTANCE])
        return None
    pub[_LEAD] = (pub[_LEAD] + 1) % pub[_PLAYER_COUNT]
    return start_turn


# ---- the private side: what an event does to the author's own hand and deck ----------------
def apply_private(pub, priv, player, author, event):
    """The author's unit takes the card it used out of its hand (a Call to Arms ship out of
    its deck, which it then reshuffles from its private key, rule 9); every unit deals itself
    the cards pub says it drew."""
    tag = event[_TAG]
    hand, deck = priv[_HAND], priv[_DECK]
    if author == player and tag in ("play", "spare", "discard") and event[_PLAY_CARD] in hand:
        cid = event[_PLAY_CARD]
        hand.remove(cid)
        if tag == "play" and C.get(cid)[C.TYPE] == C.EFFECT:
            kws = C.get(cid)[C.KEYWORDS]
            if "PDS" in kws or "PDD" in kws:
                x = event[_PLAY_TARGET] if "PDS" in kws else "A2"
                if x in deck:
                    deck.remove(x)
                priv[_SHUFFLES] += 1
                Prng(priv[_SHUFFLE_KEY], b"sh%d" % priv[_SHUFFLES]).shuffle(deck)
            if "RET" in kws:
                hand.append(event[_PLAY_TARGET])
    if author == player and tag == "use" and len(event) == 4 \
            and event[_USE_ABOARD] != _OWN_POWER and isinstance(event[_USE_CHOICE], str):
        hand.append(event[_USE_CHOICE])          # a card retrieved from the discard pile
    while priv[_DEALT] < pub[_DRAWN][player] and deck:
        hand.append(deck.pop(0))
        priv[_DEALT] += 1
