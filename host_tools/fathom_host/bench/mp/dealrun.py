# Run under a MicroPython unix port by `fathom bench deal`: the sealed deal between two players
# in this process (hostmodes.sealedplay), each player's work timed apart, plus the heap a sealed
# deck and the fixed-base tables take. Prints one JSON line.
import gc
import json
import sys

from fathom.sealed import deal
from fathom.sealed.group import Comb
from hostmodes import sealedplay


def heap():
    gc.collect()
    return gc.mem_alloc()


def deck_heap(bits):
    """Bytes the 55-card sealed deck (one fresh copy of its 110 elements, in a list) and the
    two fixed-base tables take on this runtime's heap."""
    g = sealedplay.Game(sealedplay.secrets_for(b"heap"), sealedplay.PERIPLUS_CARDS, bits)
    sealedplay.periplus_setup(g)
    t = g.tables[0]   # the deck's elements, read back from the log as a unit reads them
    src = [v for pos in range(sealedplay.PERIPLUS_CARDS) for v in t.card(0, pos)]
    before = heap()
    copy = [bytes(bytearray(v)) for v in src]
    deck = heap() - before
    before = heap()
    tables = [Comb(g.grp, g.grp.g), Comb(g.grp, g.grp.element(g.tables[0].joint))]
    comb = heap() - before
    del copy, tables
    return deck, comb


def sealed_games():
    """The games whose declaration offers the sealed deal."""
    from fathom import games
    return [g for g in games.IDS if any(o[0] == "sealed" for o in games.declaration(g).OPTIONS)]


def main(bits, runs):
    best = None
    for _r in range(runs):  # the host is shared: the least of a few runs is the machine's figure
        m = sealedplay.measure(bits)
        if best is None:
            best = m
            continue
        for k, v in m.items():
            if k != "bits":
                best[k] = [[min(a[0], b[0]), a[1]] for a, b in zip(best[k], v)]
    deal.release()
    best["deck_bytes"], best["tables_bytes"] = deck_heap(bits)
    if bits is None:   # whole games through the engines (they use the games' modulus)
        best["games"] = {gid: sealedplay.engine_game(gid) for gid in sealed_games()}
    print(json.dumps(best))


main(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "0" else None,
     int(sys.argv[2]) if len(sys.argv) > 2 else 3)
