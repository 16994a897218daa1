# Pinned Down card pool as data (docs/rules/pinned_down.md lists every card and why).
# One tuple per card; the engine interprets the keyword codes in field KEYWORDS. The rules texts the
# UI shows are a data file (texts.txt, read by text() when a card is shown): they are ~4 KB of
# strings that no rule reads, so they stay off the heap.
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

from fathom import res
from fathom.games import pinned_down as D

# a card's fields, in the order of the tuples below
CARD_ID, NAME, TYPE, AFF, THREAT, UNIQ, POWER, CAP, CLS, KEYWORDS = range(10)

SHIP = "S"
CHAR = "C"
EQUIP = "Q"
EFFECT = "E"
FOE = "A"
EVENT = "V"
LOC = "L"
DMG = "D"

TEXTS = "games/pinned_down/texts.txt"   # a fathom.res data path
_offs = None                              # text() line offsets, found on first use

AFFS = D.DECKS
AFF_CODE = {"purple": "P", "red": "R", "blue": "B", "acarr": "A"}

# For damage cards POWER/CAP are the (negative) changes and CLS holds the structure loss in %.
# For locations POWER is the distance. For attack cards THREAT is the reveal cost.
# On a stock install the module's own bytecode is one heap block when the .mpy loads; the
# whole table written out in it made that 1,782 bytes, above the 1 KB budget for a single
# allocation. So each deck is its own function (its own, smaller block), called
# once here and then dropped.
# The type is written as its letter (SHIP is "S", ...), not the name: a tuple of literals is
# one constant, which a frozen build keeps in flash; a name in it made every card a tuple built
# on the heap at import (~5 KB for the pool, on every unit playing Pinned Down).


def _purple():
    # Purple Wing: recon, threat control, cloaking
    return (
        ("P1", "Silent Whisper", "S", "P", 4, 1, 6, 4, "Carrier", ("F", "U1", "RM2")),
        ("P2", "Shade", "S", "P", 2, 0, 3, 1, "Scout", ("CK",)),
        ("P3", "Phantom", "S", "P", 3, 0, 5, 2, "Frigate", ("CK", "U1")),
        ("P4", "Commander Ilse", "C", "P", 2, 1, 0, 0, "", ("CAP:P1",)),
        ("P5", "Intel Officer", "C", "P", 1, 0, 0, 0, "", ("PKA",)),
        ("P6", "Navigator Sul", "C", "P", 1, 1, 0, 0, "", ("NAV",)),
        ("P7", "Intertia Stabilizer", "Q", "P", 1, 0, 1, 0, "", ("IS",)),
        ("P8", "Cloaking Device", "Q", "P", 2, 0, 0, 0, "", ("CK",)),
        ("P9", "Jam Sensors", "E", "P", 1, 0, 0, 0, "", ("RM4",)),
        ("P10", "Long Range Scan", "E", "P", 0, 0, 0, 0, "", ("PKL",)),
        ("P11", "False Echoes", "E", "P", 0, 0, 0, 0, "", ("RMC",)),
    )


def _red():
    # Red Wing: fighting
    return (
        ("R1", "Ardor", "S", "R", 4, 1, 9, 6, "Battleship", ("F", "U1", "PL")),
        ("R2", "Lancer", "S", "R", 3, 0, 5, 2, "Cruiser", ("BD",)),
        ("R3", "Vanguard", "S", "R", 4, 0, 7, 3, "Battleship", ("U1", "OV3")),
        ("R4", "Skirmisher", "S", "R", 2, 0, 4, 1, "Frigate", ()),
        ("R5", "Captain Rhee", "C", "R", 2, 1, 0, 0, "", ("CAP:R1",)),
        ("R6", "Gunnery Chief", "C", "R", 1, 0, 1, 0, "", ("P1",)),
        ("R7", "Tactical Officer", "C", "R", 2, 0, 0, 0, "", ("BD",)),
        ("R8", "Heavy Cannons", "Q", "R", 2, 0, 2, 0, "", ("P2",)),
        ("R9", "Alpha Strike", "E", "R", 0, 0, 0, 0, "", ("FT2",)),
        ("R10", "Full Broadside", "E", "R", 2, 0, 0, 0, "", ("BO3",)),
        ("R11", "Call to Arms", "E", "R", 1, 0, 0, 0, "", ("PDS",)),
    )


