# The paced streams of one game (a Runner owns one): what goes to a peer in more messages than
# one tick should send, each read from the journal (or the seat's few recent events) and sent a
# few messages per tick (BURST) and only while the peer's link queue is short (BUSY), so that
# neither the link's send queue (which the channel persists) nor a message grows with the game.
#
# The streams, queued per peer (queue()) and sent by pump() on every tick:
#   ["ev", index]      the log from index on (the answer to a sync)
#   ["mine"]           this unit's end-of-game reveal: its head, then its actions in chunks
#   ["relay", player]  a group host's relay of another player's reveal, as its chunks arrive
#   ["got", sender, author, tag]  a group partner's receipt for a reveal: the message itself
#                      (a host of eight holds dozens at the end, each one list, not two)
# and, on a group's host, a feed of the log per partner: each partner's cursor is the next
# index it needs, and the feed sends from there in order as the link drains, so no host link
# holds more than RELAY_BUSY + 1 messages from the relay, whatever the group and the loss.
# (Every event queued on every link at once would make each channel's saved state, written on
# every send, need blocks of 1.3 KB with seven partners: more than a 96 KB heap can find.)
#
# In a group every event and reveal head sent carries its author's end-to-end tags
# (link/grouptags.py): this unit's own are computed again from the journal, a relayed event's
# read back from the ["t", index, tags] record journalled before it (or, on a host, for the
# newest events, from the copy kept here in RAM, keep_tags()).
from fathom.compat import const
from fathom.journal import JournalError

# The slots read here, copies of the names their schemas give (seat.py: the journal's event
# record; runner.py: the messages and the reveals; tests/source holds the copies equal):
_RECENT = const(4)
_REC_TAG = const(0)
_REC_AUTHOR = const(1)
_REC_EVENT = const(2)
_REC_HASH = const(3)
_REC_CK = const(4)
_MSG_TAG = const(0)
_EV_INDEX = const(1)
_RA_PLAYER = const(1)
_RA_FIRST = const(2)
_RA_ACTIONS = const(3)
_TAGS_INDEX = const(1)
_TAGS_TAGS = const(2)
_ST_SALT = const(0)
_ST_SETUP = const(1)
_ST_COUNT = const(2)
_ST_HAVE = const(3)
_ST_POS = const(4)
_ST_TAGS = const(5)
_JOB_KIND = const(0)   # a stream (the list above): its kind,
_JOB_AT = const(1)     # ["ev", index]: the next event; ["mine", first, pos]: the next action
_JOB_POS = const(2)    # and its journal position; ["relay", player, pos]: where reading is
_JOB_PLAYER = const(1)

CHUNK = 12             # revealed actions per "ra" message
BURST = 4              # messages a paced stream sends per peer per tick
BUSY = 2               # a link with more unacknowledged messages than this gets no more
RELAY_BUSY = 0         # the same on a group host's links: one message in flight each. Events
                       # come one at a time anyway (each waits for the one before), and with
                       # three a host of eight still failed 1 game in 4 under a 96 KB heap


def tell(seat, peer, msg):
    """Every message a runner sends goes through here: the journal's held records are written
    first, so nothing said to a peer (an event, a sync's length, a relay) is one a reboot
    forgets. LinkPeer.send saves the channel at once."""
    seat.journal.commit()
    peer.send(msg)


