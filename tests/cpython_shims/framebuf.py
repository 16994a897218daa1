# Pure-Python stand-in for MicroPython's built-in `framebuf`, for CPython tests ONLY (the firmware
# never ships it). It follows extmod/modframebuf.c pixel for pixel (same line, clipping, scroll and
# the same 8x8 font, dumped from the unix port), so a screen drawn under CPython matches the one the
# unix port draws; tests/hal/test_display.py cross-checks it against the real module.
import binascii

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_FONT = binascii.unhexlify(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f1400242e6b6b3a1200"
    "006333180c66630000327f4d4d777250000000040603010000001c3e63410000000041633e1c0000"
    "082a3e1c1c3e2a080008083e3e080800000080e06000000000080808080808000000006060000000"
    "00406030180c0602003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d07030000367f49497f3600"
    "00266f49497f3e000000002424000000000080e46400000000081c36634141000014141414141400"
    "00414163361c080000020351590f0600003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600"
    "003e7f4141632200007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100007f7f4040404000"
    "007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00007f7f09090f0600001e3f21617f5e00"
    "007f7f19396f460000266f49497b32000001017f7f010100003f7f40407f3f00001f3f60603f1f00"
    "007f7f3018307f7f0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c00000010306040000"
    "00207454547c7800007f7f44447c380000387c44446c280000387c44447f7f0000387c54545c5800"
    "00087e7f090302000098bca4a4fc7c00007f7f04047c78000000007d7d0000000040c08080fd7d00"
    "007f7f30386c44000000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c545474200004043f7f44642000"
    "003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c00446c38386c4400009cbca0a0fc7c00"
    "004464745c4c44000008083e77414100000000ffff000000004141773e0808000002030103020301"
    "aa55aa55aa55aa55"
)


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB):
            raise ValueError("cpython framebuf shim: only MONO formats")
        self._buf = buf
        self.width = width
        self.height = height
        self._format = format
        self._stride = width if stride is None else stride

    # -- per-format pixel access -------------------------------------------------------------

    def _set(self, x, y, c):
        b = self._buf
        if self._format == MONO_VLSB:
            i = (y >> 3) * self._stride + x
            bit = 1 << (y & 7)
        else:
            i = (x + y * self._stride) >> 3
            bit = 0x80 >> (x & 7) if self._format == MONO_HLSB else 1 << (x & 7)
        b[i] = (b[i] | bit) if c else (b[i] & ~bit & 0xFF)

    def _get(self, x, y):
        b = self._buf
        if self._format == MONO_VLSB:
            return (b[(y >> 3) * self._stride + x] >> (y & 7)) & 1
        v = b[(x + y * self._stride) >> 3]
        return (v >> (7 - (x & 7))) & 1 if self._format == MONO_HLSB else (v >> (x & 7)) & 1

    def _fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        for yy in range(y, yend):
            for xx in range(x, xend):
                self._set(xx, yy, c)

    # -- the public drawing API --------------------------------------------------------------

    def fill(self, c):
        if self._format == MONO_VLSB and self._stride == self.width:
            v = 0xFF if c else 0
            n = ((self.height + 7) >> 3) * self.width
            self._buf[0:n] = bytes([v]) * n
        else:
            self._fill_rect(0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(x, y, w, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def hline(self, x, y, w, c):
        self._fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._fill_rect(x, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1 if dx > 0 else -1
        dx = abs(dx)
        dy = y2 - y1
        sy = 1 if dy > 0 else -1
        dy = abs(dy)
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            px, py = (y1, x1) if steep else (x1, y1)
            if 0 <= px < self.width and 0 <= py < self.height:
                self._set(px, py, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < self.width and 0 <= y2 < self.height:
            self._set(x2, y2, c)

    def text(self, s, x0, y0, c=1):
        for ch in str(s).encode():
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < self.width:
                    col = _FONT[base + j]
                    y = y0
                    while col:
                        if col & 1 and 0 <= y < self.height:
                            self._set(x0, y, c)
                        col >>= 1
                        y += 1
                x0 += 1

    def blit(self, src, x, y, key=-1, palette=None):
        if isinstance(src, tuple):
            src = FrameBuffer(*src)
        if x >= self.width or y >= self.height or -x >= src.width or -y >= src.height:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self.width, x + src.width)
        y0end = min(self.height, y + src.height)
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = src._get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1

    def scroll(self, xstep, ystep):
        if xstep < 0:
            sx, xend, dx = 0, self.width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = self.width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, self.height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = self.height - 1, ystep - 1, -1
            if yend >= y:
                return
        while y != yend:
            x = sx
            while x != xend:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy


FrameBuffer1 = FrameBuffer
