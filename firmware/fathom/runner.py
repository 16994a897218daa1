# Binds a game Seat to its peers (other units over the link, or a bot seat in this unit) and to
# storage: whose turn it is, who authors each event, the hash check after every event, the
# journal written before anything is sent, resume after a reboot, the final reveal and audit,
# and the time limits that keep an honest player from waiting forever (see "Time limits").
#
# Peer messages (codec lists):
#   ["ev", index, author, event, hash8, ck]  an event the author appended at log[index], with
#                                         the author's commitment to its secrets after it
#                                         (seat.state_commit, 8 bytes; checked by the audit)
#   ["sync", log_len, hash8]              "I have log_len events": the peer resends what is missing,
#                                         and a peer holding fewer answers with its own sync
#   ["sync", log_len, hash8, ASK]         the same from a unit whose save was cut: "and say how
#                                         many you have", answered ["sync", n, hash8, TOLD]
#   ["rev", player, salt, setup, count]   the end-of-game reveal's head: salt, set-up choices and
#                                         how many actions follow
# A group's "ev" and "rev" end with the author's end-to-end tags, one per other unit
# (link/grouptags.py): ["ev", ..., ck, tags], ["rev", ..., count, tags].
#   ["ra", player, first, [action, ...]]  revealed actions first.. (at most streams.CHUNK), in order
#   ["got", sender, author, tag]          a group partner's receipt for another partner's whole
#                                         reveal, tagged for that author alone (grouptags.got_tag)
#   ["void", player]                      player's save lost its own secrets (a cut that took its
#                                         set-up choices): the game cannot be checked, it is void
#   ["void"]                              the same from a unit whose save was set aside unread
#                                         (flow/resume.py): the sender's player, as its link says
#   ["void", player, "link"]              player lost its link record (link/lost.py's notice)
#
# Nothing a runner sends or stores grows with the game in one piece: old events, reveals and the
# audit's replay are read from the journal record by record, and a resend (after a sync) or a
# reveal is paced, a few messages per tick and only while the link's queue is short, so the
# link's send queue (which the channel persists) stays small too.
#
# Groups are a star: the host is linked to every partner, partners only to the host. The
# host's runner has relay=True: it forwards every event, reveal head and reveal chunk it accepts
# from one partner to the others (index, author, the author's hash and tags), and answers a sync
# with every event, whoever authored it, and every reveal it holds. It forwards at each link's
# pace (streams.py: a feed of the log per partner, a relay stream per reveal), never queueing
# more than a few messages on one link, and it does not leave its result screen (finished())
# until every partner holds everything it relays, acknowledged. So that a
# host cannot rewrite what it relays, every unit of a group holds a key with every other unit
# (`keys`, agreed at group formation) and tags what it authors for each of them: a receiver
# checks its tag, and a failure stops the game naming who could have caused it (the host, for a
# relayed event). At the end each reveal head carries tags over the author's final chain and its
# reveal: a host that showed partners different logs is named by the audit at the latest. A
# partner that has another partner's whole reveal sends that author a tagged receipt through the
# host, so a host that withholds a reveal is named on every unit it could hurt: the receiver
# rules the reveal "P2, or the host P1 that relays it, did not reveal" (it cannot tell which),
# and the author, lacking the receipt when the time is up, says the host did not deliver it.
#
# Time limits keep an honest player from waiting forever on one who stops playing. A reveal not
# complete REVEAL_MS after this unit saw the result gives the verdict WITHHELD ("did not reveal":
# not verified, counts as a loss), whether or not the link is up: withholding is the one way
# left to hide a lie, so it must cost the game. A link peer that sent nothing for VANISH_MS while
# its link is lost has vanished (gone()), and the player may claim the game (claim()): ended on
# this unit only, unverified. The counts run on ticks in RAM and restart at boot: ticks do not
# survive a reboot (there is no wall clock), and restarting only ever gives the other side more
# time, never less. A peer without a link state (an in-unit bot, a test pipe) never vanishes.
# (Kept in this module: a module of its own cost the unit ~1 KB more heap.)
from fathom.games.base import IllegalAction
from fathom.codec import encode
from fathom.compat import const
from fathom.games.seat import CK, CONCEDE, Seat
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.journal import FileJournal, JournalError, header, header_of
from fathom.streams import CHUNK, Streams, busy, tell

SAVE = "game"          # the journal: header record, then one record per change
PEERS = "gamepeers"    # the peers' descriptors (small, fixed at the start)
REVEAL_MS = 60000      # a reveal still incomplete this long after the result: WITHHELD
VANISH_MS = 60000      # a link peer silent this long, its link lost: it has vanished
WITHHELD = "withheld"  # the verdict on a player whose reveal did not arrive in time
ASK, TOLD = 2, 1       # a sync's flag: "say how many events you have", and the answer
ASK_MS = 5000          # a group partner that heard no new event this long asks the host
GAP_MS = 60000         # a host that holds events a partner lacks and sends none this long
                       # (its link up): named, and the game stops on that partner