def _blue():
    # Blue Wing: repair, retrieving from the discard pile
    return (
        ("B1", "Sanctuary", "S", "B", 4, 1, 7, 5, "Carrier", ("F", "U1", "RPU")),
        ("B2", "Chief Engineer Cantrell", "C", "B", 2, 1, 0, 0, "", ("DRW", "IW")),
        ("B3", "Repair Crew", "C", "B", 1, 0, 0, 0, "", ("RPA",)),
        ("B4", "Quartermaster", "C", "B", 1, 0, 0, 0, "", ("RET",)),
        ("B5", "Tender", "S", "B", 2, 0, 3, 3, "Frigate", ("RPU",)),
        ("B6", "Bulwark", "S", "B", 3, 0, 6, 2, "Cruiser", ("SH10",)),
        ("B7", "Captain Osei", "C", "B", 2, 1, 0, 0, "", ("CAP:B1",)),
        ("B8", "Reinforced Hull", "Q", "B", 1, 0, 0, 0, "", ("SH10",)),
        ("B9", "Damage Control Kit", "Q", "B", 1, 0, 0, 0, "", ("DCK",)),
        ("B10", "Emergency Repairs", "E", "B", 0, 0, 0, 0, "", ("REP",)),
        ("B11", "Salvage", "E", "B", 1, 0, 0, 0, "", ("RET",)),
    )


def _acarr():
    # Ac'arr: no characters or equipment; all Ac'arr ships share their game texts
    return (
        ("A1", "Hive Queen", "S", "A", 3, 1, 6, 0, "Swarm", ("F", "U1", "SW")),
        ("A2", "Drone", "S", "A", 1, 0, 2, 0, "Swarm", ()),
        ("A3", "Stinger", "S", "A", 2, 0, 3, 0, "Swarm", ("BD",)),
        ("A4", "Carapace", "S", "A", 2, 0, 4, 0, "Swarm", ("SH10",)),
        ("A5", "Brood Ship", "S", "A", 3, 0, 5, 0, "Swarm", ("U1", "OV3")),
        ("A6", "Swarm Tactics", "E", "A", 0, 0, 0, 0, "", ("FA1",)),
        ("A7", "Spawn", "E", "A", 1, 0, 0, 0, "", ("PDD",)),
        ("A8", "Regrowth", "E", "A", 1, 0, 0, 0, "", ("REP",)),
        ("A9", "Adapt", "E", "A", 1, 0, 0, 0, "", ("BO2",)),
    )


def _attack():
    # Attack deck: enemy ships (cost, power) and attack events
    return (
        ("X1", "Scout Probe", "A", "X", 1, 0, 2, 0, "", ()),
        ("X2", "Raider", "A", "X", 2, 0, 3, 0, "", ()),
        ("X3", "Interceptor", "A", "X", 3, 0, 4, 0, "", ()),
        ("X4", "Destroyer", "A", "X", 4, 0, 6, 0, "", ()),
        ("X5", "Hunter", "A", "X", 5, 0, 6, 0, "", ("BD",)),
        ("X6", "Dreadnought", "A", "X", 7, 0, 10, 0, "", ()),
        ("X7", "The End Draws Near", "V", "X", 0, 1, 0, 0, "", ("TOK",)),
        ("X8", "Ambush", "V", "X", 2, 0, 0, 0, "", ("AMB",)),
        ("X9", "Sabotage", "V", "X", 2, 0, 0, 0, "", ("SAB",)),
        ("X10", "Weary Crews", "V", "X", 1, 0, 0, 0, "", ("WEA",)),
        ("X11", "Tracking Beacon", "V", "X", 1, 0, 0, 0, "", ("TRK",)),
    )


