# Pinned Down card pool as data (docs/rules/pinned_down.md lists every card and why).
# One tuple per card; the engine interprets the keyword codes in field KW, the UI shows TEXT.
# Codes: F flagship, U<n> upkeep, PL power +locations, BD battle destiny, CK cloaking,
# OV<n> overload for power +n, SH<n> structure loss -n% per damage card, SW Ac'arr swarm bonus,
# RM<n> remove (n), RMC remove (cloaking ships), Pn power +n, CAP:<id> captain of ship <id>,
# DRW draw at start of turn, IW immune to Weary, IS Intertia Stabilizer, NAV three locations,
# PKA / PKL peek attack / location deck, RPA repair ship aboard, RPU repair any ship,
# RET retrieve from discard, DCK discard to repair, REP repair, BO<n> ship power +n this turn,
# FT<n> own ships in a fight +n, FA<n> Ac'arr ships in a fight +n, PDS / PDD play a starship /
# a Drone from the draw deck, NO can't overload, NB no power bonuses, NC can't cloak,
# Attack events: AMB ambush, SAB sabotage, WEA weary, TRK tracking beacon, TOK table tokens.
# Locations: DFL damage flagships, DRA each draws, RPX repair all, ADD<n> add (n), OVH overload
# strongest, EP<n> attackers +n here, NEB all ships cloak here, DHI damage strongest.

ID, NAME, TYPE, AFF, THREAT, UNIQ, PW, CAP, CLS, KW, TEXT = range(11)

SHIP = "S"
CHAR = "C"
EQUIP = "Q"
EFFECT = "E"
FOE = "A"
EVENT = "V"
LOC = "L"
DMG = "D"

AFFS = ("purple", "red", "blue", "acarr")
AFF_CODE = {"purple": "P", "red": "R", "blue": "B", "acarr": "A"}

