# Every sentence of each source rule set (../shared/rules/GAME.txt) is in its trace
# (docs/rules/trace/GAME.md), in source order, cited by its line and the short hash of its
# text: with the rules page section that implements it (or "flavour: no rule") and the tests
# that check it, each of which must exist. A changed sentence shows as a hash that no longer
# matches; a new one as a sentence missing from the trace. The sources sit beside the
# repository; a clone on its own has none, and this test then skips with one line.
#
# How a source is cut into units (the same in every trace's header, deterministic):
#   - lines inside ``` fences (drawings, worked examples) are left out, and so are blank lines;
#   - a paragraph is a run of non-blank lines; a heading (a line starting with #) and a list
#     item (a line starting with -, *, +, > or a number then . or )) start a new paragraph,
#     and a heading is a paragraph of its own;
#   - a paragraph's words (split on white space, joined by one space) are cut into sentences
#     after a word that ends in . ! or ? (closing * _ " ' ) ] ’ ” left aside), except the
#     abbreviations in NO_CUT and a list's number ("2.");
#   - a unit is cited by the line its first word is on and the first 8 hex digits of the
#     SHA-256 of its text (the words joined by one space, UTF-8).
#
# `python tests/source/test_rules_trace.py GAME` prints the units of a source with their text,
# to write or mend a trace by (the text stays on the reader's screen, never in the trace).
import ast
import hashlib
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = ROOT.parent / "shared" / "rules"
TRACES = ROOT / "docs" / "rules" / "trace"
RULES = ROOT / "docs" / "rules"
# source file -> its rules page
GAMES = {"ping": "ping", "lake_ashtapada": "lake_ashtapada", "sugar_dog": "sugar_dog",
         "periplus": "periplus", "pinned_down": "pinned_down"}
NO_CUT = ("e.g.", "i.e.", "pt.", "vs.")
FLAVOUR = "flavour: no rule"
_ITEM = re.compile(r"^(?:[-*+>]|\d+[.)])(?:\s|$)")
_CLOSERS = "*_\"')]\u2019\u201d"
_NUMBER = re.compile(r"^\d+\.$")   # a list's number ("2."), not a sentence's end
_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*([0-9a-f]{8})\s*\|([^|]*)\|([^|]*)\|([^|]*)\|\s*$")


