# Binds a game Seat to its peers (other units over the link, or a bot seat in this unit) and to
# storage: whose turn it is, who authors each event, the hash check after every event, the
# journal written before anything is sent, resume after a reboot, and the final reveal and audit.
#
# Peer messages (codec lists):
#   ["ev", index, author, event, hash8]   an event the author appended at log[index]
#   ["sync", log_len, hash8]              "I have log_len events": the peer resends what is missing
#   ["rev", player, salt, setup, count]   the end-of-game reveal's head: salt, set-up choices and
#                                         how many actions follow
#   ["ra", player, first, [action, ...]]  revealed actions first.. (at most CHUNK of them), in order
#
# Nothing a runner sends or stores grows with the game in one piece: old events, reveals and the
# audit's replay are read from the journal record by record, and a resend (after a sync) or a
# reveal is paced, a few messages per tick and only while the link's queue is short, so the
# link's send queue (which the channel persists) stays small too.
#
# Groups (3-4 units) are a star: the host is linked to every partner, partners only to the
# host. The host's runner has relay=True: it forwards every event, reveal head and reveal chunk
# it accepts from one partner to the others (unchanged: index, author, the author's hash), and
# answers a sync with every event, whoever authored it, and every reveal it holds. A partner
# cannot tell a relayed event from a direct one, and needs none of this.
from fathom.games.base import IllegalAction
from fathom.games.seat import Seat
from fathom.journal import FileJournal, JournalError, header, header_of

SAVE = "game"          # the journal: header record, then one record per change
PEERS = "gamepeers"    # the peers' descriptors (small, fixed at the start)
CHUNK = 12             # revealed actions per "ra" message
BURST = 4              # messages a paced stream sends per peer per tick
BUSY = 2               # a link with more unacknowledged messages than this gets no more


def side_name(player):
    """The journal of an in-unit bot's seat."""
    return SAVE + "-p%d" % player


