# Serial port checks shared by flash, deploy and monitor: a missing or busy port is a clear
# one-line error before esptool or mpremote get to print a traceback about it.
import errno
import os
import re

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


def _open_files():
    """(pid, fd, path) of every file descriptor /proc lets us see, other than ours. readlink,
    not realpath: one system call a descriptor, as a loaded machine has thousands."""
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    except OSError:
        return []
    found = []
    for pid in pids:
        fd_dir = "/proc/%s/fd/" % pid
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                found.append((pid, fd, os.readlink(fd_dir + fd)))
            except OSError:
                continue
    return found


def _device_side(target, files):
    """Pids holding the master end of the pty `target`: the board's side (a twin, QEMU), which
    keeps the port open by design and is not a program competing for it."""
    m = re.match(r"/dev/pts/(\d+)$", target)
    if not m:
        return set()
    found = set()
    for pid, fd, path in files:
        if path in ("/dev/ptmx", "/dev/pts/ptmx"):
            try:
                with open("/proc/%s/fdinfo/%s" % (pid, fd)) as f:
                    if re.search(r"^tty-index:\s*%s$" % m.group(1), f.read(), re.M):
                        found.add(pid)
            except OSError:
                continue
    return found


def describe(pid):
    """'1234 (fathom monitor --port /dev/ttyUSB0)': what a user recognises, not 'python3'."""
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        argv = []
    if len(argv) > 1 and os.path.basename(argv[0]).startswith("python") \
            and not argv[1].startswith("-"):
        argv = argv[1:]          # `python .venv/bin/fathom monitor`: the script is the program
    if not argv:
        try:
            with open("/proc/%s/comm" % pid) as f:
                argv = [f.read().strip()]
        except OSError:
            argv = ["?"]
    text = " ".join([os.path.basename(argv[0])] + argv[1:])
    return "%s (%s)" % (pid, text if len(text) <= 60 else text[:57] + "...")


def holders(port):
    """'pid (command line)' of other processes with the port open (Linux /proc; empty
    elsewhere). On a pty the process at the board's end is left out."""
    target = os.path.realpath(port)
    files = _open_files()
    device = _device_side(target, files)
    pids = []
    for pid, _fd, path in files:
        if path == target and pid not in device and pid not in pids:
            pids.append(pid)
    return [describe(pid) for pid in pids]


def busy(port, who):
    return FathomError("port %s is busy: another program has it open (pid %s); close it and try "
                       "again" % (port, ", ".join(who)) if who else
                       "port %s is busy: another program has it open (a serial monitor, "
                       "mpremote, screen?); close it and try again" % port)


def check_port(port):
    """Raise FathomError when the port does not exist or another program holds it (with the
    lock, or without it: /proc shows every open file)."""
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
            raise busy(port, holders(port))
        if getattr(e, "errno", None) == errno.EACCES:
            raise FathomError("no permission to open %s: add yourself to the dialout group "
                              "(sudo usermod -aG dialout $USER, then log in again)" % port)
        raise FathomError("cannot open %s: %s" % (port, text))
    s.close()
    # A program that opened the port without the lock (a monitor, screen, cat) still takes the
    # bytes meant for us: refuse rather than talk to a unit we only hear half of.
    who = holders(port)
    if who:
        raise busy(port, who)
