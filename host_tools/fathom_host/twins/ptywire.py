# A pseudo-terminal pair that looks like a USB-serial port to pyserial (shared by the twins).
import errno
import os
import select
import tty

STALL_S = 2.0  # seconds a full port may stay full before output is dropped


class PtyWire:
    """The device end (master) of a pty; clients open `.path` like /dev/ttyUSB0.

    The twin keeps the client end open too, so reads never see EIO between two client sessions
    and the termios settings a client makes survive until the next one changes them.
    """

    def __init__(self):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        os.set_blocking(self.master, False)

    def fileno(self):
        return self.master

    def read(self, n=4096):
        try:
            return os.read(self.master, n)
        except BlockingIOError:
            return b""
        except OSError as e:
            if e.errno == errno.EIO:  # no client has the port open
                return b""
            raise

    def write(self, data):
        """Write, waiting a while for a slow reader; a USB-serial bridge drops what nobody
        reads, and so do we after STALL_S (else a unit printing with no client would hang)."""
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                if not select.select([], [self.master], [], STALL_S)[1]:
                    return
                continue
            except OSError:
                return
            view = view[n:]

    def close(self):
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self._slave = -1
