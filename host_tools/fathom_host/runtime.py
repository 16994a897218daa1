# `fathom runtime build`: the device-faithful MicroPython runtimes. The PyPI wheel ("wheel") is a
# 64-bit build with nothing frozen: objects are about twice an ESP32's and all bytecode sits on
# the heap. These are MicroPython 1.28's unix port built 32-bit (an ESP32's object sizes) from
# source, in two kinds:
#   stock   the twins frozen (they stand for C modules), fathom on the filesystem, as on stock
#           firmware where `fathom deploy` copies the .mpy files
#   frozen  the twins and fathom frozen, as a board flashed with firmware/manifest.py's freeze
# Both carry `fathomprobe` (probe/): the largest heap allocation and the C stack peak, through
# two small patches to the build's own copy of the source. Built once under build/runtime/ and
# rebuilt only when an input changes (the source, the patches, the manifests, the frozen files).
# The source: --source, FATHOM_MP_SOURCE, the tarball in ../shared/micropython, or else a
# `git clone` of tag v1.28.0 made here under build/ (make setup, or the first build). A tarball
# must have the pinned SHA-256 and a clone the pinned commit: nothing else is built.
import contextlib
import fcntl
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from fathom_host import FIRMWARE, ROOT, FathomError

KINDS = ("stock", "frozen")
RUNTIMES = ("wheel",) + KINDS
HERE = pathlib.Path(__file__).resolve().parent
BUILD_DIR = ROOT / "build" / "runtime"
TARBALL = "micropython-1.28.0-unix-src.tar.gz"
DEFAULT_SOURCE = ROOT.parent / "shared" / "micropython" / TARBALL
# A `git archive` of tag v1.28.0 limited to what the unix port and mpy-cross need.
TARBALL_SHA256 = "a9292a209a2dd23a578d9af7cf34c48fe44b0296d5a4dda9acfb36b5f3e1387c"
TAG = "v1.28.0"
TAG_COMMIT = "e0e9fbb17ed6fd06bb76e266ae554784c9c80804"   # what tag v1.28.0 names upstream
GIT_URL = "https://github.com/micropython/micropython"    # FATHOM_MP_GIT replaces it
FETCHED = ROOT / "build" / "micropython-1.28.0"           # where the clone goes
FETCH_TIMEOUT_S = 900
PROBE_DIR = HERE / "probe"
MANIFESTS = {"stock": HERE / "manifest_stock.py", "frozen": HERE / "manifest_frozen.py"}
FROZEN_DIRS = {"stock": ("twins",), "frozen": ("twins", "fathom", "hostmodes")}
MAKE_FLAGS = ("VARIANT=standard", "MICROPY_FORCE_32BIT=1", "MICROPY_PY_FFI=0",
              "MICROPY_PY_SSL=0", "MICROPY_SSL_MBEDTLS=0", "MICROPY_PY_BTREE=0")
JOBS = str(max(1, min(os.cpu_count() or 1, 4)))
GET_SOURCE = ("`make setup` with internet (it runs `git clone --branch %s --depth 1 %s`), or "
              "put %s (sha256 %s...) in %s, or pass a MicroPython 1.28 tree with --source or "
              "FATHOM_MP_SOURCE" % (TAG, GIT_URL, TARBALL, TARBALL_SHA256[:12],
                                    DEFAULT_SOURCE.parent))


class SourceMissing(FathomError):
    """No MicroPython 1.28 source here and none could be fetched."""


_fetch_failed = None   # why the one fetch this process tried failed: not tried again


# The probe's counters, patched into the build's copy of the core (exact upstream text: a
# different MicroPython fails here, loudly, rather than building a probe that counts nothing).
# The counters are defined in the patched files so that mpy-cross, built from the same tree
# without the fathomprobe module, still links.
_GC_ALLOC = "void *gc_alloc(size_t n_bytes, unsigned int alloc_flags) {\n"
_GC_REALLOC = "void *gc_realloc(void *ptr_in, size_t n_bytes, bool allow_move) {\n"
_COUNT_ALLOC = ("    if (!fathomprobe_hold && n_bytes > fathomprobe_max_alloc) {\n"
                "        fathomprobe_max_alloc = n_bytes;\n"
                "    }\n")
_STACK_CHECK = ("void mp_cstack_check(void) {\n"
                "    if (mp_cstack_usage() >= MP_STATE_THREAD(stack_limit)) {\n")
