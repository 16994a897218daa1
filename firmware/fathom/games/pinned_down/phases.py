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
# (DESIGN.md), deeper with every phase one event crosses.
from fathom.prng import Prng
from fathom.games.base import IllegalAction
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import schema as K
from fathom.games.pinned_down import choices as CH
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F

REFILL = 4               # cards drawn at set-up and refilled at wrap-up
GOAL = 10                # distance that wins
MAX_REJECT = 2           # a joint proposal rejected this often stands the next time
MAX_REVEAL = 40          # attack cards revealed per phase at most (a guard)
LEVEL_THREAT = {"easy": 0, "normal": 1, "hard": 3}   # extra (x) per attack phase
PLAYER_THREAT = 7        # extra (x) per attack phase for each player beyond the first


def extra_threat(pub):
    """The difficulty's own (x) at the start of each attack phase ("Balance and bots")."""
    return LEVEL_THREAT[pub[K.LEVEL]] + PLAYER_THREAT * (pub[K.PLAYER_COUNT] - 1)


# ---- the shared moves of every phase ------------------------------------------------------
def add_threat(pub, x):
    """Add (x) or remove (-x): the pool never goes below 0 (rule 9, Add / remove)."""
    pub[K.THREAT] = max(0, pub[K.THREAT] + x)


def draw(pub, p, k):
    """Player p draws k cards: an empty draw deck draws nothing (rule 5). pub counts them;
    p's unit deals them from its own deck (Engine.apply_private)."""
    k = max(0, min(k, pub[K.DECK_SIZES][p]))
    pub[K.DECK_SIZES][p] -= k
    pub[K.HAND_SIZES][p] += k
    pub[K.DRAWN][p] += k


def end(pub, won, reason):
    pub[K.END] = [won, reason]
    pub[K.PHASE] = K.PHASE_OVER


def run(pub, step):
    """Run phase step `step` and every step it hands on."""
    while step is not None:
        step = step(pub)


# ---- set-up (rule 6) ----------------------------------------------------------------------
def setup(eng, pub, p, event):
    """A unit's set-up is secret (its own deck order); the first turn starts when every
    unit has sent one."""
    if len(event) != 3 or event[K.SETUP_PUBLIC] is not None:
        raise IllegalAction("set-up carries nothing public")
    if pub[K.PHASE] != K.PHASE_SETUP or pub[K.READY][p]:
        raise IllegalAction("set-up already done")
    pub[K.READY][p] = True
    return start_turn if False not in pub[K.READY] else None


# ---- 1. main phase: players act in rotation from the lead until every one is ready ---------
def start_turn(pub):
    """A new turn: the lead acts first, boosts, cloaks and used powers wear off, and the
    "beginning of your turn" texts fire (Cantrell: draw)."""
    pub[K.TURN] += 1
    pub[K.PHASE] = K.PHASE_MAIN
    n = pub[K.PLAYER_COUNT]
    pub[K.READY] = [False] * n
    pub[K.ACTIONS] = [0] * n
    pub[K.CURRENT] = pub[K.LEAD]
    pub[K.AMBUSH] = 0
    pub[K.LAST_FIGHT] = None
    for ship in pub[K.SHIPS]:
        ship[K.SHIP_BOOST] = 0
        ship[K.SHIP_CLOAKED] = False
        ship[K.SHIP_USED] = 0
        for a in ship[K.SHIP_ABOARD]:
            a[K.ABOARD_USED] = 0
    for s in F.alive(pub):
        for a in pub[K.SHIPS][s][K.SHIP_ABOARD]:
            if C.kw(a[K.ABOARD_CARD], "DRW"):
                draw(pub, a[K.ABOARD_OWNER], 1)


def _acted(pub, p):
    """One main-phase action taken (the guard counts them): the next player's turn."""
    pub[K.ACTIONS][p] += 1
    return _next_main(pub)


def _next_main(pub):
    """The next player not yet ready acts; when every player is ready, the fleet jumps."""
    n = pub[K.PLAYER_COUNT]
    for i in range(1, n + 1):
        q = (pub[K.CURRENT] + i) % n
        if not pub[K.READY][q]:
            pub[K.CURRENT] = q
            return None
    return jump_start


