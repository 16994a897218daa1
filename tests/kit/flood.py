# A bystander's radio on the emulated air (fathom_host/emulator/ether.py): a third radio that
# floods two units with forged and replayed frames while they pair or play. It is a real client
# of the ether, as a unit is (its own TCP connection, its own address), whose hello asks to
# forge: it may put any address on a frame, as a radio whose MAC is set by software can. It
# hears everything the units send (the ether's capture: a radio in range hears every packet)
# and sends, RATE a second, one of:
#   random    random bytes, as from one unit to the other
#   replay    a frame one unit sent, again, to its receiver or to its sender
#   reflect   a frame a unit sent, back to that unit as from the one it went to
#   flip      a frame one unit sent with one to three bits flipped
#   beacon    a beacon from a made-up unit, broadcast (for a game, so it lists as an invite)
#   clear     a plain session message ("ok", "no", "hi", "pc", "bye") at the sequence number
#             the receiver waits for, as from the other unit
#   next      a frame of the next protocol version (intact CRC), as from the other unit
import json
import random
import socket
import threading
import time

from fathom.codec import encode
from fathom.link import frame
from fathom.link.crypto import crc32
from fathom.link.session import beacon
from fathom_host.emulator.ether import BROADCAST, mac_for_unit

KINDS = ("random", "replay", "reflect", "flip", "beacon", "clear", "next")
RATE = 300          # frames a second
FLOOD_MAC = b"\x02\x00\x00\x00\x00\x63"
FAKES = 6           # made-up units whose beacons it sends (a list a player can still read)


class Flooder:
    """Floods units `victims` (their indexes on the ether) from a started Ether. start()/stop(),
    or use it as a context manager; `sent` counts each kind."""

    def __init__(self, ether, victims=(0, 1), rate=RATE, seed=0, kinds=KINDS, game="ashtapada"):
        self.ether = ether
        self.units = list(victims)
        self.victims = [mac_for_unit(v) for v in victims]
        self.rate = rate
        self.rng = random.Random("flood:%s" % seed)
        self.kinds = kinds
        self.game = game
        self.sent = dict.fromkeys(kinds, 0)
        self.sock = None
        self._stop = threading.Event()
        self._thread = None

    # ---- life cycle ----------------------------------------------------------------------
    def start(self):
        host, _, port = self.ether.address.rpartition(":")
        self.sock = socket.create_connection((host, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._put(b"H", json.dumps({"kind": "espnow", "unit": "flood", "mac": FLOOD_MAC.hex(),
                                    "forge": True}).encode())
        self._thread = threading.Thread(target=self._run, name="flooder", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def total(self):
        return sum(self.sent.values())

    # ---- the radio -----------------------------------------------------------------------
    def _put(self, typ, body):
        msg = typ + body
        self.sock.sendall(len(msg).to_bytes(2, "big") + msg)

    def _send(self, src, dst, data):
        self._put(b"F", bytes(src) + bytes(dst) + b"\x00" + bytes(data[:frame.MAX_FRAME]))

    def _drain(self):
        """Read and forget what the ether sends back (send statuses, broadcasts), so its
        buffer for this radio never fills."""
        self.sock.setblocking(False)
        try:
            while self.sock.recv(65536):
                pass
        except (BlockingIOError, OSError):
            pass
        finally:
            self.sock.setblocking(True)

    def _run(self):
        period = 1.0 / self.rate
        due = time.monotonic()
        while not self._stop.is_set():
            due += period
            try:
                self.forge()
                self._drain()
            except OSError:
                return  # the ether stopped
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            elif wait < -1.0:
                due = time.monotonic()  # fell behind (a loaded machine): no burst to catch up

    # ---- the frames ----------------------------------------------------------------------
    def _heard(self):
        """A frame one victim sent over ESP-NOW, or None while none was heard."""
        cap = self.ether.capture
        for _ in range(8):
            if not cap:
                return None
            s = cap[len(cap) - 1 - self.rng.randrange(min(len(cap), 400))]
            if getattr(s, "link", None) == "espnow" and s.src in self.units:
                return s
        return None

    def forge(self):
        kind = self.kinds[self.rng.randrange(len(self.kinds))]
        to = self.victims[self.rng.randrange(len(self.victims))]
        other = [m for m in self.victims if m != to][0]
        heard = self._heard()
        if kind in ("replay", "reflect", "flip") and heard is None:
            kind = "random"
        to_of = other if heard is None or heard.dst not in self.units else mac_for_unit(heard.dst)
        if kind == "random":
            data = bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(1, 250)))
            self._send(other, to, data)
        elif kind == "replay":
            src = mac_for_unit(heard.src)
            self._send(src, to_of if self.rng.random() < 0.5 else src, heard.data)
        elif kind == "reflect":
            self._send(to_of, mac_for_unit(heard.src), heard.data)
        elif kind == "flip":
            data = bytearray(heard.data)
            for _ in range(self.rng.randint(1, 3)):
                data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
            self._send(mac_for_unit(heard.src), to_of, bytes(data))
        elif kind == "beacon":
            fake = b"\x02\x00\x00\x00\x01" + bytes((self.rng.randrange(FAKES),))
            self._send(fake, BROADCAST, beacon("X%02X" % fake[5], fake, game=self.game))
        elif kind == "clear":
            what = ["ok", "no", "hi", "pc", "bye"][self.rng.randrange(5)]
            parts = {"ok": ["ok"], "no": ["no"], "bye": ["bye", "left"],
                     "pc": ["pc", self.rng.getrandbits(256).to_bytes(32, "big")],
                     "hi": ["hi", frame.VERSION, "X", other,
                            self.rng.getrandbits(128).to_bytes(16, "big"), []]}[what]
            seq = self.rng.randrange(4)
            self._send(other, to, frame.encode(frame.DATA, 0, seq, 0, encode(parts), None, 0))
        else:
            self._send(other, to, next_version(
                heard.data if heard is not None and self.rng.random() < 0.5 else
                beacon("X", other, game=self.game)))
        self.sent[kind] += 1


def next_version(data):
    """`data` as a frame of the next protocol version: its version nibble one up, its CRC
    intact (so it reads as an honest unit of that version)."""
    body = bytearray(data[:-frame.CRC] if len(data) > frame.CRC else data)
    body[0] = ((frame.VERSION + 1) << 4) | (body[0] & 0x0F)
    return bytes(body) + crc32(bytes(body)).to_bytes(4, "big")