# The twins' own heap: on a board the radio, the display and the I2C bus are C drivers whose
# buffers are not on the MicroPython heap, so every block a twin allocates while it holds the
# probe (fathomprobe.hold) goes to a second GC area of its own, and gc.mem_alloc / mem_free
# (gc_info) count the first area only: -X heapsize is then the firmware's heap alone, as on a
# board, however many objects the twins and the emulator's scripted player keep. A block
# allocated outside a hold never lands in the twin area, nor one inside a hold in the unit's.
TWIN_HEAP = 1024 * 1024
_GC_INFO = "void gc_info(gc_info_t *info) {\n"
_GC_INFO_LOOP = ("    for (mp_state_mem_area_t *area = &MP_STATE_MEM(area); area != NULL; "
                 "area = NEXT_AREA(area)) {\n        bool finish = false;\n")
_GC_AREAS = "            n_free = 0;\n            for (i = area->gc_last_free_atb_index;"
_UNIX_HEAP = ("    #if !MICROPY_GC_SPLIT_HEAP\n    char *heap = malloc(heap_size);\n"
              "    gc_init(heap, heap + heap_size);\n")
_UNIX_FREE = "    #if !MICROPY_GC_SPLIT_HEAP\n    free(heap);\n"
PATCHES = (
    ("py/gc.c", _GC_INFO,
     "#include <stdlib.h>\nvoid *fathomprobe_twin_area;\nsize_t fathomprobe_twin_size = %d;\n"
     "int fathomprobe_hold;\n" % TWIN_HEAP +
     "#if MICROPY_GC_SPLIT_HEAP\n"
     "void fathomprobe_add_twin_heap(void) {\n"
     "    char *p = malloc(%d);\n"
     "    gc_add(p, p + %d);\n"
     "    fathomprobe_twin_area = p;\n"
     "}\n"
     "#endif\n" % (TWIN_HEAP, TWIN_HEAP) + _GC_INFO),
    ("py/gc.c", _GC_INFO_LOOP, _GC_INFO_LOOP.replace(
        "{\n", "{\n        if ((void *)area == fathomprobe_twin_area) {\n"
        "            continue;\n        }\n", 1)),
    ("py/gc.c", _GC_ALLOC, "size_t fathomprobe_max_alloc;\n" + _GC_ALLOC + _COUNT_ALLOC),
    # every search starts at the first area (the unit's) and takes only the areas the hold allows
    ("py/gc.c", "        area = MP_STATE_MEM(gc_last_free_area);\n",
     "        area = &MP_STATE_MEM(area);\n"),
    ("py/gc.c", _GC_AREAS,
     "            if (((void *)area == fathomprobe_twin_area) != (fathomprobe_hold > 0)) {\n"
     "                continue;\n            }\n" + _GC_AREAS),
    ("ports/unix/main.c", _UNIX_HEAP,
     _UNIX_HEAP.replace("#if !MICROPY_GC_SPLIT_HEAP", "#if 1") +
     "    void fathomprobe_add_twin_heap(void);\n    fathomprobe_add_twin_heap();\n"),
    ("ports/unix/main.c", _UNIX_FREE, _UNIX_FREE.replace("#if !MICROPY_GC_SPLIT_HEAP", "#if 1")),
    # An in-place growth (a list's array) needs a block that large as much as a fresh one.
    ("py/gc.c", _GC_REALLOC, _GC_REALLOC + _COUNT_ALLOC),
    # 1.28 checks the C stack in py/cstack.c (py/stackctrl.c is its deprecated twin, unused).
    ("py/cstack.c", _STACK_CHECK,
     "mp_uint_t fathomprobe_stack_peak;\nextern int fathomprobe_hold;\n"
     "void mp_cstack_check(void) {\n"
     "    mp_uint_t fathomprobe_use = mp_cstack_usage();\n"
     "    if (!fathomprobe_hold && fathomprobe_use > fathomprobe_stack_peak) {\n"
     "        fathomprobe_stack_peak = fathomprobe_use;\n"
     "    }\n"
     "    if (fathomprobe_use >= MP_STATE_THREAD(stack_limit)) {\n"),
    # Every import level holds a path buffer of MICROPY_ALLOC_PATH_MAX bytes on the C stack
    # (py/builtinimport.c) for as long as the module body runs, nested imports included. The
    # unix port makes it PATH_MAX (4096); the ESP32 port 128. Left at 4 KB, three nested imports
    # alone filled 16 KB and hid every real figure. 256 keeps a 32-bit unit within 128 bytes per
    # import level of a board (on the safe side) and leaves room for the emulator's long
    # absolute sys.path entries (a longer path fails the import with a RuntimeError).
    ("ports/unix/mpconfigport.h", "#define MICROPY_ALLOC_PATH_MAX      (PATH_MAX)\n",
     "#define MICROPY_ALLOC_PATH_MAX      (%d)\n#define MICROPY_GC_SPLIT_HEAP (1)\n" % 256),
)


