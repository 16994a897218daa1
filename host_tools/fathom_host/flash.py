# `fathom flash`: write a MicroPython image to a board with esptool, at the offset and baud of
# its board profile. esptool runs as a subprocess (its real command line, its own progress);
# we check the port first and turn its fatal errors into one clear line.
import os
import queue
import re
import subprocess
import sys
import threading

from fathom_host import FathomError, hostboard, serialports

ROM_BAUD = 115200
_FATAL = re.compile(r"A fatal error occurred: (.*)")
_PROGRESS = re.compile(r"^Writing at 0x[0-9a-f]+ .*?(\d+)\.\d%")
_PROGRESS_STEP = 10  # percent between progress lines we pass on
# esptool has its own timeouts on every exchange; this is the net under them: silence this long
# (a ROM erasing a large region before it writes is the slowest honest case) ends the run.
STALL_S = 120.0


def add_arguments(p):
    p.add_argument("--board", required=True, help="board profile name (boards/NAME.json)")
    p.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--firmware", help="MicroPython .bin (default: the local cache)")
    p.add_argument("--erase", action="store_true", help="erase the whole flash first")
    p.add_argument("--baud", type=int, help="override the profile's flash baud")


def run(args):
    profile = hostboard.load(args.board)
    chip = profile["chip"]
    if chip == "host":
        raise FathomError("board %r is the emulator: nothing to flash (run `fathom emu`)"
                          % args.board)
    image = args.firmware or str(hostboard.cached_firmware(profile["name"]))
    if not os.path.isfile(image):
        if args.firmware:
            raise FathomError("no firmware file %s" % image)
        raise FathomError("no MicroPython image for %s in the cache: download the %s build "
                          "from %s and save it as %s (or pass --firmware FILE)"
                          % (profile["name"], chip.upper(), hostboard.firmware_hint(profile),
                             image))
    serialports.check_port(args.port)
    flash(args.port, chip, image, hostboard.flash_offset(profile),
          args.baud or hostboard.flash_baud(profile), erase=args.erase,
          erase_size=hostboard.flash_size(profile))
    print("fathom: flashed %s to %s; next: fathom deploy --board %s --port %s"
          % (os.path.basename(image), args.port, args.board, args.port))
    return 0


def reset_modes(port):
    """esptool's --before/--after: a pty or socket has no DTR/RTS wired to EN and GPIO0."""
    if serialports.is_pty(port) or serialports.is_url(port):
        return "no-reset", "no-reset"
    return "default-reset", "hard-reset"


def flash(port, chip, image, offset, baud, erase=False, erase_size=hostboard.DEFAULT_FLASH_SIZE,
          out=None):
    out = out or sys.stdout
    before, after = reset_modes(port)
    if erase:
        _erase(port, chip, before, erase_size, out)
    # --no-stub: the ROM loader alone, which both real chips and the ROM twin speak.
    cmd = [sys.executable, "-u", "-m", "esptool", "--chip", chip, "--port", port,
           "--baud", str(baud), "--before", before, "--after", after, "--no-stub",
           "write-flash", "--compress", "--flash-mode", "keep", "--flash-freq", "keep",
           "--flash-size", "keep", "0x%x" % offset, image]
    out.write("fathom: writing %s to %s at 0x%x (%s, %d baud)\n"
              % (os.path.basename(image), port, offset, chip, baud))
    _run_esptool(cmd, out)


def _run_esptool(cmd, out, stall_s=STALL_S):
    env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            text=True, errors="replace")
    lines = queue.Queue()
    threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
    fatal = None
    shown = -_PROGRESS_STEP
    while True:
        try:
            line = lines.get(timeout=stall_s)
        except queue.Empty:
            proc.kill()
            proc.wait()
            raise FathomError("esptool said nothing for %d s on %s: stopped it; unplug the board, "
                              "plug it in again and retry" % (stall_s, cmd[cmd.index("--port") + 1]))
        if line is None:
            break
        m = _FATAL.search(line)
        if m:
            fatal = m.group(1).strip()
            continue
        p = _PROGRESS.search(line)
        if p:
            pct = int(p.group(1))
            if pct < shown + _PROGRESS_STEP and pct < 100:
                continue
            shown = pct
        out.write(line)
        out.flush()
    rc = proc.wait()
    if rc != 0:
        raise FathomError(_explain(fatal or "esptool exited with status %d" % rc, cmd))


def _pump(stream, lines):
    for line in stream:
        lines.put(line)
    lines.put(None)


def _explain(message, cmd):
    port = cmd[cmd.index("--port") + 1]
    m = re.search(r"This chip is (\S+), not (\S+)\.", message)
    if m:
        return ("the board on %s is an %s, but the profile is for an %s: pick the board "
                "profile that matches your board" % (port, m.group(1), m.group(2)))
    if "Failed to connect" in message:
        return ("no answer from the bootloader on %s: hold BOOT, tap RESET (EN), release "
                "BOOT, and try again (%s)" % (port, message.splitlines()[0]))
    if "Could not open" in message:
        return "cannot open %s: %s" % (port, message.splitlines()[0])
    return "esptool: %s" % message.splitlines()[0]


def _erase(port, chip, before, size, out):
    """Erase all flash with the ROM's own FLASH_BEGIN (the erase-flash command needs the stub)."""
    import esptool.targets
    from esptool.util import FatalError
    cls = esptool.targets.CHIP_DEFS[chip]
    out.write("fathom: erasing %d MB of flash on %s (a real chip takes up to a minute)\n"
              % (size // (1024 * 1024), port))
    out.flush()
    try:
        esp = cls(port, ROM_BAUD)
        try:
            esp.connect(before)
            esp.flash_begin(size, 0, logging=False)
        finally:
            esp._port.close()
    except FatalError as e:
        raise FathomError(_explain(str(e), ["--port", port]))
