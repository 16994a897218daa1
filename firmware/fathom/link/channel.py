# Reliable channel over frames: ordered, exactly-once delivery of messages of any length, with
# selective retransmission, duplicate and replay suppression, heartbeats and a link state.
# The retransmission timer follows the measured round trip (Jacobson/Karels, Karn's rule), and
# an ACK frame's seq field carries which frames past the gap the receiver holds, so a lost frame
# is resent when the peer shows the gap rather than when the timer fires. See docs/PROTOCOL.md.
# It never sends from on_frame(): frames (acks included) leave only from poll(), so an app that
# persists save() before calling poll() never lets the peer see an ack it could forget.
# Times are the app clock's (clock.now_ms), which wraps: only ticks_diff / ticks_add touch them.
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.link import frame
from fathom.link.crypto import Mac

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

RTO_INIT_MS = const(250)     # first retransmission before any round trip was measured
# floor: a 10 ms loop at each end plus a full 128x64 redraw (23 ms at 400 kHz) is no loss; a
# longer stall (a flash write) shows in the variance. Under loss most repairs wait this long
# (a frame lost last in flight has nothing behind it to show the gap), so it sets the lossy rate.
RTO_MIN_MS = const(40)
RTO_MAX_MS = const(2000)     # backoff cap: keeps trying forever, at most one burst per 2 s
HEARTBEAT_MS = const(1000)   # an ack frame when nothing else went out for this long
MISS_MS = const(2500)        # 'retrying' once a heartbeat window and a half passed in silence
LOST_MS = const(10000)       # 'lost' after this long without an authentic frame
LEAVE_MS = const(3000)       # a leaving unit waits at most this long for its bye's acknowledgement
WINDOW = const(8)            # frames in flight; also how far ahead the receiver buffers
# Bytes of frames in flight at once, each counted with the radio's 13 bytes of bookkeeping: what
# the receiver's 1 KB receive ring (link/espnow_link.py, link/uart_link.py) holds when they all
# land between two of its polls. Sending more loses the excess in the ring, not in the air.
FLIGHT_BYTES = const(880)
_FRAME_COST = const(28)     # 13 of the ring's, a 7-byte header, an 8-byte tag
MAX_MESSAGE = const(8192)    # the largest message the receiver reassembles, bytes
_SAVE_V = const(2)            # of save()'s record (2: a list, where 1 was a dict)
# Repairs (resends of holes the peer's map showed) this many in a row, each within LOSSY_MS of
# the last, make the link lossy: a silent tail then waits the repair interval, not the floored
# timer (_timeout). One repair is not enough: a lossless link under load loses the odd frame in the
# receiver's ring, and a floorless timer there resends what the stalled peer already holds.
LOSSY_REPAIRS = const(2)
LOSSY_MS = const(1000)
# A peer heard within MISS_MS is there: a silent expiry is a lost resend or a lost ack, and
# the timer backs off to at most this many measured RTOs (a stall a little longer than the
# round trip is still learnt), not to RTO_MAX_MS
ALIVE_BACKOFF = const(2)
_SLACK_MS = const(2)         # a poll's granularity on top of a measured round trip
# Set in an ACK frame's map when it repeats what an earlier one said (a repeat while a gap
# stays open, a heartbeat) rather than answering a frame just received: a late answer, so no
# round trip sample. Past any window's bits: a unit that does not know it masks it off.
_STALE = const(0x8000)

_STATS = ("frames_sent", "bytes_sent", "frames_received", "retransmits", "dropped_bad_tag",
          "dropped_replay", "dropped_malformed", "dropped_session", "dropped_reflected",
          "ignored", "delivered", "send_failed")