def ready(eng, pub, p, event):
    """Ready: this player is skipped for the rest of the main phase."""
    CH.check(pub, p, event)
    pub[K.READY][p] = True
    return _next_main(pub)


def show(eng, pub, p, event):
    """Show hand (once a turn): the other players read it on their fleet page."""
    CH.check(pub, p, event)
    pub[K.SHOWN][p] = [pub[K.TURN], list(event[K.SHOW_CARDS])]
    return _acted(pub, p)


def play(eng, pub, p, event):
    """Play a card from the hand (rule 7): its threat goes to the pool; a ship deploys, a
    character or equipment goes aboard, an effect happens and is discarded. In a fight
    window (threat-0 effects) the window stays with the player."""
    CH.check(pub, p, event)
    cid = event[K.PLAY_CARD]
    c = C.get(cid)
    pub[K.HAND_SIZES][p] -= 1
    pub[K.THREAT] += c[C.THREAT]
    t = c[C.TYPE]
    if t == C.SHIP:
        pub[K.SHIPS].append(F.new_ship(p, cid))
    elif t in (C.CHAR, C.EQUIP):
        pub[K.SHIPS][event[K.PLAY_TARGET]][K.SHIP_ABOARD].append([p, cid, 0])
    else:
        _effect(pub, p, cid, event)
        pub[K.DISCARDS][p].append(cid)
    if pub[K.PHASE] == K.PHASE_MAIN:
        return _acted(pub, p)
    return None


def _effect(pub, p, cid, event):
    """An effect card's keywords, in card order (docs: Keywords)."""
    ships = pub[K.SHIPS]
    for k in C.get(cid)[C.KEYWORDS]:
        if k == "RMC":          # False Echoes: remove (1) per ship that can cloak
            add_threat(pub, -len([s for s in F.alive(pub) if "CK" in F.abilities(pub, s)]))
        elif k.startswith("RM"):
            add_threat(pub, -int(k[2:]))
        elif k == "PKL" and event[K.PLAY_TARGET] == 1:     # peek: the top to the bottom
            pub[K.LOCATION_DECK].append(pub[K.LOCATION_DECK].pop(0))
        elif k.startswith("BO"):
            ships[event[K.PLAY_TARGET]][K.SHIP_BOOST] += int(k[2:])
        elif k in ("PDS", "PDD"):   # a ship from the draw deck: it adds its own threat too
            x = event[K.PLAY_TARGET] if k == "PDS" else "A2"
            pub[K.DECK_SIZES][p] -= 1
            pub[K.THREAT] += C.get(x)[C.THREAT]
            ships.append(F.new_ship(p, x))
        elif k == "REP":
            F.repair(pub, event[K.PLAY_TARGET], event[K.PLAY_DAMAGE])
        elif k == "RET":        # Salvage: a card from the discard pile back to the hand
            pub[K.DISCARDS][p].remove(event[K.PLAY_TARGET])
            pub[K.HAND_SIZES][p] += 1
        elif k.startswith("FT") or k.startswith("FA"):
            for s in pub[K.FIGHTS][event[K.PLAY_TARGET]][K.FIGHT_SHIPS]:
                if (k.startswith("FT") and ships[s][K.SHIP_OWNER] == p) or (
                        k.startswith("FA") and F.is_acarr(ships[s][K.SHIP_CARD])):
                    ships[s][K.SHIP_BOOST] += int(k[2:])


