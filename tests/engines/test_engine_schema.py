# Every registered game names its data: its engine, bot, screen and words read events and
# state through the names its engine's schema declares, never through a bare slot number or a
# cryptic letter key, and the schema's events agree with the event table of the game's rules
# page. Read from the sources (ast) and the engine's names, so a game joins by registering.
#
# What counts as an offence (ordinary list code is left alone: `xs[0]` of a list of things,
# `B.CARDS[c][1]` of a data table, `t[0]` of a turn):
#   - a bare non-negative number indexing a record: an event or action (`ev`, `event`,
#     `action`, ... or one taken from a list of them: `legal[0][0]`, `for a in legal: a[2]`),
#     or anything reached from the state (`pub[...][1]`, `seat.priv[...][0]`, a local bound to
#     either: `a = pub[AREA]; a[1]`);
#   - a key of one or two characters (`pub["cq"]`, `{"q": ...}`, `.get("sd")`, `"sd" in pub`);
#   - a tag test against letters (`tag in "qcsfae"`, `tag == "q"`);
#   - a slot or key read through a one- or two-letter capital name (`ship[SO]`).
import ast
import importlib.util
import pathlib

import pytest

from fathom import games
from fathom.games import base

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOY = "toy"

# Games whose engines are being given their schema on another branch: skipped until they are.
CONVERTING = set()

# the words of every game live in `say`; a game whose rules the engine hands to modules by role
# (Pinned Down's phases and choices) has those read too
MODULES = ("engine", "bot", "screen", "say", "phases", "choices")
RECORDS = {"ev", "event", "action", "act", "choice", "slot", "pend"}   # one event or action
LISTS = {"legal", "acts", "actions", "log"}            # lists of events, actions, log entries
STATE = {"pub", "priv"}
LISTING = {"legal", "setup_legal"}                     # calls returning a list of actions


def _gids():
    added = TOY not in games.IDS
    if added:
        games.register(TOY)
    try:
        return list(games.IDS)
    finally:
        if added:
            games.unregister(TOY)


GIDS = _gids()


@pytest.fixture(autouse=True)
def _toy():
    had = TOY in games.IDS
    if not had:
        games.register(TOY)
    yield
    if not had and TOY in games.IDS:
        games.unregister(TOY)


def _skip_converting(gid):
    if gid in CONVERTING:
        pytest.skip("being converted on another branch")


def sources(gid):
    """(name, path) of the game's engine, bot, screen and words modules that exist."""
    pkg = games.package(gid)
    out = []
    for name in MODULES:
        spec = importlib.util.find_spec(pkg + "." + name)
        if spec is not None:
            out.append((name, pathlib.Path(spec.origin)))
    return out


# ---- the source rule -------------------------------------------------------------------------
class _Scope:
    """What each local name of one function (or the module body) holds: a record (an event,
    an action, a state entry), a list of records, or nothing we know of."""

    def __init__(self, node):
        self.records = set(RECORDS)
        self.lists = set(LISTS)
        self.nodes = list(ast.walk(node))
        changed = True
        while changed:
            changed = False
            for n in self.nodes:
                for name, value, each in _bindings(n):
                    kind = self.kind(value, each)
                    if kind == "record" and name not in self.records:
                        self.records.add(name)
                        changed = True
                    elif kind == "list" and name not in self.lists:
                        self.lists.add(name)
                        changed = True

    def kind(self, node, each=False):
        """'record', 'list' or None: what `node` evaluates to (each: an item of it)."""
        if each:
            if isinstance(node, (ast.Tuple, ast.List)):
                kinds = [self.kind(e) for e in node.elts]
                return "record" if "record" in kinds else None
            k = self.kind(node)
            return "record" if k in ("list", "record") and not self.is_state(node) else None
        if isinstance(node, ast.Name):
            if node.id in self.records:
                return "record"
            if node.id in self.lists:
                return "list"
            return None
        if isinstance(node, ast.Attribute):
            if node.attr in LISTS:
                return "list"
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in LISTING:
            return "list"
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            if self.is_state(node.value):
                return "record"
            k = self.kind(node.value)
            if k in ("list", "record"):
                return "record"
        return None

    def is_state(self, node):
        return isinstance(node, ast.Name) and node.id in STATE or \
            isinstance(node, ast.Attribute) and node.attr in STATE


