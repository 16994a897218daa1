# PING: a two-player hidden-movement submarine duel. The engine (rules as implemented are in
# docs/rules/ping.md); the map and the cards are data in board.py, the tracker in track.py.
from fathom.games import ping as D
from fathom.games.base import Engine, IllegalAction, check_int, check_size
from fathom.sealed.hooks import DEAL, DEAL_TAGS, FOUL, SealedHooks
from fathom.games.ping import board as B
from fathom.games.ping import track
from fathom.games.ping.track import F_PLAY, F_AT, F_LINE, F_NEAR, tracker  # noqa: F401

# The sealed deal (option sealed=1, docs/SEALED_DEAL.md): positions of the sealed deck after
# both shuffles. Player 1's hand is opened to it by player 2's shares and the other way round;
# the face-down card only when player 1 takes it (end of turn 1); the rest are never opened.
HAND_POS = ((0, 1, 2), (3, 4, 5))
DOWN_POS = 6

# Stages of a turn (pub["q"]): who authors next is decided by the stage.
PLAY = ""        # the player to move plays a card (or reports first)
SEEN = "seen"    # adversary turns their previous card up (PING / LISTEN)
SHOT = "shot"    # adversary answers a TORPEDO / DECK GUN: dive, hit or miss
SHUF = "shuf"    # hit adversary shuffles their hand (a secret choice)
PICK = "pick"    # attacker picks two hand positions blind
DMG = "dmg"      # adversary reveals their square and says whether they sank
HAND = "hand"    # adversary shows the face-down card the player takes into hand

PAIRS = ((0, 1), (0, 2), (1, 2))
PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
_NONE = [-1, -1, -1, -1]   # play-area slot: owner, card (-1 face down), mode, util hint


def _obj_bit(sq):
    for i in range(5):
        if B.OBJECTIVES[i] == sq:
            return 1 << i
    return 0


