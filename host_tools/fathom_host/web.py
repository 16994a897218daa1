# `fathom web`: the units in a web page. Builds a static folder (web/'s page, MicroPython's
# WebAssembly port vendored from its npm package at a pinned version and checked against its
# pinned digest, the firmware packed as one JSON file) and serves it on localhost. Nothing runs
# on the server: any static host can serve the folder. `make web` builds it only.
import base64
import fcntl
import functools
import io
import hashlib
import http.server
import json
import pathlib
import shutil
import subprocess
import tarfile
import tempfile

from fathom_host import BOARDS, FIRMWARE, ROOT, FathomError

PACKAGE = "@micropython/micropython-webassembly-pyscript"
VERSION = "1.27.0"
# the registry's sha512 of the package's tarball: a different file is refused
INTEGRITY = ("sha512-DnXx4EqxgkeaFESrS3uKrL7mLMk4mRTd0mMzaOd3HUSiZUOAE7t11uLnjf3ftF87N2xm4k"
             "nHnWEKcVK4IYIUDA==")
VENDOR_FILES = ("micropython.mjs", "micropython.wasm")
WEB = ROOT / "web"
OUT = ROOT / "build" / "web"
CACHE = ROOT / "build" / "npm"
COMPILED = ROOT / "build" / "web-mpy"   # fathom/ as `fathom deploy` compiles it, kept between builds
PAGE_FILES = ("index.html", "companion.html", "unit.html", "app.js", "units.js", "unit.js",
              "ether.js", "gif.js", "style.css")
# The host twins a page's unit needs (its own hub and wire replace hub.py and etherwire.py;
# esp32.py for machine.freq, which checks the clock against the chip, at boot),
# and the one host mode it runs: a scripted player, for the tests.
TWINS = ("machine.py", "esp32.py", "network.py", "espnow.py", "uart_twin.py", "unitenv.py")
HOSTMODES = ("__init__.py", "uxplayer.py")
DEFAULT_PORT = 8128


def add_arguments(p):
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port on --host (0: any)")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on")
    p.add_argument("--out", default=str(OUT), help="the folder to build the page into")
    p.add_argument("--build-only", action="store_true", help="build the folder, serve nothing")


def run(args):
    out = build(pathlib.Path(args.out))
    if args.build_only:
        print("fathom web: built %s (%d KB)" % (out, folder_bytes(out) // 1024))
        return 0
    server = make_server(out, args.host, args.port)
    print("fathom web: http://%s:%d/ (Ctrl-C stops)" % (args.host, server.server_address[1]),
          flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


# ---- the vendored interpreter -----------------------------------------------------------------

def _digest_ok(path):
    algo, _, want = INTEGRITY.partition("-")
    got = base64.b64encode(hashlib.new(algo, path.read_bytes()).digest()).decode()
    return got == want


def vendored(cache=CACHE):
    """The pinned package's tarball, fetched once with npm and checked against its digest."""
    tgz = cache / ("micropython-webassembly-pyscript-%s.tgz" % VERSION)
    if tgz.exists() and _digest_ok(tgz):
        return tgz
    npm = shutil.which("npm")
    if npm is None:
        raise FathomError("no `npm`: run `make setup` (it installs nodejs and npm)")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        got = subprocess.run([npm, "pack", "%s@%s" % (PACKAGE, VERSION), "--silent",
                              "--pack-destination", tmp], capture_output=True, text=True)
        if got.returncode != 0:
            raise FathomError("npm pack %s@%s failed: %s" % (PACKAGE, VERSION,
                                                            got.stderr.strip()[-500:]))
        packed = list(pathlib.Path(tmp).glob("*.tgz"))
        if len(packed) != 1 or not _digest_ok(packed[0]):
            raise FathomError("%s@%s: the tarball npm gave does not match the pinned digest"
                              % (PACKAGE, VERSION))
        shutil.move(str(packed[0]), tgz)
    return tgz


def _unpack(tgz, dest):
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tgz) as tar:
        for name in VENDOR_FILES:
            member = tar.getmember("package/" + name)
            with tar.extractfile(member) as src:
                (dest / name).write_bytes(src.read())


# ---- the firmware, packed ---------------------------------------------------------------------

def compiled():
    """fathom/ compiled with mpy-cross as `fathom deploy` does (only what changed): a unit loads
    bytecode, as a board with stock firmware does, instead of compiling every module it
    imports in the page."""
    from fathom_host import deploy, hostboard
    COMPILED.mkdir(parents=True, exist_ok=True)
    with open(COMPILED.parent / "web-mpy.lock", "w") as lock:  # test workers build at once
        fcntl.flock(lock, fcntl.LOCK_EX)
        deploy.build(FIRMWARE, COMPILED, hostboard.load("host"), out=io.StringIO())
    return COMPILED


def firmware_bundle():
    """What a unit's frame writes into its interpreter's filesystem under /fw: {"files": {path:
    text}, "binary": {path: base64}}, and every board profile the page offers ("boards")."""
    files = {"main.py": (FIRMWARE / "main.py").read_text()}
    binary = {}
    for p in sorted((compiled() / "fathom").rglob("*")):
        rel = p.relative_to(COMPILED).as_posix()
        if p.suffix == ".mpy":
            binary[rel] = base64.b64encode(p.read_bytes()).decode()
        elif p.suffix == ".txt":
            files[rel] = p.read_text()
    for name in TWINS:
        files["twins/" + name] = (FIRMWARE / "twins" / name).read_text()
    for name in HOSTMODES:
        files["hostmodes/" + name] = (FIRMWARE / "hostmodes" / name).read_text()
    for p in sorted((WEB / "py").glob("*.py")):
        files["web/" + p.name] = p.read_text()
    boards = {p.stem: json.loads(p.read_text()) for p in sorted(BOARDS.glob("*.json"))}
    return {"files": files, "binary": binary, "boards": boards}


def build(out=OUT):
    """The page's static folder, made afresh; returns its path."""
    out = pathlib.Path(out)
    tgz = vendored()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in PAGE_FILES:
        src = WEB / name
        if not src.exists():
            raise FathomError("web/%s is missing" % name)
        shutil.copyfile(src, out / name)
    _unpack(tgz, out / "vendor")
    (out / "firmware.json").write_text(json.dumps(firmware_bundle(), separators=(",", ":")))
    return out


def folder_bytes(path):
    return sum(p.stat().st_size for p in pathlib.Path(path).rglob("*") if p.is_file())


# ---- serving ----------------------------------------------------------------------------------

class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm", ".json": "application/json"})

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt page is seen at once
        super().end_headers()

    def log_message(self, fmt, *args):
        pass  # the page fetches a dozen files per unit: no line per request


def make_server(folder, host="127.0.0.1", port=DEFAULT_PORT):
    handler = functools.partial(_Handler, directory=str(folder))
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as e:
        raise FathomError("cannot serve on %s:%d (%s): try --port 0" % (host, port, e))
