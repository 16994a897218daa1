# Pinned Down rules engine: a cooperative fleet of 1 to 4 players against the attack deck.
# Rules and every interpretation: docs/rules/pinned_down.md.
#
# Secrets: each player's hand and draw-deck order (priv, derived per player from the joint
# seed). pub holds hand and deck sizes, a count of cards drawn (each unit deals its own draws
# from its own deck copy) and the shared attack, location and damage decks, whose order only
# the cards that allow a peek show on the screen. No event asks another unit a question: every
# card a player uses is revealed by the event that uses it, and the audit checks the hand.
from fathom import res  # noqa: F401  (leaves first: imports nest shallow on the C stack, issue 14)
from fathom.prng import Prng
from fathom.games import pinned_down as D
from fathom.games.base import Engine, IllegalAction
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import deckfile
from fathom.games.pinned_down import fights as FT
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down.fleet import SO, SC, SD, SA, SL, SB, SK, SU
from fathom.games.pinned_down import say

HAND = 4                 # cards drawn at set-up and refilled at wrap-up
GOAL = 10                # distance that wins
MAX_ACTS = 15            # main-phase actions per player per turn (termination guard)
MAX_REJECT = 2           # a joint proposal rejected this often stands the next time
MAX_REVEAL = 40
LEVEL_THREAT = {"easy": 0, "normal": 1, "hard": 3}   # extra (x) per attack phase
PLAYER_THREAT = 7        # extra (x) per attack phase for each player beyond the first


def extra_threat(pub):
    """The difficulty's own (x) at the start of each attack phase (docs: balance)."""
    return LEVEL_THREAT[pub["lvl"]] + PLAYER_THREAT * (pub["n"] - 1)

_PHASE_TAGS = {
    "main": ("play", "use", "move", "spare", "show", "ready"),
    "jump": ("jump",), "jconf": ("yes", "no"), "cloak": ("cloak",),
    "assign": ("def",), "aconf": ("yes", "no"),
    "fight": ("play", "pass", "fight"), "wrap": ("discard", "keep"),
}