class Streams:
    def __init__(self, seat, keys, relay, reveals):
        self.seat = seat
        self.keys = keys            # a group's end-to-end keys (None: a pair)
        self.relay = relay          # a group's host: feeds and relays
        self.reveals = reveals      # the runner's reveals, read: player -> [salt, setup,
                                    # count, received, journal pos, tags]
        self.jobs = {}              # peer -> [stream, ...]
        self.fw = {}                # a group host: peer -> the next log index its feed sends
        self.seat_of = {}           # a group host: peer -> its player (learnt from its events)
        self.again = {}             # a group host: peer -> the log's end at its last sync
        self.tagc = {}              # a group host: index -> tags of the newest events

    # ---- the runner's interface -------------------------------------------------------------
    def queue(self, peer, job):
        """Add a stream for `peer`; one of the same kind (and player) starts over: the peer
        asked again."""
        jobs = self.jobs.setdefault(peer, [])
        for j in jobs:
            kind = job[_JOB_KIND]
            if j[_JOB_KIND] == kind and (j == job if kind == "got" else
                                         (kind != "relay" or j[_JOB_PLAYER] == job[_JOB_PLAYER])):
                jobs.remove(j)
                break
        jobs.append(job)

    def idle(self):
        """No stream left to send."""
        return not self.jobs

    def stop(self):
        """Drop every stream (the game ended here without its reveals: a claim)."""
        self.jobs = {}

    def pump(self, peers):
        """Send what each peer's link has room for now: the feeds first, then the streams."""
        if self.relay:
            for peer in peers:
                self._feed(peer)
        for peer in list(self.jobs):
            jobs = self.jobs[peer]
            if peer not in peers:
                del self.jobs[peer]
                continue
            budget = BURST
            k = 0
            while k < len(jobs) and budget > 0:
                room = self.room(peer)
                if room <= 0:
                    break
                sent, done = self._step(peer, jobs[k], min(budget, room))
                budget -= max(sent, 1)
                if done:
                    jobs.pop(k)
                elif done is None:
                    k += 1  # a relayed reveal waits for its next chunk: the next stream meanwhile
            if not jobs:
                del self.jobs[peer]

    def room(self, peer):
        return _room(peer, RELAY_BUSY if self.relay else BUSY)

    # ---- a group host's feeds -----------------------------------------------------------------
    def meet(self, peer):
        """A partner first heard: its feed starts at the log's end (after a reboot the
        partner's sync says if it holds less)."""
        if peer not in self.fw:
            self.fw[peer] = self.seat.n_log

    def rewind(self, peer, have):
        """The partner holds `have` events (its sync): its feed goes back there, and up to the
        log's end now sends it its own events too. It holds none from `have` on (it journals
        what it authors before sending it) unless its save was cut, and then it authors them
        again from these (runner._own_again)."""
        n = self.seat.n_log
        self.fw[peer] = min(have, n)
        self.again[peer] = n

    def fed(self, peer):
        """The partner's feed has sent it the whole log."""
        n = self.seat.n_log
        return self.fw.get(peer, n) >= n

    def offer(self, peer, msg):
        """A new event for `peer` now if its feed has reached it and its link has room (True);
        otherwise the feed sends it in order as the link drains."""
        i = msg[_EV_INDEX]
        if self.fw.setdefault(peer, i) != i or self.room(peer) <= 0:
            return False
        self.fw[peer] = i + 1
        tell(self.seat, peer, msg)
        return True

    def learn(self, peer, player):
        """`peer` carries `player`'s messages (a star: a partner's link only its own); its feed
        does not send it back its own events."""
        self.seat_of[peer] = player

    def keep_tags(self, idx, tags):
        """Keep the tags of the newest RECENT (seat.py) events in RAM for the feeds."""
        tc = self.tagc
        tc[idx] = tags
        tc.pop(idx - _RECENT, None)

    def _feed(self, peer):
        s = self.seat
        i = self.fw.get(peer)
        if i is None or i >= s.n_log:
            return
        room = min(BURST, self.room(peer))
        if room <= 0:
            return
        if i < s.recent_from() or (self.keys is not None and i not in self.tagc):
            job = ["ev", i]  # older than what RAM holds (a partner far behind): the journal
            self._step_events(peer, job, room)
            self.fw[peer] = job[_JOB_AT]
            return
        own = self.seat_of.get(peer)
        again = self.again.get(peer, 0)
        sent = 0
        g = s.records(i)
        try:
            for rec in g:
                if self.keys is not None and i not in self.tagc:
                    break  # an event authored again after a cut: the journal's path next
                if rec[_REC_AUTHOR] != own or i < again:
                    msg = ["ev", i, rec[_REC_AUTHOR], rec[_REC_EVENT], rec[_REC_HASH], rec[_REC_CK]]
                    if self.keys is not None:
                        msg.append(self.tagc[i])
                    tell(self.seat, peer, msg)
                    sent += 1
                i += 1
                if sent >= room:
                    break
        finally:
            g.close()
        self.fw[peer] = i

    # ---- the streams, a step each -----------------------------------------------------------
    def _step(self, peer, job, budget):
        """Send up to `budget` messages of one stream; (messages sent, finished): finished is
        None for a stream that waits for more to arrive (the pump goes on to the next one)."""
        kind = job[_JOB_KIND]
        if kind == "ev":
            return self._step_events(peer, job, budget)
        if kind == "mine":
            return self._step_mine(peer, job)
        if kind == "got":
            tell(self.seat, peer, job)
            return 1, True
        return self._step_relay(peer, job)

    def _step_events(self, peer, job, budget):
        if self.keys is not None:
            return self._step_tagged(peer, job, budget)
        s = self.seat
        i = job[_JOB_AT]
        sent = 0
        g = s.records(i, i + budget)
        try:
            for rec in g:
                # the peer's own events too: it holds none from its sync's index on unless its
                # save was cut, and then it authors them again from these (runner._own_again)
                tell(self.seat, peer, ["ev", i, rec[_REC_AUTHOR], rec[_REC_EVENT], rec[_REC_HASH],
                                       rec[_REC_CK]])
                sent += 1
                i += 1
                if sent >= budget:
                    break
        finally:
            g.close()
        job[_JOB_AT] = i
        return sent, i >= s.n_log

    def _step_tagged(self, peer, job, budget):
        """A group's resend: events from the journal with their tags, this unit's own tagged
        again (over the short hash before each, so reading starts one event earlier). A
        partner sends every event it holds from there: past its own, there are any only when
        the host's save was cut, and then the host takes back another partner's event by the
        tags its author sent (journalled with it) and its own by authoring it again from its
        secrets (runner._own_again: no tags of ours to check, so none are sent)."""
        from fathom.link.crypto import sha256
        from fathom.link.grouptags import HOST, event_tags
        s = self.seat
        i = job[_JOB_AT]
        if i >= s.n_log:
            return 0, True
        if i == 0:  # event 0's tags record precedes it: read from the start
            j, pos, prev = 0, None, sha256(bytes(s.seed))[:8]  # the chain's start (seat.py)
        else:  # from a bookmark at or before event i - 1, whose short hash comes first
            j, pos = s._start(i - 1)
            prev = None
        sent = 0
        tags = None
        g = s.journal.read(pos)
        try:
            for _p, _e, rec in g:
                if rec[_REC_TAG] == "t":
                    tags = rec
                    continue
                if rec[_REC_TAG] != "e":
                    continue
                if j >= i:
                    author = rec[_REC_AUTHOR]
                    if author == s.player:
                        t = event_tags(self.keys, s.player, j, prev, rec[_REC_EVENT], rec[_REC_CK])
                    elif tags is not None and tags[_TAGS_INDEX] == j:
                        t = tags[_TAGS_TAGS]
                    elif not self.relay and author == HOST:
                        t = b""
                    elif not self.relay:  # a save from before partners kept them: no more
                        j = s.n_log
                        break
                    else:
                        raise JournalError("the journal lacks the tags of event %d" % j)
                    tell(self.seat, peer, ["ev", j, author, rec[_REC_EVENT], rec[_REC_HASH],
                                           rec[_REC_CK], t])
                    sent += 1
                prev = rec[_REC_HASH]
                j += 1
                if sent >= budget or j >= s.n_log:
                    break
        finally:
            g.close()
        if j <= i:
            raise JournalError("the journal lacks event %d" % i)
        job[_JOB_AT] = j
        return sent, j >= s.n_log

    def _head(self, peer, salt, setup, count):
        s = self.seat
        msg = ["rev", s.player, salt, setup, count]
        if self.keys is not None:
            from fathom.link import grouptags as gt
            d = gt.reveal_digest(s.player, salt, setup, count,
                                 (a for _p, _e, a in s.my_actions()))
            msg.append(gt.head_tags(self.keys, s.player, s.n_log, s.chain, d))
        tell(self.seat, peer, msg)

    def _step_mine(self, peer, job):
        s = self.seat
        if len(job) == 1:  # the head first, then the actions from the journal's start
            salt, setup, count = s.reveal_head()
            self._head(peer, salt, setup, count)
            job.extend([0, None])
            return 1, count == 0
        first, pos = job[_JOB_AT], job[_JOB_POS]
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
            tell(self.seat, peer, ["ra", s.player, first, chunk])
        job[_JOB_AT], job[_JOB_POS] = first + len(chunk), pos
        return 1, not chunk or job[_JOB_AT] >= s.n_actions

    def _step_relay(self, peer, job):
        """Another player's reveal, head then chunks, from the journal as they come in: a
        relay queued when the head arrives waits (done None) for chunks not yet received."""
        p = job[_JOB_PLAYER]
        st = self.reveals[p]
        if len(job) == _JOB_POS:
            tags = st[_ST_TAGS]
            tell(self.seat, peer, ["rev", p, st[_ST_SALT], st[_ST_SETUP], st[_ST_COUNT]] +
                 ([tags] if tags else []))
            job.append(st[_ST_POS])
            return 1, st[_ST_COUNT] == 0
        pos = job[_JOB_POS]
        g = self.seat.journal.read(pos)
        try:
            for _p, end, rec in g:
                job[_JOB_POS] = end
                if rec[_MSG_TAG] == "ra" and rec[_RA_PLAYER] == p:
                    tell(self.seat, peer, rec)
                    return 1, rec[_RA_FIRST] + len(rec[_RA_ACTIONS]) >= st[_ST_COUNT]
        finally:
            g.close()
        return 0, (True if st[_ST_HAVE] >= st[_ST_COUNT] else None)


def _room(peer, busy=BUSY):
    """Messages a stream may still queue on `peer`'s link now (a peer without a channel, an
    in-unit bot or a test pipe, is never full)."""
    ch = getattr(peer, "ch", None)
    return BURST if ch is None else busy + 1 - ch.pending()


def busy(peer):
    """`peer`'s link holds as much as a stream may queue on it."""
    return _room(peer) <= 0