def use(eng, pub, p, event):
    """Use a power, once a turn: the ship's own (overload for power, or repair any ship) or
    a card's aboard (peek at the attack deck, retrieve from the discard pile, repair; a
    damage-control card is discarded by its repair). An overload can end the game."""
    CH.check(pub, p, event)
    s, i = event[K.USE_SHIP], event[K.USE_ABOARD]
    ship = pub[K.SHIPS][s]
    if i == K.OWN_POWER:
        ship[K.SHIP_USED] = 1
        if len(event) == 3:     # overload (rule 9.3): power now, a damage card attached
            ship[K.SHIP_BOOST] += max(F.keyword_total(F.abilities(pub, s), "OV"), 0)
            F.damage(pub, s, overload=True)
        else:
            F.repair(pub, event[K.USE_REPAIR_SHIP], event[K.USE_REPAIR_DAMAGE])
    else:
        a = ship[K.SHIP_ABOARD][i]
        a[K.ABOARD_USED] = 1
        kws = C.get(a[K.ABOARD_CARD])[C.KEYWORDS]
        choice = event[K.USE_CHOICE]
        if "PKA" in kws:
            if choice == 1:
                pub[K.ATTACK_DECK].append(pub[K.ATTACK_DECK].pop(0))
        elif "RET" in kws:
            pub[K.DISCARDS][p].remove(choice)
            pub[K.HAND_SIZES][p] += 1
        else:
            F.repair(pub, s, choice)
            if "DCK" in kws:
                ship[K.SHIP_ABOARD].pop(i)
                pub[K.DISCARDS][a[K.ABOARD_OWNER]].append(a[K.ABOARD_CARD])
    if pub[K.END] is None:
        return _acted(pub, p)
    return None


def move(eng, pub, p, event):
    """Move one's own character or equipment to another ship with room (rule 7)."""
    CH.check(pub, p, event)
    a = pub[K.SHIPS][event[K.MOVE_SHIP]][K.SHIP_ABOARD].pop(event[K.MOVE_ABOARD])
    pub[K.SHIPS][event[K.MOVE_TO]][K.SHIP_ABOARD].append(a)
    return _acted(pub, p)


def spare(eng, pub, p, event):
    """Spare parts: discard a ship card to repair a ship of its class (a discard, not a play:
    no threat)."""
    CH.check(pub, p, event)
    pub[K.HAND_SIZES][p] -= 1
    pub[K.DISCARDS][p].append(event[K.SPARE_CARD])
    F.repair(pub, event[K.SPARE_SHIP], event[K.SPARE_DAMAGE])
    return _acted(pub, p)


# ---- joint decisions: the lead proposes, the others agree or object -----------------------
def _decide(pub, ph):
    pub[K.PHASE] = ph
    pub[K.OBJECTIONS] = 0


def _propose(pub, ph, done):
    """Ask the others to agree in turn; alone, or after MAX_REJECT objections, the proposal
    stands and `done` is next ("Simultaneous play on one log")."""
    if pub[K.PLAYER_COUNT] > 1 and pub[K.OBJECTIONS] < MAX_REJECT:
        pub[K.PHASE] = ph
        n = pub[K.PLAYER_COUNT]
        pub[K.TO_CONFIRM] = [(pub[K.LEAD] + i) % n for i in range(1, n)]
        return None
    return done


def agree(eng, pub, p, event):
    """Agree: when the last one agrees, the jump or the assignment stands."""
    CH.check(pub, p, event)
    pub[K.TO_CONFIRM].pop(0)
    if pub[K.TO_CONFIRM]:
        return None
    return do_jump if pub[K.PHASE] == K.PHASE_JUMP_CONFIRM else fights_start


def object_(eng, pub, p, event):
    """Object: the decision goes back to the lead, who proposes again."""
    CH.check(pub, p, event)
    pub[K.OBJECTIONS] += 1
    pub[K.TO_CONFIRM] = []
    if pub[K.PHASE] == K.PHASE_JUMP_CONFIRM:
        pub[K.PHASE] = K.PHASE_JUMP
    else:
        pub[K.ASSIGNED] = []
        pub[K.FIGHTS] = []
        pub[K.PHASE] = K.PHASE_ASSIGN


# ---- 2. jump phase ------------------------------------------------------------------------
def jump_start(pub):
    """Every alive ship's upkeep is added; the top two locations (three with Navigator Sul
    aboard) are revealed. No location left: the fleet is lost."""
    for s in F.alive(pub):
        add_threat(pub, C.kwnum(pub[K.SHIPS][s][K.SHIP_CARD], "U"))
    k = 2
    for s in F.alive(pub):
        if [1 for a in pub[K.SHIPS][s][K.SHIP_ABOARD] if C.kw(a[K.ABOARD_CARD], "NAV")]:
            k = 3
    pub[K.JUMP_OPTIONS] = pub[K.LOCATION_DECK][:k]
    pub[K.LOCATION_DECK] = pub[K.LOCATION_DECK][k:]
    if not pub[K.JUMP_OPTIONS]:
        end(pub, False, "no location left")
        return None
    _decide(pub, K.PHASE_JUMP)
    return None


