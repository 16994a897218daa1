# Pinned Down bots for a cooperative team: every seat plays its own bot from its own seat (the
# public table and its own hand; never priv[_DECK], whose order a fair player does not know).
# SharpBot's deduction: the threat the next attack phase will bring (pool + upkeep + two per
# location + one per ship + difficulty + table tokens) times the enemy power per threat of the
# attack cards still unseen gives the enemy power to expect; it plays power while the fleet is
# short of it, threat control and repairs otherwise, and searches fight assignments.
# The search is its slowest decision, bounded by a count, never the clock (the same seed makes
# the same choice on the host and on a unit): at most _SEARCH assignments weighed (more: ship
# by ship, greedily), each from the attack's figures worked out once (figures()). Its worst
# known decision, a 15-attacker attack (bench bots' seed 11), makes 767 calls into the fight
# rules (tests/engines/test_pinned_down_bot.py holds it), about 0.6 s on the ESP32 estimate.
from fathom.compat import const
from fathom.games.bots import Bot
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import choices as CH
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down.phases import extra_threat

# Pinned Down's names (schema.py says what each means) that this module reads: private
# consts, folded into the code, so they cost no heap; a test holds them to schema.py.
_GOAL = const(10)
_PHASE = const("ph")
_THREAT = const("threat")
_DISTANCE = const("dist")
_LOCATIONS = const("locs")
_JUMP_OPTIONS = const("lopts")
_CLOAK_QUEUE = const("cq")
_FIGHTERS = const("fs")
_ASSIGNED = const("asg")
_FIGHTS = const("fights")
_FOES = const("foes")
_TABLE = const("tbl")
_SHIPS = const("ships")
_ATTACK_DECK = const("adeck")
_ATTACK_DISCARD = const("adisc")
_LOCATION_DECK = const("ldeck")
_DECK = const("deck")
_SHIP_CARD = const(1)
_SHIP_DAMAGE = const(2)
_SHIP_ABOARD = const(3)
_SHIP_CLOAKED = const(6)
_ABOARD_CARD = const(1)
_FOE_CARD = const(0)
_FIGHT_SHIPS = const(0)
_FIGHT_FOES = const(1)
_TOKEN_CARD = const(0)
_TOKEN_COUNT = const(1)
_NEXT = const(0)
_TOP = const(0)
_PLAY_CARD = const(1)
_PLAY_TARGET = const(2)
_PLAY_DAMAGE = const(3)
_USE_SHIP = const(1)
_USE_ABOARD = const(2)
_USE_CHOICE = const(3)
_OWN_POWER = const(-1)
_JUMP_OPTION = const(1)
_DISCARD_CARD = const(1)
_TAG = const(0)
# figures(pub)'s slots (fights.py reads the first four with its own names)
_FX_SHIPS = const(3)
_FX_FLAGSHIPS = const(4)
_SX_FLAGSHIP = const(2)
_SX_LOST = const(3)
_PHASE_MAIN = const("main")
_PHASE_JUMP = const("jump")
_PHASE_JUMP_CONFIRM = const("jconf")
_PHASE_CLOAK = const("cloak")
_PHASE_ASSIGN = const("assign")
_PHASE_ASSIGN_CONFIRM = const("aconf")
_PHASE_FIGHT = const("fight")
_PHASE_WRAP = const("wrap")
_EV_PLAY = const("play")
_EV_USE = const("use")
_EV_SPARE = const("spare")
_EV_READY = const("ready")
_EV_AGREE = const("yes")
_EV_CLOAK = const("cloak")
_EV_DEFEND = const("def")
_EV_PASS = const("pass")
_EV_RESOLVE = const("fight")
_EV_DISCARD = const("discard")
_EV_KEEP = const("keep")

_SEARCH = 240           # assignments scored exhaustively; beyond that, greedy


def unseen_attack(pub):
    """Attack cards not in the discard pile, in play or on the table: what may come next."""
    left = C.expand(C.ATTACK)
    for x in pub[_ATTACK_DISCARD] + [f[_FOE_CARD] for f in pub[_FOES]] + \
            [t[_TOKEN_CARD] for t in pub[_TABLE]]:
        if x in left:
            left.remove(x)
    return left or C.expand(C.ATTACK)


def power_per_threat(pub):
    """Enemy power one threat token buys, on average, from the unseen attack cards (x100)."""
    cards = unseen_attack(pub)
    cost = sum(C.get(x)[C.THREAT] for x in cards) or 1
    return 100 * sum(C.get(x)[C.POWER] for x in cards if C.get(x)[C.TYPE] == C.FOE) // cost


