# Serial port checks shared by flash, deploy and monitor: a missing or busy port is a clear
# one-line error before esptool or mpremote get to print a traceback about it.
import errno
import os

from fathom_host import FathomError


def is_url(port):
    """pyserial URLs (socket://, rfc2217://) reach twins and remote boards; no file to check."""
    return "://" in port


def is_pty(port):
    """A pseudo-terminal (a twin, QEMU): its modem lines cannot reset anything."""
    return os.path.realpath(port).startswith("/dev/pts/")


def known_ports():
    try:
        from serial.tools import list_ports
        return [p.device for p in list_ports.comports()]
    except Exception:  # noqa: BLE001 - a hint only; never fail the error message itself
        return []


def holders(port):
    """'pid (name)' of other processes with the port open (Linux /proc; empty elsewhere)."""
    target = os.path.realpath(port)
    found = []
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    except OSError:
        return found
    for pid in pids:
        fd_dir = "/proc/%s/fd" % pid
        try:
            for fd in os.listdir(fd_dir):
                if os.path.realpath(os.path.join(fd_dir, fd)) == target:
                    with open("/proc/%s/comm" % pid) as f:
                        found.append("%s (%s)" % (pid, f.read().strip()))
                    break
        except OSError:
            continue
    return found


def check_port(port):
    """Raise FathomError when the port does not exist or another program holds it."""
    if is_url(port):
        return
    if not os.path.exists(port):
        seen = known_ports()
        raise FathomError("no serial port %s: is the board plugged in (with a data cable)? %s"
                          % (port, ("ports seen: " + ", ".join(seen)) if seen
                             else "no serial ports seen"))
    import serial
    try:
        s = serial.Serial(port, exclusive=True)
    except serial.SerialException as e:
        text = str(e)
        if "exclusively lock" in text or getattr(e, "errno", None) in (errno.EBUSY,
                                                                      errno.EAGAIN):
            who = holders(port)
            raise FathomError("port %s is busy: another program has it open%s; close it "
                              "(serial monitor, mpremote, screen?) and try again"
                              % (port, (" (pid " + ", ".join(who) + ")") if who else ""))
        if getattr(e, "errno", None) == errno.EACCES:
            raise FathomError("no permission to open %s: add yourself to the dialout group "
                              "(sudo usermod -aG dialout $USER, then log in again)" % port)
        raise FathomError("cannot open %s: %s" % (port, text))
    s.close()
