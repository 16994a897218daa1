# Host twin of machine.UART: one end of a byte pipe through the emulator's ether.
# FATHOM_UART="pipe:end" (end 0 or 1) names the cable; without it a unit with FATHOM_ETHER set
# plugs into pipe "uart" at end FATHOM_UNIT, so two units are cabled by default. Faults happen
# in the ether; here, as on the ESP32, bytes that overflow the receive buffer are lost.
import io

import etherwire

_HW_FIFO = 128  # the UART's own FIFO holds this much beyond the driver's rxbuf


class UART(io.IOBase):
    INV_TX = 1
    INV_RX = 2
    INV_RTS = 4
    INV_CTS = 8
    RTS = 1
    CTS = 2

    def __init__(self, id, baudrate=115200, bits=8, parity=None, stop=1, **kw):
        self.id = id
        self._wire = None
        self._buf = b""
        self.overflows = 0  # bytes lost to a full receive buffer (not in the real API)
        self.received = 0  # bytes the cable brought, overflows included (nor is this)
        self.init(baudrate, bits, parity, stop, **kw)

    def init(self, baudrate=115200, bits=8, parity=None, stop=1, *, tx=None, rx=None,
             rts=None, cts=None, txbuf=256, rxbuf=256, timeout=0, timeout_char=0, invert=0,
             flow=0):
        if bits not in (5, 6, 7, 8) or parity not in (None, 0, 1) or stop not in (1, 2):
            raise ValueError("invalid UART format")
        if baudrate <= 0:
            raise ValueError("invalid baudrate")
        self.baudrate = baudrate
        self.tx = tx
        self.rx = rx
        self.rxbuf = max(rxbuf, 257)  # the ESP32 driver insists on more than its FIFO
        self.timeout = timeout
        self.timeout_char = timeout_char
        if self._wire is None:
            pipe = etherwire.env("FATHOM_UART")
            if pipe is None:
                if etherwire.unit_index() > 1:
                    return  # a cable has two ends: further units have nothing plugged in
                pipe = "uart:%d" % etherwire.unit_index()
            name, _, end = pipe.rpartition(":")
            self._wire = etherwire.Wire({"kind": "uart", "unit": etherwire.unit_index(),
                                         "pipe": name, "end": int(end), "baud": baudrate})

    def deinit(self):
        if self._wire is not None:
            self._wire.close()
        self._wire = None
        self._buf = b""

    def _pump(self, timeout_ms=0):
        if self._wire is None:
            return
        for typ, body in self._wire.get(timeout_ms):
            if typ != b"B":
                continue
            self.received += len(body)
            room = self.rxbuf + _HW_FIFO - len(self._buf)
            if len(body) > room:
                self.overflows += len(body) - max(room, 0)
                body = body[:max(room, 0)]
            self._buf += body

    def any(self):
        self._pump(0)
        return len(self._buf)

    def read(self, nbytes=None):
        self._pump(0)
        if not self._buf and self.timeout:
            self._pump(self.timeout)
        if not self._buf:
            return None
        n = len(self._buf) if nbytes is None else nbytes
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def readinto(self, buf, nbytes=None):
        n = len(buf) if nbytes is None else min(nbytes, len(buf))
        got = self.read(n)
        if got is None:
            return None
        buf[:len(got)] = got
        return len(got)

    def readline(self):
        self._pump(0)
        i = self._buf.find(b"\n")
        if i < 0:
            return self.read()
        return self.read(i + 1)

    def write(self, buf):
        data = bytes(buf)
        if self._wire is not None and data:
            for i in range(0, len(data), 4096):
                self._wire.put(b"W", data[i:i + 4096])
        return len(data)

    def ioctl(self, req, arg):
        """select.poll on the port, as on a board: readable while bytes wait (hal/rest.py
        sleeps on it). The cable is looked at each time poll asks (every ms on the unix port,
        every FreeRTOS tick on an ESP32)."""
        if req == 3:  # MP_STREAM_POLL
            self._pump(0)
            return arg & 1 if self._buf else 0
        return -1

    def flush(self):
        return None

    def txdone(self):
        return True

    def sendbreak(self):
        return None