# The messages' slots, named where they are read (private: MicroPython folds them, no global;
# streams.py and the replay keep copies of those they read, tests/source holds them equal):
_MSG_TAG = const(0)    # every message's (and journal record's) first slot: its tag
_EV_INDEX = const(1)   # ["ev", index, author, event, hash8, ck(, tags)]
_EV_AUTHOR = const(2)
_EV_EVENT = const(3)
_EV_HASH = const(4)
_EV_CK = const(5)
_EV_TAGS = const(6)    # a group's only
_SYNC_LEN = const(1)   # ["sync", log_len, hash8(, ASK or TOLD)]
_SYNC_FLAG = const(3)
_REV_PLAYER = const(1)  # ["rev", player, salt, setup, count(, tags)], and the journal's "r"
_REV_SALT = const(2)
_REV_SETUP = const(3)
_REV_COUNT = const(4)
_REV_TAGS = const(5)
_RA_PLAYER = const(1)  # ["ra", player, first, [action, ...]], in the journal too
_RA_FIRST = const(2)
_RA_ACTIONS = const(3)
_GOT_SENDER = const(1)  # ["got", sender, author, tag]
_GOT_AUTHOR = const(2)
_GOT_TAG = const(3)
_WHO = const(1)        # ["bye", player, why], ["void", player(, how)], ["back", player]
_VOID_HOW = const(2)   # ["void", player, "link"]: its link record was lost (link/lost.py)
_TAGS_INDEX = const(1)  # the journal's ["t", index, tags]: a relayed event's tags
_TAGS_TAGS = const(2)
_V_PLAYER = const(1)   # the journal's ["v", player, verdict]: an audit's verdict
_V_VERDICT = const(2)
_G_SENDER = const(1)   # the journal's ["g", sender, ok]: a partner's receipt, checked
_G_OK = const(2)
_X_INDEX = const(1)    # the journal's ["x", index, reason]: a desync
_X_REASON = const(2)
_CL_REASON = const(1)  # the journal's ["cl"(, reason)]: a claimed game
_ST_SALT = const(0)    # Runner.reveals[player]: [salt, setup, count, received, journal pos, tags]
_ST_SETUP = const(1)
_ST_COUNT = const(2)   # the actions the head announced
_ST_HAVE = const(3)    # the actions received so far
_ST_POS = const(4)     # the journal position of its "r" record
_ST_TAGS = const(5)
_SETUP = const("setup")  # copies of base.SETUP, seat._TURN_ACT and seat._TURN_ANSWER
_TURN_ACT = const("act")
_TURN_ANSWER = const("answer")
_WHOSE = const(0)      # a turn (Seat.to_move, Engine.turn): (player, kind)
_KIND = const(1)
_WANT = const(0)       # Runner._gap's slots (_watch_feed)
_SEEN = const(1)
_ASKED = const(2)
_LACKS = const(3)
CLAIMED = "claimed: the partner vanished (not verified)"  # the reason of a claimed game
VOID = "P%d's save was damaged: this game cannot be checked and is void"  # a void game's reason
LOST = "P%d lost its link to this game (its saved keys were damaged): the game is void"


def side_name(player):
    """The journal of an in-unit bot's seat."""
    return SAVE + "-p%d" % player


