# PING: a two-player hidden-movement submarine duel. The engine (rules as implemented are in
# docs/rules/ping.md); the map and the cards are data in board.py, the tracker in track.py.
from fathom.compat import const
from fathom.games import ping as D
from fathom.games import base
from fathom.games.base import Engine, IllegalAction
from fathom.sealed.hooks import DEAL, DEAL_TAGS, SealedHooks
from fathom.sealed.hooks import FOUL as EV_FOUL   # [EV_FOUL]: a sealed card share opened no card
from fathom.games.ping import board as B
from fathom.games.ping import track

# The schema's names this module reads (the engine's, and base's): private copies that
# MicroPython folds into the code, so they cost no heap; a test holds each to its schema.
_READY = const("ready")
_CONCEDED = const("conceded")
_TURN_ACT = const("act")
_TURN_ANSWER = const("answer")
_TAG = const(0)
_SETUP_PUBLIC = const(1)

# The sealed deal (option sealed=1, docs/SEALED_DEAL.md): positions of the sealed deck after
# both shuffles. Player 1's hand is opened to it by player 2's shares and the other way round;
# the face-down card only when player 1 takes it (end of turn 1); the rest are never opened.
HAND_POS = ((0, 1, 2), (3, 4, 5))
_DEALT_POS = const(6)   # the face-down card dealt to the play area

# ---- the schema: public state (pub), private state (priv), events ------------------------
# pub, the same on both units ("ready": base.READY; "conceded": base.CONCEDED)
_MOVER = const("p")       # the player whose turn it is
_PHASE = const("q")       # the stage of that turn (below): who authors next follows from it
_ASKED = const("ask")     # B.PING or B.LISTEN: what the adversary's SEEN answer reveals for
_FIRED = const("shot")    # [_SHOT_UTIL, _SHOT_FROM, _SHOT_DIR] of the shot awaiting its answer
_AREA = const("area")     # the play area: the card played last turn, [owner, card, mode, util]
_OUT = const("out")       # the card played this turn, same form; it becomes AREA at turn's end
_WHERE_CARD = const("loc")  # per card: -1 unseen, 0/1 the hand it is known in, 2 face up
_REPORTED = const("rep")  # per player: the bit mask of objectives reported
_WON = const("won")       # None, or [winner, reason]
_TRACK = const("tr")      # per player: what public facts leave of their position (track.py)
_TAKE = const("tk")       # [player, card] the last turn's player takes (-1: the dealt card);
                         # read by apply_private once, cleared by the next event
_TURNS = const("turns")   # turns completed
_SEALED = const("sd")     # the sealed deal's state (option sealed=1; sealed/stage.py)
# slots of AREA and OUT (play-area slot), of _FIRED, of _WON and of _TAKE
_SLOT_OWNER = const(0)    # the player who played it, -1 for the empty slot
_SLOT_CARD = const(1)     # the card, -1 while face down
_SLOT_MODE = const(2)     # B.MOVEMENT / B.UTILITY / B.REPAIR, -1 while unknown
_SLOT_UTIL = const(3)     # the utility it performs (a face-down play's hint), -1 if none
_SHOT_UTIL = const(0)     # B.TORPEDO or B.DECK_GUN
_SHOT_FROM = const(1)     # the square it was fired from
_SHOT_DIR = const(2)      # a torpedo's heading (0 N, 1 E, 2 S, 3 W)
_WON_BY = const(0)        # the winner
_WON_WHY = const(1)       # the reason, as result() gives it
_TAKE_BY = const(0)       # the player taking the card
_TAKE_CARD = const(1)     # the card taken, -1 for the card dealt face down at set-up

