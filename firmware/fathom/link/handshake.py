# The pair handshake with one chosen unit, on an unkeyed channel at its address: session.py's
# Handshake (version, pairing or rekey, the code both players confirm) fed only the frames that
# belong to this exchange, the radio's own key for a remembered partner, and the partner's
# "bye". One state machine (session.Machine), moved only by _to(); the connector builds the keyed channel once it
# reaches KEYED.
from fathom.hal.clock import ticks_diff
from fathom.link import crypto, entropy, frame
from fathom.link.channel import Channel
from fathom.link.session import (BYE, Handshake, Machine, SessionError, bye_reason,
                                 decode_msg, encode_msg, version_error)

LMK_DEAF_MS = 5000       # an encrypted handshake that hears nothing this long goes clear
MINE = 32                # CRCs of our latest handshake frames kept to recognise reflections
# An intact frame of another version from the partner ends the pairing only if nothing in our
# version (its hello, a handshake frame, a beacon) comes from it this long after; a "bye" sent
# before the keys are agreed (which nothing can bind to the partner) likewise only if no
# handshake frame follows it. Anyone can send either: the real partner then wins.
VERSION_GRACE_MS = 3000
# Before the keys nothing is authenticated: a forged hello or key commitment taken at the
# partner's sequence number (its real one then dropped as a repeat) leaves an exchange that can
# never complete. One that has not reached the code this long after its last step starts over
# (the connector: new nonces, a new channel whose numbers start AGAIN past the old ones, so
# that nothing of the old exchange reaches the new one); the partner's does the same, and its
# hello at a multiple of AGAIN where no hello was taken before opens its stream there.
STALL_MS = 6000
AGAIN = 0x1000
ASIDE = 4                # repeats kept for the exchange to take later (_plain_ok)

# The states. HELLO: the hellos cross and the keys are agreed. CONFIRM: the code is on both
# screens, waiting for the players. KEYED: done, `hs.result()` holds the session key. FAILED:
# `error` says why (a version mismatch, a code refused). LEFT: the partner said "bye" (`error`).
HELLO = "handshake"
CONFIRM = "confirm"
KEYED = "keyed"
FAILED = "failed"
LEFT = "left"

# What frame() did with a frame: TAKEN reached the channel; the others were dropped before it.
TAKEN = 0
REFLECTED = 1            # our own frame come back (it would pass its CRC)
JAMMED = 2               # not this exchange's: forged, replayed, out of turn
MALFORMED = 3            # no frame, or no session message, at all (`refused` says why)


