# Binds a game Seat to its peers (other units over the link, or a bot seat in this unit) and to
# storage: whose turn it is, who authors each event, the hash check after every event, the
# journal written before anything is sent, resume after a reboot, and the final reveal and audit.
#
# Peer messages (codec lists):
#   ["ev", index, author, event, hash8]   an event the author appended at log[index]
#   ["sync", log_len, hash8]              "I have log_len events": the peer resends what is missing
#   ["rev", player, reveal]               the end-of-game reveal of salt, set-up and actions
#
# Groups (3-4 units) are a star: the host is linked to every partner, partners only to the
# host. The host's runner has relay=True: it forwards every event and reveal it accepts from
# one partner to the others (unchanged: index, author, the author's hash), and answers a sync
# with every event, whoever authored it. A partner cannot tell a relayed event from a direct
# one, and needs none of this.
from fathom.games.base import IllegalAction
from fathom.games.seat import restore

SAVE = "game"


class Runner:
    def __init__(self, seat, peers, storage=None, gid="", meta=None, relay=False):
        self.seat = seat
        self.relay = relay            # the hub of a group: forward what one peer sends
        self.peers = peers            # list of peer objects: send(msg), recv(), tick(now)
        self.storage = storage
        self.gid = gid
        self.meta = meta or {}        # e.g. peer names, link kind, bot level: saved with the game
        self.reveals = {}             # player -> reveal received
        self.verdicts = {}            # player -> None (verified) or (index, reason)
        self.desync = None            # (index, reason) when the hashes differ
        self.problem = None           # last refused peer message, for the UI
        self.revealed = False
        self.changed = True

    # ---- queries for the UI ----------------------------------------------------------------
    def my_turn(self):
        return self.seat.my_turn()

    def waiting_for(self):
        t = self.seat.to_move()
        return None if t is None else t[0]

    def result(self):
        return self.seat.result()

    def finished(self):
        """True once the result is in and every other player's audit is done."""
        return self.result() is not None and len(self.verdicts) == self.seat.n - 1

    # ---- acting ----------------------------------------------------------------------------
    def setup_choose(self, choice):
        self.seat.setup_choose(choice)
        self.save()
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
        idx = len(self.seat.log) - 1
        self.save()  # journal first: a reboot after sending must not forget the event
        self._broadcast(["ev", idx, self.seat.player, event, self.seat.short_hash()])
        self.changed = True

    def _broadcast(self, msg, skip=None):
        for p in self.peers:
            if p is not skip:
                p.send(msg)

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
                if len(s.log) != s.player:
                    break
                self._author()
            elif t[1] == "answer":
                self._author()
            else:
                break
        if s.result() is not None and not self.revealed:
            self.revealed = True
            self.save()
            self._broadcast(["rev", s.player, s.reveal()])
            self.changed = True

    def _handle(self, peer, msg):
        try:
            tag = msg[0]
            if tag == "ev":
                self._on_event(peer, msg[1], msg[2], msg[3], msg[4])
            elif tag == "sync":
                self._on_sync(peer, msg[1])
            elif tag == "rev":
                self._on_reveal(peer, msg[1], msg[2])
            else:
                raise IllegalAction("unknown message " + str(tag))
        except (IllegalAction, IndexError, TypeError, KeyError, ValueError) as e:
            self.problem = "refused: %s" % e
            self.changed = True

    def _on_event(self, peer, idx, author, event, h):
        s = self.seat
        if idx < len(s.log):
            return  # already have it (a resend after resume)
        if idx > len(s.log):
            peer.send(["sync", len(s.log), s.short_hash()])
            return
        if author == s.player:
            raise IllegalAction("a peer sent an event as me")
        s.receive(author, event)
        if s.short_hash() != h:
            self.desync = (idx, "state hash differs after event %d" % idx)
        self.save()
        self.changed = True
        if self.relay:
            self._broadcast(["ev", idx, author, event, h], peer)

    def _on_sync(self, peer, have):
        s = self.seat
        if not isinstance(have, int) or have < 0:
            raise IllegalAction("bad sync")
        for i in range(have, len(s.log)):
            author, event = s.log[i]
            if author == s.player or self.relay:
                peer.send(["ev", i, author, event, self._hash_at(i)])
        if self.revealed:
            peer.send(["rev", s.player, s.reveal()])
        if self.relay:
            for p in self.reveals:
                peer.send(["rev", p, self.reveals[p]])

    def _hash_at(self, i):
        return self.seat.hashes[i]

    def _on_reveal(self, peer, player, reveal):
        s = self.seat
        if player == s.player or not 0 <= player < s.n:
            raise IllegalAction("bad reveal author")
        if player not in self.reveals:
            self.reveals[player] = reveal
            self.save()
            if self.relay:
                self._broadcast(["rev", player, reveal], peer)

    def _audit_pending(self):
        # A reveal may overtake the last event; it is audited once our log has the result.
        if self.seat.result() is None:
            return
        for p in self.reveals:
            if p not in self.verdicts:
                self.verdicts[p] = self.seat.audit(p, self.reveals[p])
                self.save()
                self.changed = True

    def resync(self):
        """After a reboot or a long partition: tell every peer how far we got."""
        for p in self.peers:
            p.send(["sync", len(self.seat.log), self.seat.short_hash()])

    # ---- persistence -----------------------------------------------------------------------
    def save(self):
        if self.storage is None:
            return
        self.storage.write_obj(SAVE, {
            "gid": self.gid, "seat": self.seat.save(), "meta": self.meta,
            "reveals": self.reveals, "revealed": self.revealed,
            "verdicts": {p: (None if v is None else list(v)) for p, v in self.verdicts.items()},
            "peers": [p.save() for p in self.peers], "relay": self.relay,
        })

    def clear(self):
        if self.storage is not None:
            self.storage.remove(SAVE)


def load(storage, engine_for):
    """The saved game, or None. `engine_for(gid)` gives the engine. Raises on a corrupt save
    (storage keeps the bad file aside)."""
    d = storage.read_obj(SAVE)
    if not d:
        return None
    seat = restore(engine_for(d["gid"]), d["seat"])
    r = Runner(seat, [], storage, d["gid"], d.get("meta"), d.get("relay", False))
    r.reveals = d.get("reveals", {})
    r.revealed = d.get("revealed", False)
    r.verdicts = dict((p, None if v is None else tuple(v)) for p, v in d.get("verdicts", {}).items())
    r.saved_peers = d.get("peers", [])
    return r