def _locations():
    # Location deck: POWER is the distance
    return (
        ("L1", "Rahra Asteroid Belt", "L", "X", 0, 0, 2, 0, "", ("DFL",)),
        ("L2", "Deep Space", "L", "X", 0, 0, 1, 0, "", ()),
        ("L3", "Veil Nebula", "L", "X", 0, 0, 1, 0, "", ("NEB",)),
        ("L4", "Trade Station", "L", "X", 0, 0, 1, 0, "", ("DRA",)),
        ("L5", "Abandoned Shipyard", "L", "X", 0, 0, 1, 0, "", ("RPX",)),
        ("L6", "Ion Storm", "L", "X", 0, 0, 2, 0, "", ("ADD4",)),
        ("L7", "Minefield", "L", "X", 0, 0, 2, 0, "", ("OVH",)),
        ("L8", "Wormhole", "L", "X", 0, 0, 3, 0, "", ("ADD6",)),
        ("L9", "Pirate Haven", "L", "X", 0, 0, 2, 0, "", ("EP1",)),
        ("L10", "Gas Giant", "L", "X", 0, 0, 1, 0, "", ("ADD-3",)),
        ("L11", "Derelict Fleet", "L", "X", 0, 0, 2, 0, "", ("DRA", "ADD2")),
        ("L12", "Event Horizon", "L", "X", 0, 0, 3, 0, "", ("DHI",)),
    )


def _damage():
    # Damage deck: POWER power change, CAP capacity change, CLS structure loss in %
    return (
        ("D1", "Engine Room Hit", "D", "X", 0, 0, -1, -1, 30, ("NO",)),
        ("D2", "Hull Breach", "D", "X", 0, 0, 0, 0, 40, ()),
        ("D3", "Weapons Offline", "D", "X", 0, 0, -2, 0, 20, ()),
        ("D4", "Bridge Hit", "D", "X", 0, 0, 0, -1, 30, ("NB",)),
        ("D5", "Minor Damage", "D", "X", 0, 0, 0, 0, 10, ()),
        ("D6", "Shield Failure", "D", "X", 0, 0, -1, 0, 30, ()),
        ("D7", "Reactor Leak", "D", "X", 0, 0, 0, 0, 50, ()),
        ("D8", "Sensor Damage", "D", "X", 0, 0, 0, 0, 20, ("NC",)),
        ("D9", "Cargo Bay Hit", "D", "X", 0, 0, 0, -2, 20, ()),
        ("D10", "Direct Hit", "D", "X", 0, 0, -1, -1, 60, ()),
    )


CARDS = _purple() + _red() + _blue() + _acarr() + _attack() + _locations() + _damage()
del _purple, _red, _blue, _acarr, _attack, _locations, _damage

# The shared decks: (card id, copies)
ATTACK = (("X1", 3), ("X2", 4), ("X3", 4), ("X4", 3), ("X5", 2), ("X6", 1), ("X7", 1),
          ("X8", 2), ("X9", 1), ("X10", 2), ("X11", 1))
LOCATIONS = (("L1", 1), ("L2", 3), ("L3", 1), ("L4", 1), ("L5", 1), ("L6", 1), ("L7", 1),
             ("L8", 1), ("L9", 1), ("L10", 1), ("L11", 1), ("L12", 1))
DAMAGE = (("D1", 1), ("D2", 2), ("D3", 2), ("D4", 1), ("D5", 3), ("D6", 2), ("D7", 1),
          ("D8", 1), ("D9", 1), ("D10", 1))