def next_threat(pub):
    """The threat pool the next attack phase will reveal against (the deduction)."""
    t = pub[_THREAT]
    ships = F.alive(pub)
    for s in ships:
        t += C.kwnum(pub[_SHIPS][s][_SHIP_CARD], "U") - C.kwnum(pub[_SHIPS][s][_SHIP_CARD], "RM")
    if pub[_PHASE] in (_PHASE_MAIN, _PHASE_JUMP, _PHASE_JUMP_CONFIRM):
        t += 2 * (len(pub[_LOCATIONS]) + 1)
    t += len(ships) + extra_threat(pub) + sum(x[_TOKEN_COUNT] for x in pub[_TABLE])
    return max(0, t)


def fleet_power(pub):
    return sum(F.power(pub, s, None, None) for s in F.alive(pub))


def _score_fights(pub, fights, fx):
    """Expected worth of a set of fights (wins good, losses bad, overpowered flagships worst).
    `fx`: figures(pub), or None (worked out here). No default: fights.build says why."""
    if fx is None:
        fx = figures(pub)
    total = 0
    flags = fx[_FX_FLAGSHIPS]
    ships_x = fx[_FX_SHIPS]
    for fight in fights:
        ships, foes = fight[_FIGHT_SHIPS], fight[_FIGHT_FOES]
        # the engine's own sums; each battle destiny still to draw counted at its mean, 2
        pp, pd, ep, ed, _n = FT.sums(pub, fight, fx)
        pp += 2 * pd
        ep += 2 * ed
        if pp > ep:
            total += 10 * len(foes) + min(pp - ep, 3)
        elif ep >= 2 * pp:
            for s in ships:
                if ships_x[s][_SX_FLAGSHIP]:
                    flags -= 1
                    total -= 1000 if flags == 0 else 60
                else:
                    total -= 25
        else:
            for s in ships:
                total -= (12 if ships_x[s][_SX_FLAGSHIP] else 6) + ships_x[s][_SX_LOST] // 10
    return total


def figures(pub):
    """What scoring an assignment reads that no assignment of this attack changes, worked out
    once (fights.build's and sums' `fx`, a test holds them to those functions' own): per
    attacker its foe_power and battle destinies, the attackers in the order they join fights
    (power * 64 + index, sorted: build's); per ship (its power, or None when its abilities or
    an attachment make it hang on the fight (fleet.power's conditional bonuses: the Ac'arr
    swarm, SW; Inertia Stabilizer, IS), its battle destinies, flagship, structure lost %); and
    the flagships left. Without them one 15-attacker assignment made 24,000 foe_power calls
    (11 s on an ESP32)."""
    fp = []
    fd = []
    order = []
    for a in range(len(pub[_FOES])):
        fp.append(FT.foe_power(pub, a))
        fd.append(1 if C.kw(pub[_FOES][a][_FOE_CARD], "BD") else 0)
        order.append(fp[a] * 64 + a)
    order.sort()
    ships = []
    for s in range(len(pub[_SHIPS])):
        ship = pub[_SHIPS][s]
        codes = F.abilities(pub, s)
        steady = "SW" not in codes
        for at in ship[_SHIP_ABOARD]:
            if C.kw(at[_ABOARD_CARD], "IS"):
                steady = False
        ships.append((F.power(pub, s, None, None) if steady else None,
                      1 if "BD" in codes and not F.has_dmg(pub, s, "NB") else 0,
                      C.kw(ship[_SHIP_CARD], "F"), F.structure_lost(pub, s, codes)))
    return fp, fd, order, ships, F.flagships_left(pub)


def best_assignment(pub):
    """The full assignment (attacker per fighting ship) that scores best, keeping the part
    already proposed: every completion scored in order (the first free ship's attacker the
    most significant digit), the first best kept; over _SEARCH completions, _greedy. Each
    completion is built from its index when it is scored (a list of them all would be a 1 KB
    block on the heap), from the attack's figures worked out once (figures())."""
    fs, nf = pub[_FIGHTERS], len(pub[_FOES])
    prefix = list(pub[_ASSIGNED])
    free = len(fs) - len(prefix)
    count = nf ** free
    fx = figures(pub)
    if count > _SEARCH:
        return _greedy(pub, prefix, fx)
    best, bs = None, None
    for i in range(count):
        c = prefix + [0] * free
        x = i
        for j in range(len(fs) - 1, len(prefix) - 1, -1):
            c[j] = x % nf
            x //= nf
        if not _valid(len(fs), nf, c):
            continue
        sc = _score_fights(pub, FT.build(pub, c, fx), fx)
        if bs is None or sc > bs:
            best, bs = c, sc
    return best