def _bindings(n):
    """(name, value, each) for every plain name `n` binds: each=True when the name takes the
    items of `value` in turn (a for loop, a comprehension)."""
    if isinstance(n, ast.Assign):
        for t in n.targets:
            if isinstance(t, ast.Name):
                yield t.id, n.value, False
    elif isinstance(n, (ast.For, ast.comprehension)):
        if isinstance(n.target, ast.Name):
            yield n.target.id, n.iter, True


def _short_key(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and \
        1 <= len(node.value) <= 2


def _letters(node):
    """A string of lower-case letters: what a cryptic tag is made of ('OK' is a word)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and \
        node.value.isalpha() and node.value.isascii() and node.value.islower()


def offences(src):
    """[(line, what)] for every offence in a module's source."""
    tree = ast.parse(src)
    out = set()
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.Lambda))]
    for node in scopes:
        sc = _Scope(node)
        for n in sc.nodes:
            if isinstance(n, ast.Subscript):
                key = n.slice
                if _short_key(key):
                    out.add((n.lineno, "key %r" % key.value))
                elif isinstance(key, ast.Constant) and type(key.value) is int and \
                        key.value >= 0 and sc.kind(n.value) == "record":
                    out.add((n.lineno, "slot %d of %s" % (key.value, ast.unparse(n.value))))
                elif isinstance(key, ast.Name) and key.id.isupper() and len(key.id) <= 2:
                    out.add((n.lineno, "slot named %s" % key.id))
            elif isinstance(n, ast.Dict):
                for k in n.keys:
                    if _short_key(k):
                        out.add((n.lineno, "key %r" % k.value))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr in ("get", "pop", "setdefault") and n.args and \
                    _short_key(n.args[0]):
                out.add((n.lineno, "key %r" % n.args[0].value))
            elif isinstance(n, ast.Compare):
                left = n.left
                for op, right in zip(n.ops, n.comparators):
                    if isinstance(op, (ast.In, ast.NotIn)):
                        if _short_key(left) and _letters(left):
                            out.add((n.lineno, "key %r" % left.value))
                        if _letters(right) and len(right.value) > 1:
                            out.add((n.lineno, "tag among letters %r" % right.value))
                    elif isinstance(op, (ast.Eq, ast.NotEq)):
                        for side in (left, right):
                            if _letters(side) and len(side.value) <= 2:
                                out.add((n.lineno, "tag %r" % side.value))
                    left = right
    return sorted(out)


# The rule catches what it is meant to (and not ordinary list code): it is a test too.
CAUGHT = [
    "def f(ev):\n    return ev[4]\n",
    "def f(pub):\n    return pub['cq']\n",
    "def f(tag):\n    return tag in 'qcsfae'\n",
    "def f(ship):\n    return ship[SO]\n",
    "def f(pub):\n    a = pub[AREA]\n    return a[1]\n",
    "def f(seat):\n    return seat.priv[LAST][0]\n",
    "def f(seat):\n    for a in seat.legal():\n        x = a[2]\n",
    "def f(legal):\n    return legal[0][0]\n",
    "def f(pub):\n    for slot in (pub[AREA], pub[OUT]):\n        x = slot[0]\n",
    "def f():\n    return {'q': 1}\n",
    "def f(pub):\n    return 'sd' in pub\n",
    "def f(tag):\n    return tag == 'c'\n",
]
PASSED = [
    "def f(xs):\n    return xs[0] + xs[-1]\n",
    "def f(c):\n    return B.CARDS[c][1]\n",
    "def f(eng, pub):\n    t = eng.turn(pub)\n    return t[0]\n",
    "def f(ev):\n    return ev[UP_CARD], ev[TAG]\n",
    "def f(legal):\n    return legal[0]\n",
    "def f(pub):\n    return pub[SIZE] + pub['size']\n",
    "def f(ev):\n    return ev[1:]\n",
]


