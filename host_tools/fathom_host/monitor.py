# `fathom monitor`: a unit's console log, one timestamped line at a time, that waits through an
# unplug and picks the board up again when it comes back (same port path, e.g. by-id links).
# It holds the port with pyserial's exclusive lock, so `fathom deploy`, mpremote and esptool
# refuse it at once ("port P is busy") instead of losing half their replies to us.
import datetime
import os
import sys
import threading
import time

from fathom_host import FathomError, serialports

BAUD = 115200
REOPEN_S = 0.2       # how often to look for the port again after an unplug
READ_TIMEOUT_S = 0.1
QUIET_NOTE_S = 60.0  # silence after which we say again that we are listening


def add_arguments(p):
    p.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--baud", type=int, default=BAUD)


def run(args):
    serialports.check_port(args.port)
    try:
        follow(args.port, _flushed(sys.stdout), baud=args.baud)
    except KeyboardInterrupt:
        pass
    return 0


def _flushed(stream):
    def write(text):
        stream.write(text)
        stream.flush()   # a monitor piped to a file or `tee` shows each line as it comes
    return write


def stamp():
    return datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]


def follow(port, write, stop=None, baud=BAUD, quiet_note_s=QUIET_NOTE_S):
    """Write `HH:MM:SS.mmm line` for each console line until `stop` (a threading.Event) is set,
    with `-- ... --` lines for what the monitor itself sees: connected, waiting, unplugged."""
    import serial
    stop = stop or threading.Event()
    pending = b""
    s = None
    gone = False
    heard = time.monotonic()
    while not stop.is_set():
        if s is None:
            try:
                s = serial.serial_for_url(port, baudrate=baud, timeout=READ_TIMEOUT_S,
                                          exclusive=True)
            except (serial.SerialException, OSError):
                # Missing (unplugged) or held by another program: wait until we can have it.
                if not gone and not os.path.exists(port):
                    raise FathomError("no serial port %s" % port)
                time.sleep(REOPEN_S)
                continue
            write("%s -- %s %s at %d baud; waiting for the unit to print (it is silent while "
                  "idle: reset it to see its boot log; Ctrl-C quits) --\n"
                  % (stamp(), port, "is back" if gone else "connected", baud))
            gone = False
            heard = time.monotonic()
        try:
            data = s.read(4096)
            if not data and not os.path.exists(port):
                raise serial.SerialException("port vanished")
        except (serial.SerialException, OSError):
            s.close()
            s = None
            if pending:
                write("%s %s\n" % (stamp(), pending.decode(errors="replace")))
                pending = b""
            write("%s -- %s unplugged, waiting for it to come back --\n" % (stamp(), port))
            gone = True
            continue
        now = time.monotonic()
        if data:
            heard = now
        elif now - heard >= quiet_note_s:
            write("%s -- still connected to %s; nothing from the unit for %d s --\n"
                  % (stamp(), port, now - heard))
            heard = now
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            write("%s %s\n" % (stamp(), line.rstrip(b"\r").decode(errors="replace")))
    if s is not None:
        s.close()
