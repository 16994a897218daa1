# The framework's records are read by name (docs/ARCHITECTURE.md, "Names that cost no heap"):
# the journal's event record (seat.py), the messages and reveals (runner.py), the sealed deal's
# state and queue (sealed/stage.py) each have their slots named where they are read, a private
# `_NAME = const(n)` that MicroPython folds into the code. A module that reads another's record
# keeps its own copies of those names; a copy that says another value than the others would
# read the wrong slot, so every private const of one name has one value across the framework,
# and a copy of a framework name (base.py's SETUP, seat.py's TURN_ACT, ...) has that name's
# value; the engines' copies of the turn kinds too. The files the records are read in read none
# by a bare number.
import ast
import pathlib
import re

import pytest

from fathom.games import base, seat

ROOT = pathlib.Path(__file__).resolve().parents[2]
FATHOM = ROOT / "firmware" / "fathom"
# the framework: every module outside a game's own folder (the engines' schemas have their own
# test, tests/engines/test_engine_schema.py)
FRAMEWORK = sorted([p for p in FATHOM.rglob("*.py")
                    if not (p.parent.parent.name == "games" and p.parent.name != "games")] +
                   [FATHOM.parent / "hostmodes" / "sealedtable.py",
                    FATHOM.parent / "hostmodes" / "sealedaudit.py"])
READERS = ["fathom/runner.py", "fathom/streams.py", "fathom/games/audit.py",
           "fathom/games/seat.py", "fathom/games/replay.py", "fathom/flow/replay.py",
           "fathom/sealed/stage.py", "fathom/sealed/hooks.py", "hostmodes/sealedtable.py",
           "hostmodes/sealedaudit.py"]
# a bare number that reads no record: the first of a list of peers or of set-up choices, a
# tuple of (index, pos) the seat's cursor keeps, the modulus's prime, a table of ones
NOT_RECORDS = re.compile(r"peers\[0\]|setup_legal\(\)\[0\]|best\[0\]|c\[0\]|PRIMES\[bits\]\[1\]"
                         r"|\[1\] \*")


def consts(path):
    """[(line, NAME, value)] of a module's top-level private consts."""
    out = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and node.targets[0].id.startswith("_") and \
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and \
                node.value.func.id == "const":
            try:
                value = ast.literal_eval(node.value.args[0])
            except ValueError:
                continue  # a const computed from others (1 << 3): no copy of a record's slot
            out.append((node.lineno, node.targets[0].id[1:], value))
    return out


def disagreements(paths):
    seen = {}
    for path in paths:
        for line, name, value in consts(path):
            seen.setdefault(name, []).append((value, "%s:%d" % (path.name, line)))
    public = {k: v for m in (base, seat) for k, v in vars(m).items()
              if k.isupper() and isinstance(v, (int, str))}
    bad = []
    for name, found in sorted(seen.items()):
        values = {v for v, _where in found}
        if name in public:
            values.add(public[name])
        if len(values) > 1:
            bad.append("%s: %s" % (name, ", ".join("%r at %s" % f for f in found)))
    return bad


def test_every_copy_of_a_record_name_has_one_value():
    assert disagreements(FRAMEWORK) == []


def test_a_copy_that_disagrees_is_caught(tmp_path):
    src = (FATHOM / "streams.py").read_text()
    assert "_REC_CK = const(4)" in src
    bad = tmp_path / "streams.py"
    bad.write_text(src.replace("_REC_CK = const(4)", "_REC_CK = const(3)"))
    found = disagreements([FATHOM / "games" / "seat.py", bad])
    assert len(found) == 1 and found[0].startswith("REC_CK:")


TURN_KINDS = {"TURN_ACT", "TURN_ANSWER"}


def test_the_turn_kinds_are_named_once():
    # the wire keeps the values; seat.py names them, every other module of the firmware reads
    # them by that name or keeps a private copy of it (folded on a unit: no global), never as
    # a bare string
    assert (seat.TURN_ACT, seat.TURN_ANSWER) == ("act", "answer")
    bare, wrong = [], []
    for path in sorted(FATHOM.rglob("*.py")):
        copied = {(line, name): value for line, name, value in consts(path)}
        for (line, name), value in copied.items():
            if name in TURN_KINDS and value != getattr(seat, name):
                wrong.append("%s:%d: _%s = %r" % (path.name, line, name, value))
        allowed = {line for (line, _name) in copied}   # a named const (a phase "act" too)
        if path.name == "seat.py":
            allowed |= {n.lineno for n in ast.parse(path.read_text()).body
                        if isinstance(n, ast.Assign) and n.targets[0].id in TURN_KINDS}
        tree = ast.parse(path.read_text())
        words = {id(a) for c in ast.walk(tree) if isinstance(c, ast.Call) and
                 getattr(c.func, "attr", getattr(c.func, "id", "")) == "check_int"
                 for a in c.args[3:]}   # the word a refusal names ("bad answer")
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and n.value in ("act", "answer") and \
                    id(n) not in words and \
                    n.lineno not in allowed:
                bare.append("%s:%d" % (path.relative_to(FATHOM), n.lineno))
    assert wrong == []
    assert bare == [], "a turn kind as a bare string"


@pytest.mark.parametrize("name", READERS)
def test_no_record_slot_read_by_number(name):
    found = []
    for i, line in enumerate((FATHOM.parent / name).read_text().splitlines(), 1):
        code = line.split("#")[0]
        if re.search(r"\[[0-9]\]", NOT_RECORDS.sub("", code)):
            found.append("%s:%d: %s" % (name, i, line.strip()))
    assert found == []