@pytest.mark.parametrize("src", CAUGHT)
def test_the_rule_catches_a_bare_slot_or_a_letter_key(src):
    assert offences(src), src


@pytest.mark.parametrize("src", PASSED)
def test_the_rule_leaves_ordinary_list_code_alone(src):
    assert offences(src) == [], src


@pytest.mark.parametrize("gid", GIDS)
def test_no_bare_slot_or_letter_key_in_engine_bot_screen_or_words(gid):
    _skip_converting(gid)
    found = []
    for _name, path in sources(gid):
        for line, what in offences(path.read_text()):
            found.append("%s:%d: %s" % (path.relative_to(ROOT), line, what))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("gid", GIDS)
def test_the_words_of_a_game_live_in_say(gid):
    _skip_converting(gid)
    names = [n for n, _p in sources(gid)]
    assert "engine" in names
    folder = sources(gid)[0][1].parent
    assert not (folder / "describe.py").exists() and not (folder / "look.py").exists()
    if games.has(gid, "screen"):
        assert "say" in names, "%s has a screen but no say.py for its words" % gid


# ---- the schema and the rules page -----------------------------------------------------------
def schema(gid):
    """{tag: [set of slot names at slot 1, at slot 2, ...]} from the engine's schema: a tag is
    EV_<X> = "wire tag", its slots the ints named <X>_<SLOT> (lower-cased <SLOT> in the doc).
    A name only the engine reads has a leading underscore (MicroPython then folds it away
    instead of keeping it in the module's globals), so the names are read from the source: the
    engine module's own, or those of the game's `schema` module when the engine keeps them there
    (read as K.NAME, so they are not copied into every module that reads them). The
    framework's set-up event comes from base."""
    pkg = games.package(gid)
    has_schema = importlib.util.find_spec(pkg + ".schema") is not None
    mod = importlib.import_module(pkg + (".schema" if has_schema else ".engine"))
    names = _names(pathlib.Path(mod.__file__), mod)
    out = {base.SETUP: _slots(_names(pathlib.Path(base.__file__), base), "SETUP")}
    for name, value in names.items():
        if name.startswith("EV_"):
            assert isinstance(value, str) and value, name
            out[value] = _slots(names, name[3:])
    return out


def _names(path, mod):
    """{NAME: value} of the module's top-level `NAME = const(v)` (leading underscore dropped),
    of public names bound to another name, and of tags imported under an EV_ name."""
    out = {}
    for node in ast.parse(path.read_text()).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and
                isinstance(node.targets[0], ast.Name)):
            continue
        name, v = node.targets[0].id, node.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "const":
            out[name.lstrip("_")] = ast.literal_eval(v.args[0])
        elif isinstance(v, ast.Name) and not name.startswith("_"):
            out[name] = getattr(mod, name)
    for node in ast.parse(path.read_text()).body:   # from ... import FOUL as EV_FOUL
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname and alias.asname.startswith("EV_"):
                    out[alias.asname] = getattr(mod, alias.asname)
    return out


def _slots(names, stem):
    by_pos = {}
    for name, v in names.items():
        if name.startswith(stem + "_") and type(v) is int:
            by_pos.setdefault(v, set()).add(name[len(stem) + 1:].lower())
    assert sorted(by_pos) == list(range(1, len(by_pos) + 1)), (stem, by_pos)
    return [by_pos[i] for i in sorted(by_pos)]


def rules_page(gid):
    """The rules page whose title starts with the game's title: in docs/rules, or rules.md
    beside a game folder kept outside the firmware (the toy)."""
    title = games.declaration(gid).TITLE
    folder = pathlib.Path(importlib.util.find_spec(games.package(gid)).origin).parent
    for p in sorted((ROOT / "docs" / "rules").glob("*.md")) + [folder / "rules.md"]:
        if p.exists() and p.read_text().startswith("# " + title):
            return p
    raise AssertionError("no rules page titled %r" % title)