def jump(eng, pub, p, event):
    """The lead proposes a location."""
    CH.check(pub, p, event)
    pub[K.PROPOSED] = event[K.JUMP_OPTION]
    return _propose(pub, K.PHASE_JUMP_CONFIRM, do_jump)


def do_jump(pub):
    """The fleet jumps: the location goes on the table (the others to the bottom of the
    deck), its distance is added and its "when the fleet jumps here" text happens."""
    i = pub[K.PROPOSED]
    opts = pub[K.JUMP_OPTIONS]
    loc = opts[i]
    pub[K.LOCATION_DECK].extend(opts[:i] + opts[i + 1:])
    pub[K.JUMP_OPTIONS] = []
    pub[K.LOCATIONS].append(loc)
    pub[K.DISTANCE] += C.get(loc)[C.POWER]
    for k in C.get(loc)[C.KEYWORDS]:
        if k == "DFL":
            for s in F.alive(pub):
                if C.kw(pub[K.SHIPS][s][K.SHIP_CARD], "F"):
                    F.damage(pub, s)
        elif k == "DRA":
            for q in range(pub[K.PLAYER_COUNT]):
                draw(pub, q, 1)
        elif k == "RPX":
            for s in F.alive(pub):
                if pub[K.SHIPS][s][K.SHIP_DAMAGE]:
                    F.repair(pub, s, F.worst_damage(pub, s))
        elif k.startswith("ADD"):
            add_threat(pub, int(k[3:]))
        elif k in ("OVH", "DHI"):
            s = F.strongest(pub)
            if s >= 0:
                F.damage(pub, s, overload=k == "OVH")
    return attack_start if pub[K.END] is None else None


# ---- 3. attack phase ----------------------------------------------------------------------
def attack_start(pub):
    """The threat of the attack: the table's tokens, two per location, one per ship, the
    difficulty's own, less Silent Whisper's remove (2); then the cloaking decisions."""
    for t in pub[K.TABLE]:
        add_threat(pub, t[K.TOKEN_COUNT])
    ships = F.alive(pub)
    add_threat(pub, 2 * len(pub[K.LOCATIONS]) + len(ships) + extra_threat(pub))
    for s in ships:
        add_threat(pub, -C.kwnum(pub[K.SHIPS][s][K.SHIP_CARD], "RM"))
    cq = []
    for s in ships:   # a loop, not a comprehension: one frame less under can_cloak
        if F.can_cloak(pub, s):
            cq.append(s)
    pub[K.CLOAK_QUEUE] = cq
    pub[K.PHASE] = K.PHASE_CLOAK
    return None if cq else reveal


def cloak(eng, pub, p, event):
    """The owner of the next ship that can cloak decides: cloak (fight nowhere this turn)
    or fight. After the last, the attack deck is revealed."""
    CH.check(pub, p, event)
    s = pub[K.CLOAK_QUEUE].pop(0)
    pub[K.SHIPS][s][K.SHIP_CLOAKED] = event[K.CLOAK_ON] == 1
    return None if pub[K.CLOAK_QUEUE] else reveal


def reveal(pub):
    """Attack cards are revealed one by one, each paid from the pool; the first that costs
    more than the pool is discarded and revealing stops. Attackers stay, events happen."""
    for _ in range(MAX_REVEAL):
        card = F.attack_top(pub)
        if card is None:
            break
        c = C.get(card)
        if c[C.THREAT] > pub[K.THREAT]:
            pub[K.ATTACK_DISCARD].append(card)
            break
        pub[K.THREAT] -= c[C.THREAT]
        if c[C.TYPE] == C.FOE:
            pub[K.FOES].append([card, False])
        else:
            _attack_event(pub, card)
        if pub[K.END] is not None:
            return None
    return assign_start