def _distinct(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


def _int(v, lo, hi, what):
    if type(v) is not int or not lo <= v < hi:
        raise IllegalAction("bad " + what)
    return v


class PinnedDown(Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS
    COOPERATIVE = True

    # ---- setup -----------------------------------------------------------------------------
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
            "n": n, "aff": affs, "lists": lists, "lvl": opts["level"],
            "ready": [False] * n, "acts": [0] * n, "ph": "setup", "lead": rng.below(n),
            "cur": 0, "turn": 0, "threat": 0, "dist": 0, "locs": [], "lopts": [], "prop": 0,
            "rej": 0, "conf": [], "cq": [], "fs": [], "asg": [], "fights": [], "fw": [],
            "wq": [], "foes": [], "ab": 0, "tbl": [], "ships": ships, "last": None,
            "hs": [HAND] * n, "dn": [len(d) - HAND for d in lists], "drawn": [HAND] * n,
            "disc": [[] for _ in range(n)], "dest": [[] for _ in range(n)],
            "shown": [None] * n,
            "adeck": rng.shuffle(C.expand(C.ATTACK)), "adisc": [],
            "ldeck": rng.shuffle(C.expand(C.LOCATIONS)),
            "ddeck": rng.shuffle(C.expand(C.DAMAGE)), "ddisc": [],
            "key": rng.token(16), "rc": 0, "end": None,
        }

    def new_private(self, pub, player, rng):
        """This player's shuffled draw deck (its own stream of the joint seed) and hand."""
        r = Prng(rng.token(32), b"deck%d" % player)
        deck = r.shuffle(list(pub["lists"][player]))
        return {"hand": deck[:HAND], "deck": deck[HAND:], "drawn": HAND,
                "key": r.token(16), "sh": 0}

    # ---- turn order ------------------------------------------------------------------------
    def turn(self, pub):
        if pub.get("conceded") is not None or pub["end"] is not None:
            return None
        ph = pub["ph"]
        if ph == "main":
            return (pub["cur"], "act")
        if ph in ("jump", "assign"):
            return (pub["lead"], "act")
        if ph in ("jconf", "aconf"):
            return (pub["conf"][0], "act")
        if ph == "cloak":
            return (pub["ships"][pub["cq"][0]][SO], "act")
        if ph == "fight":
            return (pub["fw"][0], "act")
        if ph == "wrap":
            return (pub["wq"][0], "act")
        return None

    # ---- legal actions ---------------------------------------------------------------------
    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t[0] != player:
            return []
        ph = pub["ph"]
        if ph == "main":
            return self._main_legal(pub, player, priv)
        if ph == "jump":
            return [["jump", i] for i in range(len(pub["lopts"]))]
        if ph in ("jconf", "aconf"):
            return [["yes"], ["no"]]
        if ph == "cloak":
            return [["cloak", 1], ["cloak", 0]]
        if ph == "assign":
            return [["def", a] for a in self.def_options(pub)]
        if ph == "fight":
            out = []
            for cid in _distinct(priv["hand"]):
                out.extend(self._card_options(pub, player, cid, "fight", priv["deck"]))
            if player == pub["lead"] and len(pub["fw"]) == 1:
                out.extend(["fight", k] for k in self.open_fights(pub))
            else:
                out.append(["pass"])
            return out
        if ph == "wrap":
            return [["keep"]] + [["discard", c] for c in _distinct(priv["hand"])]
        return []

    def _main_legal(self, pub, p, priv):
        out = [["ready"]]
        if pub["acts"][p] >= MAX_ACTS:
            return out
        hand = _distinct(priv["hand"])
        for cid in hand:
            out.extend(self._card_options(pub, p, cid, "main", priv["deck"]))
        out.extend(self._uses(pub, p))
        out.extend(self._moves(pub, p))
        for cid in hand:
            out.extend(self.spares(pub, cid))
        if pub["shown"][p] is None or pub["shown"][p][0] != pub["turn"]:
            out.append(["show"])
        return out

    def _card_options(self, pub, p, cid, window, deck):
        """Every way to play card `cid` now. deck=None (the public check) accepts any card the
        draw deck could hold."""
        c = C.get(cid)
        t = c[C.TYPE]
        if window == "fight" and (t != C.EFFECT or c[C.THREAT] > 0):
            return []
        alive = F.alive(pub)
        ships = pub["ships"]
        if t == C.SHIP:
            return [["play", cid]] if F.ship_ok(pub, p, cid) else []
        if t in (C.CHAR, C.EQUIP):
            if not F.unique_ok(pub, cid):
                return []
            return [["play", cid, s] for s in alive if len(ships[s][SA]) < F.capacity(pub, s)]
        if t != C.EFFECT:
            return []
        out = []
        for k in c[C.KW]:
            if k.startswith("RM"):
                out.append(["play", cid])
            elif k == "PKL" and pub["ldeck"]:
                out.extend([["play", cid, 0], ["play", cid, 1]])
            elif k.startswith("BO"):
                out.extend(["play", cid, s] for s in alive)
            elif k == "PDS":
                # any ship for the public check, read off the table (a list of every id was
                # a 512 B block); a loop, not a generator: one frame less under legal()
                for x in (C.CARDS if deck is None else _distinct(deck)):
                    x = x[C.ID] if deck is None else x
                    if C.get(x)[C.TYPE] == C.SHIP and F.ship_ok(pub, p, x):
                        out.append(["play", cid, x])
            elif k == "PDD":
                if (deck is None or "A2" in deck) and F.ship_ok(pub, p, "A2"):
                    out.append(["play", cid])
            elif k == "REP":
                for s in alive:
                    out.extend(["play", cid, s, j] for j in range(len(ships[s][SD])))
            elif k == "RET":
                out.extend(["play", cid, x] for x in _distinct(pub["disc"][p]))
            elif k.startswith("FT") or k.startswith("FA"):
                if window == "fight":
                    out.extend(["play", cid, f] for f in self.open_fights(pub))
        return out

    def _uses(self, pub, p):
        out = []
        ships = pub["ships"]
        alive = F.alive(pub)
        for s in alive:
            ship = ships[s]
            if ship[SO] == p and not ship[SU]:
                codes = F.abilities(pub, s)
                if [1 for k in codes if k.startswith("OV")] and F.can_overload(pub, s):
                    out.append(["use", s, -1])
                if "RPU" in C.get(ship[SC])[C.KW]:
                    for t in alive:
                        out.extend(["use", s, -1, t, j] for j in range(len(ships[t][SD])))
            for i in range(len(ship[SA])):
                a = ship[SA][i]
                if a[0] != p or a[2]:
                    continue
                kws = C.get(a[1])[C.KW]
                if "PKA" in kws and pub["adeck"]:
                    out.extend([["use", s, i, 0], ["use", s, i, 1]])
                if "RPA" in kws or "DCK" in kws:
                    out.extend(["use", s, i, j] for j in range(len(ship[SD])))
                if "RET" in kws:
                    out.extend(["use", s, i, x] for x in _distinct(pub["disc"][p]))
        return out

    def _moves(self, pub, p):
        out = []
        ships = pub["ships"]
        alive = F.alive(pub)
        for s in alive:
            for i in range(len(ships[s][SA])):
                if ships[s][SA][i][0] != p:
                    continue
                for t in alive:
                    if t != s and len(ships[t][SA]) < F.capacity(pub, t):
                        out.append(["move", s, i, t])
        return out

    def spares(self, pub, cid):
        """Every repair a spare ship card `cid` can make (rule: same class)."""
        c = C.get(cid)
        if c[C.TYPE] != C.SHIP:
            return []
        out = []
        for s in F.alive(pub):
            ship = pub["ships"][s]
            if C.get(ship[SC])[C.CLS] == c[C.CLS]:
                out.extend(["spare", cid, s, j] for j in range(len(ship[SD])))
        return out

    def def_options(self, pub):
        """Attackers the next unassigned ship may defend against (rule 8.4)."""
        nf = len(pub["foes"])
        asg = pub["asg"]
        free = [a for a in range(nf) if a not in asg]
        if len(pub["fs"]) <= nf:
            return free
        left = len(pub["fs"]) - len(asg)
        return free if left <= len(free) else list(range(nf))

    _def_options = def_options   # the old private names, which the rule tests still call
    _spares = spares

    def open_fights(self, pub):
        return [k for k in range(len(pub["fights"])) if not pub["fights"][k][2]]

    # ---- acting ----------------------------------------------------------------------------
    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("not a legal action: %r" % (action,))
        if action[0] == "show":
            return ["show", sorted(priv["hand"])]
        return list(action)

    def answer(self, pub, priv, player):
        raise IllegalAction("Pinned Down asks no queries")

    # ---- events ----------------------------------------------------------------------------
    # One event can cross several phases (a confirmed jump runs the location, the attack phase,
    # the reveal and its attack events). Each phase step returns the step that follows it (or
    # None) instead of calling it, and apply runs them one after another from its own frame:
    # called in a chain they stood 11 Python frames deep under apply, ~2.7 KB of an ESP32's
    # 8 KB C stack budget (DESIGN.md), and the depth grew with every phase one event crossed.
    def apply(self, pub, author, event):
        if not isinstance(event, list) or not event or not isinstance(event[0], str):
            raise IllegalAction("malformed event")
        if type(author) is not int or not 0 <= author < pub["n"]:
            raise IllegalAction("bad author")
        if event[0] == "setup":
            step = self._setup(pub, author, event)
        else:
            self._check_turn(pub, author, event[0])
            self._check(pub, author, event)
            step = getattr(self, "_ev_" + event[0])(pub, author, event)
        while step is not None:
            step = step(pub)

    def run(self, pub, step):
        """Run phase step `step` and every step it hands on (as apply does after an event)."""
        while step is not None:
            step = step(pub)

    def _check_turn(self, pub, author, tag):
        t = self.turn(pub)
        if t is None:
            raise IllegalAction("no play now (set-up missing or game over)")
        if t[0] != author:
            raise IllegalAction("out of turn")
        if tag not in _PHASE_TAGS.get(pub["ph"], ()):
            raise IllegalAction("%s not allowed in the %s phase" % (tag, pub["ph"]))

    def _check(self, pub, p, event):
        """Public legality: the event must be one the author could send with some hand."""
        tag = event[0]
        if tag in ("play", "spare", "discard"):
            if len(event) < 2 or not C.known(event[1]):
                raise IllegalAction("unknown card")
            if pub["hs"][p] < 1:
                raise IllegalAction("empty hand")
            if tag == "play" and (C.kw(event[1], "PDS") or C.kw(event[1], "PDD")) \
                    and pub["dn"][p] < 1:
                raise IllegalAction("empty draw deck")
        ph = pub["ph"]
        if tag == "play":
            opts = self._card_options(pub, p, event[1], "fight" if ph == "fight" else "main",
                                      None)
        elif tag == "use":
            opts = self._uses(pub, p)
        elif tag == "move":
            opts = self._moves(pub, p)
        elif tag == "spare":
            opts = self.spares(pub, event[1])
        elif tag == "fight":
            opts = [["fight", k] for k in self.open_fights(pub)] if len(pub["fw"]) == 1 \
                and p == pub["lead"] else []
        elif tag == "pass":
            opts = [["pass"]] if not (p == pub["lead"] and len(pub["fw"]) == 1) else []
        elif tag == "show":
            if len(event) != 2 or not isinstance(event[1], list) or len(event[1]) != pub["hs"][p]:
                raise IllegalAction("show must list the whole hand")
            for c in event[1]:
                if not C.known(c):
                    raise IllegalAction("unknown card")
            if pub["shown"][p] is not None and pub["shown"][p][0] == pub["turn"]:
                raise IllegalAction("hand already shown this turn")
            opts = None
        elif tag == "discard":
            opts = [event] if len(event) == 2 else []
        elif tag == "ready":
            opts = [["ready"]]
        else:
            opts = self.legal(pub, {"hand": [], "deck": []}, p)
        if tag in ("play", "use", "move", "spare", "show") and ph == "main" \
                and pub["acts"][p] >= MAX_ACTS:
            raise IllegalAction("no main-phase actions left this turn")
        if opts is not None and event not in opts:
            raise IllegalAction("%s not possible now" % tag)

    def _setup(self, pub, author, event):
        if len(event) != 3 or event[1] is not None:
            raise IllegalAction("set-up carries nothing public")
        if pub["ph"] != "setup" or pub["ready"][author]:
            raise IllegalAction("set-up already done")
        pub["ready"][author] = True
        if False not in pub["ready"]:
            return self._start_turn
        return None

    # main phase
    def _after_main(self, pub, p):
        pub["acts"][p] += 1
        return self._next_main(pub)

    def _next_main(self, pub):
        n = pub["n"]
        for i in range(1, n + 1):
            q = (pub["cur"] + i) % n
            if not pub["ready"][q]:
                pub["cur"] = q
                return None
        return self._jump_start

    def _ev_ready(self, pub, p, event):
        pub["ready"][p] = True
        return self._next_main(pub)

    def _ev_show(self, pub, p, event):
        pub["shown"][p] = [pub["turn"], list(event[1])]
        return self._after_main(pub, p)

    def _ev_play(self, pub, p, event):
        cid = event[1]
        c = C.get(cid)
        pub["hs"][p] -= 1
        pub["threat"] += c[C.THREAT]
        t = c[C.TYPE]
        if t == C.SHIP:
            pub["ships"].append(F.new_ship(p, cid))
        elif t in (C.CHAR, C.EQUIP):
            pub["ships"][event[2]][SA].append([p, cid, 0])
        else:
            self._effect(pub, p, cid, event)
            pub["disc"][p].append(cid)
        if pub["ph"] == "main":
            return self._after_main(pub, p)
        return None

    def _effect(self, pub, p, cid, event):
        ships = pub["ships"]
        for k in C.get(cid)[C.KW]:
            if k == "RMC":
                self._add(pub, -len([s for s in F.alive(pub) if "CK" in F.abilities(pub, s)]))
            elif k.startswith("RM"):
                self._add(pub, -int(k[2:]))
            elif k == "PKL" and event[2] == 1:
                pub["ldeck"].append(pub["ldeck"].pop(0))
            elif k.startswith("BO"):
                ships[event[2]][SB] += int(k[2:])
            elif k in ("PDS", "PDD"):
                x = event[2] if k == "PDS" else "A2"
                pub["dn"][p] -= 1
                pub["threat"] += C.get(x)[C.THREAT]
                ships.append(F.new_ship(p, x))
            elif k == "REP":
                F.repair(pub, event[2], event[3])
            elif k == "RET":
                pub["disc"][p].remove(event[2])
                pub["hs"][p] += 1
            elif k.startswith("FT") or k.startswith("FA"):
                for s in pub["fights"][event[2]][0]:
                    if (k.startswith("FT") and ships[s][SO] == p) or (
                            k.startswith("FA") and F.is_acarr(ships[s][SC])):
                        ships[s][SB] += int(k[2:])

    def _ev_use(self, pub, p, event):
        s, i = event[1], event[2]
        ship = pub["ships"][s]
        if i < 0:
            ship[SU] = 1
            if len(event) == 3:                       # overload
                n = max(F._num(F.abilities(pub, s), "OV"), 0)
                ship[SB] += n
                F.damage(pub, s, overload=True)
            else:
                F.repair(pub, event[3], event[4])
        else:
            a = ship[SA][i]
            a[2] = 1
            kws = C.get(a[1])[C.KW]
            if "PKA" in kws:
                if event[3] == 1:
                    pub["adeck"].append(pub["adeck"].pop(0))
            elif "RET" in kws:
                pub["disc"][p].remove(event[3])
                pub["hs"][p] += 1
            else:
                F.repair(pub, s, event[3])
                if "DCK" in kws:
                    ship[SA].pop(i)
                    pub["disc"][a[0]].append(a[1])
        if pub["end"] is None:
            return self._after_main(pub, p)
        return None

    def _ev_move(self, pub, p, event):
        a = pub["ships"][event[1]][SA].pop(event[2])
        pub["ships"][event[3]][SA].append(a)
        return self._after_main(pub, p)

    def _ev_spare(self, pub, p, event):
        pub["hs"][p] -= 1
        pub["disc"][p].append(event[1])
        F.repair(pub, event[2], event[3])
        return self._after_main(pub, p)

    # jump phase
    def _jump_start(self, pub):
        for s in F.alive(pub):
            self._add(pub, C.kwnum(pub["ships"][s][SC], "U"))
        k = 2
        for s in F.alive(pub):
            if [1 for a in pub["ships"][s][SA] if C.kw(a[1], "NAV")]:
                k = 3
        pub["lopts"] = pub["ldeck"][:k]
        pub["ldeck"] = pub["ldeck"][k:]
        if not pub["lopts"]:
            self._end(pub, False, "no location left")
            return None
        self._decide(pub, "jump")
        return None

    def _decide(self, pub, ph):
        pub["ph"] = ph
        pub["rej"] = 0

    def _propose(self, pub, ph, done):
        """Ask the others to confirm; alone, or after too many rejections, `done` is next."""
        if pub["n"] > 1 and pub["rej"] < MAX_REJECT:
            pub["ph"] = ph
            pub["conf"] = [(pub["lead"] + i) % pub["n"] for i in range(1, pub["n"])]
            return None
        return done

    def _ev_jump(self, pub, p, event):
        pub["prop"] = event[1]
        return self._propose(pub, "jconf", self._do_jump)

    def _ev_yes(self, pub, p, event):
        pub["conf"].pop(0)
        if pub["conf"]:
            return None
        return self._do_jump if pub["ph"] == "jconf" else self._fights_start

    def _ev_no(self, pub, p, event):
        pub["rej"] += 1
        pub["conf"] = []
        if pub["ph"] == "jconf":
            pub["ph"] = "jump"
        else:
            pub["asg"] = []
            pub["fights"] = []
            pub["ph"] = "assign"

    def _do_jump(self, pub):
        i = pub["prop"]
        loc = pub["lopts"][i]
        pub["ldeck"].extend(pub["lopts"][:i] + pub["lopts"][i + 1:])
        pub["lopts"] = []
        pub["locs"].append(loc)
        pub["dist"] += C.get(loc)[C.PW]
        kws = C.get(loc)[C.KW]
        for k in kws:
            if k == "DFL":
                for s in F.alive(pub):
                    if C.kw(pub["ships"][s][SC], "F"):
                        F.damage(pub, s)
            elif k == "DRA":
                for q in range(pub["n"]):
                    self._draw(pub, q, 1)
            elif k == "RPX":
                for s in F.alive(pub):
                    if pub["ships"][s][SD]:
                        F.repair(pub, s, F.worst_damage(pub, s))
            elif k.startswith("ADD"):
                self._add(pub, int(k[3:]))
            elif k in ("OVH", "DHI"):
                s = F.strongest(pub)
                if s >= 0:
                    F.damage(pub, s, overload=k == "OVH")
        return self._attack_start if pub["end"] is None else None

    # attack phase
    def _attack_start(self, pub):
        for t in pub["tbl"]:
            self._add(pub, t[1])
        ships = F.alive(pub)
        self._add(pub, 2 * len(pub["locs"]) + len(ships) + extra_threat(pub))
        for s in ships:
            self._add(pub, -C.kwnum(pub["ships"][s][SC], "RM"))
        cq = []
        for s in ships:   # a loop, not a comprehension: one frame less under can_cloak
            if F.can_cloak(pub, s):
                cq.append(s)
        pub["cq"] = cq
        pub["ph"] = "cloak"
        return None if pub["cq"] else self._reveal

    def _ev_cloak(self, pub, p, event):
        s = pub["cq"].pop(0)
        pub["ships"][s][SK] = event[1] == 1
        return None if pub["cq"] else self._reveal

    def _reveal(self, pub):
        for _ in range(MAX_REVEAL):
            card = F.attack_top(pub)
            if card is None:
                break
            c = C.get(card)
            if c[C.THREAT] > pub["threat"]:
                pub["adisc"].append(card)
                break
            pub["threat"] -= c[C.THREAT]
            if c[C.TYPE] == C.FOE:
                pub["foes"].append([card, False])
            else:
                self._attack_event(pub, card)
            if pub["end"] is not None:
                return None
        return self._assign_start

    def _attack_event(self, pub, card):
        kws = C.get(card)[C.KW]
        if "TOK" in kws:
            if F.unique_ok(pub, card):
                pub["tbl"].append([card, 0])
                return
        elif "AMB" in kws:
            pub["ab"] += 1
        elif "SAB" in kws:
            s = F.strongest(pub)
            if s >= 0:
                F.damage(pub, s)
        elif "WEA" in kws:
            crew = []
            for s in F.alive(pub):
                for i in range(len(pub["ships"][s][SA])):
                    a = pub["ships"][s][SA][i]
                    if C.get(a[1])[C.TYPE] == C.CHAR and not C.kw(a[1], "IW"):
                        crew.append([s, i])
            if crew:
                s, i = crew[F.rng(pub).below(len(crew))]
                a = pub["ships"][s][SA].pop(i)
                pub["disc"][a[0]].append(a[1])
        elif "TRK" in kws:
            for ship in pub["ships"]:
                ship[SK] = False
        pub["adisc"].append(card)

    # assignment phase
    def _assign_start(self, pub):
        pub["fs"] = [s for s in F.alive(pub) if not pub["ships"][s][SK]]
        pub["asg"] = []
        pub["fights"] = []
        if not pub["foes"] or not pub["fs"]:
            return self._wrap_start
        self._decide(pub, "assign")
        return None

    def _ev_def(self, pub, p, event):
        pub["asg"].append(event[1])
        if len(pub["asg"]) != len(pub["fs"]):
            return None
        pub["fights"] = FT.build(pub, pub["asg"])
        return self._propose(pub, "aconf", self._fights_start)

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

    # fight phase
    def _fights_start(self, pub):
        pub["ph"] = "fight"
        self._window(pub)

    def _window(self, pub):
        n, lead = pub["n"], pub["lead"]
        pub["fw"] = [(lead + i) % n for i in range(1, n)] + [lead]

    def _ev_pass(self, pub, p, event):
        pub["fw"].pop(0)

    def _ev_fight(self, pub, p, event):
        self.resolve(pub, event[1])
        if pub["end"] is not None:
            return None
        if self.open_fights(pub):
            self._window(pub)
            return None
        return self._wrap_start

    def resolve(self, pub, k):
        fight = pub["fights"][k]
        fight[2] = True
        pp, pd, ep, ed, n = FT.sums(pub, fight)
        # the battle destinies, the fleet's first, each the top attack card's threat: drawn
        # here rather than in a helper, whose reshuffle would add two frames to the deepest
        # chain under apply (no power above depends on the attack deck)
        for i in range(pd + ed):
            card = F.attack_top(pub)
            if card is None:
                continue
            pub["adisc"].append(card)
            if i < pd:
                pp += C.get(card)[C.THREAT]
            else:
                ep += C.get(card)[C.THREAT]
        ships = [s for s in fight[0] if pub["ships"][s][SL]]  # before any is lost
        won = FT.outcome(pp, ep, n)
        if won == FT.WIN:
            for f in fight[1]:
                pub["adisc"].append(pub["foes"][f][0])
                pub["foes"][f][1] = True
        elif won == FT.OVERPOWERED:
            for s in ships:
                F.destroy(pub, s)
        elif won == FT.DAMAGED:
            for s in ships:
                F.damage(pub, s)
        pub["last"] = [k, pp, ep, won]

    # wrap-up phase
    def _wrap_start(self, pub):
        pub["ph"] = "wrap"
        n = pub["n"]
        pub["wq"] = [(pub["lead"] + i) % n for i in range(n)]

    def _ev_discard(self, pub, p, event):
        pub["hs"][p] -= 1
        pub["disc"][p].append(event[1])
        return self._wrap_next(pub, p)

    def _ev_keep(self, pub, p, event):
        return self._wrap_next(pub, p)

    def _wrap_next(self, pub, p):
        self._draw(pub, p, HAND - pub["hs"][p])
        pub["wq"].pop(0)
        if pub["wq"]:
            return None
        for f in pub["foes"]:
            if not f[1]:
                pub["adisc"].append(f[0])
        pub["foes"] = []
        pub["fights"] = []
        for t in pub["tbl"]:
            t[1] += 1
        if pub["dist"] >= GOAL:
            self._end(pub, True, "distance %d reached" % pub["dist"])
            return None
        pub["lead"] = (pub["lead"] + 1) % pub["n"]
        return self._start_turn

    def _start_turn(self, pub):
        pub["turn"] += 1
        pub["ph"] = "main"
        n = pub["n"]
        pub["ready"] = [False] * n
        pub["acts"] = [0] * n
        pub["cur"] = pub["lead"]
        pub["ab"] = 0
        pub["last"] = None
        for ship in pub["ships"]:
            ship[SB] = 0
            ship[SK] = False
            ship[SU] = 0
            for a in ship[SA]:
                a[2] = 0
        for s in F.alive(pub):
            for a in pub["ships"][s][SA]:
                if C.kw(a[1], "DRW"):
                    self._draw(pub, a[0], 1)

    # ---- helpers ---------------------------------------------------------------------------
    def _add(self, pub, x):
        pub["threat"] = max(0, pub["threat"] + x)

    def _draw(self, pub, p, k):
        k = max(0, min(k, pub["dn"][p]))
        pub["dn"][p] -= k
        pub["hs"][p] += k
        pub["drawn"][p] += k

    def _end(self, pub, won, reason):
        pub["end"] = [won, reason]
        pub["ph"] = "over"

    def apply_private(self, pub, priv, player, author, event):
        tag = event[0]
        if author == player and tag in ("play", "spare", "discard") and event[1] in priv["hand"]:
            priv["hand"].remove(event[1])
            if tag == "play" and C.get(event[1])[C.TYPE] == C.EFFECT:
                kws = C.get(event[1])[C.KW]
                if "PDS" in kws or "PDD" in kws:
                    x = event[2] if "PDS" in kws else "A2"
                    if x in priv["deck"]:
                        priv["deck"].remove(x)
                    priv["sh"] += 1
                    Prng(priv["key"], b"sh%d" % priv["sh"]).shuffle(priv["deck"])
                if "RET" in kws:
                    priv["hand"].append(event[2])
        if author == player and tag == "use" and len(event) == 4 and event[2] >= 0:
            if isinstance(event[3], str):
                priv["hand"].append(event[3])
        while priv["drawn"] < pub["drawn"][player] and priv["deck"]:
            priv["hand"].append(priv["deck"].pop(0))
            priv["drawn"] += 1

    def result(self, pub):
        if pub.get("conceded") is not None:
            return ([], "conceded")
        e = pub["end"]
        if e is None:
            return None
        return (list(range(pub["n"])) if e[0] else [], e[1])

    # ---- for the UI ------------------------------------------------------------------------
    def describe(self, pub, author, event):
        try:
            return say.event(pub, author, event)
        except Exception:  # a log line must never take the screen down
            return "P%d %s" % (author + 1, event[0])

    def label(self, pub, priv, player, action):
        try:
            return say.action(pub, action)
        except Exception:
            return " ".join(str(x) for x in action)


ENGINE = PinnedDown()
