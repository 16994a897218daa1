# Docs quote only what screens show. The convention (README.md, "Documentation"): in README.md,
# docs/HOST_TOOLS.md and docs/COMPANION.md, **bold** is kept for words a unit shows (a menu
# item, a screen's title or label), quoted exactly, and so is the first column of a table
# headed "item"; other emphasis is *italic*. This test reads those labels from the docs and
# finds each on the screens of a real app (fathom.app on the SSD1306 twin) walked from its home
# menu by pressing OK on every row, as a player would, or, for a screen the walk cannot reach
# from a fresh unit (an item shown only once a square is entered, a pairing screen that needs a
# second unit), as a whole string in the firmware's code. Labels are read from the docs, the
# screens and the code on each run: a renamed menu item fails here until the docs follow it.
import ast
import re

import pytest

from kit.app import real_app
from kit.paths import ROOT
from fathom.app import home_menu

DOCS = ("README.md", "docs/HOST_TOOLS.md", "docs/COMPANION.md")
DEPTH = 5          # home > Companion > a mode > one of its lists > an entry


def doc_labels():
    """(doc, label) for every **bold** label, and every item in the first column of a table
    headed `item` (docs/COMPANION.md's menus: items separated by ' / ' or ', ')."""
    out = []
    for doc in DOCS:
        text = (ROOT / doc).read_text()
        for rows in re.findall(r"^\| item \|.*\n\|[-| ]+\n((?:\|.*\n)+)", text, re.M):
            for row in rows.splitlines():
                cell = row.split("|")[1].strip()
                out.extend((doc, label) for label in re.split(r" / |, ", cell))
        text = re.sub(r"```.*?```", "", text, flags=re.S)     # command examples are not quotes
        text = re.sub(r"`[^`\n]*`", "", text)                 # nor is code (`/fathom/**/*.mpy`)
        for m in re.finditer(r"\*\*(.+?)\*\*", text, re.S):
            out.append((doc, " ".join(m.group(1).split())))
    return out


def _rows(lines):
    """The selectable rows of a screen's text: a menu or a list marks them with '>' or ' '."""
    return [ln[1:] for ln in lines[1:] if ln[:1] in (">", " ")]


def _replay(path):
    app, _pins, _bus = real_app()
    app.push(home_menu(app))
    for i in path:
        app.top().cursor = i
        app.top().key("OK")
    return app.top()


def walk_screens(depth=DEPTH):
    """{screen text line} for every screen reached from the home menu within `depth` OKs."""
    shown, seen, frontier = set(), set(), [()]
    while frontier:
        path = frontier.pop()
        try:
            lines = _replay(path).lines()
        except Exception:  # noqa: BLE001 - a screen needing hardware the twin lacks: not walked
            continue
        shown.update(lines)
        shown.update(_rows(lines))
        key = tuple(ln[1:] if ln[:1] in (">", " ") else ln for ln in lines)
        if key in seen or len(path) >= depth:
            continue
        seen.add(key)
        frontier.extend(path + (i,) for i in range(len(_rows(lines))))
    return shown


def firmware_strings():
    """Every whole string constant in the firmware's code, stripped, docstrings left out."""
    out = set()
    for path in (ROOT / "firmware" / "fathom").rglob("*.py"):
        tree = ast.parse(path.read_text())
        docs = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docs:
                out.add(node.value.strip())
    return out


@pytest.fixture(scope="module")
def screens():
    return walk_screens()


@pytest.fixture(scope="module")
def strings():
    return firmware_strings()


def on_screen(label, shown):
    """A label is shown when it is a whole row, a row's label before its value ('Players' of
    'Players 2', 'Opponent' of 'Opponent: off'), a title, or words within a line."""
    word = re.compile(r"(?<![\w])" + re.escape(label) + r"(?![\w])")
    return any(word.search(text) for text in shown)


def test_the_walk_reaches_the_menus_a_newcomer_meets(screens):
    # the walk itself must work, or every label below would be "missing" for the wrong reason
    assert "fathom" in screens and "Settings" in screens and "Players" in screens
    assert any(text.startswith("Forget pair") for text in screens)


@pytest.mark.parametrize("doc, label", doc_labels())
def test_every_label_the_docs_quote_is_on_a_screen(doc, label, screens, strings):
    assert on_screen(label, screens) or label in strings, (
        "%s quotes %r, which no screen shows (screens reached from the home menu, and "
        "the firmware's strings); fix the doc, or use *italics* if it is not a screen's word"
        % (doc, label))


def test_the_docs_name_the_pairing_steps_a_unit_really_takes():
    """The pairing as the screens run it: a game, then its 'vs other unit'; for a group of
    Sugar Dog or Pinned Down the Players menu comes after that, and a group of 3 confirms a
    code with each joiner, then the group code."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    tools = " ".join((ROOT / "docs" / "HOST_TOOLS.md").read_text().split())
    assert "choose *Pair*" not in tools
    assert "**vs other unit**" in tools
    players = readme.index("**Players**")
    assert readme.rindex("**vs other unit**", 0, players) < players
    assert "each joiner" in readme and "then the group code" in readme