class PairHandshake(Machine):
    """confirm: the players compare a code (the radio; a cable needs none). lmk: the radio key
    of the pairing this unit remembers with the chosen unit, installed before its hello (None:
    in clear). lent: a unit lent as the bot, which also goes clear when its encrypted hello is
    never acknowledged (a group's host runs in clear)."""

    FINAL = (KEYED, FAILED, LEFT)

    def __init__(self, transport, peer_mac, name, mac, pairings, confirm, now, lmk=None,
                 lmk_pid=None, lent=False, start=(0, ())):
        self.t = transport
        self.peer_mac = peer_mac
        self.state = HELLO
        self.refused = None     # why the last malformed frame was refused
        self._mine = []         # CRC trailers of the handshake frames we sent
        self._alien = None      # (version, since): the partner seemed to speak another one
        self._bye = None        # [why, since]: an unbound "bye" at the partner's address
        self.lmk, self._lmk_pid, self._lmk_since = lmk, lmk_pid, now
        self._lent = lent
        secret = entropy.token(48)
        self.hs = Handshake(name, mac, secret[:16], secret[16:], pairings, confirm=confirm)
        self.ch = Channel(self._send, None, 0, now)
        ch = self.ch
        ch._snd_next = ch._snd_una = ch._snd_sent = self._start = start[0]
        self._taken = start[1]  # where earlier exchanges took the partner's hello (16 bits)
        if self._taken or self._start:  # started over: the partner's hello says where from
            ch._rcv_next = -1
        self._peer_start = ch._rcv_next
        self._step = [self.hs.state, now]  # the exchange's last step, and when
        self._over = False      # the partner's hello of an exchange it started over: so do we
        self._aside = []        # repeats whose number a forged message took (_plain_ok)
        for m in self.hs.start():
            self.ch.send(m)

    # ---- what the screen asks for ----------------------------------------------------------
    def code(self):
        return self.hs.sas

    def confirmed(self):
        """True once this unit's player said the code is the same (or none was asked)."""
        return self.hs._confirmed

    def confirm(self, same):
        for m in self.hs.confirm(same):
            self.ch.send(m)
        self._settle()

    def bye(self, why):
        """Our "bye" (BACK): bound to this exchange once the keys are agreed."""
        if self.hs.sas is not None:
            self.ch.send(encode_msg(BYE, why, self.hs.tag(BYE)))
        else:
            self.ch.send(encode_msg(BYE, why))

    # ---- frames in -------------------------------------------------------------------------
    def _send(self, data):
        # A reflected handshake frame would pass its CRC and look like the partner's: it
        # would take the partner's seq (its real frame then dropped as a replay) and ack our
        # frames for it. Remembering what we sent lets frame() drop it first.
        self._mine.append(bytes(data[-frame.CRC:]))
        del self._mine[:-MINE]
        self.t.send(self.peer_mac, data)

    def frame(self, data, keyed):
        """A frame from the chosen unit's address: TAKEN, REFLECTED, JAMMED or MALFORMED. A
        keyed one goes to the channel, which refuses it (its tag cannot check) and counts it."""
        if not keyed:
            if bytes(data[-frame.CRC:]) in self._mine:
                return REFLECTED
            try:
                ok = self._plain_ok(data)
                if not ok:
                    return JAMMED
                if ok is not True:
                    data = ok
            except (frame.FrameError, SessionError) as e:
                self.refused = str(e)
                return MALFORMED
        self.ours()
        self.ch.on_frame(data)
        self._take()
        return TAKEN

    def _plain_ok(self, data):
        """Whether an unkeyed frame from the chosen unit's address may reach the handshake's
        channel: acks, repeats of what it delivered (so it acks them again), and the next
        message only if the handshake takes it now (Handshake.wants). Anything else (a forged
        "ok", a replay of another exchange, a frame ahead of its turn) would take the partner's
        sequence number, and its real frame would then be dropped as a duplicate: it is
        dropped here instead, and the partner's real frame still comes (a frame ahead is
        sent again once its turn comes)."""
        ftype, _k, _sid, seq16, ack, payload = frame.parse(data)
        ch = self.ch
        nxt = ch._rcv_next
        seq = frame.unwrap(seq16, nxt)
        if seq != nxt and ftype == frame.DATA and not seq16 % AGAIN and \
                seq16 not in self._taken and _hello(payload):
            if self.hs.state == "hello" and self.hs.wants(payload):
                # the partner's hello, started over: its stream starts there. What it
                # acknowledges was guessed before it heard us: the channel takes none of it
                ch._rcv_next = self._peer_start = frame.unwrap(seq16, 0)
                return frame.encode(frame.DATA, 0, seq16, ch._snd_una, payload)
            if seq != self._peer_start and self.state == CONFIRM:
                self._over = True  # it stalled where we did not (our frame lost): start over
            return False
        if frame.unwrap(ack, ch._snd_una) > ch._snd_next:
            return False  # acknowledges what we never sent: another exchange's
        if ftype == frame.ACK:
            return True
        if seq < nxt:
            if ftype == frame.DATA and self.hs.state != "hello":
                # Perhaps the partner's message at a number a forged one took, which the
                # cumulative ack has covered (it is not sent again): a key commitment (the
                # handshake keeps several), or a message bound to this exchange, counts now
                # or once the exchange comes to it.
                aside = self._aside
                if payload not in aside:
                    aside.append(payload)
                    del aside[:-ASIDE]
                self._later()
            return True
        if seq != nxt or ftype != frame.DATA:
            return False
        why = bye_reason(payload)
        if why is not None:
            if self.hs.sas is None:  # kept aside (it would take the partner's seq): step()
                if self._bye is None:
                    self._bye = [why, None]
                return False
            return self._bound_bye(payload)
        return self.hs.wants(payload)

    def _later(self):
        """Feed the handshake the repeats kept aside that it takes now."""
        for m in self._aside:
            if self.hs.wants(m):
                self._aside.remove(m)
                for out in self.hs.on_message(m):
                    self.ch.send(out)
                self._settle()
                return self._later()

    def _bound_bye(self, m):
        """A "bye" on the handshake's channel after the keys: only with the partner's tag."""
        d = decode_msg(m)
        return len(d) == 3 and isinstance(d[2], bytes) and \
            crypto.equal(d[2], self.hs.tag(BYE, 1 - self.hs.role))

    def _take(self):
        """Feed the handshake what its channel delivered (after each frame too: the filter in
        _plain_ok asks the handshake about the next frame in the state the one before left)."""
        while not self.over():
            m = self.ch.recv()
            if m is None:
                break
            why = bye_reason(m)
            if why is not None:
                self._to(LEFT, why)
                break
            for out in self.hs.on_message(m):
                self.ch.send(out)
            self._settle()
            self._later()

    def _settle(self):
        st = self.hs.state
        if st == "failed":
            self._to(FAILED, self.hs.error)
        elif st == "done":
            self._to(KEYED)
        elif st == "confirm":
            self._to(CONFIRM)

    def stalled(self, now):
        """No step towards the code for STALL_MS: the connector starts over."""
        st = self._step
        if self.hs.state != st[0]:
            st[0], st[1] = self.hs.state, now
        return self._over or self.state == HELLO and \
            self.hs.sas is None and ticks_diff(now, st[1]) >= STALL_MS

    def again(self):
        """Where the exchange that starts over after this one numbers its frames from (past
        this one's), and where hellos were taken, which it takes no more."""
        taken = self._taken
        if self.hs._peer_nonce is not None:
            taken = taken + (self._peer_start & 0xFFFF,)
        return self._start + AGAIN, taken

    def ours(self):
        """The partner spoke in our version and goes on with the exchange: what said otherwise
        (a frame of another version, an unbound "bye") was not its."""
        self._alien = self._bye = None

    def other_version(self, version, now):
        """An intact frame of another version from the chosen unit's address. Its frames never
        reach the handshake (parse refuses them), so its hello cannot say so: step() names
        both versions if no hello of ours follows."""
        if self._alien is None and not self.over():
            self._alien = (version, now)

    # ---- the clock -------------------------------------------------------------------------
    def step(self, now, live=True):
        """live: the connector still pairs (not over, not ready)."""
        self.ch.poll(now)
        self._take()
        self._radio_key(now, live)
        al = self._alien
        if al is not None and not self.over():
            if self.hs.peer_version is not None:
                self._alien = None  # the partner's own hello settled it (a mismatch fails there)
            elif ticks_diff(now, al[1]) >= VERSION_GRACE_MS:
                self._to(FAILED, version_error(frame.VERSION, al[0]))
        b = self._bye
        if b is not None and not self.over():
            if b[1] is None:
                b[1] = now
            elif ticks_diff(now, b[1]) >= VERSION_GRACE_MS:
                self._to(LEFT, b[0])
        self._settle()

    # ESP-NOW's own encryption, a second layer under the channel's HMAC: with a partner both
    # units remember, the radio encrypts with the pairing's LMK from the first frame on. The
    # units agree without a switch-over: each installs the key only when it holds the pairing,
    # and drops it again when the partner's hello shows it does not (it forgot), or when
    # nothing at all is heard for LMK_DEAF_MS (a radio that refuses plain frames from an
    # encrypted peer). A first pairing runs in clear; the next session is encrypted.
    def _radio_key(self, now, live):
        hs = self.hs
        if self.lmk is None:
            return
        if hs.state not in ("done", "failed"):
            forgot = hs._peer_nonce is not None and (
                hs.record is None or hs.record.pid != self._lmk_pid)
            deaf = self.ch.stats["frames_received"] == 0 and \
                ticks_diff(now, self._lmk_since) > LMK_DEAF_MS
            if forgot or deaf:
                self._clear()
                return
        # A lent unit hailed by a group's host (which runs its links in clear) hears its hello
        # while our hello, encrypted, never reaches it: heard but not acknowledged for
        # LMK_DEAF_MS, it goes clear too (our hello goes again, in clear).
        if self._lent and live and self.ch.pending() and \
                ticks_diff(now, self._lmk_since) > LMK_DEAF_MS:
            self._clear()

    def _clear(self):
        self.lmk = None
        self.t.set_key(self.peer_mac, None)


def _hello(payload):
    try:
        return decode_msg(payload)[0] == "hi"
    except SessionError:
        return False