# For damage cards PW/CAP are the (negative) changes and CLS holds the structure loss in %.
# For locations PW is the distance. For attack cards THREAT is the reveal cost.
CARDS = (
    # Purple Wing: recon, threat control, cloaking
    ("P1", "Silent Whisper", SHIP, "P", 4, 1, 6, 4, "Carrier", ("F", "U1", "RM2"),
     "FLAGSHIP. UPKEEP (1). At the start of the attack phase, remove (2)."),
    ("P2", "Shade", SHIP, "P", 2, 0, 3, 1, "Scout", ("CK",), "CLOAKING."),
    ("P3", "Phantom", SHIP, "P", 3, 0, 5, 2, "Frigate", ("CK", "U1"), "CLOAKING. UPKEEP (1)."),
    ("P4", "Commander Ilse", CHAR, "P", 2, 1, 0, 0, "", ("CAP:P1",),
     "Captain of Silent Whisper: power +2 aboard."),
    ("P5", "Intel Officer", CHAR, "P", 1, 0, 0, 0, "", ("PKA",),
     "Once per turn: look at the top attack card; you may put it on the bottom."),
    ("P6", "Navigator Sul", CHAR, "P", 1, 1, 0, 0, "", ("NAV",),
     "When the fleet jumps, reveal three locations instead of two."),
    ("P7", "Intertia Stabilizer", EQUIP, "P", 1, 0, 1, 0, "", ("IS",),
     "Equipped ship is power +1 while fighting a ship with equal or higher printed power."),
    ("P8", "Cloaking Device", EQUIP, "P", 2, 0, 0, 0, "", ("CK",), "Equipped ship has CLOAKING."),
    ("P9", "Jam Sensors", EFFECT, "P", 1, 0, 0, 0, "", ("RM4",), "Remove (4)."),
    ("P10", "Long Range Scan", EFFECT, "P", 0, 0, 0, 0, "", ("PKL",),
     "Look at the top location; you may put it on the bottom."),
    ("P11", "False Echoes", EFFECT, "P", 0, 0, 0, 0, "", ("RMC",),
     "Remove (x), x = the number of ships with CLOAKING on the table."),
    # Red Wing: fighting
    ("R1", "Ardor", SHIP, "R", 4, 1, 9, 6, "Battleship", ("F", "U1", "PL"),
     "FLAGSHIP. UPKEEP (1). Power +x, where x is the number of locations on the table."),
    ("R2", "Lancer", SHIP, "R", 3, 0, 5, 2, "Cruiser", ("BD",), "BATTLE DESTINY."),
    ("R3", "Vanguard", SHIP, "R", 4, 0, 7, 3, "Battleship", ("U1", "OV3"),
     "UPKEEP (1). Once per turn: overload this ship to make it power +3 this turn."),
    ("R4", "Skirmisher", SHIP, "R", 2, 0, 4, 1, "Frigate", (), ""),
    ("R5", "Captain Rhee", CHAR, "R", 2, 1, 0, 0, "", ("CAP:R1",),
     "Captain of Ardor: power +2 aboard."),
    ("R6", "Gunnery Chief", CHAR, "R", 1, 0, 1, 0, "", ("P1",), "Ship aboard is power +1."),
    ("R7", "Tactical Officer", CHAR, "R", 2, 0, 0, 0, "", ("BD",),
     "Ship aboard has BATTLE DESTINY."),
    ("R8", "Heavy Cannons", EQUIP, "R", 2, 0, 2, 0, "", ("P2",), "Power +2."),
    ("R9", "Alpha Strike", EFFECT, "R", 0, 0, 0, 0, "", ("FT2",),
     "Play before a fight: each of your ships in it is power +2."),
    ("R10", "Full Broadside", EFFECT, "R", 2, 0, 0, 0, "", ("BO3",),
     "A starship is power +3 this turn."),
    ("R11", "Call to Arms", EFFECT, "R", 1, 0, 0, 0, "", ("PDS",),
     "Play a starship from your draw deck."),
    # Blue Wing: repair, retrieving from the discard pile
    ("B1", "Sanctuary", SHIP, "B", 4, 1, 7, 5, "Carrier", ("F", "U1", "RPU"),
     "FLAGSHIP. UPKEEP (1). Once per turn: repair a starship."),
    ("B2", "Chief Engineer Cantrell", CHAR, "B", 2, 1, 0, 0, "", ("DRW", "IW"),
     "At the beginning of your turn, draw a card. (Immune to Weary.)"),
    ("B3", "Repair Crew", CHAR, "B", 1, 0, 0, 0, "", ("RPA",),
     "Once per turn: repair the ship aboard."),
    ("B4", "Quartermaster", CHAR, "B", 1, 0, 0, 0, "", ("RET",),
     "Once per turn: take a card from your discard pile into hand."),
    ("B5", "Tender", SHIP, "B", 2, 0, 3, 3, "Frigate", ("RPU",),
     "Once per turn: repair a starship."),
    ("B6", "Bulwark", SHIP, "B", 3, 0, 6, 2, "Cruiser", ("SH10",),
     "Each damage card takes 10% less structure from this ship."),
    ("B7", "Captain Osei", CHAR, "B", 2, 1, 0, 0, "", ("CAP:B1",),
     "Captain of Sanctuary: power +2 aboard."),
    ("B8", "Reinforced Hull", EQUIP, "B", 1, 0, 0, 0, "", ("SH10",),
     "Each damage card takes 10% less structure from equipped ship."),
    ("B9", "Damage Control Kit", EQUIP, "B", 1, 0, 0, 0, "", ("DCK",),
     "Discard this equipment: repair equipped ship."),
    ("B10", "Emergency Repairs", EFFECT, "B", 0, 0, 0, 0, "", ("REP",), "Repair a starship."),
    ("B11", "Salvage", EFFECT, "B", 1, 0, 0, 0, "", ("RET",),
     "Take a card from your discard pile into hand."),
    # Ac'arr: no characters or equipment; all Ac'arr ships share their game texts
    ("A1", "Hive Queen", SHIP, "A", 3, 1, 6, 0, "Swarm", ("F", "U1", "SW"),
     "FLAGSHIP. UPKEEP (1). Power +1 for each other Ac'arr ship in its fight."),
    ("A2", "Drone", SHIP, "A", 1, 0, 2, 0, "Swarm", (), ""),
    ("A3", "Stinger", SHIP, "A", 2, 0, 3, 0, "Swarm", ("BD",), "BATTLE DESTINY."),
    ("A4", "Carapace", SHIP, "A", 2, 0, 4, 0, "Swarm", ("SH10",),
     "Each damage card takes 10% less structure from this ship."),
    ("A5", "Brood Ship", SHIP, "A", 3, 0, 5, 0, "Swarm", ("U1", "OV3"),
     "UPKEEP (1). Once per turn: overload this ship to make it power +3 this turn."),
    ("A6", "Swarm Tactics", EFFECT, "A", 0, 0, 0, 0, "", ("FA1",),
     "Play before a fight: each Ac'arr ship in it is power +1."),
    ("A7", "Spawn", EFFECT, "A", 1, 0, 0, 0, "", ("PDD",), "Play a Drone from your draw deck."),
    ("A8", "Regrowth", EFFECT, "A", 1, 0, 0, 0, "", ("REP",), "Repair a starship."),
    ("A9", "Adapt", EFFECT, "A", 1, 0, 0, 0, "", ("BO2",), "A starship is power +2 this turn."),
    # Attack deck: enemy ships (cost, power) and attack events
    ("X1", "Scout Probe", FOE, "X", 1, 0, 2, 0, "", (), ""),
    ("X2", "Raider", FOE, "X", 2, 0, 3, 0, "", (), ""),
    ("X3", "Interceptor", FOE, "X", 3, 0, 4, 0, "", (), ""),
    ("X4", "Destroyer", FOE, "X", 4, 0, 6, 0, "", (), ""),
    ("X5", "Hunter", FOE, "X", 5, 0, 6, 0, "", ("BD",), "BATTLE DESTINY."),
    ("X6", "Dreadnought", FOE, "X", 7, 0, 10, 0, "", (), ""),
    ("X7", "The End Draws Near", EVENT, "X", 0, 1, 0, 0, "", ("TOK",),
     "Plays on table. At the end of each turn, place a token on this card. At the beginning"
     " of the attack phase, add (x), where x is the number of tokens on this card."),
    ("X8", "Ambush", EVENT, "X", 2, 0, 0, 0, "", ("AMB",), "Attacking ships are power +1."),
    ("X9", "Sabotage", EVENT, "X", 2, 0, 0, 0, "", ("SAB",),
     "Damage the player starship with the highest power."),
    ("X10", "Weary Crews", EVENT, "X", 1, 0, 0, 0, "", ("WEA",),
     "Discard a random character that is not immune to Weary."),
    ("X11", "Tracking Beacon", EVENT, "X", 1, 0, 0, 0, "", ("TRK",),
     "Cloaked ships must fight this turn."),
    # Location deck: PW is the distance
    ("L1", "Rahra Asteroid Belt", LOC, "X", 0, 0, 2, 0, "", ("DFL",),
     "SPACE. When the fleet jumps to this location, damage every flagship."),
    ("L2", "Deep Space", LOC, "X", 0, 0, 1, 0, "", (), "SPACE."),
    ("L3", "Veil Nebula", LOC, "X", 0, 0, 1, 0, "", ("NEB",), "SPACE. Every ship has CLOAKING here."),
    ("L4", "Trade Station", LOC, "X", 0, 0, 1, 0, "", ("DRA",),
     "When the fleet jumps here, each player draws a card."),
    ("L5", "Abandoned Shipyard", LOC, "X", 0, 0, 1, 0, "", ("RPX",),
     "When the fleet jumps here, repair every starship."),
    ("L6", "Ion Storm", LOC, "X", 0, 0, 2, 0, "", ("ADD4",),
     "When the fleet jumps here, add (4)."),
    ("L7", "Minefield", LOC, "X", 0, 0, 2, 0, "", ("OVH",),
     "When the fleet jumps here, overload the starship with the highest power."),
    ("L8", "Wormhole", LOC, "X", 0, 0, 3, 0, "", ("ADD6",), "When the fleet jumps here, add (6)."),
    ("L9", "Pirate Haven", LOC, "X", 0, 0, 2, 0, "", ("EP1",), "Attacking ships are power +1 here."),
    ("L10", "Gas Giant", LOC, "X", 0, 0, 1, 0, "", ("ADD-3",),
     "When the fleet jumps here, remove (3)."),
    ("L11", "Derelict Fleet", LOC, "X", 0, 0, 2, 0, "", ("DRA", "ADD2"),
     "When the fleet jumps here, each player draws a card and adds (2)."),
    ("L12", "Event Horizon", LOC, "X", 0, 0, 3, 0, "", ("DHI",),
     "When the fleet jumps here, damage the starship with the highest power."),
    # Damage deck: PW power change, CAP capacity change, CLS structure loss in %
    ("D1", "Engine Room Hit", DMG, "X", 0, 0, -1, -1, 30, ("NO",), "STRUCTURE -30%. Can't overload."),
    ("D2", "Hull Breach", DMG, "X", 0, 0, 0, 0, 40, (), "STRUCTURE -40%."),
    ("D3", "Weapons Offline", DMG, "X", 0, 0, -2, 0, 20, (), "STRUCTURE -20%."),
    ("D4", "Bridge Hit", DMG, "X", 0, 0, 0, -1, 30, ("NB",),
     "STRUCTURE -30%. No power bonuses."),
    ("D5", "Minor Damage", DMG, "X", 0, 0, 0, 0, 10, (), "STRUCTURE -10%."),
    ("D6", "Shield Failure", DMG, "X", 0, 0, -1, 0, 30, (), "STRUCTURE -30%."),
    ("D7", "Reactor Leak", DMG, "X", 0, 0, 0, 0, 50, (), "STRUCTURE -50%."),
    ("D8", "Sensor Damage", DMG, "X", 0, 0, 0, 0, 20, ("NC",), "STRUCTURE -20%. Can't cloak."),
    ("D9", "Cargo Bay Hit", DMG, "X", 0, 0, 0, -2, 20, (), "STRUCTURE -20%."),
    ("D10", "Direct Hit", DMG, "X", 0, 0, -1, -1, 60, (), "STRUCTURE -60%."),
)