def _attack_event(pub, card):
    """An attack event's text, as it is revealed; then it is discarded, unless it stays on
    the table with its tokens (The End Draws Near)."""
    kws = C.get(card)[C.KEYWORDS]
    if "TOK" in kws:
        if F.unique_ok(pub, card):
            pub[K.TABLE].append([card, 0])
            return
    elif "AMB" in kws:
        pub[K.AMBUSH] += 1
    elif "SAB" in kws:
        s = F.strongest(pub)
        if s >= 0:
            F.damage(pub, s)
    elif "WEA" in kws:          # Weary: a random character (not immune) is discarded
        crew = []
        for s in F.alive(pub):
            aboard = pub[K.SHIPS][s][K.SHIP_ABOARD]
            for i in range(len(aboard)):
                cid = aboard[i][K.ABOARD_CARD]
                if C.get(cid)[C.TYPE] == C.CHAR and not C.kw(cid, "IW"):
                    crew.append([s, i])
        if crew:
            s, i = crew[F.rng(pub).below(len(crew))]
            a = pub[K.SHIPS][s][K.SHIP_ABOARD].pop(i)
            pub[K.DISCARDS][a[K.ABOARD_OWNER]].append(a[K.ABOARD_CARD])
    elif "TRK" in kws:
        for ship in pub[K.SHIPS]:
            ship[K.SHIP_CLOAKED] = False
    pub[K.ATTACK_DISCARD].append(card)


# ---- 4. assignment phase ------------------------------------------------------------------
def assign_start(pub):
    """The uncloaked alive ships fight; no attacker or no fighter: no fights."""
    pub[K.FIGHTERS] = [s for s in F.alive(pub) if not pub[K.SHIPS][s][K.SHIP_CLOAKED]]
    pub[K.ASSIGNED] = []
    pub[K.FIGHTS] = []
    if not pub[K.FOES] or not pub[K.FIGHTERS]:
        return wrap_start
    _decide(pub, K.PHASE_ASSIGN)
    return None


def defend(eng, pub, p, event):
    """The lead assigns the next fighter an attacker; with the last, the fights are built
    (fights.build: the leftover attackers join) and proposed."""
    CH.check(pub, p, event)
    pub[K.ASSIGNED].append(event[K.DEFEND_FOE])
    if len(pub[K.ASSIGNED]) != len(pub[K.FIGHTERS]):
        return None
    pub[K.FIGHTS] = FT.build(pub, pub[K.ASSIGNED])
    return _propose(pub, K.PHASE_ASSIGN_CONFIRM, fights_start)


# ---- 5. fights ----------------------------------------------------------------------------
def fights_start(pub):
    pub[K.PHASE] = K.PHASE_FIGHT
    _window(pub)


def _window(pub):
    """Before each fight a window: every player but the lead in order, the lead last."""
    n, lead = pub[K.PLAYER_COUNT], pub[K.LEAD]
    pub[K.FIGHT_WINDOW] = [(lead + i) % n for i in range(1, n)] + [lead]


def pass_(eng, pub, p, event):
    """Pass: done playing effects in this window."""
    CH.check(pub, p, event)
    pub[K.FIGHT_WINDOW].pop(0)


def fight(eng, pub, p, event):
    """The lead resolves a fight; then the next window, or wrap-up after the last."""
    CH.check(pub, p, event)
    resolve(pub, event[K.RESOLVE_FIGHT])
    if pub[K.END] is not None:
        return None
    if CH.open_fights(pub):
        _window(pub)
        return None
    return wrap_start