class Runner:
    def __init__(self, seat, peers, storage=None, gid="", meta=None, relay=False,
                 resumed=False, name=SAVE):
        self.seat = seat
        self.name = name              # the journal's file (an in-unit bot's seat has its own)
        self.relay = relay            # the hub of a group: forward what one peer sends
        self.peers = peers            # list of peer objects: send(msg), recv(), tick(now)
        self.storage = storage
        self.gid = gid
        self.meta = meta or {}        # e.g. peer names, link kind, bot level: in the header
        self.reveals = {}             # player -> [salt, setup, count, received, journal pos]
        self.verdicts = {}            # player -> None (verified) or (index, reason)
        self.desync = None            # (index, reason) when the hashes differ
        self.problem = None           # last refused peer message, for the UI
        self.revealed = False
        self.changed = True
        self._jobs = {}               # peer -> [paced stream, ...]
        self._peers_saved = None
        if storage is not None and not resumed:
            self._start_journal()

    def _start_journal(self):
        s = self.seat
        s.rejournal(FileJournal.create(self.storage, self.name, header({
            "gid": self.gid, "opts": s.opts, "n": s.n, "seed": s.seed, "player": s.player,
            "salt": s.salt, "meta": self.meta, "relay": self.relay})))

    # ---- queries for the UI ----------------------------------------------------------------
    def my_turn(self):
        return self.seat.my_turn()

    def waiting_for(self):
        t = self.seat.to_move()
        return None if t is None else t[0]

    def result(self):
        return self.seat.result()

    def finished(self):
        """True once the result is in, every other player's audit is done and our own reveal
        has gone out."""
        return (self.result() is not None and len(self.verdicts) == self.seat.n - 1
                and self.revealed and not self._jobs)

    # ---- acting ----------------------------------------------------------------------------
    def setup_choose(self, choice):
        self.seat.setup_choose(choice)
        self.changed = True

    def play(self, action):
        """The local player's action (raises IllegalAction, nothing changes)."""
        self._author(action)

    def concede(self):
        if self.result() is None:
            event = self.seat.concede()
            self._sent(event)

    def _author(self, action=None):
        event = self.seat.author(action)
        self._sent(event)

    def _sent(self, event):
        # the seat journalled the event already: a reboot after sending cannot forget it
        s = self.seat
        self._broadcast(["ev", s.n_log - 1, s.player, event, s.short_hash()])
        self.changed = True

    def _broadcast(self, msg, skip=None):
        for p in self.peers:
            if p is not skip:
                p.send(msg)

    def _journal(self, rec):
        return self.seat.journal.append(rec)

    # ---- the loop --------------------------------------------------------------------------
    def tick(self, now):
        for p in self.peers:
            p.tick(now)
            while True:
                msg = p.recv()
                if msg is None:
                    break
                self._handle(p, msg)
        if self.desync is None:
            self._auto()
            self._audit_pending()
        self._pump()
        changed = self.changed
        self.changed = False
        return changed

    def _auto(self):
        """Author what needs no decision: a finished set-up's commit, answers, the reveal."""
        s = self.seat
        while s.result() is None:
            t = s.to_move()
            if t is None or t[0] != s.player:
                break
            if t[1] == "setup" and not s.setup_legal():
                # Set-ups go into the log in player order: two units committing at once would
                # each put their own at index 0 and then refuse the other's.
                if s.n_log != s.player:
                    break
                self._author()
            elif t[1] == "answer":
                self._author()
            else:
                break
        if s.result() is not None and not self.revealed:
            self.revealed = True
            self._journal(["rv"])
            for p in self.peers:
                self._queue(p, ["mine"])
            self.changed = True

    def _handle(self, peer, msg):
        try:
            tag = msg[0]
            if tag == "ev":
                self._on_event(peer, msg[1], msg[2], msg[3], msg[4])
            elif tag == "sync":
                self._on_sync(peer, msg[1])
            elif tag == "rev":
                self._on_reveal(peer, msg)
            elif tag == "ra":
                self._on_actions(peer, msg)
            else:
                raise IllegalAction("unknown message " + str(tag))
        except Exception as e:  # a peer's bytes, however crafted, never stop this unit's loop
            self.problem = "refused: %s" % e
            self.changed = True

    def _on_event(self, peer, idx, author, event, h):
        s = self.seat
        if idx < s.n_log:
            return  # already have it (a resend after resume)
        if idx > s.n_log:
            peer.send(["sync", s.n_log, s.short_hash()])
            return
        if author == s.player:
            raise IllegalAction("a peer sent an event as me")
        s.receive(author, event)  # journals it
        if s.short_hash() != h:
            self.desync = (idx, "state hash differs after event %d" % idx)
        self.changed = True
        if self.relay:
            self._broadcast(["ev", idx, author, event, h], peer)

    def _on_sync(self, peer, have):
        if not isinstance(have, int) or have < 0:
            raise IllegalAction("bad sync")
        self._queue(peer, ["ev", have])
        if self.revealed:
            self._queue(peer, ["mine"])
        if self.relay:
            for p in self.reveals:
                self._queue(peer, ["relay", p])

    def _hash_at(self, i):
        return self.seat.record_at(i)[3]

    def _on_reveal(self, peer, msg):
        s = self.seat
        _tag, player, salt, setup, count = msg
        if player == s.player:
            return  # our own reveal relayed back by a group's host: nothing to learn
        if not isinstance(player, int) or not 0 <= player < s.n:
            raise IllegalAction("bad reveal author")
        if not isinstance(salt, bytes) or not isinstance(setup, list) or \
                not isinstance(count, int) or count < 0:
            raise IllegalAction("malformed reveal")
        if player in self.reveals:
            return  # a resend
        pos = self._journal(["r", player, salt, setup, count])
        self.reveals[player] = [salt, setup, count, 0, pos]
        self.changed = True
        if self.relay:
            self._broadcast(msg, peer)

    def _on_actions(self, peer, msg):
        _tag, player, first, actions = msg
        if player == self.seat.player:
            return
        st = self.reveals.get(player)
        if st is None:
            raise IllegalAction("revealed actions before the reveal")
        if not isinstance(first, int) or not isinstance(actions, list) or \
                not 0 < len(actions) <= CHUNK:
            raise IllegalAction("malformed revealed actions")
        if first > st[3] or first + len(actions) > st[2]:
            raise IllegalAction("revealed actions out of order")
        skip = st[3] - first
        if skip >= len(actions):
            return  # a resend
        if skip:  # a resend overlapping what we have: keep only the new tail
            msg = ["ra", player, st[3], actions[skip:]]
        self._journal(msg)
        st[3] += len(msg[3])
        self.changed = True
        if self.relay:
            self._broadcast(msg, peer)

    def _revealed_actions(self, player):
        """The actions `player` revealed, read back from the journal one chunk at a time."""
        it = self.seat.journal.read(self.reveals[player][4])
        try:
            for _p, _e, rec in it:
                if rec[0] == "ra" and rec[1] == player:
                    for a in rec[3]:
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
            if p not in self.verdicts and st[3] == st[2]:
                v = s.audit(p, [st[0], st[1], self._revealed_actions(p)])
                self.verdicts[p] = v
                self._journal(["v", p, None if v is None else list(v)])
                self.changed = True

    def resync(self):
        """After a reboot or a long partition: tell every peer how far we got, and send our
        reveal again (what was not yet queued on the link was lost with the RAM)."""
        for p in self.peers:
            p.send(["sync", self.seat.n_log, self.seat.short_hash()])
            if self.revealed:
                self._queue(p, ["mine"])

    # ---- paced streams: resent events, reveals ---------------------------------------------
    def _queue(self, peer, job):
        jobs = self._jobs.setdefault(peer, [])
        for j in jobs:
            if j[0] == job[0] and (job[0] != "relay" or j[1] == job[1]):
                jobs.remove(j)  # starts over: the peer asked again
                break
        jobs.append(job)

    def _pump(self):
        for peer in list(self._jobs):
            jobs = self._jobs[peer]
            if peer not in self.peers:
                del self._jobs[peer]
                continue
            budget = BURST
            while jobs and budget > 0 and not _busy(peer):
                job = jobs[0]
                sent, done = self._step(peer, job, budget)
                budget -= max(sent, 1)
                if done:
                    jobs.pop(0)
            if not jobs:
                del self._jobs[peer]

    def _step(self, peer, job, budget):
        """Send up to `budget` messages of one stream; (messages sent, stream finished)."""
        kind = job[0]
        if kind == "ev":
            return self._step_events(peer, job, budget)
        if kind == "mine":
            return self._step_mine(peer, job)
        return self._step_relay(peer, job)

    def _step_events(self, peer, job, budget):
        s = self.seat
        i = job[1]
        sent = 0
        g = s.records(i, i + budget * (1 if self.relay else s.n))
        try:
            for rec in g:
                if rec[1] == s.player or self.relay:
                    peer.send(["ev", i, rec[1], rec[2], rec[3]])
                    sent += 1
                i += 1
                if sent >= budget:
                    break
        finally:
            g.close()
        job[1] = i
        return sent, i >= s.n_log

    def _step_mine(self, peer, job):
        s = self.seat
        if len(job) == 1:  # the head first, then the actions from the journal's start
            salt, setup, count = s.reveal_head()
            peer.send(["rev", s.player, salt, setup, count])
            job.extend([0, None])
            return 1, count == 0
        first, pos = job[1], job[2]
        chunk = []
        g = s.my_actions(pos)
        try:
            for _p, end, a in g:
                chunk.append(a)
                pos = end
                if len(chunk) >= CHUNK:
                    break
        finally:
            g.close()
        if chunk:
            peer.send(["ra", s.player, first, chunk])
        job[1], job[2] = first + len(chunk), pos
        return 1, not chunk or job[1] >= s.n_actions

    def _step_relay(self, peer, job):
        p = job[1]
        st = self.reveals[p]
        if len(job) == 2:
            peer.send(["rev", p, st[0], st[1], st[2]])
            job.append(st[4])
            return 1, st[2] == 0
        pos = job[2]
        g = self.seat.journal.read(pos)
        try:
            for _p, end, rec in g:
                job[2] = end
                if rec[0] == "ra" and rec[1] == p:
                    peer.send(rec)
                    return 1, rec[2] + len(rec[3]) >= st[3]
        finally:
            g.close()
        return 0, True

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
        tag = rec[0]
        if tag == "rv":
            self.revealed = True
        elif tag == "r":
            self.reveals[rec[1]] = [rec[2], rec[3], rec[4], 0, pos]
        elif tag == "ra":
            self.reveals[rec[1]][3] += len(rec[3])
        elif tag == "v":
            self.verdicts[rec[1]] = None if rec[2] is None else tuple(rec[2])
        elif tag != "h":
            raise JournalError("unknown journal record %r" % (tag,))

    def clear(self):
        if self.storage is not None:
            for p in self.peers:
                if hasattr(p, "clear"):
                    p.clear()
            self.storage.remove(self.name)
            if self.name == SAVE:
                self.storage.remove(PEERS)


def _busy(peer):
    ch = getattr(peer, "ch", None)
    return ch is not None and ch.pending() > BUSY


def open_journal(storage, name):
    """The journal `name` checked end to end (a torn last record cut off) and its header's
    fields; None if there is none. CorruptFile (set aside) if it cannot be used."""
    if not storage.exists(name):
        return None, None
    storage.repair_records(name)
    j = FileJournal(storage, name)
    try:
        return j, header_of(j.first())
    except JournalError as e:
        storage.quarantine(name, str(e))


def load(storage, engine_for, name=SAVE):
    """The saved game, or None. `engine_for(gid)` gives the engine. Raises on a save that
    cannot be used (CorruptFile: storage has set it aside; anything else: the caller does)."""
    j, h = open_journal(storage, name)
    if j is None:
        return None
    seat = Seat(engine_for(h["gid"]), h["opts"], h["n"], h["seed"], h["player"], h["salt"], j)
    r = Runner(seat, [], storage, h["gid"], h.get("meta"), h.get("relay", False), True, name)
    seat.replay(r.replayed)
    r.saved_peers = []
    if name == SAVE:
        r.saved_peers = storage.read_obj(PEERS) or []
        r._peers_saved = r.saved_peers
    return r