class Channel:
    def __init__(self, send_frame, key=None, session_id=0, now_ms=0, role=0):
        """`role` (0 or 1) must differ between the two ends of a keyed channel: the tag binds
        the sender's role, so a frame reflected back to its sender fails to verify."""
        self._send_frame = send_frame
        self.key = bytes(key) if key is not None else None
        self._mac = Mac(self.key) if self.key is not None else None
        self.session_id = session_id & 0xFFFF
        self.role = role & 1
        self.stats = {}
        for k in _STATS:
            self.stats[k] = 0
        self.peer_version = None   # set when an intact frame of another version arrives
        self._now = now_ms
        self._born = now_ms
        self._heard = None         # time of the last authentic frame
        self._linked_once = False
        self._last_tx = None
        # sender
        self._snd_next = 0         # seq of the next frame queued
        self._snd_una = 0          # oldest unacknowledged seq
        self._snd_sent = 0         # frames below this were transmitted at least once
        self._out = []             # [(seq, ftype, payload)] from snd_una up
        self._pending = 0          # messages (DATA frames) in _out
        self._srtt8 = 0            # smoothed round trip x 8, ms (0: none measured yet)
        self._rttvar4 = 0          # its mean deviation x 4, ms
        self._rto = RTO_INIT_MS
        self._timed = -1           # the one frame being timed (Karn: never a resent one)
        self._timed_at = 0
        self._timed_clean = True   # nothing below it was resent: its cumulative ack is timely
        self._rtt_due = False      # the timed frame was acked: poll() takes the sample
        self._sacked = 0           # bit i: the peer holds frame snd_una + i
        self._fast_at = None       # when holes the map showed were last resent (None: not lately)
        self._deadline = None
        self._una_since = now_ms
        # receiver
        self._rcv_next = 0
        self._ooo = {}             # seq -> (ftype, payload), within WINDOW ahead
        self._held = 0             # bit i: _ooo holds frame rcv_next + 1 + i
        self._part = bytearray()
        self._overflow = False
        self._in = []
        self._ack_due = False
        self._repairs = 0          # repairs in a row, each within LOSSY_MS of the last
        self._map_at = now_ms      # when the map of held frames last went out
        self.needs_save = False    # state to save before the next poll() changed (not
                                   # acks taken in alone: _on_ack)

    # ---- sending ---------------------------------------------------------------------------
    def send(self, msg):
        """Queue one message; it leaves on the next poll()."""
        msg = bytes(msg)
        if len(msg) > MAX_MESSAGE:
            raise ValueError("message of %d bytes exceeds %d" % (len(msg), MAX_MESSAGE))
        self.send_unchecked(msg)

    def send_unchecked(self, msg):
        """Queue one message past the MAX_MESSAGE check: what a modified peer does
        (hostmodes/cheat.py, the attack tests), so that the receiver's refusal is what gets
        tested. Honest code calls send()."""
        msg = bytes(msg)
        step = frame.MAX_PAYLOAD
        i = 0
        while True:
            chunk = msg[i:i + step]
            i += step
            last = i >= len(msg)
            self._out.append((self._snd_next, frame.DATA if last else frame.MORE, chunk))
            self._snd_next += 1
            if last:
                break
        if self._snd_una == self._snd_sent and self._pending == 0:
            self._una_since = self._now
        self._pending += 1
        self.needs_save = True

    def pending(self):
        return self._pending

    def wake_in(self, now):
        """ms until poll() has work of its own (App._rest): 0 while a frame is unacknowledged,
        a gap held or an ack owed; else the next heartbeat. A frame in wakes the loop itself."""
        if (self._snd_next != self._snd_una or self._held or self._ack_due or self._rtt_due
                or self._last_tx is None):
            return 0
        return max(0, HEARTBEAT_MS - ticks_diff(now, self._last_tx))

    def fresh(self):
        """A frame is queued that was never sent."""
        return self._snd_sent != self._snd_next

    def unacked(self):
        """Frames queued that the peer has not acknowledged yet (0: it holds all we sent)."""
        return self._snd_next - self._snd_una

    def _tx(self, ftype, seq, payload):
        if self._srtt8 and ftype != frame.ACK and self._timed >= 0 and \
                self._now != self._timed_at:
            # a data frame sent after the timed one may be what the next ack answers (the
            # ack of the timed one lost): timing it would take a repair's wait for a round
            # trip. Before the first sample any sample beats the initial guess, so it stays.
            self._timed = -1
        data = frame.encode(ftype, self.session_id, seq, self._rcv_next, payload,
                            self._mac, self.role)
        self._ack_due = False
        self._last_tx = self._now
        self.stats["frames_sent"] += 1
        self.stats["bytes_sent"] += len(data)
        try:
            self._send_frame(data)
        except OSError:
            # a transport hiccup (out of radio buffers, a closed socket) is a lost frame:
            # retransmission covers it
            self.stats["send_failed"] += 1

    def _ack(self):
        """An ACK frame with the map of frames held past a gap, marked stale unless it answers
        a frame just received."""
        self._tx(frame.ACK, self._held if self._ack_due else self._held | _STALE, b"")

    def _resend(self, seq, ftype, payload):
        if seq == self._timed:
            self._timed = -1  # Karn: an ack after a resend cannot say which copy it answers
        elif seq < self._timed:
            self._timed_clean = False  # its cumulative ack now waits for this resend too
        self.stats["retransmits"] += 1
        self._tx(ftype, seq, payload)

    def _resend_unsacked(self):
        """Every frame in flight the peer has not shown it holds."""
        bit = 1
        for seq, ftype, payload in self._out:
            if seq >= self._snd_sent:
                break
            if not self._sacked & bit:
                self._resend(seq, ftype, payload)
            bit <<= 1

    def _resend_holes(self):
        """Frames in flight below the highest one the peer holds, which it lacks."""
        top = self._sacked
        bit = 1
        for seq, ftype, payload in self._out:
            if bit > top:
                break
            if not self._sacked & bit:
                self._resend(seq, ftype, payload)
            bit <<= 1

    def _sample(self, r):
        # Jacobson/Karels in scaled integers: srtt += (r - srtt) / 8, rttvar += (|r - srtt|
        # - rttvar) / 4, rto = srtt + 4 rttvar
        if self._srtt8 == 0 or r << 2 < self._srtt8 >> 3:
            # the first sample, or one under a quarter of the smoothed round trip: a prompt
            # answer that fast proves the path is, so the estimate starts again from it
            # rather than taking dozens of samples to come down from, say, a first answer
            # the peer gave while it was still setting up
            self._srtt8 = max(r, 1) << 3
            self._rttvar4 = r << 1
        else:
            d = r - (self._srtt8 >> 3)
            self._srtt8 += d
            if d < 0:
                d = -d
            self._rttvar4 += d - (self._rttvar4 >> 2)
        self._rto = self._rto_now()

    def _rto_now(self):
        if self._srtt8 == 0:
            return RTO_INIT_MS
        return max(RTO_MIN_MS, min(RTO_MAX_MS, (self._srtt8 >> 3) + self._rttvar4))

    def _repair_ms(self):
        # How long a resend of a frame the peer's map shows missing is given to be answered
        # before it goes again: a round trip and one mean deviation, at most the floor. No
        # 4x variance: the frame is known lost, and a needless resend costs one frame, where
        # waiting the full timer stalls the whole window behind the hole.
        if self._srtt8 == 0:
            return RTO_MIN_MS
        return min(RTO_MIN_MS, (self._srtt8 >> 3) + (self._rttvar4 >> 2) + _SLACK_MS)

    def _lossy(self):
        return self._fast_at is not None and self._repairs >= LOSSY_REPAIRS and self._srtt8 and \
            self._rto <= self._rto_now()

    def _timeout(self):
        # The timer to arm. On a link that has shown loss (LOSSY_REPAIRS) a silent tail (a
        # lost last frame, or a lost ack with nothing behind it) is loss too, and waits no
        # longer than a hole does: the repair interval, without the floor that guards a
        # lossless link against a stall the variance has not seen. A backed-off timer is
        # kept as it is.
        if self._lossy():
            return min(self._rto, self._repair_ms())
        return self._rto

    # ---- the clock -------------------------------------------------------------------------
    def poll(self, now_ms):
        self._now = now_ms
        limit = self._snd_una + WINDOW
        self._age(now_ms)
        if self._rtt_due:
            self._rtt_due = False
            self._sample(ticks_diff(now_ms, self._timed_at))
        if self._held and (self._ack_due or ticks_diff(now_ms, self._map_at) >= RTO_MIN_MS):
            # a gap: the sender needs the map at once, and again while the gap stays open,
            # since the map may be lost too and a sender whose window is full sends nothing
            # new to draw another. Every RTO_MIN_MS, not every round trip: a map that comes
            # late makes the sender's round trip sample late, and a timer that followed
            # those samples would slow the repeats in turn.
            self._map_at = now_ms
            self._ack()
        if self._sacked and (self._fast_at is None or
                             ticks_diff(now_ms, self._fast_at) >= self._repair_ms()):
            self._repairs = 1 if self._fast_at is None else min(self._repairs + 1, 255)
            self._fast_at = now_ms
            self._resend_holes()
            self._deadline = ticks_add(now_ms, self._timeout())
        if self._deadline is not None and ticks_diff(now_ms, self._deadline) >= 0 and \
                self._snd_sent > self._snd_una:
            self._resend_unsacked()
            if self._srtt8 and (self._sacked or self._heard is not None and
                                ticks_diff(now_ms, self._heard) < self._rto):
                # frames past the gap arrived, or the peer spoke within the timer: the path
                # works and this is loss, which waiting longer does not cure
                self._rto = self._rto_now()
            else:
                # silence: back off. Until the first sample an ack that advances keeps the
                # backed-off timer (Karn), so a round trip longer than the first guess is
                # learnt rather than resent forever
                cap = RTO_MAX_MS
                if self._srtt8 and self._heard is not None and \
                        ticks_diff(now_ms, self._heard) < MISS_MS:
                    # the peer spoke lately: a lost resend or a lost ack, most likely, so
                    # back off a little (a stall longer than the round trip), not to the cap
                    cap = min(cap, self._rto_now() * ALIVE_BACKOFF)
                self._rto = min(self._rto * 2, cap)
            self._deadline = ticks_add(now_ms, self._timeout())
        flight = 0
        bit = 1
        for seq, ftype, payload in self._out:
            if seq >= limit:
                break
            if not self._sacked & bit:  # a frame the map shows held has left the ring
                flight += _FRAME_COST + len(payload)
            bit <<= 1
            if seq >= self._snd_sent:
                if flight > FLIGHT_BYTES and seq > self._snd_una:
                    break
                self._tx(ftype, seq, payload)
                self._snd_sent = seq + 1
                if self._timed < 0:
                    self._timed = seq
                    self._timed_at = now_ms
                    self._timed_clean = True
                if self._deadline is None:
                    self._deadline = ticks_add(now_ms, self._timeout())
        if self._ack_due or self._last_tx is None or \
                ticks_diff(now_ms, self._last_tx) >= HEARTBEAT_MS:
            self._ack()

    def _age(self, now):
        # A time compared with a threshold is kept no older than just past it: a wrapping clock
        # would otherwise make half a period (6 days) of silence look like none at all.
        cap = LOST_MS + 1
        if self._heard is not None and ticks_diff(now, self._heard) > cap:
            self._heard = ticks_add(now, -cap)
        if ticks_diff(now, self._born) > cap:
            self._born = ticks_add(now, -cap)
        if ticks_diff(now, self._una_since) > cap:
            self._una_since = ticks_add(now, -cap)
        if ticks_diff(now, self._map_at) > cap:
            self._map_at = ticks_add(now, -cap)
        if self._fast_at is not None and ticks_diff(now, self._fast_at) >= LOSSY_MS:
            self._fast_at = None  # no loss shown lately: the floored timer again

    @property
    def state(self):
        if self._heard is None and not self._linked_once and not self._out:
            return "idle"
        since = self._heard if self._heard is not None else self._born
        silence = ticks_diff(self._now, since)
        if silence > LOST_MS:
            return "lost"
        if self._heard is None or silence > MISS_MS:
            return "retrying"
        if self._snd_sent > self._snd_una and ticks_diff(self._now, self._una_since) > MISS_MS:
            return "retrying"
        return "linked"

    # ---- receiving -------------------------------------------------------------------------
    def on_frame(self, data):
        """Feed one raw frame. Never raises: anything not authentic and new is counted, dropped."""
        st = self.stats
        try:
            ftype, keyed, sid, seq, ack, payload = frame.parse(data)
        except frame.VersionError as e:
            if frame.check(data):  # believed only from a frame whose CRC checks
                self.peer_version = e.version
            st["dropped_malformed"] += 1
            return
        except frame.FrameError:
            st["dropped_malformed"] += 1
            return
        if ftype == frame.BEACON:
            st["ignored"] += 1
            return
        if sid != self.session_id:
            st["dropped_session"] += 1
            return
        if ftype != frame.ACK:
            seq = frame.unwrap(seq, self._rcv_next)  # an ACK's seq is the map of frames held
        ack = frame.unwrap(ack, self._snd_una)
        if keyed != (self._mac is not None) or not frame.check(data, self._mac, 1 - self.role, seq, ack):
            if keyed and self._mac is not None and frame.check(data, self._mac, self.role, seq, ack):
                st["dropped_reflected"] += 1  # our own frame, or a peer configured with our role
            else:
                st["dropped_bad_tag"] += 1
            return
        st["frames_received"] += 1
        self._heard = self._now
        self._linked_once = True
        self._on_ack(ack, ftype == frame.ACK and seq & _STALE)
        if ftype == frame.ACK:
            if ack == self._snd_una:
                self._on_map(seq)
            return
        self._ack_due = True  # answer every data frame, duplicates too: our last ack may be lost
        if seq < self._rcv_next:
            st["dropped_replay"] += 1
            return
        if seq >= self._rcv_next + WINDOW:
            st["dropped_malformed"] += 1
            return
        if seq > self._rcv_next:
            self._ooo[seq] = (ftype, payload)
            self._held |= 1 << (seq - self._rcv_next - 1)
            return
        self._take(ftype, payload)
        while self._rcv_next in self._ooo:
            ftype, payload = self._ooo.pop(self._rcv_next)
            self._take(ftype, payload)

    def _on_map(self, held):
        """The peer's ACK says which frames past snd_una it holds (bit i: snd_una + 1 + i)."""
        stale = held & _STALE
        held &= _STALE - 1
        sacked = (held << 1) & ((1 << (self._snd_sent - self._snd_una)) - 1)
        self._sacked = sacked
        if self._timed >= 0 and sacked >> (self._timed - self._snd_una) & 1:
            self._timed = -1  # the map shows it arrived: a sample no gap below it delays
            self._rtt_due = not stale
        if sacked:
            if self._srtt8:
                # frames arriving past the gap show the path delivering within the round
                # trip: the gap is loss, not delay, and a backed-off timer only stalls the link
                self._rto = self._rto_now()

    def _on_ack(self, ack, stale=False):
        if ack > self._snd_next:
            ack = self._snd_next  # cannot cover frames we never queued
        if ack <= self._snd_una:
            return
        out = self._out
        n = 0
        while n < len(out) and out[n][0] < ack:
            if out[n][1] == frame.DATA:
                self._pending -= 1
            n += 1
        del out[:n]
        self._sacked >>= ack - self._snd_una
        if self._timed >= 0 and ack > self._timed:
            self._timed = -1
            self._rtt_due = self._timed_clean and not stale
        self._snd_una = ack
        if self._snd_sent < ack:
            self._snd_sent = ack
        if self._srtt8:
            self._rto = self._rto_now()  # the path delivers: back to the measured timer
        self._una_since = self._now
        self._deadline = ticks_add(self._now, self._timeout()) if self._snd_sent > ack else None
        # No save for this alone: a channel restored with an older snd_una resends frames the
        # peer holds, which it drops as duplicates under their seqs. The next save that must
        # happen (a message queued or taken) carries it. An author's move thus costs one save,
        # not a second in the same tick for the acks it took in (flash time on a board).

    def _take(self, ftype, payload):
        self._rcv_next += 1
        self._held >>= 1
        self.needs_save = True
        if not self._overflow:
            if len(self._part) + len(payload) > MAX_MESSAGE:
                self._overflow = True
                self._part = bytearray()
            else:
                self._part.extend(payload)
        if ftype == frame.DATA:
            if self._overflow:
                self.stats["dropped_malformed"] += 1
            else:
                self._in.append(bytes(self._part))
                self.stats["delivered"] += 1
            self._part = bytearray()
            self._overflow = False

    def recv(self):
        if not self._in:
            return None
        self.needs_save = True
        return self._in.pop(0)

    # ---- reboot ----------------------------------------------------------------------------
    def save(self):
        """Plain state (codec-encodable) to resume from. The receiver's next seq is what stops
        replays after a reboot, so it must be persisted before any ack leaves in poll().
        A list, not a dict: it is encoded at every move an author sends, and
        a dict's keys, each encoded and sorted, cost more than the rest of it."""
        self.needs_save = False
        return [_SAVE_V, self.key, self.session_id, self.role, self._snd_next, self._snd_una,
                [[s, t, p] for s, t, p in self._out], self._rcv_next, bytes(self._part),
                self._overflow, list(self._in), self._linked_once]

    @classmethod
    def restore(cls, d, send_frame, now_ms=0):
        """Rebuild a channel from save(); raises ValueError for a record that does not fit."""
        try:
            v, key, sid, role, snd_next, snd_una, out, rcv_next, part, overflow, inq, linked = d
            if v != _SAVE_V:
                raise ValueError("version %r" % (v,))
            ch = cls(send_frame, key, sid, now_ms, role)
            ch._snd_next = int(snd_next)
            ch._snd_una = ch._snd_sent = int(snd_una)
            ch._out = [(int(s), int(t), bytes(p)) for s, t, p in out]
            ch._pending = sum(1 for o in ch._out if o[1] == frame.DATA)
            ch._rcv_next = int(rcv_next)
            ch._part = bytearray(part)
            ch._overflow = bool(overflow)
            ch._in = [bytes(m) for m in inq]
            ch._linked_once = bool(linked)
        except (TypeError, ValueError, IndexError) as e:
            raise ValueError("bad channel record: %r" % (e,))
        if ch._out and ch._out[0][0] != ch._snd_una:
            raise ValueError("bad channel record: queue does not start at snd_una")
        return ch