def _valid(nships, nfoes, asg):
    used = []
    for a in asg:
        if a not in used:
            used.append(a)
    if nships <= nfoes:
        return len(used) == nships
    return len(used) == nfoes


def _greedy(pub, prefix, fx):
    asg = list(prefix)
    save = pub[_ASSIGNED]
    while len(asg) < len(pub[_FIGHTERS]):
        pub[_ASSIGNED] = asg
        opts = CH.def_options(pub)
        best, bs = opts[0], None
        for a in opts:
            trial = asg + [a]
            sc = _score_fights(pub, [f for f in FT.build(pub, trial, fx)
                                     if [1 for s in f[_FIGHT_SHIPS]
                                         if s in pub[_FIGHTERS][:len(trial)]]], fx)
            if bs is None or sc > bs:
                best, bs = a, sc
        asg.append(best)
    pub[_ASSIGNED] = save
    return asg


def _loc_value(pub, cid):
    c = C.get(cid)
    v = 10 * c[C.POWER]
    if pub[_DISTANCE] + c[C.POWER] >= _GOAL:
        v += 200
    r = power_per_threat(pub)
    for k in c[C.KEYWORDS]:
        if k.startswith("ADD"):
            v -= int(k[3:]) * r // 30
        elif k == "DFL":
            v -= 15
        elif k in ("DHI", "OVH"):
            v -= 8
        elif k == "EP1":
            v -= 6
        elif k == "DRA":
            v += 3
        elif k == "RPX":
            v += 4 * len([s for s in F.alive(pub) if pub[_SHIPS][s][_SHIP_DAMAGE]])
    return v


class EasyBot(Bot):
    LEVEL = "easy"

    def act(self, seat):
        legal = seat.legal()
        pub = seat.pub
        ph = pub[_PHASE]
        if ph == _PHASE_JUMP:
            return max(legal, key=lambda a: C.get(pub[_JUMP_OPTIONS][a[_JUMP_OPTION]])[C.POWER])
        if ph in (_PHASE_JUMP_CONFIRM, _PHASE_ASSIGN_CONFIRM):
            return [_EV_AGREE]
        if ph == _PHASE_CLOAK:
            return [_EV_CLOAK, 0]
        if ph == _PHASE_MAIN:
            for a in legal:
                if a[_TAG] == _EV_PLAY and \
                        C.get(a[_PLAY_CARD])[C.TYPE] in (C.SHIP, C.EQUIP, C.CHAR):
                    return a
            return [_EV_READY]
        if ph == _PHASE_FIGHT:
            for a in legal:
                if a[_TAG] in (_EV_RESOLVE, _EV_PASS):
                    return a
        if ph == _PHASE_WRAP:
            return [_EV_KEEP]
        return legal[0]


