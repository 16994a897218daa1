# `fathom monitor`: a unit's console log, one timestamped line at a time, that waits through an
# unplug and picks the board up again when it comes back (same port path, e.g. by-id links).
import datetime
import os
import sys
import threading
import time

from fathom_host import FathomError, serialports

BAUD = 115200
REOPEN_S = 0.2       # how often to look for the port again after an unplug
READ_TIMEOUT_S = 0.1


def add_arguments(p):
    p.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--baud", type=int, default=BAUD)


def run(args):
    serialports.check_port(args.port)
    try:
        follow(args.port, sys.stdout.write, baud=args.baud)
    except KeyboardInterrupt:
        pass
    return 0


def stamp():
    return datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]


def follow(port, write, stop=None, baud=BAUD):
    """Write `HH:MM:SS.mmm line` for each console line until `stop` (a threading.Event) is set."""
    import serial
    stop = stop or threading.Event()
    pending = b""
    s = None
    gone = False
    while not stop.is_set():
        if s is None:
            try:
                s = serial.serial_for_url(port, baudrate=baud, timeout=READ_TIMEOUT_S)
            except (serial.SerialException, OSError):
                if not gone and not os.path.exists(port):
                    raise FathomError("no serial port %s" % port)
                time.sleep(REOPEN_S)
                continue
            if gone:
                write("%s -- %s is back --\n" % (stamp(), port))
                gone = False
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
            write("%s -- %s unplugged, waiting for it --\n" % (stamp(), port))
            gone = True
            continue
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            write("%s %s\n" % (stamp(), line.rstrip(b"\r").decode(errors="replace")))
    if s is not None:
        s.close()