class Runner:
    vanish_ms = VANISH_MS  # class values the emulator may lower (FATHOM_VANISH_MS,
    reveal_ms = REVEAL_MS  # FATHOM_REVEAL_MS and FATHOM_GAP_MS, twins/hub)
    gap_ms = GAP_MS

    def __init__(self, seat, peers, storage=None, gid="", meta=None, relay=False,
                 resumed=False, name=SAVE, keys=None, code=None):
        self.seat = seat
        if keys is None and peers and getattr(peers[0], "group", None) is not None:
            keys, code = peers[0].group  # a group's keys, handed over by connect.peers()
        if keys is not None and len(keys) != seat.n:
            raise ValueError("group keys for %d players, the game has %d" % (len(keys), seat.n))
        self.keys = keys              # a group's end-to-end keys by player (None: a pair)
        self.code = code              # the group code every unit showed
        self.name = name              # the journal's file (an in-unit bot's seat has its own)
        self.relay = relay            # the hub of a group: forward what one peer sends
        self.peers = peers            # list of peer objects: send(msg), recv(), tick(now)
        self.storage = storage
        self.gid = gid
        self.meta = meta or {}        # e.g. peer names, link kind, bot level: in the header
        self.reveals = {}             # player -> [salt, setup, count, received, journal pos]
        self.verdicts = {}            # player -> None (verified), (index, reason) or WITHHELD
        self.desync = None            # (index, reason) when the hashes differ
        self.problem = None           # last refused peer message, for the UI
        self.left = {}                # player -> when: partners who said they left (kept game)
        self.revealed = False
        self.receipts = {}            # a group partner: other partner -> True (it confirmed our
                                      # reveal) or False (not in time: the host kept it)
        self.conceding = False        # conceded in set-up: goes once every set-up is in
        self.claimed = False          # ended here unverified: CLAIMED after the partner
                                      # vanished (claim()), or a VOID sentence (void())
        self.notice = None            # what the resume tells the player once (a cut save)
        self.behind = False           # the save was cut: nothing is authored until the
        self._ahead = None            # partners' logs (peer -> length, once told) are in again
        self.changed = True
        self._now = None              # the newest tick's time
        self._heard = {}              # peer -> when it last sent a message (or we booted)
        self._end = None              # when this unit first saw the result
        self.streams = Streams(seat, keys, relay, self.reveals)  # what goes out paced
        self._peers_saved = None
        self.draw_first = False       # set by a caller that calls late() after its redraw
        self._out_due = False         # receipts held back for late()
        self._moved = False           # a move played here or taken in since the last tick
        # a group partner's watch on the host's feed (_watch_feed), one list for the heap:
        # [events the host is known to hold, the log's length when last looked at, when it
        #  last grew or the host was last asked, since when the host holds more, link up]
        self._gap = [0, -1, None, None]
        if storage is not None and not resumed:
            self._start_journal()

    def _start_journal(self):
        s = self.seat
        s.rejournal(FileJournal.create(self.storage, self.name, header({
            "gid": self.gid, "opts": s.opts, "n": s.n, "seed": s.seed, "player": s.player,
            "salt": s.salt, "meta": self.meta, "relay": self.relay, "gk": self.keys,
            "gc": self.code})))

    # ---- queries for the UI ----------------------------------------------------------------
    def my_turn(self):
        return not self.behind and self.seat.my_turn()

    def waiting_for(self):
        t = self.seat.to_move()
        return None if t is None else t[_WHOSE]

    def result(self):
        if self.claimed:
            return ([], self.claimed)  # no winner on record: a claim is not a verified win
        return self.seat.result()

    def finished(self):
        """True once the result is in, every other player's verdict is in and our own reveal
        has gone out (or the reveal time is up: a partner who is gone will not take it)."""
        if self.claimed:  # a void game: once the partners have it (or the time is up)
            return self.claimed == CLAIMED or self.bye_sent() or self._overdue()
        if self.result() is None or len(self.verdicts) != self.seat.n - 1 or not self.revealed:
            return False
        return self._overdue() or (self.streams.idle() and self._delivered() and
                                   self._confirmed())

    def _confirmed(self):
        """A group partner: every other partner confirmed our reveal (or was ruled not to)."""
        if self.keys is None or self.relay:
            return True
        for q in range(1, self.seat.n):
            if q != self.seat.player and q not in self.receipts:
                return False
        return True

    def _delivered(self):
        """A group's host: every partner was fed the whole log and acknowledged everything
        queued for it (the reveals it relays included). A host that left before would take
        the reveals still on their way with it, and the partners would count them withheld."""
        if not self.relay:
            return True
        for p in self.peers:
            if not self.streams.fed(p):
                return False
            ch = getattr(p, "ch", None)
            if ch is not None and ch.pending():
                return False
        return True

    def _overdue(self):
        return self._end is not None and ticks_diff(self._now, self._end) >= self.reveal_ms

    def gone(self):
        """True while a link peer has vanished mid-game: nothing from it for VANISH_MS and
        its link lost now (a peer without a link state, an in-unit bot, never vanishes)."""
        if self.claimed or self._now is None or self.seat.result() is not None:
            return False
        for p in self.peers:
            if getattr(p, "state", None) == "lost" and \
                    ticks_diff(self._now, self._heard[p]) >= self.vanish_ms:
                return True
        return False

    def claim(self):
        """End the game on this unit because the partner vanished: not a verified win (no
        reveal, no audit). Journalled, so a reboot shows the claimed result again."""
        if not self.gone():
            raise IllegalAction("no partner has vanished")
        self._end_here(CLAIMED)

    def void(self, player, why=VOID):
        """End the game as void on this unit and tell the partners: `player`'s save lost the
        secrets the audit needs (or, LOST, its link: flow/resume.py). Nobody wins or loses."""
        self._end_here(why % (player + 1))
        self._broadcast(["void", player])

    def _end_here(self, why):
        self.claimed = why
        self.streams.stop()
        self._journal(["cl", why])
        self.changed = True

    # ---- acting ----------------------------------------------------------------------------
    def setup_choose(self, choice):
        self.seat.setup_choose(choice)
        self.changed = True

    def play(self, action):
        """The local player's action (raises IllegalAction, nothing changes)."""
        self._author(action)
        self._moved = True

    def concede(self):
        """Give the game up. The rules take a concession only once every set-up is in (a peer
        and the audit refuse one before): in set-up this seat first finishes its own with the
        first legal choices (the game is given up: which does not matter), and the concession
        goes as soon as the others' set-ups are in (_auto)."""
        s = self.seat
        if self.result() is not None:
            return
        while s.setup_legal():
            s.setup_choose(s.setup_legal()[0])
        self.conceding = True
        self.changed = True
        self._auto()

    def _author(self, action=None):
        if self.behind:  # what this unit authored before the cut comes back first
            raise IllegalAction("waiting for the partner's copy of the game")
        prev = self.seat.short_hash()
        event = self.seat.author(action)
        self._sent(event, prev)

    def _sent(self, event, prev):
        # the seat journalled the event already: a reboot after sending cannot forget it
        s = self.seat
        msg = ["ev", s.n_log - 1, s.player, event, s.short_hash(), s.ck]
        if self.keys is not None:
            from fathom.link.grouptags import event_tags
            msg.append(event_tags(self.keys, s.player, s.n_log - 1, prev, event, s.ck))
            if self.relay:
                self.streams.keep_tags(s.n_log - 1, msg[_EV_TAGS])
        self._broadcast(msg)
        self.changed = True

    def _broadcast(self, msg, skip=None):
        """`msg` to every peer but `skip`. A group host's event goes through each partner's
        feed (streams.py): now if the feed has reached it, else in order as the link drains."""
        ev = self.relay and msg[_MSG_TAG] == "ev"
        for p in self.peers:
            if p is skip:
                continue
            if ev:
                self.streams.offer(p, msg)
            else:
                tell(self.seat, p, msg)

    def _queue(self, peer, job):
        """Every stream the runner sends paced goes through here (streams.py lists them)."""
        self.streams.queue(peer, job)

    def _journal(self, rec):
        return self.seat.journal.append(rec)

    # ---- the loop --------------------------------------------------------------------------
    def tick(self, now):
        """Take in what peers sent, author what needs no decision, send. With draw_first set,
        what only confirms receipt (the journal's records, the channel's save, the ack) waits
        for late(), called after the screen shows the change: on a board those writes are a
        good part of the time before a partner's move shows. Anything new to send goes now."""
        self._now = now
        self.seat.journal.holding = True
        for p in self.peers:
            if self.relay:
                self.streams.meet(p)
            rx = getattr(p, "receive", None)  # a link: frames in now, out in flush() below
            if rx is None:
                p.tick(now)
            else:
                rx()
            h = self._heard.get(p)  # first seen: the count starts now (at boot after a reboot)
            self._heard[p] = now if h is None else _recent(h, now, self.vanish_ms)
            while True:
                msg = p.recv()
                if msg is None:
                    break
                self._heard[p] = now
                if self.left and msg[_MSG_TAG] != "bye":
                    self._back(p, msg)
                if not self.claimed:  # a claimed game is over here: a late partner changes nothing
                    self._handle(p, msg)
        if self.desync is None and not self.claimed:
            self._auto()
            self._audit_pending()
            self._reveal_deadline(now)
            if not self.relay and self.seat.n > 2 and self.peers:  # none: a link lost after
                self._watch_feed(now)                              # the game (lost_link)
        elif self.claimed and self._end is None:
            self._end = now  # a void game waits this long at most for its partners' acks
        self.streams.pump(self.peers)
        if self.draw_first and not fresh(self.peers):
            self._out_due = True
        else:
            self._out(now)
        self._moved = False
        changed = self.changed
        self.changed = False
        return changed

    def wake_in(self, now):
        """App._rest: every loop while a stream sends or a peer cannot rest (an in-unit bot, a
        cable), else when the soonest link needs its tick; its coarse timers (silence,
        limits) are looked at by the loop's REST_MAX_MS."""
        if not self.streams.idle():
            return 0
        ms = None
        for p in self.peers:
            w = p.wake_in(now) if hasattr(p, "wake_in") else 0
            if ms is None or w < ms:
                ms = w
        return ms

    def late(self, now):
        """After the redraw: the receipts tick() held back, then the hash of the state as it
        now stands, which the next event chains on (seat.settle: off the path to a screen)."""
        if self._out_due:
            self._out(now)
        s = self.seat
        if s.settled is None:  # not again every loop once hashed: to_move() asks the engine
            t = s.to_move()
            s.settle(None if t is None else t[_KIND])

    def _out(self, now):
        self._out_due = False
        self.seat.journal.commit()  # before any frame leaves: nothing sent that a reboot forgets
        for p in self.peers:
            f = getattr(p, "flush", None)
            if f is not None:
                f(now)

    def _auto(self):
        """Author what needs no decision: a finished set-up's commit, answers, the reveal."""
        s = self.seat
        if self.behind:
            # every peer told its length (a group's host asks each partner: one that has not
            # answered may hold events the others lack) and the longest log is in again
            a = self._ahead
            if a is None or len(a) < len(self.peers) or s.n_log < max(a.values()):
                return
            self.behind = False
            self.problem = None
            self.changed = True
        while s.result() is None:
            t = s.to_move()
            if t is None or t[_WHOSE] != s.player:
                break
            if t[_KIND] == _SETUP and not s.setup_legal():
                # Set-ups go into the log in player order: two units committing at once would
                # each put their own at index 0 and then refuse the other's.
                if s.n_log != s.player:
                    break
                self._author()
            elif t[_KIND] == _TURN_ANSWER:
                sealing = self._sealing()
                if sealing and any(busy(p) for p in self.peers):
                    break  # ~800 B per shuffle event: let the link drain first, so its queue
                    #        (RAM, and the channel's saved copy) holds a few, not a deck's worth
                if sealing and self._moved and self.draw_first:
                    break  # a move on both screens first, then the step it calls for
                self._author()
                if sealing:
                    break  # a sealed-deal step is up to ~1 s on an ESP32: one per tick,
                    #        so the screen redraws (its progress bar) and keys are read between
            else:
                forced = getattr(s.engine, "forced", None)
                a = forced(s.pub, s.priv, s.player) if forced is not None else None
                if a is None:
                    break
                self._author(a)  # the rules leave one move and no choice (a sealed deal's foul)
        if self.conceding and s.result() is None and len(s.setups) == s.n:
            self.conceding = False
            prev = s.short_hash()
            self._sent(s.concede(), prev)
        if s.result() is not None and not self.revealed:
            self.revealed = True
            self._journal(["rv"])
            for p in self.peers:
                self._queue(p, ["mine"])
            self.changed = True

    def _sealing(self):
        p = getattr(self.seat.engine, "deal_progress", None)
        return p is not None and p(self.seat.pub) is not None

    def _handle(self, peer, msg):
        try:
            tag = msg[_MSG_TAG]
            if tag == "ev":
                if len(msg) != (6 if self.keys is None else 7):
                    raise IllegalAction("malformed event message")
                self._on_event(peer, msg)
            elif tag == "sync":
                self._on_sync(peer, msg[_SYNC_LEN], msg[_SYNC_FLAG] if len(msg) > _SYNC_FLAG else 0)
            elif tag == "rev":
                self._on_reveal(peer, msg)
            elif tag == "ra":
                self._on_actions(peer, msg)
            elif tag == "bye":
                self._on_bye(peer, msg)
            elif tag == "got" and self.keys is not None:
                self._on_got(peer, msg)
            elif tag == "back" and self.seat.n > 2 and not self.relay:
                pass  # a partner back in the game: _back took it
            elif tag == "void":
                self._on_void(peer, msg)
            else:
                raise IllegalAction("unknown message " + str(tag))
        except Exception as e:  # a peer's bytes, however crafted, never stop this unit's loop
            self.problem = "refused: %s" % e
            self.changed = True

    def _on_event(self, peer, msg):
        idx, author, event, h, ck = \
            msg[_EV_INDEX], msg[_EV_AUTHOR], msg[_EV_EVENT], msg[_EV_HASH], msg[_EV_CK]
        s = self.seat
        if self.desync is not None:
            return  # stopped: the log as it was is the evidence
        if idx < s.n_log:
            return  # already have it (a resend after resume)
        if idx > s.n_log:  # a gap: what the host holds from here on comes again
            g = self._gap
            g[_WANT] = max(g[_WANT], idx + 1)
            tell(s, peer, ["sync", s.n_log, s.short_hash()])
            return
        if author == s.player:
            self._own_again(idx, event, h, ck)
            return
        if not isinstance(ck, bytes) or len(ck) != CK:
            raise IllegalAction("an event without its state commitment")
        if self.keys is not None:
            from fathom.link import grouptags as gt
            if not isinstance(author, int) or not 0 <= author < s.n:
                raise IllegalAction("bad author %r" % (author,))
            if not gt.event_ok(self.keys, s.player, author, idx, s.short_hash(), event, ck,
                               msg[_EV_TAGS]):
                self._forged(idx, gt.forged_event(s.player, author, idx))
                return
            if self.relay or gt.relayed(s.player, author):
                # before the event: a resend must find them (streams.py), a partner's to heal
                # a host whose save was cut, which only its partners can give it back
                self._journal(["t", idx, msg[_EV_TAGS]])
        s.receive(author, event, ck)  # journals it, with ck
        self._moved = True
        if s.short_hash() != h:
            self.desync = (idx, "state hash differs after event %d" % idx)
        self.changed = True
        if self.relay:
            if not self.behind:  # a cut host takes back from a partner others' events too
                self.streams.learn(peer, author)
            if self.keys is not None:
                self.streams.keep_tags(idx, msg[_EV_TAGS])
            self._broadcast(msg, peer)

    def _own_again(self, idx, event, h, ck):
        """A peer holds an event this unit authored that its journal lacks: the save lost more
        than the torn record a power cut leaves (the journal is written before anything is
        sent), so it was cut. The event is authored again from this unit's own secrets: an
        answer as the rules give it, an action the one whose event and state commitment both
        match (a lie could not pass: the secrets decide). One line says what was rolled back."""
        s = self.seat
        t = s.to_move()
        if t is None or t[_WHOSE] != s.player:
            raise IllegalAction("a peer sent an event as me")
        if event == [CONCEDE] or isinstance(event, list) and event[:1] == [CONCEDE]:
            s.concede()
        elif t[_KIND] == _TURN_ANSWER:
            s.author()
        elif t[_KIND] == _TURN_ACT:
            a = self._action_for(event, ck)
            if a is None:
                raise IllegalAction("a peer sent an event as me")
            s.author(a)
        elif s.setup_legal() or encode(s.setup_event()) != encode(event):
            # The cut took set-up choices too: the partner holds only a commitment to them, and
            # a set-up laid again would be another. Nothing can check this game any more.
            self.void(s.player)
            return
        else:
            s.author()
        if s.ck != ck or s.short_hash() != h:
            self.desync = (idx, "event %d authored again differs" % idx)
            return
        if self.problem is None or not self.problem.startswith("save cut"):
            self.problem = _cut_line(idx)
        self.changed = True

    def _action_for(self, event, ck):
        """This player's legal action that gives `event` and commitment `ck`, or None."""
        from fathom.games.seat import state_commit
        from fathom.codec import decode
        s = self.seat
        want = encode(event)
        for a in s.legal():
            pub, priv = decode(encode(s.pub)), decode(encode(s.priv))
            try:
                ev = s.engine.act(pub, priv, s.player, a)
                if encode(ev) != want:
                    continue
                s.engine.apply(pub, s.player, ev)
                s.engine.apply_private(pub, priv, s.player, s.player, ev)
            except IllegalAction:
                continue
            if state_commit(s.salt, s.n_log, priv) == ck:
                return a
        return None

    # ---- leaving a kept game -----------------------------------------------------------------
    def bye(self, why="left"):
        """This unit leaves the game, kept to be resumed: say so, so the partners' screens
        tell their players at once instead of after a silence (flow/play.py waits for
        bye_sent() before closing the link)."""
        self._broadcast(["bye", self.seat.player, why])

    def bye_sent(self):
        """Every partner acknowledged everything sent, the bye included."""
        for p in self.peers:
            ch = getattr(p, "ch", None)
            if ch is not None and ch.pending():
                return False
        return True

    def _on_bye(self, peer, msg):
        who = msg[_WHO] if len(msg) == 3 else None
        if type(who) is not int or not 0 <= who < self.seat.n or who == self.seat.player:
            raise IllegalAction("malformed bye")
        self.left[who] = self._now  # since when, for the screen that says who it waits for
        self.changed = True
        if self.relay:
            self._broadcast(msg, peer)

    def _on_void(self, peer, msg):
        s = self.seat
        if len(msg) == 1:  # from a unit that could not read its own save: the sender
            who = self._seat(peer) if self.relay else (1 - s.player if s.n == 2 else 0)
        else:
            who = msg[_WHO] if len(msg) == 2 or msg[_VOID_HOW:] == ["link"] else None
        if type(who) is not int or not 0 <= who < s.n or who == s.player or \
                self.relay and self.streams.seat_of.get(peer, who) != who:
            raise IllegalAction("malformed void")  # a host takes a partner's for itself only
        self._end_here((LOST if len(msg) == 3 else VOID) % (who + 1))
        if self.relay:
            self._broadcast(["void", who] + msg[_VOID_HOW:], peer)

    def _back(self, peer, msg):
        """A partner heard after its bye has resumed the game. In a pair any message says so.
        In a group the host hears each partner itself: any message from a leaver says it is
        back, and the host tells the other partners (["back", player]); on a partner, any
        message from the host comes after the host's own bye (the channel keeps order), and
        a leaver's own event relayed says it is back as well."""
        left = self.left
        if self.seat.n == 2:
            left.clear()
            return
        if self.relay:
            q = self._seat(peer)
            if q in left:
                del left[q]
                self._broadcast(["back", q], peer)
                self.changed = True
            return
        n = len(left)
        left.pop(0, None)
        tag = msg[_MSG_TAG]
        q = msg[_WHO] if tag == "back" and len(msg) == 2 else (
            msg[_EV_AUTHOR] if tag == "ev" and len(msg) > _EV_AUTHOR else None)
        if type(q) is int:  # a peer's bytes: a list would not hash
            left.pop(q, None)
        self.changed = len(left) != n or self.changed

    def _watch_feed(self, now):
        """A group partner: every event reaches it only through the host's feed, so a feed
        that skipped one (a bug, a badly timed reboot, a host that keeps it) leaves it behind
        with nothing to show it when no later event comes. After ASK_MS with no new event it
        asks the host how far it is (a sync with ASK: an honest host's feed goes back to what
        this unit holds); when the host holds more and sends none of it for gap_ms while its
        link is up, the host is named and the game stops here, journalled, as a forged event
        does: waiting on would wait for ever."""
        s = self.seat
        n = s.n_log
        g = self._gap
        if n != g[_SEEN] or g[_ASKED] is None:
            g[_SEEN] = n
            g[_ASKED] = now
            g[_LACKS] = None
            return
        peer = self.peers[0]
        if n < g[_WANT]:
            if g[_LACKS] is None or getattr(peer, "state", None) == "lost":
                g[_LACKS] = now  # counted while the host's link is up: out of range is not
            elif ticks_diff(now, g[_LACKS]) >= self.gap_ms:  # keeping
                self._forged(n, "the host (P1) did not send this unit event %d in %d s, "
                                "though it holds it" % (n, self.gap_ms // 1000))
                return
        elif s.result() is not None or s.my_turn():
            g[_ASKED] = now  # nothing to ask for
            return
        if ticks_diff(now, g[_ASKED]) >= ASK_MS:
            g[_ASKED] = now
            tell(s, peer, ["sync", n, s.short_hash(), ASK])

    def _seat(self, peer):
        """A group host's partner's player: learnt from its events, else its place (a host's
        peers are in seat order, connect.peers)."""
        return self.streams.seat_of.get(peer, self.peers.index(peer) + 1)

    def _forged(self, idx, reason):
        """A group message that fails its tag: the game stops here, journalled so a reboot
        shows it again (and does not take the forgery on a resend)."""
        self.desync = (idx, reason)
        self._journal(["x", idx, reason])
        self.changed = True

    def _on_sync(self, peer, have, flag=0):
        if not isinstance(have, int) or have < 0:
            raise IllegalAction("bad sync")
        s = self.seat
        g = self._gap
        if have > g[_WANT]:  # the peer holds this many: a group partner's feed watch
            g[_WANT] = have
        if flag == TOLD:  # the partner's length, asked for after our save was cut
            if self._ahead is None:
                self._ahead = {}
            self._ahead[peer] = have
            return
        if flag == ASK:
            tell(s, peer, ["sync", s.n_log, s.short_hash(), TOLD])
        if self.relay:
            self.streams.rewind(peer, have)
        else:
            self._queue(peer, ["ev", have])
        if have > s.n_log:
            # The peer holds events we lack and will not send them unasked: say how far we
            # are. A rebooted group host's feed starts at its own log's end; a unit of a pair
            # that lost power after journalling its own event, before its link's save queued
            # it, resumes with a channel that never heard of it (tests/runner/test_resume_gap.py).
            # Only the unit behind answers and logs only grow, so an answer is never answered.
            tell(s, peer, ["sync", s.n_log, s.short_hash()])
        if self.revealed:
            self._queue(peer, ["mine"])
        if self.relay:
            for p in self.reveals:
                self._queue(peer, ["relay", p])
        else:
            for p in self.verdicts:
                self._receipt(p)

    def _on_reveal(self, peer, msg):
        s = self.seat
        tags = None
        if len(msg) != (_REV_TAGS if self.keys is None else _REV_TAGS + 1):
            raise IllegalAction("malformed reveal")
        player, salt, setup, count = msg[_REV_PLAYER], msg[_REV_SALT], msg[_REV_SETUP], \
            msg[_REV_COUNT]
        if self.keys is not None:
            tags = msg[_REV_TAGS]
            from fathom.link.grouptags import head_size
            if not isinstance(tags, bytes) or len(tags) != head_size(s.n):
                raise IllegalAction("a reveal without its tags")
        if player == s.player:
            return  # our own reveal relayed back by a group's host: nothing to learn
        if not isinstance(player, int) or not 0 <= player < s.n:
            raise IllegalAction("bad reveal author")
        if not isinstance(salt, bytes) or not isinstance(setup, list) or \
                not isinstance(count, int) or count < 0:
            raise IllegalAction("malformed reveal")
        if player in self.reveals:
            return  # a resend
        pos = self._journal(["r", player, salt, setup, count] + ([tags] if tags else []))
        self.reveals[player] = [salt, setup, count, 0, pos, tags]
        self.changed = True
        if self.relay:  # head and chunks from the journal, at each link's pace (streams.py)
            self.streams.learn(peer, player)
            for p in self.peers:
                if p is not peer:
                    self._queue(p, ["relay", player])

    def _on_actions(self, peer, msg):
        if len(msg) != 4:
            raise IllegalAction("malformed revealed actions")
        player, first, actions = msg[_RA_PLAYER], msg[_RA_FIRST], msg[_RA_ACTIONS]
        if player == self.seat.player:
            return
        st = self.reveals.get(player)
        if st is None:
            raise IllegalAction("revealed actions before the reveal")
        if not isinstance(first, int) or not isinstance(actions, list) or \
                not 0 < len(actions) <= CHUNK:
            raise IllegalAction("malformed revealed actions")
        if first > st[_ST_HAVE] or first + len(actions) > st[_ST_COUNT]:
            raise IllegalAction("revealed actions out of order")
        skip = st[_ST_HAVE] - first
        if skip >= len(actions):
            return  # a resend
        if skip:  # a resend overlapping what we have: keep only the new tail
            msg = ["ra", player, st[_ST_HAVE], actions[skip:]]
        self._journal(msg)  # a group's host relays it from there (streams.py)
        st[_ST_HAVE] += len(msg[_RA_ACTIONS])
        self.changed = True

    def _revealed_actions(self, player):
        """The actions `player` revealed, read back from the journal one chunk at a time."""
        it = self.seat.journal.read(self.reveals[player][_ST_POS])
        try:
            for _p, _e, rec in it:
                if rec[_MSG_TAG] == "ra" and rec[_RA_PLAYER] == player:
                    for a in rec[_RA_ACTIONS]:
                        yield a
        finally:
            it.close()

    def _audit_pending(self):
        # A reveal may overtake the last event; it is audited once our log has the result.
        s = self.seat
        if s.result() is None:
            return
        for p in self.reveals:
            st = self.reveals[p]
            if p not in self.verdicts and st[_ST_HAVE] == st[_ST_COUNT]:
                v = self._forged_reveal(p, st) if self.keys is not None else None
                if v is None:
                    from fathom.games.audit import audit  # the end's code, loaded at the end
                    v = audit(s, p, [st[_ST_SALT], st[_ST_SETUP], self._revealed_actions(p)])
                self.verdicts[p] = v
                self._journal(["v", p, None if v is None else list(v)])
                self._receipt(p)
                self.changed = True

    def _digest(self, p):
        from fathom.link import grouptags as gt
        st = self.reveals[p]
        return gt.reveal_digest(p, st[_ST_SALT], st[_ST_SETUP], st[_ST_COUNT],
                                self._revealed_actions(p))

    def _forged_reveal(self, p, st):
        """A group's checks before the audit: the author's final chain is ours (else someone
        showed us different games: equivocation), and the reveal is what it sent."""
        from fathom.link import grouptags as gt
        s = self.seat
        if not gt.end_ok(self.keys, s.player, p, s.n_log, s.chain, st[_ST_TAGS]):
            return (s.n_log - 1, gt.other_game(s.player, p))
        if not gt.reveal_ok(self.keys, s.player, p, self._digest(p), st[_ST_TAGS]):
            return (s.n_log - 1, gt.forged_reveal(s.player, p))
        return None

    # ---- a group partner's receipts: whether the others got our reveal through the host -----
    def _receipt(self, p):
        """Confirm to partner `p`, through the host, the whole reveal we hold from it (over its
        digest: an altered reveal confirms nothing). Only between partners: what the host
        sends, or is sent, goes over one authenticated link."""
        if self.keys is None or self.relay or p not in self.reveals:
            return
        from fathom.link import grouptags as gt
        if not gt.relayed(self.seat.player, p) or self.verdicts.get(p, 0) == WITHHELD:
            return
        st = self.reveals[p]
        if st[_ST_HAVE] < st[_ST_COUNT]:
            return
        tag = gt.got_tag(self.keys, self.seat.player, p, self._digest(p))
        for peer in self.peers:  # paced (streams.py), as everything on a group's links
            self._queue(peer, ["got", self.seat.player, p, tag])

    def _on_got(self, peer, msg):
        s = self.seat
        if len(msg) != 4:
            raise IllegalAction("malformed receipt")
        sender, author = msg[_GOT_SENDER], msg[_GOT_AUTHOR]
        if type(sender) is not int or type(author) is not int or \
                not 0 < sender < s.n or not 0 < author < s.n or sender == author:
            raise IllegalAction("malformed receipt")
        if self.relay:  # the host passes it on to its addressee, paced
            for p in self.peers:
                if p is not peer and self._seat(p) == author:
                    self._queue(p, msg)
            return
        if author != s.player or self.receipts.get(sender) is True:
            return  # another partner's, or one we have
        from fathom.link import grouptags as gt
        salt, setup, count = s.reveal_head()
        d = gt.reveal_digest(s.player, salt, setup, count, (a for _p, _e, a in s.my_actions()))
        ok = gt.got_ok(self.keys, s.player, sender, d, msg[_GOT_TAG])
        if ok or sender not in self.receipts:
            # a receipt over another digest: what reached that partner was not our reveal
            # (a valid receipt, which only that partner can make, still wins later)
            self.receipts[sender] = ok
            self._journal(["g", sender, ok])
            self.changed = True
        if not ok:
            raise IllegalAction("a receipt that fails its tag")

    def _reveal_deadline(self, now):
        s = self.seat
        if s.result() is None:
            return
        self._end = now if self._end is None else _recent(self._end, now, self.reveal_ms)
        if not self._overdue() or (len(self.verdicts) == s.n - 1 and self._confirmed()):
            return
        for p in range(s.n):
            if p != s.player and p not in self.verdicts:
                self.verdicts[p] = WITHHELD
                self._journal(["v", p, WITHHELD])
        if self.revealed and not self._confirmed():
            for q in range(1, s.n):
                if q != s.player and q not in self.receipts:
                    self.receipts[q] = False
                    self._journal(["g", q, False])
        self.changed = True

    def resync(self):
        """After a reboot or a long partition: tell every peer how far we got, and send our
        reveal again (what was not yet queued on the link was lost with the RAM)."""
        for p in self.peers:
            tell(self.seat, p, ["sync", self.seat.n_log, self.seat.short_hash()] + (
                [ASK] if self.behind else []))
            if self.revealed:
                self._queue(p, ["mine"])
            if self.relay:  # the relay streams were in RAM: each reveal again from its head
                for q in self.reveals:
                    self._queue(p, ["relay", q])
        for q in self.verdicts:  # receipts too: a host that rebooted lost those in transit
            self._receipt(q)

    # ---- persistence -----------------------------------------------------------------------
    def save(self):
        """Store the peers' descriptors (which peers and how to rebuild them: small, and fixed
        once the game starts). The game itself is journalled as it goes."""
        if self.storage is None or self.name != SAVE:
            return
        d = [p.save() for p in self.peers]
        if d != self._peers_saved:
            self.storage.write_obj(PEERS, d)
            self._peers_saved = d

    def replayed(self, pos, rec):
        """A runner record met while the seat replays its journal (load)."""
        tag = rec[_MSG_TAG]
        if tag == "rv":
            self.revealed = True
        elif tag == "r":
            self.reveals[rec[_REV_PLAYER]] = [rec[_REV_SALT], rec[_REV_SETUP], rec[_REV_COUNT], 0,
                                              pos] + (rec[_REV_TAGS:] or [None])
        elif tag == "ra":
            self.reveals[rec[_RA_PLAYER]][_ST_HAVE] += len(rec[_RA_ACTIONS])
        elif tag == "v":
            v = rec[_V_VERDICT]
            self.verdicts[rec[_V_PLAYER]] = v if v is None or v == WITHHELD else tuple(v)
        elif tag == "cl":
            self.claimed = rec[_CL_REASON] if len(rec) > _CL_REASON else CLAIMED
        elif tag == "g":
            self.receipts[rec[_G_SENDER]] = rec[_G_OK]
        elif tag == "x":
            self.desync = (rec[_X_INDEX], rec[_X_REASON])
        elif tag not in ("h", "t"):  # "t": a relayed event's tags, read back by a resend
            raise JournalError("unknown journal record %r" % (tag,))

    def clear(self):
        if self.storage is not None:
            for p in self.peers:
                if hasattr(p, "clear"):
                    p.clear()
            self.storage.remove(self.name)
            if self.name == SAVE:
                self.storage.remove(PEERS)


def fresh(peers):
    """A peer's link has a message queued that was never sent. A loop, not any() over a
    generator: this runs every tick, and allocates nothing."""
    for p in peers:
        f = getattr(p, "fresh", None)
        if f is not None and f():
            return True
    return False


def _cut_line(n):
    return "save cut to %s: partner resends" % events(n)


def events(n):
    """`n` events, as a player counts them."""
    return "%d event%s" % (n, "" if n == 1 else "s")


def _recent(t, now, limit):
    """`t`, or `now - limit - 1` if older: on a wrapping clock a time more than half its period
    old (6 days on a 32-bit port) would look recent again."""
    if ticks_diff(now, t) > limit:
        return ticks_add(now, -limit - 1)
    return t


def open_journal(storage, name):
    """The journal `name` checked end to end (a torn last record cut off, its bytes kept
    aside), its header's fields and how many bytes were cut; None if there is none.
    CorruptFile (set aside) if it cannot be used."""
    if not storage.exists(name):
        return None, None, 0
    _n, cut = storage.repair_records(name)
    j = FileJournal(storage, name)
    try:
        return j, header_of(j.first()), cut
    except JournalError as e:
        storage.quarantine(name, str(e))


def load(storage, engine_for, name=SAVE):
    """The saved game, or None. `engine_for(gid)` gives the engine. Raises on a save that
    cannot be used (CorruptFile: storage has set it aside; anything else: the caller does)."""
    j, h, cut = open_journal(storage, name)
    if j is None:
        return None
    seat = Seat(engine_for(h["gid"]), h["opts"], h["n"], h["seed"], h["player"], h["salt"], j)
    r = Runner(seat, [], storage, h["gid"], h.get("meta"), h.get("relay", False), True, name,
               h.get("gk"), h.get("gc"))
    seat.replay(r.replayed)
    if cut:  # the save ended inside a record: say so, the partner resends what is missing
        r.problem = _cut_line(seat.n_log)
        r.notice = "The save was cut: its first %s were kept. The partner's unit sends the " \
            "rest back; a set-up it took makes the game void." % events(seat.n_log)
        # hold this unit's moves until the partner's (a group partner: the host's; a group's
        # host: every partner's) log is in: a move chosen again before the one the cut took
        # comes back would fork the game. A group's partners resend the host every event they
        # hold, another partner's with the tags its author sent (streams.py)
        r.behind = seat.result() is None
    r.saved_peers = []
    if name == SAVE:
        r.saved_peers = storage.read_obj(PEERS) or []
        r._peers_saved = r.saved_peers
    return r