# Where a card is in CARDS, found without a dict (one of the 75 ids took 800 B of heap on every
# unit playing Pinned Down): the ids in pool order, each padded to 3 characters, one constant
# string that a frozen build keeps in flash. A letter begins an id and nothing else, and an id
# comes before the longer ones it begins (P1 before P10), so the first match is the card's own:
# IDS.find(cid) // 3, a C call that adds no Python frame where fleet.py reads the table.
IDS = ("P1 P2 P3 P4 P5 P6 P7 P8 P9 P10P11R1 R2 R3 R4 R5 R6 R7 R8 R9 R10R11B1 B2 B3 B4 B5 B6 B7 B8 "
       "B9 B10B11A1 A2 A3 A4 A5 A6 A7 A8 A9 X1 X2 X3 X4 X5 X6 X7 X8 X9 X10X11L1 L2 L3 L4 L5 L6 L7 "
       "L8 L9 L10L11L12D1 D2 D3 D4 D5 D6 D7 D8 D9 D10")
if len(IDS) != 3 * len(CARDS):
    raise res.MissingData("cards.IDS lists %d ids for %d cards" % (len(IDS) // 3, len(CARDS)))
for _i in range(len(CARDS)):
    if IDS.find(CARDS[_i][CARD_ID]) != 3 * _i:
        raise res.MissingData("cards.IDS does not find %s at its place" % CARDS[_i][CARD_ID])
del _i


def ix(cid):
    """A card's place in CARDS; KeyError for anything that is not a card's id."""
    i = IDS.find(cid) // 3 if isinstance(cid, str) and 1 < len(cid) < 4 else -1
    if i < 0 or CARDS[i][CARD_ID] != cid:
        raise KeyError(cid)
    return i


def get(cid):
    """The card tuple for an id; KeyError for an unknown id."""
    return CARDS[ix(cid)]


def text(cid):
    """A card's rules text ("" for a plain card): one line of the data file, found by seeking
    (the file is never read whole; its line offsets cost 2 bytes a card)."""
    global _offs
    i = ix(cid)
    with res.open_data(TEXTS, "rb") as fh:
        if _offs is None:
            _offs = _index(fh)
        fh.seek(_offs[2 * i] | _offs[2 * i + 1] << 8)
        line = fh.readline().decode().strip()
    return line[len(cid):].strip()


def _index(fh):
    """Each card's line offset in TEXTS; the lines must be the pool's cards in order."""
    offs = bytearray(2 * len(CARDS))
    n = pos = 0
    while True:
        line = fh.readline()
        if not line:
            break
        if line.strip() and line[:1] != b"#":
            want = CARDS[n][CARD_ID] if n < len(CARDS) else "(none: the pool has ended)"
            if line.split()[0].decode() != want:
                raise res.MissingData("%s: at byte %d card %s expected, not %s"
                                      % (res.path(TEXTS), pos, want, line.split()[0].decode()))
            offs[2 * n] = pos & 0xFF
            offs[2 * n + 1] = pos >> 8
            n += 1
        pos += len(line)
    if n != len(CARDS):
        raise res.MissingData("%s holds no line for card %s" % (res.path(TEXTS), CARDS[n][CARD_ID]))
    return offs


def known(cid):
    try:
        ix(cid)
    except KeyError:
        return False
    return True


def kw(cid, code):
    """True when the card carries keyword `code`."""
    return code in CARDS[ix(cid)][KEYWORDS]


def kwnum(cid, prefix):
    """The number after keyword `prefix` (e.g. U1 -> 1), or 0 when absent."""
    for k in CARDS[ix(cid)][KEYWORDS]:
        if k.startswith(prefix) and len(k) > len(prefix):
            rest = k[len(prefix):]
            if rest.lstrip("-").isdigit():
                return int(rest)
    return 0


def captain_of(cid):
    for k in CARDS[ix(cid)][KEYWORDS]:
        if k.startswith("CAP:"):
            return k[4:]
    return None


def expand(pairs):
    out = []
    for cid, n in pairs:
        out.extend([cid] * n)
    return out