def add_arguments(p):
    p.add_argument("action", choices=("build", "path", "source"),
                   help="build: build what is stale; path: print the binaries' paths; source: "
                        "find (or fetch) and check the MicroPython 1.28 source")
    p.add_argument("--source", default=None,
                   help="MicroPython 1.28 source: the tarball or an extracted tree")
    p.add_argument("--kind", choices=KINDS + ("all",), default="all")


def run(args):
    if args.action == "source":
        print("source: %s" % find_source(args.source, log=True))
        return 0
    kinds = KINDS if args.kind == "all" else (args.kind,)
    for kind in kinds:
        if args.action == "build":
            print("%s: %s" % (kind, ensure(kind, args.source, log=True)))
        else:
            print("%s: %s" % (kind, binary(kind)))
    return 0


def stock_files():
    """The filesystem of a stock unit: firmware/ compiled by `fathom deploy`'s own build (.mpy
    files, main.py and data), so a stock unit imports bytecode as a board does, without
    compiling source on its heap. Rebuilt file by file as firmware/ changes."""
    import io
    import json
    from fathom_host import BOARDS, deploy
    out = BUILD_DIR / "stock-fs"
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with _locked():
        profile = json.loads((BOARDS / "host.json").read_text())
        deploy.build(FIRMWARE, out, profile, out=io.StringIO())
    return out


def binary(kind):
    return BUILD_DIR / ("build-" + kind) / ("micropython-" + kind)


def find_source(given=None, log=False):
    """The source given, else FATHOM_MP_SOURCE, else the shared tarball beside the repo, else a
    clone fetched here; each checked against its pin before it is used."""
    for cand, why in ((given, "--source"), (os.environ.get("FATHOM_MP_SOURCE"),
                                            "FATHOM_MP_SOURCE")):
        if cand:
            p = pathlib.Path(cand).expanduser().resolve()
            if not p.exists():
                raise FathomError("%s names %s, which does not exist" % (why, p))
            return check_source(p, log)
    if DEFAULT_SOURCE.exists():
        return check_source(DEFAULT_SOURCE, log)
    if (FETCHED / ".git").exists():
        return check_source(FETCHED, log)
    return fetch_source(os.environ.get("FATHOM_MP_GIT") or GIT_URL, FETCHED, log=True)


def check_source(path, log=False, commit=TAG_COMMIT):
    """path, once it is the pinned source: a tarball by its SHA-256, a git clone by its commit,
    any other tree by the version it declares (the probe's patches check the text itself)."""
    if path.is_file():
        digest = _file_sha256(path)
        if digest != TARBALL_SHA256:
            raise FathomError("%s is not the pinned MicroPython 1.28 source: its sha256 is %s, "
                              "expected %s (a damaged or different download: fetch it again)"
                              % (path, digest, TARBALL_SHA256))
        _say(log, "source %s: sha256 %s... as pinned" % (path, digest[:12]))
    elif (path / ".git").exists():
        head = _git(["-C", str(path), "rev-parse", "HEAD"], "read the commit of %s" % path)
        if head != commit:
            raise FathomError("%s is at commit %s, not %s (tag %s): remove it and fetch again"
                              % (path, head[:12], commit[:12], TAG))
        _say(log, "source %s: commit %s... (tag %s) as pinned" % (path, head[:12], TAG))
    else:
        version = _declared_version(path)
        if version != (1, 28, 0):
            raise FathomError("%s is not a MicroPython 1.28.0 tree (py/mpconfig.h says %s)"
                              % (path, ".".join(map(str, version)) if version else "nothing"))
    return path


def fetch_command(url, dest, tag=TAG):
    """The clone README names: one commit of the tag, no history, no submodules."""
    return ["git", "-c", "advice.detachedHead=false", "-c", "http.lowSpeedLimit=1000",
            "-c", "http.lowSpeedTime=60", "clone", "--quiet", "--branch", tag, "--depth", "1",
            url, str(dest)]


