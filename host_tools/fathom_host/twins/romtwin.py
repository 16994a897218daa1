# A twin of the ESP32-family ROM serial bootloader: enough of Espressif's SLIP protocol for
# esptool (--no-stub) to detect the chip and write flash, with the flash kept in memory so a
# test can compare it byte for byte. Reached over a pty (/dev/pts/N) or socket://127.0.0.1:P.
import hashlib
import select
import socket
import struct
import threading
import zlib

from fathom_host.twins.ptywire import PtyWire

_SYNC = 0x08
_FLASH_BEGIN, _FLASH_DATA, _FLASH_END = 0x02, 0x03, 0x04
_MEM_BEGIN, _MEM_END, _MEM_DATA = 0x05, 0x06, 0x07
_WRITE_REG, _READ_REG = 0x09, 0x0A
_SPI_SET_PARAMS, _SPI_ATTACH, _CHANGE_BAUDRATE = 0x0B, 0x0D, 0x0F
_DEFL_BEGIN, _DEFL_DATA, _DEFL_END = 0x10, 0x11, 0x12
_SPI_FLASH_MD5, _GET_SECURITY_INFO = 0x13, 0x14

_OK = b"\x00\x00\x00\x00"            # ESP32-and-later ROMs answer with 4 status bytes
_INVALID = b"\x01\x05\x00\x00"       # ROM_INVALID_RECV_MSG: "I do not know this command"
_BAD_CHECKSUM = b"\x01\x07\x00\x00"
_SYNC_VAL = 0x20120707               # any non-zero value: a ROM, not the stub, is answering
_MAGIC_REG = 0x40001000
_ROM_BAUD = 115200
_XTAL_HZ = 40_000_000
_POLL_S = 0.05                       # how often the serving thread looks at the stop flag


class Chip:
    """One row of per-chip facts: what esptool reads to decide which chip it talks to."""

    def __init__(self, name, magic, chip_id, uart_clkdiv_reg, spi_base, usr2_offs, w0_offs,
                 regs=None):
        self.name = name
        self.regs = regs or {}          # fixed register values (calibration, eFuses)
        self.magic = magic              # value at 0x40001000 (chips without security info)
        self.chip_id = chip_id          # GET_SECURITY_INFO chip id, None = command unknown
        self.uart_clkdiv_reg = uart_clkdiv_reg
        self.spi_cmd_reg = spi_base     # SPI flash controller: esptool runs raw SPI commands
        self.spi_usr2_reg = spi_base + usr2_offs
        self.spi_w0_reg = spi_base + w0_offs


CHIPS = {
    # ESP32: esptool rescales the baud by the ROM's crystal estimate, RTC calibration value
    # (RTCCALICFG1 >> 7) * 15625 * CK8M eFuse (word 4) / 40: 1024 * 15625 * 100 / 40 = 40 MHz.
    "esp32": Chip("ESP32", 0x00F01D83, None, 0x3FF40014, 0x3FF42000, 0x24, 0x80,
                  {0x3FF5F06C: 1024 << 7, 0x3FF5A010: 100}),
    "esp32s3": Chip("ESP32-S3", 0x00000009, 9, 0x60000014, 0x60002000, 0x20, 0x58),
    "esp32c3": Chip("ESP32-C3", 0x1B31506F, 5, 0x60000014, 0x60002000, 0x20, 0x58),
}

_SPI_CMD_USR = 1 << 18               # "run the user command" bit; cleared when it is done
_SPI_ANSWERS = {                     # what the flash chip answers on MISO, by command byte
    0x9F: 0x1640EF,                  # RDID: Winbond W25Q32, 4 MB
    0x5A: 0x50444653,                # RDSFDP: the "SFDP" signature
}


def slip_encode(packet):
    return b"\xc0" + packet.replace(b"\xdb", b"\xdb\xdd").replace(b"\xc0", b"\xdb\xdc") + b"\xc0"