# priv, on its owner's unit only
_HAND_CARDS = const("hand")  # [[card, disabled 0/1], ...] in hand order (positions are public)
_SUB_AT = const("sq")     # the submarine's square, -1 before set-up
_DONE = const("done")     # the bit mask of objectives completed (reported or not)
_LAST = const("last")     # [card, mode] of my previous play, None before it
_INCOMING = const("inc")  # the card dealt face down that player 0 takes on turn 1, else -1
_SECRET = const("sd")     # my sealed-deal secret (sealed=1)
_HELD_CARD = const(0)     # slots of a HAND_CARDS entry and of LAST
_HELD_OFF = const(1)      # HAND_CARDS: 1 while disabled
_LAST_CARD = const(0)
_LAST_MODE = const(1)

# events: [tag, slot 1, ...]; the tables of docs/rules/ping.md list the same
_EV_REPORT = const("report")   # report the objective under the submarine without playing
_REPORT_SQ = const(1)          # the objective's square
_REPORT_WIN = const(2)         # 1 when it is the fifth: a win
_EV_UP = const("up")           # play a card face up (yellow action)
_UP_CARD = const(1)            # the card
_UP_MODE = const(2)            # B.MOVEMENT or B.UTILITY
_UP_SQ = const(3)              # the square the submarine ends on (the shot's origin)
_UP_REPORT = const(4)          # movement: 1 to report the objective at UP_SQ
_UP_DIR = const(4)             # torpedo: its heading; other utilities 0
_UP_WIN = const(5)             # movement: 1 when the report wins
_EV_DOWN = const("down")       # play a card face down
_DOWN_SQ = const(1)            # the objective reported with it, -1 for none
_DOWN_WIN = const(2)           # 1 when that report wins
_EV_LISTEN = const("listen")   # LISTEN played face up: the adversary shows their last card
_EV_SEEN = const("seen")       # answer to PING / LISTEN: the previous card turned up
_SEEN_CARD = const(1)          # the card
_SEEN_MODE = const(2)          # how it was played
_SEEN_SQ = const(3)            # the square it shows, -1 when the card hides it
_EV_DIVE = const("dive")       # answer to a shot: a DIVE played last turn makes it miss
_DIVE_CARD = const(1)          # the DIVE card, turned up
_EV_MISS = const("miss")       # answer to a shot: missed
_EV_HIT = const("hit")         # answer to a shot: hit
_EV_SHUFFLE = const("shuffle")  # the hit player shuffled their hand (secretly)
_EV_DISABLE = const("disable")  # the attacker picks two hand positions to disable
_DISABLE_FIRST = const(1)      # the lower position 0..2
_DISABLE_SECOND = const(2)     # the higher position
_EV_DAMAGE = const("damage")   # the hit player's square, and whether that sank them
_DAMAGE_SUNK = const(1)        # 1: every card disabled, the submarine sinks
_DAMAGE_SQ = const(2)          # the square hit
_EV_END = const("end")         # the turn kept open for a late report ends without one
_EV_HAND = const("hand")       # the face-down card the player takes, shown by its owner
_HAND_CARD = const(1)          # the card
_HAND_MODE = const(2)          # how it was played

# actions (legal/act; they become the events above), beyond the events' own slots
_A_MOVE = const("move")        # [A_MOVE, card, square, report 0/1]
_A_TORPEDO = const("torpedo")  # [A_TORPEDO, card, heading]
_A_REPAIR = const("repair")    # [A_REPAIR, card]: repair a disabled card (face down)
_ACT_CARD = const(1)           # the card every play action plays
_MOVE_DEST = const(2)
_MOVE_REPORT = const(3)
_TORPEDO_DIR = const(2)
_ORDER_CHOICE = const(1)       # [EV_SHUFFLE, k]: the action shuffling the hand into PERMS[k]