def short_hash(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _sentences(para):
    """[(line, text)] of one paragraph given as [(line, stripped line text)]."""
    out = []
    words = []
    first = None
    for n, line in para:
        for w in line.split():
            if not words:
                first = n
            words.append(w)
            end = w.rstrip(_CLOSERS)
            if end[-1:] in (".", "!", "?") and end.lower() not in NO_CUT \
                    and not _NUMBER.match(end):
                out.append((first, " ".join(words)))
                words = []
    if words:
        out.append((first, " ".join(words)))
    return out


def units(text):
    """The source's units in order: [(line, short hash, text)]."""
    out = []
    para = []
    fence = False

    def flush():
        for n, t in _sentences(para):
            out.append((n, short_hash(t), t))
        del para[:]

    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("```"):
            flush()
            fence = not fence
            continue
        if fence or not s:
            flush()
            continue
        heading = s.startswith("#")
        if heading or _ITEM.match(s):
            flush()
        para.append((n, s))
        if heading:
            flush()
    flush()
    return out


def trace_rows(path):
    """[(line, hash, section, tests, gist)] of a trace's table, in its order."""
    rows = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(raw.strip())
        if m:
            n, h, section, tests, gist = m.groups()
            rows.append((int(n), h, section.strip(), tests.strip(), gist.strip()))
    return rows


def named_tests(cell):
    """The 'file::name' entries of a tests cell ('-' or empty: none)."""
    return [t.strip() for t in cell.split(";") if t.strip() and t.strip() != "-"]


_DEFS = {}


def _test_names(path):
    if path not in _DEFS:
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
        _DEFS[path] = names
    return _DEFS[path]


def test_exists(ref):
    """'' if `tests/x.py::test_name` (a parametrised [id] left aside) names a test, else why not."""
    if "::" not in ref:
        return "not file::name: %s" % ref
    f, name = ref.split("::", 1)
    name = name.split("[", 1)[0]
    path = ROOT / f
    if not f.startswith("tests/") or not path.is_file():
        return "no such test file: %s" % f
    if not name.startswith("test_") or name not in _test_names(path):
        return "no test %s in %s" % (name, f)
    return ""


test_exists.__test__ = False   # a helper, not a test, despite its name


def _headings(game):
    return [l.lstrip("#").strip() for l in (RULES / (game + ".md")).read_text(
        encoding="utf-8").splitlines() if l.startswith("#")]


def section_ok(game, cell):
    """A section cell names a heading of the game's rules page (a prefix of it, after the
    page's name: 'sugar_dog.md A turn'), or is the flavour mark."""
    if cell == FLAVOUR:
        return True
    page, _sep, head = cell.partition(" ")
    if page != game + ".md" or not head:
        return False
    return any(h.startswith(head) for h in _headings(game))


def check(game):
    """Every problem of one trace, as lines (none: it holds)."""
    src = (SOURCES / (game + ".txt")).read_text(encoding="utf-8")
    have = units(src)
    rows = trace_rows(TRACES / (game + ".md"))
    problems = []
    want = [(n, h) for n, h, _t in have]
    got = [(r[0], r[1]) for r in rows]
    for n, h in want:
        if (n, h) not in got:
            here = [r for r in rows if r[0] == n]
            if here:
                problems.append("line %d: unit %s not in the trace (hash no longer matches?)"
                                % (n, h))
            else:
                problems.append("line %d: unit %s missing from the trace" % (n, h))
    for n, h in got:
        if (n, h) not in want:
            problems.append("trace row line %d hash %s: no such unit in the source" % (n, h))
    if not problems and got != want:
        problems.append("the trace is not in source order")
    for n, h, section, tests, _gist in rows:
        if not section_ok(game, section):
            problems.append("line %d %s: section %r is not a heading of %s.md nor %r"
                            % (n, h, section, game, FLAVOUR))
        for ref in named_tests(tests):
            why = test_exists(ref)
            if why:
                problems.append("line %d %s: %s" % (n, h, why))
        if section != FLAVOUR and not tests:
            problems.append("line %d %s: a rule with an empty tests cell (name the tests, or "
                            "'-' and say why in the gist)" % (n, h))
    return problems


def _need_sources():
    if not SOURCES.is_dir():
        pytest.skip("no ../shared/rules beside this clone: the source rule sets are not here")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_sentence_of_the_source_is_traced_to_a_rule_and_its_tests(game):
    _need_sources()
    problems = check(game)
    assert not problems, "docs/rules/trace/%s.md:\n  %s" % (game, "\n  ".join(problems))


def test_the_cutting_is_deterministic_and_keeps_fences_headings_and_items_apart():
    text = "\n".join([
        "# Title", "First rule. Second", "rule, e.g. this one.", "- an item", "  that wraps.",
        "```", "a drawing. Not a rule.", "```", "2. A numbered item! Then more", "", "Tail?"])
    got = [(n, t) for n, _h, t in units(text)]
    assert got == [(1, "# Title"), (2, "First rule."), (2, "Second rule, e.g. this one."),
                   (4, "- an item that wraps."), (9, "2. A numbered item!"), (9, "Then more"),
                   (11, "Tail?")]
    assert units(text) == units(text)
    assert short_hash("First rule.") == hashlib.sha256(b"First rule.").hexdigest()[:8]


def test_a_changed_or_missing_sentence_and_a_test_that_does_not_exist_are_caught(tmp_path,
                                                                                 monkeypatch):
    src = tmp_path / "rules"
    src.mkdir()
    (src / "toy.txt").write_text("One rule. A tale.\n")
    tr = tmp_path / "trace"
    tr.mkdir()
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "toy.md").write_text("# Toy\n## Moves\n")
    one, tale = short_hash("One rule."), short_hash("A tale.")
    good = "tests/source/test_rules_trace.py::test_the_cutting_is_deterministic_and_" \
           "keeps_fences_headings_and_items_apart"
    monkeypatch.setattr(sys.modules[__name__], "SOURCES", src)
    monkeypatch.setattr(sys.modules[__name__], "TRACES", tr)
    monkeypatch.setattr(sys.modules[__name__], "RULES", pages)

    def trace(*rows):
        (tr / "toy.md").write_text("| line | hash | section | tests | gist |\n|---|---|---|---|---|\n"
                                   + "".join("| %s |\n" % " | ".join(r) for r in rows))

    trace(("1", one, "toy.md Moves", good, "a rule"), ("1", tale, FLAVOUR, "", "a story"))
    assert check("toy") == []
    trace(("1", one, "toy.md Moves", good, "a rule"))
    assert check("toy") == ["line 1: unit %s not in the trace (hash no longer matches?)" % tale]
    (src / "toy.txt").write_text("One rule changed. A tale.\n")
    trace(("1", one, "toy.md Moves", good, "a rule"), ("1", tale, FLAVOUR, "", "a story"))
    assert any("no such unit" in p for p in check("toy"))
    (src / "toy.txt").write_text("One rule. A tale.\n")
    trace(("1", one, "toy.md Moves", "tests/source/test_rules_trace.py::test_nothing", "a"),
          ("1", tale, "toy.md Nowhere", "", "a story"))
    assert check("toy") == [
        "line 1 %s: no test test_nothing in tests/source/test_rules_trace.py" % one,
        "line 1 %s: section 'toy.md Nowhere' is not a heading of toy.md nor %r" % (tale, FLAVOUR),
        "line 1 %s: a rule with an empty tests cell (name the tests, or '-' and say why in the "
        "gist)" % tale]


if __name__ == "__main__":
    for _n, _h, _t in units((SOURCES / (sys.argv[1] + ".txt")).read_text(encoding="utf-8")):
        print("%d\t%s\t%s" % (_n, _h, _t))
