# No comment cites an issue number: a reader of the repository has no such tracker, so a comment
# says why, in words. Read from every Python file's comments and docstrings under firmware/,
# host_tools/, tests/ and web/, and from the docs: the word issue and a number, or a hash and a
# number. Another project's tracker, named with it (EXTERNAL), is a reference a reader can follow.
import ast
import io
import re
import tokenize

from kit.paths import ROOT

TREES = ("firmware", "host_tools", "tests", "web")
DOCS = ("README.md", "docs")
CITE = re.compile(r"\bissues?\s+#?\d+|(?<![\w&#])#\d+\b", re.IGNORECASE)
EXTERNAL = re.compile(r"\b(u8g2|micropython|esptool|esp-idf|playwright|chromium)\s+issues?\s+#?\d+",
                      re.IGNORECASE)


def cites(text):
    return CITE.search(EXTERNAL.sub("", text)) is not None


def py_files():
    for top in TREES:
        for p in sorted((ROOT / top).rglob("*.py")):
            if not ({"__pycache__", "node_modules", ".venv"} & set(p.parts)) and \
                    "egg-info" not in str(p):
                yield p


def comments(path):
    """(line, text) of each comment and docstring in one Python file."""
    src = path.read_text()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string.lstrip("#")
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and node.body:
                first = node.body[0].lineno
                for k, line in enumerate(doc.splitlines()):
                    yield first + k, line


def doc_files():
    for name in DOCS:
        p = ROOT / name
        yield from (sorted(p.rglob("*.md")) if p.is_dir() else [p])


def citing():
    found = []
    for p in py_files():
        for n, text in comments(p):
            if cites(text):
                found.append("%s:%d: %s" % (p.relative_to(ROOT), n, text.strip()))
    for p in doc_files():
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if re.search(r"\bissues?\s+#?\d+", EXTERNAL.sub("", line), re.IGNORECASE):
                found.append("%s:%d: %s" % (p.relative_to(ROOT), n, line.strip()))
    return found


def test_the_pattern_finds_what_it_should_and_nothing_else():
    for text in ("the field bug (issue 14)", "issues 17 and 19", "see #14", "Issue 18's Done-when"):
        assert cites(text), text
    for text in ("player 1 of 2", "tissue 3", "color #ff0000", "&#14;", "the 14 issues",
                 "dim without it (u8g2 issue 1047)"):
        assert not cites(text), text


def test_no_comment_or_doc_cites_an_issue_number():
    found = citing()
    assert not found, "%d comments cite an issue number (say why instead):\n%s" % (
        len(found), "\n".join(found))