def doc_events(path):
    """{tag: [set of slot names, ...]} from the page's event table: the table whose header
    starts `| event |`; each `code` span of its first cell is one event, its tag then its slot
    names in order, a slot of two meanings written `a/b`."""
    out = {}
    inside = False
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].lower() == "event":
            inside = True
            continue
        if not line.startswith("|"):
            inside = False
            continue
        if inside and not set(cells[0]) <= set("-: "):
            for span in cells[0].split("`")[1::2]:
                words = span.split()
                assert words[0] not in out, "%s listed twice in %s" % (words[0], path.name)
                out[words[0]] = [set(w.split("/")) for w in words[1:]]
    assert out, "%s has no event table (| event | ... |)" % path.name
    return out


@pytest.mark.parametrize("gid", GIDS)
def test_the_schema_and_the_rules_page_name_the_same_events_and_slots(gid):
    _skip_converting(gid)
    page = rules_page(gid)
    ours = schema(gid)
    doc = doc_events(page)
    assert sorted(ours) == sorted(doc), (page.name, sorted(ours), sorted(doc))
    for tag in ours:
        assert ours[tag] == doc[tag], (page.name, tag, ours[tag], doc[tag])


# ---- the private copies of the schema's names --------------------------------------------------
# MicroPython folds a private `_NAME = const(v)` into the code and keeps no global for it, so a
# module of a game declares the schema names it reads as its own private copies rather than
# reading them off another module (each such name would stay a module global on the unit's
# heap). A copy must say what the schema says: the same name, the same value.
def declared(gid):
    """{NAME: value} a game's schema declares: its engine's names, its other modules' own
    names that the engine does not declare (Periplus' fleet), Pinned Down's schema.py, and
    the framework's (base)."""
    pkg = games.package(gid)
    out = dict(_names(pathlib.Path(base.__file__), base))
    folder = pathlib.Path(importlib.util.find_spec(pkg).origin).parent
    has_schema = (folder / "schema.py").exists()
    for p in ([folder / "schema.py"] if has_schema else [folder / "engine.py"]):
        mod = importlib.import_module(pkg + "." + p.stem)
        out.update(_names(p, mod))
    return out


def copies(path):
    """[(line, NAME, value)] of a module's top-level private consts."""
    out = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and node.targets[0].id.startswith("_") and \
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and \
                node.value.func.id == "const":
            out.append((node.lineno, node.targets[0].id[1:], ast.literal_eval(node.value.args[0])))
    return out


@pytest.mark.parametrize("gid", GIDS)
def test_every_private_copy_of_a_schema_name_has_the_schema_value(gid):
    _skip_converting(gid)
    names = declared(gid)
    folder = pathlib.Path(importlib.util.find_spec(games.package(gid)).origin).parent
    wrong = []
    for path in sorted(folder.glob("*.py")):
        for line, name, value in copies(path):
            if name in names and names[name] != value:
                wrong.append("%s:%d: _%s = %r, the schema says %r"
                             % (path.relative_to(folder.parent), line, name, value, names[name]))
    assert not wrong, "\n".join(wrong)


def test_a_copy_that_disagrees_is_caught(tmp_path):
    src = pathlib.Path(importlib.util.find_spec("fathom.games.pinned_down.say").origin)
    bad = tmp_path / "say.py"
    bad.write_text(src.read_text().replace('_SHIPS = const("ships")', '_SHIPS = const("shipz")'))
    names = declared("pinned_down")
    found = [n for _line, n, v in copies(bad) if n in names and names[n] != v]
    assert found == ["SHIPS"]


@pytest.mark.parametrize("gid", ["pinned_down"])
def test_pinned_downs_firmware_never_imports_its_schema(gid):
    # schema.py is the declaration the copies follow; imported on a unit it would hold every
    # name as a module global for the whole game
    folder = pathlib.Path(importlib.util.find_spec(games.package(gid)).origin).parent
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert "schema" not in [a.name for a in node.names], path.name
                assert not (node.module or "").endswith(".schema"), path.name