def fetch_source(url, dest, commit=TAG_COMMIT, log=True):
    """Clone tag v1.28.0 from url into dest and check its commit; SourceMissing when that cannot
    work (no network, no git), saying how else to get the source. Tried once a process."""
    global _fetch_failed
    if _fetch_failed:
        raise SourceMissing(_fetch_failed)
    dest = pathlib.Path(dest)
    part = dest.with_name(dest.name + ".part")
    shutil.rmtree(part, ignore_errors=True)
    part.parent.mkdir(parents=True, exist_ok=True)
    cmd = fetch_command(url, part)
    # On stderr: a fetch can start inside any command that needs a runtime (`bench --json`).
    shown = ["git"] + [a for a in cmd[cmd.index("clone"):] if a != "--quiet"]
    _say(log, "no MicroPython 1.28 source here: fetching it: %s" % " ".join(shown), sys.stderr)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=FETCH_TIMEOUT_S,
                              env=dict(os.environ, GIT_TERMINAL_PROMPT="0"))
        said = [x for x in proc.stderr.splitlines() if x.startswith("fatal:")]
        why = (said or ["git exited with %d" % proc.returncode])[0] if proc.returncode else None
    except FileNotFoundError:
        why = "git is not installed"
    except subprocess.TimeoutExpired:
        why = "no answer in %d s" % FETCH_TIMEOUT_S
    if why:
        shutil.rmtree(part, ignore_errors=True)
        _fetch_failed = ("no MicroPython 1.28 source, and fetching it failed (%s); get it with: %s"
                         % (why.removeprefix("fatal: "), GET_SOURCE))
        raise SourceMissing(_fetch_failed)
    try:
        check_source(part, commit=commit)
    except FathomError:
        shutil.rmtree(part, ignore_errors=True)
        raise
    shutil.rmtree(dest, ignore_errors=True)
    part.rename(dest)
    _say(log, "fetched %s: commit %s... (tag %s) as pinned" % (dest, commit[:12], TAG), sys.stderr)
    return dest


def _git(args, what):
    proc = subprocess.run(["git"] + args, capture_output=True, text=True)
    if proc.returncode:
        raise FathomError("cannot %s: %s" % (what, proc.stderr.strip()))
    return proc.stdout.strip()


def _file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def _declared_version(tree):
    try:
        text = (tree / "py" / "mpconfig.h").read_text()
    except OSError:
        return None
    parts = [re.search(r"#define MICROPY_VERSION_%s\s+\(?(\d+)\)?\s" % k, text)
             for k in ("MAJOR", "MINOR", "MICRO")]
    return tuple(int(m.group(1)) for m in parts) if all(parts) else None


def ensure(kind, source=None, log=False):
    """The path of runtime `kind`, built first if any of its inputs changed."""
    if kind not in KINDS:
        raise FathomError("runtime %r: choose one of %s" % (kind, ", ".join(KINDS)))
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with _locked():
        src = find_source(source, log=log)
        key = _kind_key(kind, src)
        stamp = BUILD_DIR / ("build-%s.stamp" % kind)
        exe = binary(kind)
        if exe.exists() and stamp.exists() and stamp.read_text() == key:
            return exe
        tree = _prepare_tree(src, log)
        _make(kind, tree, log)
        if not exe.exists():
            raise FathomError("the %s build finished without %s" % (kind, exe))
        stamp.write_text(key)
        return exe


@contextlib.contextmanager
def _locked():
    # Two test workers may ask for the same runtime at once: one builds, the other waits.
    with open(BUILD_DIR / ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _hash_files(h, paths):
    for p in paths:
        h.update(str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p).encode() + b"\0")
        h.update(p.read_bytes())


def _source_key(src):
    h = hashlib.sha256()
    if src.is_file():
        _hash_files(h, [src])
    else:  # a tree: its place and version (a tree edited in place needs a new --source)
        h.update(str(src).encode())
        _hash_files(h, [src / "py" / "mpconfig.h"])
    h.update(repr((PATCHES, MAKE_FLAGS)).encode())
    return h.hexdigest()