# Stages of a turn (pub[_PHASE]): who authors next is decided by the stage.
_PLAY = const("")        # the player to move plays a card (or reports first)
_SEEN = const("seen")    # adversary turns their previous card up (PING / LISTEN)
_SHOT = const("shot")    # adversary answers a TORPEDO / DECK GUN: dive, hit or miss
_SHUF = const("shuf")    # hit adversary shuffles their hand (a secret choice)
_PICK = const("pick")    # attacker picks two hand positions blind
_DMG = const("dmg")      # adversary reveals their square and says whether they sank
_HAND = const("hand")    # adversary shows the face-down card the player takes into hand
_LATE = const("late")    # the action is done and the player's square is public on an objective
                         # not yet reported: they may still report it (rules §8) or end the turn

PAIRS = ((0, 1), (0, 2), (1, 2))
PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
_NONE = [-1, -1, -1, -1]   # the empty play-area slot (SLOT_OWNER.. SLOT_UTIL all -1)


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
        pub = {_READY: [False, False], _MOVER: 0, _PHASE: _PLAY, _ASKED: 0, _FIRED: None,
               _AREA: list(_NONE), _OUT: None, _WHERE_CARD: [-1] * B.NCARDS, _REPORTED: [0, 0],
               _WON: None, _TRACK: track.new(), _TAKE: None, _TURNS: 0}
        # .get: a save from before the option (opts {}) is a seeded game, and stays one
        if (opts or {}).get("sealed"):
            from fathom.sealed import stage
            sd = pub[_SEALED] = stage.new(B.NCARDS)
            stage.shuffle(sd, range(B.NCARDS))
            for p in (0, 1):
                stage.open_to(sd, p, 0, HAND_POS[p])
        return pub

    def new_private(self, pub, player, rng):
        if _SEALED in pub:  # sealed: the hand arrives by the deal's openings (apply_private)
            return {_HAND_CARDS: [], _SUB_AT: -1, _DONE: 0, _LAST: None, _INCOMING: -1, _SECRET: None}
        # Both units shuffle the same deck from the joint seed and keep only their own part:
        # 0-2 player 1's hand, 3-5 player 2's, 6 the face-down card player 1 takes on turn 1.
        deck = rng.shuffle(list(range(B.NCARDS)))
        own = deck[3 * player:3 * player + 3]
        return {_HAND_CARDS: [[c, 0] for c in own], _SUB_AT: -1, _DONE: 0, _LAST: None,
                _INCOMING: deck[_DEALT_POS] if player == 0 else -1}

    def setup_public(self, pub, priv, player):
        if _SEALED not in pub:
            return None
        from fathom.sealed import stage
        return stage.key_commit(priv[_SECRET])

    def setup_legal(self, pub, priv, player):
        return list(range(B.NSQ)) if priv[_SUB_AT] < 0 else []

    def setup_apply(self, pub, priv, player, choice):
        if priv[_SUB_AT] >= 0 or type(choice) is not int or not 0 <= choice < B.NSQ:
            raise IllegalAction("start square must be 0..25")
        priv[_SUB_AT] = choice

    # ---- whose move ------------------------------------------------------------------------
    def turn(self, pub):
        if pub[_WON] is not None or _CONCEDED in pub:
            return None
        if _SEALED in pub:
            from fathom.sealed import stage
            a = stage.pending(pub[_SEALED])
            if a >= 0:
                return (a, _TURN_ANSWER)
        p = pub[_MOVER]
        q = pub[_PHASE]
        if q == _PLAY or q == _PICK or q == _LATE:
            return (p, _TURN_ACT)
        if q == _SHUF:
            return (1 - p, _TURN_ACT)
        return (1 - p, _TURN_ANSWER)

    def result(self, pub):
        if _CONCEDED in pub:
            return ([1 - pub[_CONCEDED]], "conceded")
        if pub[_WON] is not None:
            return ([pub[_WON][_WON_BY]], pub[_WON][_WON_WHY])
        return None

    # ---- legal actions ---------------------------------------------------------------------
    def legal(self, pub, priv, player):
        t = self.turn(pub)
        if t is None or t[0] != player or t[1] != _TURN_ACT:
            return []
        if priv.get(EV_FOUL):
            return [[EV_FOUL]]
        q = pub[_PHASE]
        if q == _SHUF:
            return [[_EV_SHUFFLE, k] for k in range(len(PERMS))]
        if q == _PICK:
            return [[_EV_DISABLE, i, j] for i, j in PAIRS]
        sq = priv[_SUB_AT]
        out = []
        bit = _obj_bit(sq)
        if bit and not priv[_DONE] & bit:
            out.append([_EV_REPORT])
        if q == _LATE:
            out.append([_EV_END])
            return out
        seen = []
        for c, dis in priv[_HAND_CARDS]:
            if c in seen:
                continue
            seen.append(c)
            if dis:
                out.append([_A_REPAIR, c])
                continue
            steps, util = B.CARDS[c]
            for dest in B.squares(B.reach(sq, steps)):
                out.append([_A_MOVE, c, dest, 0])
                b = _obj_bit(dest)
                if b and not priv[_DONE] & b:
                    out.append([_A_MOVE, c, dest, 1])
            if util == B.TORPEDO:
                for d in range(4):
                    if B.step(sq, d) >= 0:
                        out.append([_A_TORPEDO, c, d])
            else:
                # the action kind of each B utility (a literal: a constant, no global)
                out.append([("ping", "listen", "", "gun", "encrypt", "dive")[util], c])
        return out

    # ---- acting (secret consequences go to priv) -------------------------------------------
    def act(self, pub, priv, player, action):
        if action not in self.legal(pub, priv, player):
            raise IllegalAction("illegal action %r" % (action,))
        kind = action[_TAG]
        if kind == EV_FOUL or kind == _EV_END:
            return [kind]
        if kind == _EV_SHUFFLE:
            h = priv[_HAND_CARDS]
            priv[_HAND_CARDS] = [h[i] for i in PERMS[action[_ORDER_CHOICE]]]
            return [_EV_SHUFFLE]
        if kind == _EV_DISABLE:
            return [_EV_DISABLE, action[_DISABLE_FIRST], action[_DISABLE_SECOND]]
        if kind == _EV_REPORT:
            return [_EV_REPORT, priv[_SUB_AT], self._complete(priv, priv[_SUB_AT])]
        c = action[_ACT_CARD]
        hand = priv[_HAND_CARDS]
        for i in range(len(hand)):
            if hand[i][_HELD_CARD] == c:
                hand.pop(i)
                break
        sq = priv[_SUB_AT]
        if kind == _A_REPAIR:
            priv[_LAST] = [c, B.REPAIR]
            return [_EV_DOWN, -1, 0]
        if kind == _A_MOVE:
            priv[_LAST] = [c, B.MOVEMENT]
            dest = action[_MOVE_DEST]
            report = action[_MOVE_REPORT]
            priv[_SUB_AT] = dest
            win = self._complete(priv, dest) if report else 0
            steps, _util = B.CARDS[c]
            if steps == 3:   # MOVE 3 is played face up
                return [_EV_UP, c, B.MOVEMENT, dest, report, win]
            return [_EV_DOWN, dest if report else -1, win]
        priv[_LAST] = [c, B.UTILITY]
        if kind == _EV_LISTEN:
            return [_EV_LISTEN]
        if kind == "encrypt":
            return [_EV_DOWN, -1, self._complete(priv, sq) if _obj_bit(sq) else 0]
        if kind == _EV_DIVE:
            return [_EV_DOWN, -1, 0]
        return [_EV_UP, c, B.UTILITY, sq, action[_TORPEDO_DIR] if kind == _A_TORPEDO else 0, 0]

    def _complete(self, priv, sq):
        """Mark the objective at sq done (if it is one and not yet done); 1 if that makes five."""
        bit = _obj_bit(sq)
        if not bit or priv[_DONE] & bit:
            return 0
        priv[_DONE] |= bit
        return 1 if _count(priv[_DONE]) == 5 else 0

    # ---- answering (from this unit's secrets) ----------------------------------------------
    def answer(self, pub, priv, player):
        if priv.get(EV_FOUL):
            return [EV_FOUL]
        ev = self.sealed_answer(pub, priv, player)
        if ev is not None:
            return ev
        q = pub[_PHASE]
        last = priv[_LAST]
        if q == _SEEN:
            c, mode = last
            block = B.DEEP if pub[_ASKED] == B.PING else B.DEEP | B.QUIET
            return [_EV_SEEN, c, mode, -1 if B.tags(c, mode) & block else priv[_SUB_AT]]
        if q == _HAND:
            return [_EV_HAND, last[_LAST_CARD], last[_LAST_MODE]]
        if q == _DMG:
            # The rules reveal the square only after the two cards are disabled ("Then,
            # reveal your location"), so the hit itself names no square and this answer does.
            for _c, dis in priv[_HAND_CARDS]:
                if not dis:
                    return [_EV_DAMAGE, 0, priv[_SUB_AT]]
            return [_EV_DAMAGE, 1, priv[_SUB_AT]]
        if q == _SHOT:
            if last is not None and last[_LAST_MODE] == B.UTILITY and \
                    B.CARDS[last[_LAST_CARD]][1] == B.DIVE:
                return [_EV_DIVE, last[_LAST_CARD]]
            if self._hits(pub[_FIRED], priv[_SUB_AT]):
                return [_EV_HIT]
            return [_EV_MISS]
        raise IllegalAction("nothing to answer")

    def _hits(self, shot, sq):
        util, at, d = shot
        if util == B.TORPEDO:
            return sq in B.path(at, d)
        return sq == at or bool(B.NB[at] & (1 << sq))

    def apply_private(self, pub, priv, player, author, event):
        if _SEALED in pub and event[_TAG] in DEAL_TAGS:
            for c in self.sealed_private(pub, priv, player, event) or ():
                if c >= 0:
                    priv[_HAND_CARDS].append([c, 0])
            return
        tk = pub[_TAKE]
        if tk is not None and tk[_TAKE_BY] == player:
            c = tk[_TAKE_CARD]
            if c < 0:  # the face-down card dealt to the play area at set-up
                c = priv[_INCOMING]
                priv[_INCOMING] = -1
            priv[_HAND_CARDS].append([c, 0])
        if event[_TAG] == _EV_DISABLE and author != player:
            hand = priv[_HAND_CARDS]
            hand[event[_DISABLE_FIRST]][_HELD_OFF] = 1
            hand[event[_DISABLE_SECOND]][_HELD_OFF] = 1

    # ---- the public machine ----------------------------------------------------------------
    TRANSIENT = _TAKE   # the card the last turn's player takes: apply_private reads it once

    def phase(self, pub):
        return DEAL if self.dealing(pub) else pub[_PHASE]

    def apply_setup(self, pub, author, event):
        base.check_size(event, 3)
        if pub[_READY][author]:
            raise IllegalAction("bad set-up event")
        if _SEALED in pub:
            from fathom.sealed import stage
            self.sealed_call(stage.set_commit, pub[_SEALED], author, event[_SETUP_PUBLIC])
        elif event[_SETUP_PUBLIC] is not None:
            raise IllegalAction("bad set-up event")
        pub[_READY][author] = True

    def _h_foul(self, pub, author, ev):
        if _SEALED not in pub:
            raise IllegalAction("foul not allowed now")
        base.check_size(ev, 1)
        pub[_WON] = [author, "foul: P%d's card share opened no card" % (2 - author)]

    def _fact(self, pub, who, kind, x, y=0):
        track.add(pub, who, kind, x, y)

    def _win_flag(self, pub, p, rsq, win):
        """Check a report square (or -1) and win flag; return the new public report mask."""
        base.check_int(win, 0, 2)
        mask = pub[_REPORTED][p]
        if rsq != -1:
            bit = _obj_bit(base.check_int(rsq, 0, B.NSQ))
            if not bit or mask & bit:
                raise IllegalAction("no objective left to report at %s" % B.name(rsq))
            mask |= bit
            if _count(mask) == 5 and not win:
                raise IllegalAction("five objectives reported but no win claimed")
        return mask

    def _report(self, pub, p, rsq, win, mask):
        if rsq != -1:
            pub[_REPORTED][p] = mask
            self._fact(pub, p, track.F_AT, rsq)
        if win:
            pub[_WON] = [p, "objectives"]

    def _h_report(self, pub, author, ev):
        base.check_size(ev, 3)
        p = pub[_MOVER]
        sq = ev[_REPORT_SQ]
        if not _obj_bit(base.check_int(sq, 0, B.NSQ)):
            raise IllegalAction("not an objective")
        mask = self._win_flag(pub, p, sq, ev[_REPORT_WIN])
        self._report(pub, p, sq, ev[_REPORT_WIN], mask)

    def _h_late_report(self, pub, author, ev):
        self._h_report(pub, author, ev)
        if pub[_WON] is None:
            self._end_turn(pub)

    def _h_end(self, pub, author, ev):
        base.check_size(ev, 1)
        self._end_turn(pub)

    def _h_up(self, pub, author, ev):
        base.check_size(ev, 6)
        p = pub[_MOVER]
        c = base.check_int(ev[_UP_CARD], 0, B.NCARDS)
        mode = base.check_int(ev[_UP_MODE], B.MOVEMENT, B.UTILITY + 1)
        sq = base.check_int(ev[_UP_SQ], 0, B.NSQ)
        win = ev[_UP_WIN]
        if pub[_WHERE_CARD][c] not in (-1, p):
            raise IllegalAction("card %d is not in your hand" % c)
        if not B.yellow(c, mode):
            raise IllegalAction("that action is played face down")
        util = B.CARDS[c][1]
        moved = mode == B.MOVEMENT
        # one slot, two meanings: a movement card's report flag, a torpedo's heading
        report = ev[_UP_REPORT] if moved else 0
        mask = self._win_flag(pub, p, sq if report == 1 else -1, win)
        if moved:
            base.check_int(report, 0, 2)
            if win and not report:
                raise IllegalAction("a win needs a report")
        else:
            if win:
                raise IllegalAction("no win here")
            if util == B.TORPEDO:
                if B.step(sq, base.check_int(ev[_UP_DIR], 0, 4)) < 0:
                    raise IllegalAction("no line that way")
            elif ev[_UP_DIR] != 0:
                raise IllegalAction("malformed up event")
        pub[_WHERE_CARD][c] = 2
        self._fact(pub, p, track.F_PLAY, 3 if moved else 0)
        self._fact(pub, p, track.F_AT, sq)
        pub[_OUT] = [p, c, mode, -1 if moved else util]
        if moved:
            self._report(pub, p, sq if report else -1, win, mask)
            if not win:
                self._end_turn(pub)
        elif util == B.PING:
            self._ask(pub, B.PING)
        else:
            pub[_FIRED] = [util, sq, ev[_UP_DIR]]
            pub[_PHASE] = _SHOT

    def _h_down(self, pub, author, ev):
        base.check_size(ev, 3)
        p = pub[_MOVER]
        sq = ev[_DOWN_SQ]
        win = ev[_DOWN_WIN]
        mask = self._win_flag(pub, p, sq, win)
        self._fact(pub, p, track.F_PLAY, -1)
        pub[_OUT] = [p, -1, -1, -1]
        self._report(pub, p, sq, win, mask)
        if not win:
            self._end_turn(pub)

    def _h_listen(self, pub, author, ev):
        base.check_size(ev, 1)
        p = pub[_MOVER]
        self._fact(pub, p, track.F_PLAY, 0)
        pub[_OUT] = [p, -1, B.UTILITY, B.LISTEN]
        self._ask(pub, B.LISTEN)

    def _ask(self, pub, util):
        if pub[_AREA][_SLOT_OWNER] == 1 - pub[_MOVER]:
            pub[_ASKED] = util
            pub[_PHASE] = _SEEN
        else:  # turn 1: the adversary has no previous card yet
            self._done(pub)

    def _check_reveal(self, pub, c, mode):
        """An answer turning the adversary's previous card up must fit what is public."""
        a = pub[_AREA]
        base.check_int(c, 0, B.NCARDS)
        base.check_int(mode, B.REPAIR, B.UTILITY + 1)
        if a[_SLOT_CARD] >= 0:
            if c != a[_SLOT_CARD] or mode != a[_SLOT_MODE]:
                raise IllegalAction("that card is already face up")
            return
        if pub[_WHERE_CARD][c] not in (-1, a[_SLOT_OWNER]):
            raise IllegalAction("card %d was not in that hand" % c)
        if B.yellow(c, mode):
            raise IllegalAction("a yellow action is never played face down")
        if a[_SLOT_MODE] >= 0 and (mode != a[_SLOT_MODE] or B.CARDS[c][1] != a[_SLOT_UTIL]):
            raise IllegalAction("card does not match the action played")

    def _reveal(self, pub, c, mode):
        a = pub[_AREA]
        if a[_SLOT_CARD] < 0:
            pub[_WHERE_CARD][c] = 2
            a[_SLOT_CARD] = c
            if a[_SLOT_MODE] < 0:  # the play's step count becomes known
                steps, _util = B.CARDS[c]
                track.resolve(pub, a[_SLOT_OWNER], steps if mode == B.MOVEMENT else 0)
            a[_SLOT_MODE] = mode

    def _h_seen(self, pub, author, ev):
        base.check_size(ev, 4)
        c, mode, sq = ev[_SEEN_CARD], ev[_SEEN_MODE], ev[_SEEN_SQ]
        self._check_reveal(pub, c, mode)
        block = B.DEEP if pub[_ASKED] == B.PING else B.DEEP | B.QUIET
        if B.tags(c, mode) & block:
            if sq != -1:
                raise IllegalAction("that card hides the location")
        else:
            base.check_int(sq, 0, B.NSQ)
        self._reveal(pub, c, mode)
        if sq >= 0:
            self._fact(pub, 1 - pub[_MOVER], track.F_AT, sq)
        self._done(pub)

    def _h_dive(self, pub, author, ev):
        base.check_size(ev, 2)
        a = pub[_AREA]
        c = ev[_DIVE_CARD]
        if a[_SLOT_OWNER] != 1 - pub[_MOVER] or a[_SLOT_CARD] >= 0:
            raise IllegalAction("no face-down card to turn up")
        self._check_reveal(pub, c, B.UTILITY)
        if B.CARDS[c][1] != B.DIVE:
            raise IllegalAction("that card is not a DIVE")
        self._reveal(pub, c, B.UTILITY)
        pub[_FIRED] = None
        self._done(pub)

    def _h_miss(self, pub, author, ev):
        base.check_size(ev, 1)
        util, at, d = pub[_FIRED]
        if util == B.TORPEDO:
            self._fact(pub, 1 - pub[_MOVER], track.F_LINE, at, d)
        else:
            self._fact(pub, 1 - pub[_MOVER], track.F_NEAR, at)
        pub[_FIRED] = None
        self._done(pub)

    def _h_hit(self, pub, author, ev):
        # No square yet: the shot stays in pub so the reveal in `damage` can be checked.
        base.check_size(ev, 1)
        pub[_PHASE] = _SHUF

    def _h_shuffle(self, pub, author, ev):
        base.check_size(ev, 1)
        pub[_PHASE] = _PICK

    def _h_disable(self, pub, author, ev):
        base.check_size(ev, 3)
        first, second = ev[_DISABLE_FIRST], ev[_DISABLE_SECOND]
        if type(first) is not int or type(second) is not int or not 0 <= first < second <= 2:
            raise IllegalAction("pick two different positions 0..2, lower first")
        pub[_PHASE] = _DMG

    def _h_damage(self, pub, author, ev):
        base.check_size(ev, 3)
        sunk = base.check_int(ev[_DAMAGE_SUNK], 0, 2)
        sq = base.check_int(ev[_DAMAGE_SQ], 0, B.NSQ)
        if not self._hits(pub[_FIRED], sq):
            raise IllegalAction("the shot cannot reach %s" % B.name(sq))
        self._fact(pub, 1 - pub[_MOVER], track.F_AT, sq)
        pub[_FIRED] = None
        if sunk:
            pub[_WON] = [pub[_MOVER], "sunk"]
        else:
            self._done(pub)

    def _h_hand(self, pub, author, ev):
        base.check_size(ev, 3)
        if pub[_AREA][_SLOT_CARD] >= 0:
            raise IllegalAction("card already face up")
        self._check_reveal(pub, ev[_HAND_CARD], ev[_HAND_MODE])
        self._reveal(pub, ev[_HAND_CARD], ev[_HAND_MODE])
        self._end_turn(pub)

    def _done(self, pub):
        """A utility's action is over. The source allows the unencrypted report at any point
        of the turn (rules §8): where the player's square is public (a LOUD utility showed it)
        and is an objective they have not reported, the turn waits for the report or its end;
        elsewhere it ends at once, as waiting would cost a press every turn (the report before
        the card is the same choice, but for what the action showed)."""
        p = pub[_MOVER]
        at = B.squares(track.possible(pub, p))
        if len(at) == 1 and _obj_bit(at[0]) & ~pub[_REPORTED][p]:
            pub[_PHASE] = _LATE
        else:
            self._end_turn(pub)

    def _end_turn(self, pub):
        """The player takes the card on their right (asking its owner to show it if it is still
        face down), then the turn passes and the card just played waits for the adversary."""
        p = pub[_MOVER]
        a = pub[_AREA]
        card = a[_SLOT_CARD]
        if a[_SLOT_OWNER] == 1 - p and card < 0:
            pub[_PHASE] = _HAND
            return
        if a[_SLOT_OWNER] < 0 and _SEALED in pub:  # the dealt face-down card: opened to its taker
            from fathom.sealed import stage
            stage.open_to(pub[_SEALED], p, 0, [_DEALT_POS])
        else:
            pub[_TAKE] = [p, card]
        if card >= 0:
            pub[_WHERE_CARD][card] = p
        pub[_AREA] = pub[_OUT]
        pub[_OUT] = None
        pub[_MOVER] = 1 - p
        pub[_PHASE] = _PLAY
        pub[_TURNS] += 1


PingEngine.HANDLERS = {
    _PLAY: {_EV_REPORT: PingEngine._h_report, _EV_UP: PingEngine._h_up,
           _EV_DOWN: PingEngine._h_down, _EV_LISTEN: PingEngine._h_listen},
    _SEEN: {_EV_SEEN: PingEngine._h_seen},
    _SHOT: {_EV_DIVE: PingEngine._h_dive, _EV_MISS: PingEngine._h_miss, _EV_HIT: PingEngine._h_hit},
    _SHUF: {_EV_SHUFFLE: PingEngine._h_shuffle},
    _PICK: {_EV_DISABLE: PingEngine._h_disable},
    _DMG: {_EV_DAMAGE: PingEngine._h_damage},
    _HAND: {_EV_HAND: PingEngine._h_hand},
    _LATE: {_EV_REPORT: PingEngine._h_late_report, _EV_END: PingEngine._h_end},
    DEAL: {t: SealedHooks.deal_step for t in DEAL_TAGS},
}
PingEngine.ANY_PHASE = {EV_FOUL: PingEngine._h_foul}

ENGINE = PingEngine()