def _count(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


class PingEngine(SealedHooks, Engine):
    NAME, TITLE, PLAYERS, OPTIONS = D.ID, D.TITLE, D.PLAYERS, D.OPTIONS

    # ---- set-up ----------------------------------------------------------------------------
    def new_game(self, opts, nplayers, rng):
        if nplayers != 2:
            raise IllegalAction("PING is for two players")
        pub = {"ready": [False, False], "p": 0, "q": PLAY, "ask": 0, "shot": None,
                "area": list(_NONE), "out": None, "loc": [-1] * B.NCARDS, "rep": [0, 0],
                "won": None, "tr": track.new(), "tk": None, "turns": 0}
        # .get: a save from before the option (opts {}) is a seeded game, and stays one
        if (opts or {}).get("sealed"):
            from fathom.sealed import stage
            sd = pub["sd"] = stage.new(B.NCARDS)
            stage.shuffle(sd, range(B.NCARDS))
            for p in (0, 1):
                stage.open_to(sd, p, 0, HAND_POS[p])
        return pub

    def new_private(self, pub, player, rng):
        if "sd" in pub:  # sealed: the hand arrives by the deal's openings (apply_private)
            return {"hand": [], "sq": -1, "done": 0, "last": None, "inc": -1, "sd": None}
        # Both units shuffle the same deck from the joint seed and keep only their own part:
        # 0-2 player 1's hand, 3-5 player 2's, 6 the face-down card player 1 takes on turn 1.
        deck = rng.shuffle(list(range(B.NCARDS)))
        own = deck[3 * player:3 * player + 3]
        return {"hand": [[c, 0] for c in own], "sq": -1, "done": 0, "last": None,
                "inc": deck[6] if player == 0 else -1}

    def setup_public(self, pub, priv, player):
        if "sd" not in pub:
            return None
        from fathom.sealed import stage
        return stage.key_commit(priv["sd"])

    def setup_legal(self, pub, priv, player):
        return list(range(B.NSQ)) if priv["sq"] < 0 else []

    def setup_apply(self, pub, priv, player, choice):
        if priv["sq"] >= 0 or type(choice) is not int or not 0 <= choice < B.NSQ:
            raise IllegalAction("start square must be 0..25")
        priv["sq"] = choice

    # ---- whose move ------------------------------------------------------------------------
    def turn(self, pub):
        if pub["won"] is not None or "conceded" in pub:
            return None
        if "sd" in pub:
            from fathom.sealed import stage
            a = stage.pending(pub["sd"])
            if a >= 0:
                return (a, "answer")
        p = pub["p"]
        q = pub["q"]
        if q == PLAY or q == PICK:
            return (p, "act")
        if q == SHUF:
            return (1 - p, "act")
        return (1 - p, "answer")

    def result(self, pub):
        if "conceded" in pub:
            return ([1 - pub["conceded"]], "conceded")
        if pub["won"] is not None:
            return ([pub["won"][0]], pub["won"][1])
        return None

    # ---- legal actions ---------------------------------------------------------------------
    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t[0] != player or t[1] != "act":
            return []
        if priv.get(FOUL):
            return [[FOUL]]
        q = pub["q"]
        if q == SHUF:
            return [["shuffle", k] for k in range(6)]
        if q == PICK:
            return [["disable", i, j] for i, j in PAIRS]
        sq = priv["sq"]
        out = []
        bit = _obj_bit(sq)
        if bit and not priv["done"] & bit:
            out.append(["report"])
        seen = []
        for c, dis in priv["hand"]:
            if c in seen:
                continue
            seen.append(c)
            if dis:
                out.append(["repair", c])
                continue
            steps, util = B.CARDS[c]
            for dest in B.squares(B.reach(sq, steps)):
                out.append(["move", c, dest, 0])
                b = _obj_bit(dest)
                if b and not priv["done"] & b:
                    out.append(["move", c, dest, 1])
            if util == B.TORPEDO:
                for d in range(4):
                    if B.step(sq, d) >= 0:
                        out.append(["torpedo", c, d])
            else:
                out.append([("ping", "listen", "", "gun", "encrypt", "dive")[util], c])
        return out

    # ---- acting (secret consequences go to priv) -------------------------------------------
    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("illegal action %r" % (action,))
        kind = action[0]
        if kind == FOUL:
            return [FOUL]
        if kind == "shuffle":
            h = priv["hand"]
            priv["hand"] = [h[i] for i in PERMS[action[1]]]
            return ["shuffle"]
        if kind == "disable":
            return ["disable", action[1], action[2]]
        if kind == "report":
            return ["report", priv["sq"], self._complete(priv, priv["sq"])]
        c = action[1]
        for i in range(len(priv["hand"])):
            if priv["hand"][i][0] == c:
                priv["hand"].pop(i)
                break
        sq = priv["sq"]
        if kind == "repair":
            priv["last"] = [c, B.REPAIR]
            return ["down", -1, 0]
        if kind == "move":
            priv["last"] = [c, B.MOVEMENT]
            dest = action[2]
            priv["sq"] = dest
            win = self._complete(priv, dest) if action[3] else 0
            if B.CARDS[c][0] == 3:
                return ["up", c, B.MOVEMENT, dest, action[3], win]
            return ["down", dest if action[3] else -1, win]
        priv["last"] = [c, B.UTILITY]
        if kind == "listen":
            return ["listen"]
        if kind == "encrypt":
            return ["down", -1, self._complete(priv, sq) if _obj_bit(sq) else 0]
        if kind == "dive":
            return ["down", -1, 0]
        return ["up", c, B.UTILITY, sq, action[2] if kind == "torpedo" else 0, 0]

    def _complete(self, priv, sq):
        """Mark the objective at sq done (if it is one and not yet done); 1 if that makes five."""
        bit = _obj_bit(sq)
        if not bit or priv["done"] & bit:
            return 0
        priv["done"] |= bit
        return 1 if _count(priv["done"]) == 5 else 0

    # ---- answering (from this unit's secrets) ----------------------------------------------
    def answer(self, pub, priv, player):
        if priv.get(FOUL):
            return [FOUL]
        ev = self.sealed_answer(pub, priv, player)
        if ev is not None:
            return ev
        q = pub["q"]
        last = priv["last"]
        if q == SEEN:
            c, mode = last
            block = B.DEEP if pub["ask"] == B.PING else B.DEEP | B.QUIET
            return ["seen", c, mode, -1 if B.tags(c, mode) & block else priv["sq"]]
        if q == HAND:
            return ["hand", last[0], last[1]]
        if q == DMG:
            # The rules reveal the square only after the two cards are disabled ("Then,
            # reveal your location"), so the hit itself names no square and this answer does.
            for _c, dis in priv["hand"]:
                if not dis:
                    return ["damage", 0, priv["sq"]]
            return ["damage", 1, priv["sq"]]
        if q == SHOT:
            if last is not None and last[1] == B.UTILITY and B.CARDS[last[0]][1] == B.DIVE:
                return ["dive", last[0]]
            if self._hits(pub["shot"], priv["sq"]):
                return ["hit"]
            return ["miss"]
        raise IllegalAction("nothing to answer")

    def _hits(self, shot, sq):
        util, at, d = shot
        if util == B.TORPEDO:
            return sq in B.path(at, d)
        return sq == at or bool(B.NB[at] & (1 << sq))

    def apply_private(self, pub, priv, player, author, event):
        if "sd" in pub and event[0] in ("sk", "ss", "so"):
            for c in self.sealed_private(pub, priv, player, event) or ():
                if c >= 0:
                    priv["hand"].append([c, 0])
            return
        tk = pub["tk"]
        if tk is not None and tk[0] == player:
            c = tk[1]
            if c < 0:  # the face-down card dealt to the play area at set-up
                c = priv["inc"]
                priv["inc"] = -1
            priv["hand"].append([c, 0])
        if event[0] == "disable" and author != player:
            for i in event[1:]:
                priv["hand"][i][1] = 1

    # ---- the public machine ----------------------------------------------------------------
    TRANSIENT = "tk"   # the card the last turn's player takes: apply_private reads it once

    def phase(self, pub):
        return DEAL if self.dealing(pub) else pub["q"]

    def apply_setup(self, pub, author, event):
        check_size(event, 3)
        if pub["ready"][author]:
            raise IllegalAction("bad set-up event")
        if "sd" in pub:
            from fathom.sealed import stage
            self.sealed_call(stage.set_commit, pub["sd"], author, event[1])
        elif event[1] is not None:
            raise IllegalAction("bad set-up event")
        pub["ready"][author] = True

    def _h_foul(self, pub, author, ev):
        if "sd" not in pub:
            raise IllegalAction("foul not allowed now")
        check_size(ev, 1)
        pub["won"] = [author, "foul: P%d's card share opened no card" % (2 - author)]

    def _fact(self, pub, who, kind, x, y=0):
        track.add(pub, who, kind, x, y)

    def _win_flag(self, pub, p, rsq, win):
        """Check a report square (or -1) and win flag; return the new public report mask."""
        check_int(win, 0, 2)
        mask = pub["rep"][p]
        if rsq != -1:
            bit = _obj_bit(check_int(rsq, 0, B.NSQ))
            if not bit or mask & bit:
                raise IllegalAction("no objective left to report at %s" % B.name(rsq))
            mask |= bit
            if _count(mask) == 5 and not win:
                raise IllegalAction("five objectives reported but no win claimed")
        return mask

    def _report(self, pub, p, rsq, win, mask):
        if rsq != -1:
            pub["rep"][p] = mask
            self._fact(pub, p, F_AT, rsq)
        if win:
            pub["won"] = [p, "objectives"]

    def _h_report(self, pub, author, ev):
        check_size(ev, 3)
        p = pub["p"]
        if not _obj_bit(check_int(ev[1], 0, B.NSQ)):
            raise IllegalAction("not an objective")
        mask = self._win_flag(pub, p, ev[1], ev[2])
        self._report(pub, p, ev[1], ev[2], mask)

    def _h_up(self, pub, author, ev):
        check_size(ev, 6)
        p = pub["p"]
        c = check_int(ev[1], 0, B.NCARDS)
        mode = check_int(ev[2], B.MOVEMENT, B.UTILITY + 1)
        sq = check_int(ev[3], 0, B.NSQ)
        if pub["loc"][c] not in (-1, p):
            raise IllegalAction("card %d is not in your hand" % c)
        if not B.yellow(c, mode):
            raise IllegalAction("that action is played face down")
        util = B.CARDS[c][1]
        mask = self._win_flag(pub, p, sq if ev[4] == 1 and mode == B.MOVEMENT else -1, ev[5])
        if mode == B.MOVEMENT:
            check_int(ev[4], 0, 2)
            if ev[5] and not ev[4]:
                raise IllegalAction("a win needs a report")
        else:
            if ev[5]:
                raise IllegalAction("no win here")
            if util == B.TORPEDO:
                if B.step(sq, check_int(ev[4], 0, 4)) < 0:
                    raise IllegalAction("no line that way")
            elif ev[4] != 0:
                raise IllegalAction("malformed up event")
        pub["loc"][c] = 2
        self._fact(pub, p, F_PLAY, 3 if mode == B.MOVEMENT else 0)
        self._fact(pub, p, F_AT, sq)
        pub["out"] = [p, c, mode, util if mode == B.UTILITY else -1]
        if mode == B.MOVEMENT:
            self._report(pub, p, sq if ev[4] else -1, ev[5], mask)
            if not ev[5]:
                self._end_turn(pub)
        elif util == B.PING:
            self._ask(pub, B.PING)
        else:
            pub["shot"] = [util, sq, ev[4]]
            pub["q"] = SHOT

    def _h_down(self, pub, author, ev):
        check_size(ev, 3)
        p = pub["p"]
        mask = self._win_flag(pub, p, ev[1], ev[2])
        self._fact(pub, p, F_PLAY, -1)
        pub["out"] = [p, -1, -1, -1]
        self._report(pub, p, ev[1], ev[2], mask)
        if not ev[2]:
            self._end_turn(pub)

    def _h_listen(self, pub, author, ev):
        check_size(ev, 1)
        p = pub["p"]
        self._fact(pub, p, F_PLAY, 0)
        pub["out"] = [p, -1, B.UTILITY, B.LISTEN]
        self._ask(pub, B.LISTEN)

    def _ask(self, pub, util):
        if pub["area"][0] == 1 - pub["p"]:
            pub["ask"] = util
            pub["q"] = SEEN
        else:  # turn 1: the adversary has no previous card yet
            self._end_turn(pub)

    def _check_reveal(self, pub, c, mode):
        """An answer turning the adversary's previous card up must fit what is public."""
        a = pub["area"]
        check_int(c, 0, B.NCARDS)
        check_int(mode, B.REPAIR, B.UTILITY + 1)
        if a[1] >= 0:
            if c != a[1] or mode != a[2]:
                raise IllegalAction("that card is already face up")
            return
        if pub["loc"][c] not in (-1, a[0]):
            raise IllegalAction("card %d was not in that hand" % c)
        if B.yellow(c, mode):
            raise IllegalAction("a yellow action is never played face down")
        if a[2] >= 0 and (mode != a[2] or B.CARDS[c][1] != a[3]):
            raise IllegalAction("card does not match the action played")

    def _reveal(self, pub, c, mode):
        a = pub["area"]
        if a[1] < 0:
            pub["loc"][c] = 2
            a[1] = c
            if a[2] < 0:  # the play's step count becomes known
                track.resolve(pub, a[0], B.CARDS[c][0] if mode == B.MOVEMENT else 0)
            a[2] = mode

    def _h_seen(self, pub, author, ev):
        check_size(ev, 4)
        c, mode, sq = ev[1], ev[2], ev[3]
        self._check_reveal(pub, c, mode)
        block = B.DEEP if pub["ask"] == B.PING else B.DEEP | B.QUIET
        if B.tags(c, mode) & block:
            if sq != -1:
                raise IllegalAction("that card hides the location")
        else:
            check_int(sq, 0, B.NSQ)
        self._reveal(pub, c, mode)
        if sq >= 0:
            self._fact(pub, 1 - pub["p"], F_AT, sq)
        self._end_turn(pub)

    def _h_dive(self, pub, author, ev):
        check_size(ev, 2)
        a = pub["area"]
        if a[0] != 1 - pub["p"] or a[1] >= 0:
            raise IllegalAction("no face-down card to turn up")
        self._check_reveal(pub, ev[1], B.UTILITY)
        if B.CARDS[ev[1]][1] != B.DIVE:
            raise IllegalAction("that card is not a DIVE")
        self._reveal(pub, ev[1], B.UTILITY)
        pub["shot"] = None
        self._end_turn(pub)

    def _h_miss(self, pub, author, ev):
        check_size(ev, 1)
        util, at, d = pub["shot"]
        if util == B.TORPEDO:
            self._fact(pub, 1 - pub["p"], F_LINE, at, d)
        else:
            self._fact(pub, 1 - pub["p"], F_NEAR, at)
        pub["shot"] = None
        self._end_turn(pub)

    def _h_hit(self, pub, author, ev):
        # No square yet: the shot stays in pub so the reveal in `damage` can be checked.
        check_size(ev, 1)
        pub["q"] = SHUF

    def _h_shuffle(self, pub, author, ev):
        check_size(ev, 1)
        pub["q"] = PICK

    def _h_disable(self, pub, author, ev):
        check_size(ev, 3)
        if [ev[1], ev[2]] not in [[i, j] for i, j in PAIRS] or type(ev[1]) is not int \
                or type(ev[2]) is not int:
            raise IllegalAction("pick two different positions 0..2, lower first")
        pub["q"] = DMG

    def _h_damage(self, pub, author, ev):
        check_size(ev, 3)
        sunk = check_int(ev[1], 0, 2)
        sq = check_int(ev[2], 0, B.NSQ)
        if not self._hits(pub["shot"], sq):
            raise IllegalAction("the shot cannot reach %s" % B.name(sq))
        self._fact(pub, 1 - pub["p"], F_AT, sq)
        pub["shot"] = None
        if sunk:
            pub["won"] = [pub["p"], "sunk"]
        else:
            self._end_turn(pub)

    def _h_hand(self, pub, author, ev):
        check_size(ev, 3)
        if pub["area"][1] >= 0:
            raise IllegalAction("card already face up")
        self._check_reveal(pub, ev[1], ev[2])
        self._reveal(pub, ev[1], ev[2])
        self._end_turn(pub)

    def _end_turn(self, pub):
        """The player takes the card on their right (asking its owner to show it if it is still
        face down), then the turn passes and the card just played waits for the adversary."""
        p = pub["p"]
        a = pub["area"]
        if a[0] == 1 - p and a[1] < 0:
            pub["q"] = HAND
            return
        if a[0] < 0 and "sd" in pub:  # the dealt face-down card: opened to its taker now
            from fathom.sealed import stage
            stage.open_to(pub["sd"], p, 0, [DOWN_POS])
        else:
            pub["tk"] = [p, a[1]]
        if a[1] >= 0:
            pub["loc"][a[1]] = p
        pub["area"] = pub["out"]
        pub["out"] = None
        pub["p"] = 1 - p
        pub["q"] = PLAY
        pub["turns"] += 1

    # ---- log lines -------------------------------------------------------------------------
    def describe(self, pub, author, event):
        from fathom.games.ping.describe import describe
        return describe(author, event)


PingEngine.HANDLERS = {
    PLAY: {"report": PingEngine._h_report, "up": PingEngine._h_up, "down": PingEngine._h_down,
           "listen": PingEngine._h_listen},
    SEEN: {"seen": PingEngine._h_seen},
    SHOT: {"dive": PingEngine._h_dive, "miss": PingEngine._h_miss, "hit": PingEngine._h_hit},
    SHUF: {"shuffle": PingEngine._h_shuffle},
    PICK: {"disable": PingEngine._h_disable},
    DMG: {"damage": PingEngine._h_damage},
    HAND: {"hand": PingEngine._h_hand},
    DEAL: {t: SealedHooks.deal_step for t in DEAL_TAGS},
}
PingEngine.ANY_PHASE = {FOUL: PingEngine._h_foul}

ENGINE = PingEngine()