def _kind_key(kind, src):
    h = hashlib.sha256(_source_key(src).encode())
    files = [MANIFESTS["stock"], MANIFESTS[kind]] + sorted(PROBE_DIR.rglob("*.[ch]*"))
    if kind == "frozen":
        files.append(FIRMWARE / "manifest.py")  # the frozen manifest includes the board's
    for d in FROZEN_DIRS[kind]:
        files += sorted((FIRMWARE / d).rglob("*.py"))
    _hash_files(h, files)
    return h.hexdigest()


def _prepare_tree(src, log):
    """An extracted, patched copy of the source with mpy-cross built, reused while unchanged."""
    key = _source_key(src)
    tree = BUILD_DIR / "src"
    stamp = BUILD_DIR / "src.stamp"
    if stamp.exists() and stamp.read_text() == key and (tree / "py" / "gc.c").exists():
        return tree
    check_compiler()
    for old in [tree] + [BUILD_DIR / ("build-" + k) for k in KINDS]:
        shutil.rmtree(old, ignore_errors=True)
    stamp.unlink(missing_ok=True)
    _say(log, "extracting %s" % src)
    _copy_source(src, tree)
    for rel, old, new in PATCHES:
        _patch(tree / rel, old, new)
    _say(log, "building mpy-cross")
    _run(["make", "-j", JOBS, "-C", str(tree / "mpy-cross")], BUILD_DIR / "mpy-cross.log")
    stamp.write_text(key)
    return tree


def _copy_source(src, tree):
    if src.is_dir():
        if not (src / "py" / "gc.c").exists():
            raise FathomError("%s is not a MicroPython source tree (no py/gc.c)" % src)
        shutil.copytree(src, tree, ignore=shutil.ignore_patterns(".git", "build*"))
        return
    with tempfile.TemporaryDirectory(dir=BUILD_DIR) as tmp:
        try:
            with tarfile.open(src) as tf:
                tf.extractall(tmp, filter="data")
        except tarfile.TarError as e:
            raise FathomError("cannot read %s: %s" % (src, e))
        tops = [p for p in pathlib.Path(tmp).iterdir() if (p / "py" / "gc.c").exists()]
        if len(tops) != 1:
            raise FathomError("%s does not hold one MicroPython tree (no */py/gc.c)" % src)
        shutil.move(str(tops[0]), str(tree))


def _patch(path, old, new):
    text = path.read_text()
    if text.count(old) != 1:
        raise FathomError("cannot patch %s for the probe: the upstream text %r is not there "
                          "exactly once (is this MicroPython 1.28.0?)" % (path, old.split("\n")[0]))
    path.write_text(text.replace(old, new))


def check_compiler():
    """gcc must build and link a 32-bit program (Debian: the gcc-multilib package)."""
    if shutil.which("gcc") is None or shutil.which("make") is None:
        raise FathomError("building the runtime needs gcc and make: apt-get install build-essential "
                          "gcc-multilib")
    with tempfile.TemporaryDirectory() as tmp:
        c = pathlib.Path(tmp) / "t.c"
        c.write_text("int main(void) { return 0; }\n")
        proc = subprocess.run(["gcc", "-m32", str(c), "-o", str(pathlib.Path(tmp) / "t")],
                              capture_output=True, text=True)
    if proc.returncode != 0:
        raise FathomError("gcc cannot build 32-bit programs here: apt-get install gcc-multilib")


def _make(kind, tree, log):
    out = BUILD_DIR / ("build-" + kind)
    stub = BUILD_DIR / "mpy-lib-stub"  # the freezing rules insist on $(MPY_LIB_DIR)/README.md
    stub.mkdir(exist_ok=True)
    (stub / "README.md").write_text("Stands in for micropython-lib, which fathom does not use.\n")
    _say(log, "building the %s runtime" % kind)
    _run(["make", "-j", JOBS, "-C", str(tree / "ports" / "unix")] + list(MAKE_FLAGS) + [
        "FROZEN_MANIFEST=%s" % MANIFESTS[kind], "MPY_LIB_DIR=%s" % stub,
        "USER_C_MODULES=%s" % PROBE_DIR, "BUILD=%s" % out, "PROG=micropython-" + kind],
        BUILD_DIR / ("build-%s.log" % kind))


def _run(cmd, log_path):
    with open(log_path, "w") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        tail = log_path.read_text(errors="replace")[-2500:]
        raise FathomError("%s failed (log: %s):\n%s" % (" ".join(cmd[:4]), log_path, tail))


def _say(log, msg, stream=None):
    if log:
        print("runtime: " + msg, file=stream or sys.stdout, flush=True)
