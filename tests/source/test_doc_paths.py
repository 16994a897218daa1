# Every file, module and function the docs name in `backticks` exists in the tree: a doc that
# names something renamed or removed fails here, naming the doc, its line and the name. Names are
# read as a reader would follow them: a path from the repository's root or from one of the trees
# the docs speak of (firmware/fathom/ and its folders, the host tools, the tests), a bare file
# name anywhere in the tree, and `module.name` or `file.py`'s `name` as a definition in it.
import re

from kit.paths import ROOT

DOCS = sorted([ROOT / "README.md", ROOT / "tests" / "README.md"]
              + list((ROOT / "docs").rglob("*.md")))
# where a path in the docs may start: they speak of firmware/fathom/... as fathom/..., games/...
BASES = ("", "firmware/", "firmware/fathom/", "firmware/fathom/games/", "host_tools/",
         "host_tools/fathom_host/", "tests/", "docs/")
EXTS = (".py", ".md", ".json", ".txt", ".toml", ".html", ".js", ".css")
SKIP_DIRS = {".git", ".venv", "build", "node_modules", "__pycache__", "var"}
# names the docs tick that are not the tree's: MicroPython's own benchmark, a board profile's
# field as its error message names it
ELSEWHERE = {"misc_pystone.py", "tests/perf_bench/misc_pystone.py", "display.sda"}
TICKED = re.compile(r"`([^`\n]+)`")
PATHLIKE = re.compile(r"^[\w.\-/]+$")
# a dotted name that ends in a definition: `streams.RELAY_BUSY`, `base.event_tag`
DOTTED = re.compile(r"^([a-z_][\w]*(?:\.[a-z_][\w]*)*)\.([A-Za-z_]\w*)(?:\(.*\))?$")
METHOD = re.compile(r"^([A-Z]\w*)\.([a-z_]\w*)$")   # `Seat.audit`, `Engine.apply`


def tree_files():
    out = []
    for p in ROOT.rglob("*"):
        if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(ROOT).parts):
            out.append(p)
    return out


FILES = tree_files()
PY = {p: p.read_text(errors="replace") for p in FILES if p.suffix == ".py"}
NAMES = {p.name for p in FILES} | {d.name for p in FILES for d in p.relative_to(ROOT).parents}
MODULES = {}   # the last part of a module's dotted name -> its files
for _p in FILES:
    if _p.suffix == ".py":
        stem = _p.parent.name if _p.stem == "__init__" else _p.stem
        MODULES.setdefault(stem, []).append(_p)


def defined(paths, name):
    pat = re.compile(r"^\s*(?:def|class)\s+%s\b|^\s*%s\s*[:=]|^\s*%s\s*,.*=|\bself\.%s\s*="
                     % ((re.escape(name),) * 4), re.M)
    return any(pat.search(PY[p]) for p in paths)


def path_exists(word):
    w = word.rstrip("/")
    if "/" not in w:
        return w in NAMES
    return any((ROOT / (b + w)).exists() for b in BASES)


def is_module(dotted):
    """A module or package of the tree by its dotted name (`kit.play`, `fathom.games.ping`)."""
    tail = dotted.replace(".", "/")
    return any(str(p).endswith(("/" + tail + ".py", "/" + tail + "/__init__.py")) for p in FILES)


def problems(text, doc):
    """[(line, name, why)] of every ticked name in `text` that names nothing in the tree."""
    bad = []
    for n, line in enumerate(text.splitlines(), 1):
        for tick in TICKED.findall(line):
            words = tick.split()
            for word in words:
                word = word.strip(",;:()'\"")
                if len(words) > 1 and not word.endswith(EXTS):
                    continue   # a command line's arguments: only a file it names is ours
                why = check(word)
                if why:
                    bad.append((n, word, why))
    return bad


def check(word):
    """Why `word` names nothing in the tree, or None (also for what is not a name of ours)."""
    if (not word or not PATHLIKE.match(word) or word.startswith(("../", "/", "~", "."))
            or word in ELSEWHERE or word.split("/")[0] in SKIP_DIRS):
        return None   # a command, a value, a path outside the clone, on a board, or made by a
        #               command (build/, var/)
    if "://" in word or word.count(".") > 4:
        return None
    if word.endswith(EXTS) or ("/" in word and word.endswith("/")):
        # a file: the tree must hold it (a run's output, like game.gif, is written by a command
        # whose line says so and is never ticked with a folder)
        if "/" in word or word.endswith(".py"):
            return None if path_exists(word) else "no such file"
        return None
    m = DOTTED.match(word)
    if m and "/" not in word and not is_module(word):
        mod, name = m.group(1), m.group(2)
        last = mod.rpartition(".")[2]
        if last in MODULES:
            return None if defined(MODULES[last], name) else "%s defines no %s" % (last, name)
    m = METHOD.match(word)
    if m:
        cls = re.compile(r"^class %s\b" % m.group(1), re.M)
        homes = [p for p, text in PY.items() if cls.search(text)]
        if homes and not defined(homes, m.group(2)):
            return "class %s defines no %s" % m.groups()
    return None


def test_every_name_in_the_docs_exists():
    bad = []
    for doc in DOCS:
        for n, word, why in problems(doc.read_text(), doc):
            bad.append("%s:%d: `%s`: %s" % (doc.relative_to(ROOT), n, word, why))
    assert not bad, "the docs name what the tree does not hold:\n  " + "\n  ".join(bad)


def test_the_check_can_fail():
    assert check("firmware/fathom/runner.py") is None
    assert check("flow/pairing.py") is None           # from firmware/fathom/
    assert check("ui/pairing.py") == "no such file"   # moved to flow/
    assert check("nowhere_at_all.py") == "no such file"
    assert check("streams.RELAY_BUSY") is None
    assert check("streams.NO_SUCH_LIMIT") == "streams defines no NO_SUCH_LIMIT"
    assert check("base.event_tag") is None
    assert check("base.no_such_function") == "base defines no no_such_function"
    assert check("make test") is None and check("../shared/rules/ping.txt") is None
    assert check("kit.play") is None and check("fathom.games.ping.track") is None
    assert check("kit.no_such_module") == "kit defines no no_such_module"
    assert check("Seat.settle") is None
    assert check("Seat.no_such_method") == "class Seat defines no no_such_method"
    assert check("build/web/") is None               # made by `make web`, not kept
    assert check("boards/") is None and check("no_such_folder/") == "no such file"
