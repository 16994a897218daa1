# Periplus card list, exactly as in the source (55 cards), and what each card does.
# A card travels and is held as its kind: an index into CARDS. Copies of one kind are identical,
# so hands, the discard pile and events need no per-copy ids.

KNIGHT = 0   # range value of the knight-shaped cards (Periplus, Tower Archers)

MOVE = "M"
RAM = "R"
BOARD = "B"
SHOOT = "S"
DEFENSE = "D"

# (name, copies, type, range; for a Defense card the attack type it negates)
CARDS = (
    ("Row", 5, MOVE, 1),
    ("Row Row", 5, MOVE, 2),
    ("Row Row Row", 5, MOVE, 3),
    ("Ramming Speed", 5, MOVE, 4),
    ("Periplus", 5, MOVE, KNIGHT),
    ("Prongs", 2, RAM, 1),
    ("Reinforced Ram", 2, RAM, 1),
    ("Ram", 2, RAM, 1),
    ("Shear Oars", 2, RAM, 1),
    ("Hoplites", 2, BOARD, 1),
    ("Harpax", 1, BOARD, 1),
    ("Corvus", 1, BOARD, 1),
    ("Marines", 2, BOARD, 1),
    ("Full Deck", 2, BOARD, 1),
    ("Archers", 1, SHOOT, 3),
    ("Javelins", 1, SHOOT, 2),
    ("Slings", 1, SHOOT, 2),
    ("Greek Fire", 1, SHOOT, 2),
    ("Ballistae", 1, SHOOT, 4),
    ("Catapult", 1, SHOOT, 5),
    ("Trebuchet", 1, SHOOT, 6),
    ("Tower Archers", 1, SHOOT, KNIGHT),
    ("Parablemata", 2, DEFENSE, SHOOT),
    ("Reinforced Hull", 2, DEFENSE, RAM),
    ("Disengage", 2, DEFENSE, BOARD),
)
NKINDS = len(CARDS)
DECK_SIZE = 55

# kinds with special effects (the "Special Damage" of Ram; Shear Oars cripples instead)
RAM_CARD = 7
SHEAR_OARS = 8
RAM_DAMAGE = 2


def name(k):
    return CARDS[k][0]


def ctype(k):
    return CARDS[k][2]


def rng(k):
    return CARDS[k][3]


def is_kind(k):
    return type(k) is int and 0 <= k < NKINDS


def is_attack(k):
    return CARDS[k][2] in (RAM, BOARD, SHOOT)


def damage(k):
    if k == RAM_CARD:
        return RAM_DAMAGE
    if k == SHEAR_OARS:
        return 0
    return 1


def defense_for(k):
    """The Defense kind that negates attack kind k."""
    t = CARDS[k][2]
    for d in range(NKINDS):
        if CARDS[d][2] == DEFENSE and CARDS[d][3] == t:
            return d
    return -1


def full_deck():
    """Every card of the deck as kinds, in list order (the seed shuffles it)."""
    out = []
    for k in range(NKINDS):
        out.extend([k] * CARDS[k][1])
    return out
