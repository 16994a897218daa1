# Host only, for tests: a modified group host, the attack the end-to-end tags exist for
# (docs/PROTOCOL.md section 9). The real firmware never imports this module: tests/kit/cheat_firmware.py
# boots one emulated unit on a copy of firmware/fathom whose runner.py ends with
# `cheat.install(Runner)`.
#
# FATHOM_CHEAT="withhold=1,to=2": the host keeps player 1's reveal from player 2 (below).
# FATHOM_CHEAT="gap=1,to=2,at=4": the host never sends player 2 the first event player 1
# authors at log index 4 or later, however often it is asked, and relays every later one
# (install_gap): a feed with a hole that only the host could fill.
# FATHOM_CHEAT="attack=6": a pair's unit that, once the log holds 6 events and its partner is to
# act with every frame acknowledged, sends what an honest unit never does: an event as the
# player to act (out of turn), a message nested deeper than the codec reads, and one larger than
# a channel reassembles (install_attack). FATHOM_CHEAT="watch": an honest unit that only prints
# what it refused and counted, for the test to read on its console (install_watch).
# FATHOM_CHEAT="author=1,to=2,at=6": the first move player `author` makes at log index `at` or
# later (a command: a silent run, a cruise, a ping, a torpedo) is relayed to player `to` as a
# cruise step to another square the rules allow there (a false contact, which the others would
# shoot at), with the short hash recomputed from the host's own state before the event, so that
# the receiver's state hash agrees with the rewritten event and no desync shows: only the
# author's end-to-end tag, which the host cannot make, can catch it. Every other partner gets
# the event unchanged, and the host's own log and journal keep the true one.
import os

from fathom import codec
from fathom.games.base import IllegalAction
from fathom.games.seat import TURN_ACT, chain_next, state_hash


def parse(spec):
    if spec == "watch":
        return {"watch": 1}
    if spec.startswith("attack="):
        return {"attack": int(spec[7:])}
    out = {}
    for part in spec.split(","):
        k, _, v = part.partition("=")
        if k not in ("author", "to", "at", "withhold", "gap") or not v:
            raise ValueError("FATHOM_CHEAT: unknown part %r (author=N,to=N,at=N, "
                             "withhold=N,to=N or gap=N,to=N,at=N)" % part)
        out[k] = int(v)
    keys = ("withhold", "to") if "withhold" in out else (
        ("gap", "to", "at") if "gap" in out else ("author", "to", "at"))
    a = out.get("withhold", out.get("gap", out.get("author")))
    if sorted(out) != sorted(keys) or a is None or a < 1 or out["to"] < 1 or a == out["to"]:
        raise ValueError("FATHOM_CHEAT %r: two different partners, author=N,to=N,at=N, "
                         "withhold=N,to=N or gap=N,to=N,at=N" % spec)
    return out


def install_withhold(cls, spec):
    """FATHOM_CHEAT="withhold=1,to=2": the host never relays player `withhold`'s end-of-game
    reveal (its head and actions) to player `to`; everyone else gets it, and the host audits
    it as an honest unit would."""
    queue = cls._queue
    print("cheat: armed, P%d's reveal withheld from P%d" % (spec["withhold"] + 1,
                                                             spec["to"] + 1))

    def _queue(self, peer, job):
        if job == ["relay", spec["withhold"]] and self.peers.index(peer) + 1 == spec["to"]:
            print("cheat: P%d's reveal withheld from P%d" % (job[1] + 1, spec["to"] + 1))
            return
        queue(self, peer, job)

    cls._queue = _queue


def install_gap(cls, spec):
    """FATHOM_CHEAT="gap=1,to=2,at=4": see the top of this module. The hole is made where the
    message leaves for that partner's link, so the feed, a resend after a sync and a relay
    all lose the same event."""
    tick = cls.tick
    print("cheat: armed, P%d's first event from %d kept from P%d" % (
        spec["gap"] + 1, spec["at"], spec["to"] + 1))

    def keeping(runner, peer):
        send = peer.send
        kept = []

        def send_(msg):
            if msg[0] == "ev" and (msg[1] in kept or not kept and msg[1] >= spec["at"] and
                                   msg[2] == spec["gap"]):
                if not kept:
                    kept.append(msg[1])
                    print("cheat: event %d kept from P%d" % (msg[1], spec["to"] + 1))
                return
            send(msg)
        peer.send = send_

    def tick_(self, now):
        if self.relay and not getattr(self, "_holed", False) and len(self.peers) >= spec["to"]:
            self._holed = True
            keeping(self, self.peers[spec["to"] - 1])  # a host's peers in seat order
        return tick(self, now)

    cls.tick = tick_


DEEP = b"\x90" * 60 + b"\x00"   # sixty nested lists: the codec reads eight


def oversized(ch, size):
    """Queue a message of `size` bytes on channel `ch`, past the MAX_MESSAGE check the honest
    Channel.send makes."""
    ch.send_unchecked(b"x" * size)