def resolve(pub, k):
    """Rule 8.5: the power sums with the battle destinies, then win (the attackers are
    beaten), overpowered (every ship in the fight destroyed) or damaged (a card each)."""
    fight_ = pub[K.FIGHTS][k]
    fight_[K.FIGHT_DONE] = True
    pp, pd, ep, ed, n = FT.sums(pub, fight_)
    # the battle destinies, the fleet's first, each the top attack card's threat: drawn
    # here rather than in a helper, whose reshuffle would add two frames to the deepest
    # chain under apply (no power above depends on the attack deck)
    for i in range(pd + ed):
        card = F.attack_top(pub)
        if card is None:
            continue
        pub[K.ATTACK_DISCARD].append(card)
        if i < pd:
            pp += C.get(card)[C.THREAT]
        else:
            ep += C.get(card)[C.THREAT]
    ships = pub[K.SHIPS]
    fighters = [s for s in fight_[K.FIGHT_SHIPS] if ships[s][K.SHIP_ALIVE]]  # before any is lost
    won = FT.outcome(pp, ep, n)
    if won == FT.WIN:
        for f in fight_[K.FIGHT_FOES]:
            foe = pub[K.FOES][f]
            pub[K.ATTACK_DISCARD].append(foe[K.FOE_CARD])
            foe[K.FOE_BEATEN] = True
    elif won == FT.OVERPOWERED:
        for s in fighters:
            F.destroy(pub, s)
    elif won == FT.DAMAGED:
        for s in fighters:
            F.damage(pub, s)
    pub[K.LAST_FIGHT] = [k, pp, ep, won]


# ---- 6. wrap-up ---------------------------------------------------------------------------
def wrap_start(pub):
    pub[K.PHASE] = K.PHASE_WRAP
    n = pub[K.PLAYER_COUNT]
    pub[K.WRAP_QUEUE] = [(pub[K.LEAD] + i) % n for i in range(n)]


def discard(eng, pub, p, event):
    """Discard one card from the hand, then draw up to the hand size."""
    CH.check(pub, p, event)
    pub[K.HAND_SIZES][p] -= 1
    pub[K.DISCARDS][p].append(event[K.DISCARD_CARD])
    return _wrapped(pub, p)


def keep(eng, pub, p, event):
    """Keep the hand, then draw up to the hand size."""
    CH.check(pub, p, event)
    return _wrapped(pub, p)


def _wrapped(pub, p):
    """After the last player: the attackers left are discarded, each table card gains a
    token, and the fleet wins at the goal distance; else the lead passes on."""
    draw(pub, p, REFILL - pub[K.HAND_SIZES][p])
    pub[K.WRAP_QUEUE].pop(0)
    if pub[K.WRAP_QUEUE]:
        return None
    for foe in pub[K.FOES]:
        if not foe[K.FOE_BEATEN]:
            pub[K.ATTACK_DISCARD].append(foe[K.FOE_CARD])
    pub[K.FOES] = []
    pub[K.FIGHTS] = []
    for t in pub[K.TABLE]:
        t[K.TOKEN_COUNT] += 1
    if pub[K.DISTANCE] >= GOAL:
        end(pub, True, "distance %d reached" % pub[K.DISTANCE])
        return None
    pub[K.LEAD] = (pub[K.LEAD] + 1) % pub[K.PLAYER_COUNT]
    return start_turn


# ---- the private side: what an event does to the author's own hand and deck ----------------
def apply_private(pub, priv, player, author, event):
    """The author's unit takes the card it used out of its hand (a Call to Arms ship out of
    its deck, which it then reshuffles from its private key, rule 9); every unit deals itself
    the cards pub says it drew."""
    tag = event[K.TAG]
    hand, deck = priv[K.HAND], priv[K.DECK]
    if author == player and tag in ("play", "spare", "discard") and event[K.PLAY_CARD] in hand:
        cid = event[K.PLAY_CARD]
        hand.remove(cid)
        if tag == "play" and C.get(cid)[C.TYPE] == C.EFFECT:
            kws = C.get(cid)[C.KEYWORDS]
            if "PDS" in kws or "PDD" in kws:
                x = event[K.PLAY_TARGET] if "PDS" in kws else "A2"
                if x in deck:
                    deck.remove(x)
                priv[K.SHUFFLES] += 1
                Prng(priv[K.SHUFFLE_KEY], b"sh%d" % priv[K.SHUFFLES]).shuffle(deck)
            if "RET" in kws:
                hand.append(event[K.PLAY_TARGET])
    if author == player and tag == "use" and len(event) == 4 \
            and event[K.USE_ABOARD] != K.OWN_POWER and isinstance(event[K.USE_CHOICE], str):
        hand.append(event[K.USE_CHOICE])          # a card retrieved from the discard pile
    while priv[K.DEALT] < pub[K.DRAWN][player] and deck:
        hand.append(deck.pop(0))
        priv[K.DEALT] += 1