class SharpBot(Bot):
    LEVEL = "sharp"
    SURPLUS = -4   # deploys a ship while the fleet is less than this much power above the threat

    def act(self, seat):
        legal = seat.legal()
        pub = seat.pub
        ph = pub[_PHASE]
        if ph == _PHASE_JUMP:
            return max(legal, key=lambda a: _loc_value(pub, pub[_JUMP_OPTIONS][a[_JUMP_OPTION]]) * 8
                       - a[_JUMP_OPTION])
        if ph in (_PHASE_JUMP_CONFIRM, _PHASE_ASSIGN_CONFIRM):
            return [_EV_AGREE]
        if ph == _PHASE_CLOAK:
            return self._cloak(pub)
        if ph == _PHASE_ASSIGN:
            best = best_assignment(pub)
            a = [_EV_DEFEND, best[len(pub[_ASSIGNED])]]
            return a if a in legal else legal[0]
        if ph == _PHASE_FIGHT:
            return self._fight(pub, legal)
        if ph == _PHASE_WRAP:
            return self._wrap(seat, legal)
        if ph == _PHASE_MAIN:
            return self._main(seat, legal)
        return legal[0]

    # ---- decisions ---------------------------------------------------------------------------
    def _cloak(self, pub):
        s = pub[_CLOAK_QUEUE][_NEXT]
        if C.kw(pub[_SHIPS][s][_SHIP_CARD], "F"):
            return [_EV_CLOAK, 0]
        expected = next_threat(pub) * power_per_threat(pub) // 100
        fighting = [x for x in F.alive(pub) if not pub[_SHIPS][x][_SHIP_CLOAKED] and x != s]
        others = sum(F.power(pub, x, None, None) for x in fighting)
        return [_EV_CLOAK, 1 if F.power(pub, s, None, None) * 2 < expected - others else 0]

    def _fight(self, pub, legal):
        open_ = CH.open_fights(pub)
        for a in legal:
            if a[_TAG] == _EV_PLAY and len(a) == 3 and (C.kw(a[_PLAY_CARD], "FT2")
                                                       or C.kw(a[_PLAY_CARD], "FA1")):
                f = pub[_FIGHTS][a[_PLAY_TARGET]]
                if _score_fights(pub, [f], None) < 0:
                    return a
        for a in legal:
            if a[_TAG] == _EV_PLAY and C.kw(a[_PLAY_CARD], "REP"):
                return a
        for a in legal:
            if a[_TAG] == _EV_PLAY and C.kw(a[_PLAY_CARD], "RMC"):
                if len([s for s in F.alive(pub) if "CK" in F.abilities(pub, s)]) >= 1:
                    return a
        if [_EV_PASS] in legal:
            return [_EV_PASS]
        # resolve the fight we are most sure to win first: its destiny draws cost the least
        # (the first on ties; a loop, not a sort with a key: that key would run under the C
        # quicksort's recursion, deep on the C stack)
        best, bs = open_[0], None
        fx = figures(pub)
        for k in open_:
            sc = _score_fights(pub, [pub[_FIGHTS][k]], fx)
            if bs is None or sc > bs:
                best, bs = k, sc
        return [_EV_RESOLVE, best]

    def _wrap(self, seat, legal):
        pub = seat.pub
        for a in legal:
            if a[_TAG] == _EV_DISCARD:
                cid = a[_DISCARD_CARD]
                c = C.get(cid)
                if c[C.TYPE] == C.SHIP and (not F.unique_ok(pub, cid)
                                            or F.count_ships(pub, seat.player)
                                            >= F.limit(pub, seat.player)):
                    if not CH.spares(pub, cid):
                        return a
                if c[C.TYPE] in (C.CHAR, C.EQUIP) and not F.unique_ok(pub, cid):
                    return a
        return [_EV_KEEP]

    def _main(self, seat, legal):
        pub = seat.pub
        p = seat.player
        r = power_per_threat(pub)
        enemy = next_threat(pub) * r // 100
        mine = fleet_power(pub)
        short = enemy - mine
        best, bv = [_EV_READY], 0
        for a in legal:
            v = self._value(pub, p, a, r, short)
            if v > bv:
                best, bv = a, v
        return best

    # The worth of one action, split by kind: on a stock install each function's bytecode is
    # one heap block when the module loads, and all of it in one function made a 985 B block.
    def _value(self, pub, p, a, r, short):
        tag = a[_TAG]
        if tag == _EV_SPARE:
            return 40
        if tag == _EV_USE:
            return self._use_value(pub, a, short)
        if tag != _EV_PLAY:
            return 0
        cid = a[_PLAY_CARD]
        t = C.get(cid)[C.TYPE]
        if t == C.SHIP:
            c = C.get(cid)
            cost = c[C.THREAT] * r // 100
            gain = c[C.POWER] - cost - (1 + C.kwnum(cid, "U")) * r // 100
            return 10 + gain if short > self.SURPLUS and gain > -2 else 0
        if t in (C.CHAR, C.EQUIP):
            return self._attach_value(pub, a, r, short)
        return self._effect_value(pub, a, short)

    def _use_value(self, pub, a, short):
        s = pub[_SHIPS][a[_USE_SHIP]]
        if a[_USE_ABOARD] == _OWN_POWER and len(a) == 3:   # overload: when a fight looks lost
            return 5 if short > 0 and len(s[_SHIP_DAMAGE]) == 0 else 0
        if a[_USE_ABOARD] == _OWN_POWER:
            return 30
        at = s[_SHIP_ABOARD][a[_USE_ABOARD]][_ABOARD_CARD]
        choice = a[_USE_CHOICE]
        if C.kw(at, "PKA"):
            top = pub[_ATTACK_DECK][_TOP] if pub[_ATTACK_DECK] else None
            bad = top is not None and C.get(top)[C.POWER] >= 6
            return 8 if (choice == 1) == bad else 0
        if isinstance(choice, str):             # a card retrieved: worth its threat
            return 20 + C.get(choice)[C.THREAT]
        if C.kw(at, "DCK"):
            return 25 if len(s[_SHIP_DAMAGE]) >= 2 else 0
        return 30

    def _attach_value(self, pub, a, r, short):
        """A character or equipment card played onto a ship."""
        c = C.get(a[_PLAY_CARD])
        cost = c[C.THREAT] * r // 100
        s = a[_PLAY_TARGET]
        ship = pub[_SHIPS][s]
        v = 0
        kws = c[C.KEYWORDS]
        cap = C.captain_of(a[_PLAY_CARD])
        if cap is not None:
            v = 30 if cap == ship[_SHIP_CARD] else 0
        elif [1 for k in kws if k.startswith("P") and k[1:].isdigit()] or "IS" in kws:
            v = 12 + F.power(pub, s, None, None) // 2 - cost
        elif "BD" in kws:
            v = 10 + F.power(pub, s, None, None) // 3 - cost
        elif "SH10" in kws or "DCK" in kws or "CK" in kws:
            v = 6 + (8 if C.kw(ship[_SHIP_CARD], "F") else 0)
        elif "DRW" in kws or "RPA" in kws or "RET" in kws or "PKA" in kws or "NAV" in kws:
            v = 14 if C.kw(ship[_SHIP_CARD], "F") else 9
        return v if short > -8 or cap else v // 3

    def _effect_value(self, pub, a, short):
        to = a[_PLAY_TARGET] if len(a) > 2 else None
        for k in C.get(a[_PLAY_CARD])[C.KEYWORDS]:
            if k == "RMC":
                n = len([s for s in F.alive(pub) if "CK" in F.abilities(pub, s)])
                return 10 * n if n >= 2 else 0
            if k.startswith("RM"):
                return 30
            if k == "PKL":
                top = pub[_LOCATION_DECK][_TOP] if pub[_LOCATION_DECK] else None
                if top is None:
                    return 0
                put_back = C.get(top)[C.POWER] < 2
                return 7 if (to == 1) == put_back else 0
            if k.startswith("BO"):
                return 0
            if k in ("PDS", "PDD"):
                x = to if k == "PDS" else "A2"
                return 12 + C.get(x)[C.POWER] if short > -4 else 0
            if k == "REP":
                ship = pub[_SHIPS][to]
                return 20 + C.get(ship[_SHIP_DAMAGE][a[_PLAY_DAMAGE]])[C.CLS] // 5 \
                    if short > -20 else 0
            if k == "RET":
                return 10 + C.get(to)[C.THREAT]
        return 0