def install_attack(cls, at):
    """FATHOM_CHEAT="attack=N": see the top of this module."""
    from fathom.link.channel import MAX_MESSAGE
    tick = cls.tick
    print("cheat: armed, attack from event %d" % at)

    def tick_(self, now):
        changed = tick(self, now)  # the app redraws on it: the verdict must reach the screen
        s = self.seat
        t = s.to_move()
        if getattr(self, "_attacked", False) or s.n_log < at or t is None or \
                t[0] == s.player or t[1] != TURN_ACT or len(self.peers) != 1:
            return changed
        ch = self.peers[0].ch
        if ch.pending() or ch.unacked():
            return changed  # the partner must hold every event: the index below is its next
        self._attacked = True
        msg = ["ev", s.n_log, s.player, ["zz", 1], b"h" * 8, b"c" * 8]
        if self.keys is not None:
            msg.append(b"t" * 8)
        self.peers[0].send(msg)
        print("cheat: out of turn: event %d as P%d, P%d to act" % (s.n_log, s.player + 1,
                                                                   t[0] + 1))
        ch.send(DEEP)
        print("cheat: deep: %d nested lists" % (len(DEEP) - 1))
        oversized(ch, MAX_MESSAGE + 600)
        print("cheat: oversized: %d bytes" % (MAX_MESSAGE + 600))
        return changed

    cls.tick = tick_


def install_watch(cls):
    """FATHOM_CHEAT="watch": print each message's refusal (the runner's problem line, which
    the next message of the same tick may replace) and each change of a link's counts of
    dropped messages and unreadable ones."""
    handle = cls._handle
    print("watch: armed")

    def _handle(self, peer, msg):
        handle(self, peer, msg)
        now = [self.problem] + [(p.ch.stats["dropped_malformed"], p.bad)
                                for p in self.peers if hasattr(p, "ch")]
        if now != getattr(self, "_watched", None):
            self._watched = now
            print("watch: problem=%r counts=%r" % (now[0], now[1:]))

    cls._handle = _handle


def forge(runner, msg, spec):
    """The rewritten copy of the relayed event `msg` (or None: not the one to rewrite), worked
    out from the host's state before the event is applied."""
    s = runner.seat
    if len(msg) != 7 or msg[1] != s.n_log or msg[1] < spec["at"] or msg[2] != spec["author"]:
        return None
    ev = msg[3]
    t = s.engine.turn(s.pub)
    if not isinstance(ev, list) or not ev or t != (msg[2], TURN_ACT):
        return None  # a set-up or an answer: not a move
    before = s.settle()  # the hash the seat chains the event on (games/seat.py chain_next)
    squares = s.pub["size"] ** 2
    first = ev[1] + 1 if len(ev) > 1 and isinstance(ev[1], int) else 0
    for k in range(squares):
        alt = ["c", (first + k) % squares]
        if alt == ev:
            continue
        pub = codec.decode(codec.encode(s.pub))
        try:
            s.engine.apply(pub, msg[2], alt)
        except IllegalAction:
            continue  # a second cruise step must stay next to the first: a plausible lie
        after = state_hash(pub) if s.engine.result(pub) is not None else None
        out = list(msg)
        out[3] = alt
        out[4] = chain_next(s.chain, before, alt, after)[:8]
        return out
    return None


def install(cls):
    """Patch the Runner class `cls` of the modified host."""
    spec = parse(os.getenv("FATHOM_CHEAT") or "")
    if "watch" in spec:
        install_watch(cls)
        return
    if "attack" in spec:
        install_attack(cls, spec["attack"])
        return
    if "withhold" in spec:
        install_withhold(cls, spec)
        return
    if "gap" in spec:
        install_gap(cls, spec)
        return
    on_event, broadcast = cls._on_event, cls._broadcast
    print("cheat: armed, P%d's first move from event %d to P%d" % (
        spec["author"] + 1, spec["at"], spec["to"] + 1))

    def _on_event(self, peer, msg):
        self._cheat = None
        if self.relay and not getattr(self, "_cheated", False):
            forged = forge(self, msg, spec)
            if forged is not None:
                self._cheat = (msg, forged)
        try:
            on_event(self, peer, msg)
        finally:
            self._cheat = None

    def _broadcast(self, msg, skip=None):
        c = getattr(self, "_cheat", None)
        if c is None or msg is not c[0]:
            broadcast(self, msg, skip)
            return
        self._cheated = True
        for i, p in enumerate(self.peers):  # a host's peers in seat order (connect.peers)
            if p is not skip:
                p.send(c[1] if i + 1 == spec["to"] else msg)
        print("cheat: event %d %r relayed to P%d as %r" % (msg[1], msg[3], spec["to"] + 1,
                                                          c[1][3]))

    cls._on_event = _on_event
    cls._broadcast = _broadcast
