# A session with a MicroPython unit in its raw REPL over a serial port (mpremote's transport),
# where every exchange has a time limit: a unit that stops answering, or a port another program
# also reads, ends in one line saying what we were waiting for. Also: which chip the unit is.
import contextlib
import io
import re
import time

from fathom_host import FathomError, serialports

BAUD = 115200
TIMEOUT_S = 10.0     # default time the unit has to answer one exchange
READ_SLICE_S = 0.2   # the port's own read timeout, so a deadline is checked this often
CHIP_NAMES = {"esp32": "ESP32", "esp32s3": "ESP32-S3", "esp32c3": "ESP32-C3",
              "esp32s2": "ESP32-S2", "esp32c6": "ESP32-C6",
              "host": "emulated unit (the MicroPython unix port)"}
UNIX_PLATFORMS = ("linux", "darwin", "freebsd")   # the unix port: an emulated unit

# Which chip is this? sys.platform is 'esp32' for every ESP32 variant; the variant is in
# sys.implementation._machine ("Generic ESP32S3 module with ESP32S3"). The unix port (the
# emulator's serial twin) says 'linux'.
_CHIP_SCRIPT = """
import sys
print('CHIP:%s|%s' % (sys.platform, getattr(sys.implementation, '_machine', '')))
"""


def chip_of(platform, machine):
    """The profile chip name for what a unit reports: 'esp32s3', 'host', or the platform."""
    if platform in UNIX_PLATFORMS:
        return "host"
    if platform == "esp32":
        m = re.search(r"\bwith\s+(ESP32[-_\w]*)", machine, re.I)
        return re.sub(r"[-_]", "", m.group(1)).lower() if m else "esp32"
    return platform


def article(chip):
    return "an" if CHIP_NAMES.get(chip, chip)[:1].lower() in "aeiou" else "a"


class StepTimeout(Exception):
    """The unit did not finish the current step in time."""


class _LimitedPort:
    """The transport's serial port with a deadline on every read. mpremote waits on some reads
    with no limit at all (the raw-paste handshake); here each read gives up once the step in
    progress has run out of time, however the bytes trickle in."""

    def __init__(self, port):
        object.__setattr__(self, "_port", port)
        object.__setattr__(self, "deadline", None)

    def _check(self):
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise StepTimeout()

    def read(self, n=1):
        data = b""
        while len(data) < n:
            self._check()
            data += self._port.read(n - len(data))
        return data

    def inWaiting(self):  # noqa: N802 - mpremote's name
        self._check()
        return self._port.in_waiting

    def __getattr__(self, name):
        return getattr(self._port, name)

    def __setattr__(self, name, value):
        if name == "deadline":
            object.__setattr__(self, name, value)
        else:
            setattr(self._port, name, value)


class UnitRepl:
    """A MicroPython unit on a serial port, in the raw REPL, every step under a time limit."""

    def __init__(self, port, timeout=TIMEOUT_S):
        self.port = port
        self.timeout = timeout
        self.transport = None
        self._port = None

    def __enter__(self):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        try:
            self.transport = SerialTransport(self.port, baudrate=BAUD, timeout=READ_SLICE_S)
        except TransportError as e:
            raise FathomError("cannot open %s: %s" % (self.port, e))
        self.transport.serial.write_timeout = self.timeout
        self._port = self.transport.serial = _LimitedPort(self.transport.serial)
        try:
            # mpremote prints what it got when the raw REPL does not come: keep it for our line
            said = io.StringIO()
            with self.step("entering its raw REPL (Ctrl-C, then a soft reset)", said=said), \
                    contextlib.redirect_stdout(said):
                self.transport.enter_raw_repl(soft_reset=True, timeout_overall=3 * self.timeout)
        except BaseException:
            self.transport.close()
            raise
        return self

    def __exit__(self, *exc):
        self.transport.close()

    @contextlib.contextmanager
    def step(self, what, limit=None, said=None):
        """Run one exchange with the unit; turn a silence or a lost port into one clear line."""
        from mpremote.transport import TransportError, TransportExecError
        import serial
        limit = self.timeout if limit is None else limit
        self._port.deadline = time.monotonic() + limit
        try:
            yield
        except StepTimeout:
            raise FathomError(self._silent(what, limit, said)) from None
        except serial.SerialTimeoutException:
            raise FathomError(self._silent(what, limit, said)) from None
        except TransportExecError as e:
            raise FathomError("the unit on %s refused while %s: %s" % (
                self.port, what, e.error_output.strip().splitlines()[-1])) from None
        except TransportError as e:
            raise FathomError("the unit on %s stopped making sense while %s (%s)%s" % (
                self.port, what, e, self._heard(said))) from None
        except OSError as e:
            raise FathomError("lost the unit on %s while %s: %s" % (self.port, what, e)) from None
        finally:
            self._port.deadline = None

    def _heard(self, said):
        text = said.getvalue().strip() if said is not None else ""
        return "; it sent %s" % text[-80:] if text else ""

    def _silent(self, what, limit, said):
        who = serialports.holders(self.port) if not serialports.is_url(self.port) else []
        if who:
            why = "another program is reading the port too (pid %s): close it" % ", ".join(who)
        elif what.startswith("entering"):
            why = ("is MicroPython on it (`fathom flash`)? Press its RESET button and try again"
                   + self._heard(said))
        else:
            why = "unplugged, or busy? Press its RESET button and try again"
        return "no answer from the unit on %s for %g s while %s: %s" % (self.port, limit, what,
                                                                          why)

    def exec(self, code):
        """Run code in the raw REPL; its printed output. Only the step's deadline limits it
        (mpremote's own 10 s between characters would cut a slow hash short)."""
        from mpremote.transport import TransportExecError
        out, err = self.transport.exec_raw(code, timeout=None)
        if err:
            raise TransportExecError(out, err.decode(errors="replace"))
        return out

    def chip(self):
        """(chip, sys.platform, sys.implementation._machine) as the unit reports them."""
        with self.step("asking which chip it is"):
            lines = self.exec(_CHIP_SCRIPT).decode(errors="replace").strip().splitlines()
        mark = [x for x in lines if x.startswith("CHIP:")]
        if not mark:
            raise FathomError("the unit on %s did not say which chip it is: %r"
                              % (self.port, lines[-3:]))
        platform, _, machine = mark[-1][len("CHIP:"):].partition("|")
        return chip_of(platform.strip(), machine.strip()), platform.strip(), machine.strip()