# The shared decks: (card id, copies)
ATTACK = (("X1", 3), ("X2", 4), ("X3", 4), ("X4", 3), ("X5", 2), ("X6", 1), ("X7", 1),
          ("X8", 2), ("X9", 1), ("X10", 2), ("X11", 1))
LOCATIONS = (("L1", 1), ("L2", 3), ("L3", 1), ("L4", 1), ("L5", 1), ("L6", 1), ("L7", 1),
             ("L8", 1), ("L9", 1), ("L10", 1), ("L11", 1), ("L12", 1))
DAMAGE = (("D1", 1), ("D2", 2), ("D3", 2), ("D4", 1), ("D5", 3), ("D6", 2), ("D7", 1),
          ("D8", 1), ("D9", 1), ("D10", 1))

_IX = {}
for _i in range(len(CARDS)):
    _IX[CARDS[_i][0]] = _i
del _i


def get(cid):
    """The card tuple for an id; KeyError for an unknown id."""
    return CARDS[_IX[cid]]


def known(cid):
    return isinstance(cid, str) and cid in _IX


def kw(cid, code):
    """True when the card carries keyword `code`."""
    return code in CARDS[_IX[cid]][KW]


def kwnum(cid, prefix):
    """The number after keyword `prefix` (e.g. U1 -> 1), or 0 when absent."""
    for k in CARDS[_IX[cid]][KW]:
        if k.startswith(prefix) and len(k) > len(prefix):
            rest = k[len(prefix):]
            if rest.lstrip("-").isdigit():
                return int(rest)
    return 0


def captain_of(cid):
    for k in CARDS[_IX[cid]][KW]:
        if k.startswith("CAP:"):
            return k[4:]
    return None


def expand(pairs):
    out = []
    for cid, n in pairs:
        out.extend([cid] * n)
    return out