class HardBot(SharpBot):
    """Sharp, cloaking where a flagship's fight is the whole game: the fleet is lost only when
    every flagship is destroyed, and a cloaked ship fights nowhere. So its flagship cloaks (if
    it can) when it is the last one alive, and once the jump has reached the goal (that attack
    is the last: the fleet wins if a flagship lives through it), when its other ships fight
    instead, taking attackers off the partner's flagship. As a sharp player's partner, `fathom
    bench bots --game pinned_down` (and `--first 200`): 175 of 200 and 172 of 200 against
    sharp's 171 and 171; over seeds 0-999, 873 against 859. Of that, the final jump's cloaks
    alone: 864 (174 and 171 on the two bench sets).
    Tried, no better: deploying every ship worth more than its threat however far the fleet is
    ahead (SURPLUS -9999: 166 and 171 of the bench's sets), or only from distance 9 (with these
    cloaks, 875 of 1000); SURPLUS 0 (173, 177, then 498 of seeds 400-999 against sharp's 517)
    and 2 (501); jumps weighted 20 or 30 per distance point instead of 10 (511, 512 of
    400-999); flagships cloaking as sharp cloaks its other ships (on too little power): 866 of
    1000; fight scores weighing the chance that a damaged ship's damage card destroys it (171 +
    172); on the final jump, assignments scored by the flagships' survival alone (the same
    games as without)."""
    LEVEL = "hard"

    def _cloak(self, pub):
        s = pub[_CLOAK_QUEUE][_NEXT]
        if not C.kw(pub[_SHIPS][s][_SHIP_CARD], "F"):
            return [_EV_CLOAK, 0] if self._final(pub) else SharpBot._cloak(self, pub)
        return [_EV_CLOAK, 1 if self._final(pub) or F.flagships_left(pub) == 1 else 0]

    def _final(self, pub):
        """The jump reached the goal: this attack is the last the fleet must live through."""
        return pub[_DISTANCE] >= _GOAL
