# UART transport: frames wrapped by uartframe (COBS + CRC32) on a point-to-point cable.
# There is no addressing on a cable, so the peer is always None.
from fathom.link import uartframe

# The driver's buffers, both larger than the ESP32's defaults (256 each). One wrapped frame is
# up to uartframe.MAX_WIRE (258) bytes: with the default txbuf, write() of a full frame waits
# for the line to drain (~20 ms at 115200 baud) and stalls the app loop; room for two frames
# lets a retransmission burst queue behind the frame still going out.
_TXBUF = 2 * uartframe.MAX_WIRE
_RXBUF = 1024  # a few full frames arriving between two polls


class UartLink:
    def __init__(self, uart_cfg, uart=None):
        """uart_cfg is the board profile's "uart" entry: {"id", "tx", "rx", "baud"}.

        `uart` lets a caller hand in an already opened UART (tests, shared ports)."""
        if uart is None:
            from machine import UART

            try:
                uart = UART(uart_cfg.get("id", 1), baudrate=uart_cfg.get("baud", 115200),
                            tx=uart_cfg["tx"], rx=uart_cfg["rx"], txbuf=_TXBUF, rxbuf=_RXBUF)
            except KeyError as missing:
                raise ValueError("the board profile's uart entry needs %s" % missing)
        self._u = uart
        # Bytes on the cable end the loop's rest (hal/rest.py polls the port), so what listens
        # to it may let the loop rest as over a radio with irq.
        from fathom.hal import rest
        rest.watch(uart)
        self.irq = True
        self.mac = None
        self.mtu = uartframe.MAX_FRAME
        self._d = uartframe.Deframer()
        self._q = []
        self.tx = self.rx = self.tx_bytes = self.rx_bytes = 0

    @property
    def stats(self):
        d = self._d
        return {"tx": self.tx, "rx": self.rx, "tx_bytes": self.tx_bytes,
                "rx_bytes": self.rx_bytes, "bad_crc": d.bad_crc, "malformed": d.malformed,
                "too_long": d.too_long}

    def send(self, peer, data):
        wire = uartframe.wrap(data)
        self._u.write(wire)
        self.tx += 1
        self.tx_bytes += len(wire)
        return True

    def recv(self):
        """(None, frame) if a whole frame has arrived, else None; never blocks."""
        if not self._q:
            n = self._u.any()
            if n:
                chunk = self._u.read(n)
                if chunk:
                    self.rx_bytes += len(chunk)
                    self._q = self._d.feed(chunk)
        if not self._q:
            return None
        self.rx += 1
        return None, self._q.pop(0)

    def close(self):
        from fathom.hal import rest
        rest.unwatch(self._u)
        try:
            self._u.deinit()
        except (AttributeError, OSError):
            pass
