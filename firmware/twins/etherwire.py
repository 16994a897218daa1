# A unit's connection to the emulator's ether (host_tools/fathom_host/emulator/ether.py), shared
# by the espnow and UART twins. Messages are length-prefixed: 2-byte big-endian length, type, body.
# Without FATHOM_ETHER the unit is alone: nothing is connected and nothing ever arrives.
import select
import socket

from unitenv import env, mac_for_unit, unit_index  # noqa: F401  (the twins read them here)

try:
    import json
except ImportError:  # pragma: no cover
    import ujson as json

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

_RETRY_MS = 1000  # after losing the ether, try again at most this often


class Wire:
    def __init__(self, hello):
        self.hello = hello
        self.sock = None
        self._poll = None
        self._buf = b""
        # read into one buffer made at start, as the radio's own receive ring is: a fresh
        # 1 KB block per read would be the twin's allocation, not the hardware's, and under a
        # 96 KB heap it would fail where a unit does not
        self._rx = bytearray(256)
        self._rxv = memoryview(self._rx)
        self._last_try = None
        self.connect()

    def connected(self):
        return self.sock is not None

    def connect(self):
        addr = env("FATHOM_ETHER")
        if addr is None or self.sock is not None:
            return
        now = ticks_ms()
        if self._last_try is not None and ticks_diff(now, self._last_try) < _RETRY_MS:
            return
        self._last_try = now
        host, _, port = addr.rpartition(":")
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.connect(socket.getaddrinfo(host or "127.0.0.1", int(port))[0][-1])
            s.setsockopt(6, 1, 1)  # IPPROTO_TCP, TCP_NODELAY: packets must not wait for Nagle
        except OSError:
            s.close()
            return
        self.sock = s
        if hasattr(s, "readinto"):
            # MicroPython: a stream's readinto waits for a full buffer unless the socket
            # does not block (then it returns what is there); CPython's recv_into never waits
            s.setblocking(False)
            self._read = s.readinto
        else:
            self._read = s.recv_into
        self._buf = b""
        self._poll = select.poll()
        self._poll.register(s, select.POLLIN)
        self.put(b"H", json.dumps(self.hello).encode())

    def close(self):
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None
        self._poll = None

    def rehello(self, hello):
        """Tell the ether about a changed MAC or channel."""
        self.hello = hello
        if self.sock is not None:
            self.put(b"H", json.dumps(hello).encode())

    def put(self, typ, body):
        if self.sock is None:
            self.connect()
            if self.sock is None:
                return False
        msg = typ + body
        data = len(msg).to_bytes(2, "big") + msg
        try:
            # write() until all is sent: the unix port's plain socket has no sendall()
            while data:
                n = self.sock.write(data)
                data = data[n:] if n else data
        except OSError:
            self.close()
            return False
        return True

    def get(self, timeout_ms=0):
        """Messages that have arrived, as (type, body); waits up to timeout_ms for the first."""
        if self.sock is None:
            self.connect()
            if self.sock is None:
                return []
        out = []
        start = ticks_ms()
        while True:
            if out or timeout_ms == 0:
                wait = 0
            elif timeout_ms < 0:
                wait = -1
            else:
                wait = max(0, timeout_ms - ticks_diff(ticks_ms(), start))
            if not self._poll.poll(wait):
                if wait == 0 or out or timeout_ms < 0:
                    break
                if ticks_diff(ticks_ms(), start) >= timeout_ms:
                    break
                continue
            try:
                n = self._read(self._rx)
            except OSError:
                n = 0
            if n is None:  # readable, yet nothing by the time we read: poll again
                continue
            if not n:
                self.close()
                break
            self._buf += self._rxv[:n]
            self._split(out)
        return out

    def _split(self, out):
        buf = self._buf
        i = 0
        while len(buf) - i >= 2:
            n = (buf[i] << 8) | buf[i + 1]
            if len(buf) - i - 2 < n:
                break
            if n:
                out.append((buf[i + 2:i + 3], buf[i + 3:i + 2 + n]))
            i += 2 + n
        self._buf = buf[i:]