class SlipDecoder:
    def __init__(self):
        self._buf = bytearray()
        self._in = False

    def feed(self, data):
        """Bytes in, complete packets out."""
        out = []
        for b in data:
            if b == 0xC0:
                if self._in and self._buf:
                    out.append(bytes(self._buf).replace(b"\xdb\xdc", b"\xc0")
                               .replace(b"\xdb\xdd", b"\xdb"))
                self._buf = bytearray()
                self._in = True
            elif self._in:
                self._buf.append(b)
        return out


class RomTwin:
    """The bootloader of one chip with `flash_size` bytes of erased flash.

    start_pty() -> '/dev/pts/N' or start_socket() -> 'socket://127.0.0.1:P'; stop() when done.
    `flash` holds the flash contents; `commands` counts the commands seen, by opcode.
    """

    def __init__(self, chip="esp32", flash_size=4 * 1024 * 1024):
        if chip not in CHIPS:
            raise ValueError("unknown chip %r (known: %s)" % (chip, ", ".join(sorted(CHIPS))))
        self.chip = CHIPS[chip]
        self.flash = bytearray(b"\xff" * flash_size)
        self.commands = {}
        self.baud = _ROM_BAUD
        self._regs = {}
        self._write = None      # (offset, block size, decompressor or None)
        self._written = 0
        self._stop = threading.Event()
        self._thread = None
        self._wire = None
        self._server = None
        self.port = None

    # -- transports ---------------------------------------------------------------------------

    def start_pty(self):
        self._wire = PtyWire()
        self.port = self._wire.path
        self._thread = threading.Thread(target=self._serve_pty, daemon=True)
        self._thread.start()
        return self.port

    def start_socket(self):
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(1)
        self.port = "socket://127.0.0.1:%d" % self._server.getsockname()[1]
        self._thread = threading.Thread(target=self._serve_socket, daemon=True)
        self._thread.start()
        return self.port

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        if self._wire is not None:
            self._wire.close()
        if self._server is not None:
            self._server.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def _serve_pty(self):
        slip = SlipDecoder()
        while not self._stop.is_set():
            if not select.select([self._wire], [], [], _POLL_S)[0]:
                continue
            for pkt in slip.feed(self._wire.read()):
                self._wire.write(self.handle(pkt))

    def _serve_socket(self):
        while not self._stop.is_set():
            if not select.select([self._server], [], [], _POLL_S)[0]:
                continue
            conn, _ = self._server.accept()
            slip = SlipDecoder()
            with conn:
                while not self._stop.is_set():
                    if not select.select([conn], [], [], _POLL_S)[0]:
                        continue
                    data = conn.recv(4096)
                    if not data:
                        break
                    for pkt in slip.feed(data):
                        conn.sendall(self.handle(pkt))

    # -- the protocol -------------------------------------------------------------------------

    def flash_image(self, offset, size):
        return bytes(self.flash[offset:offset + size])

    def handle(self, pkt):
        """One request packet in, the SLIP-framed response bytes out (b'' for none)."""
        if len(pkt) < 8 or pkt[0] != 0x00:
            return b""
        _, op, size, chk = struct.unpack("<BBHI", pkt[:8])
        data = pkt[8:8 + size]
        self.commands[op] = self.commands.get(op, 0) + 1
        handler = _HANDLERS.get(op)
        if handler is None:
            return self._reply(op, 0, _INVALID)
        return handler(self, op, data, chk)

    @staticmethod
    def _reply(op, val, body):
        return slip_encode(struct.pack("<BBHI", 1, op, len(body), val) + body)

    def _sync(self, op, data, chk):
        # The ROM answers a SYNC eight times; esptool reads the extra seven.
        return self._reply(op, _SYNC_VAL, _OK) * 8

    def _read_reg(self, op, data, chk):
        (addr,) = struct.unpack("<I", data[:4])
        return self._reply(op, self._reg(addr), _OK)

    def _reg(self, addr):
        if addr == _MAGIC_REG:
            return self.chip.magic
        if addr == self.chip.uart_clkdiv_reg:
            # esptool estimates the crystal as baud * divider: make it a 40 MHz crystal.
            return _XTAL_HZ // self.baud
        return self._regs.get(addr, self.chip.regs.get(addr, 0))

    def _write_reg(self, op, data, chk):
        for i in range(0, len(data) - 15, 16):
            addr, value, mask, _ = struct.unpack("<IIII", data[i:i + 16])
            self._regs[addr] = (self._regs.get(addr, 0) & ~mask) | (value & mask)
            if addr == self.chip.spi_cmd_reg and self._regs[addr] & _SPI_CMD_USR:
                command = self._regs.get(self.chip.spi_usr2_reg, 0) & 0xFF
                self._regs[self.chip.spi_w0_reg] = _SPI_ANSWERS.get(command, 0)
                self._regs[addr] &= ~_SPI_CMD_USR
        return self._reply(op, 0, _OK)

    def _security_info(self, op, data, chk):
        if self.chip.chip_id is None:
            return self._reply(op, 0, _INVALID)
        body = struct.pack("<IBBBBBBBBII", 0, 0, 0, 0, 0, 0, 0, 0, 0, self.chip.chip_id, 0)
        return self._reply(op, 0, body + _OK)

    def _ok(self, op, data, chk):
        return self._reply(op, 0, _OK)

    def _change_baud(self, op, data, chk):
        (self.baud,) = struct.unpack("<I", data[:4])
        return self._reply(op, 0, _OK)

    def _begin(self, op, data, chk):
        erase_size, _blocks, block_size, offset = struct.unpack("<IIII", data[:16])
        if offset + erase_size > len(self.flash):
            return self._reply(op, 0, b"\x01\x06\x00\x00")
        # The ROM erases the whole region up front (--erase relies on this with 0 blocks).
        self.flash[offset:offset + erase_size] = b"\xff" * erase_size
        inflate = zlib.decompressobj() if op == _DEFL_BEGIN else None
        self._write = (offset, block_size, inflate)
        self._written = 0
        return self._reply(op, 0, _OK)

    def _data(self, op, data, chk):
        size, seq, _, _ = struct.unpack("<IIII", data[:16])
        block = data[16:16 + size]
        if self._write is None or len(block) != size:
            return self._reply(op, 0, _INVALID)
        check = 0xEF
        for b in block:
            check ^= b
        if check != chk:
            return self._reply(op, 0, _BAD_CHECKSUM)
        offset, block_size, inflate = self._write
        if inflate is not None:
            block = inflate.decompress(block)
            at = offset + self._written
        else:
            at = offset + seq * block_size
        self.flash[at:at + len(block)] = block
        self._written += len(block)
        return self._reply(op, 0, _OK)

    def _end(self, op, data, chk):
        self._write = None
        return self._reply(op, 0, _OK)

    def _md5(self, op, data, chk):
        addr, size, _, _ = struct.unpack("<IIII", data[:16])
        digest = hashlib.md5(self.flash[addr:addr + size]).hexdigest().encode()
        return self._reply(op, 0, digest + _OK)


_HANDLERS = {
    _SYNC: RomTwin._sync,
    _READ_REG: RomTwin._read_reg,
    _WRITE_REG: RomTwin._write_reg,
    _GET_SECURITY_INFO: RomTwin._security_info,
    _SPI_SET_PARAMS: RomTwin._ok,
    _SPI_ATTACH: RomTwin._ok,
    _CHANGE_BAUDRATE: RomTwin._change_baud,
    _FLASH_BEGIN: RomTwin._begin,
    _FLASH_DATA: RomTwin._data,
    _FLASH_END: RomTwin._end,
    _DEFL_BEGIN: RomTwin._begin,
    _DEFL_DATA: RomTwin._data,
    _DEFL_END: RomTwin._end,
    _SPI_FLASH_MD5: RomTwin._md5,
}
