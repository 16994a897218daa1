# docs/ARCHITECTURE.md's layer diagram names every firmware module, and only modules that exist.
# The diagram is read as a tree: a line whose first word ends in "/" (left of the description
# column) opens that folder, at its indent; every `name.py` on the lines below it, until a line
# at the same indent or less, is a module of that folder, and `name/` stands for the folder (and
# its __init__.py, if it is a package). Under games/, `<id>/` lists the parts any game may have and each game's own line
# its leaf modules. A module added, renamed or removed without the diagram fails here, naming it.
import re

from kit.paths import DOCS, ROOT

DIAGRAM_DIRS = ("firmware/",)         # the trees the diagram must cover, module for module
DESC_COL = 26                         # where the diagram's descriptions start
GENERIC = "<id>"


def diagram():
    text = (DOCS / "ARCHITECTURE.md").read_text()
    body = text.split("## Layers", 1)[1].split("```", 2)[1]
    return body.splitlines()[1:]


def named_modules():
    """{path of a module named in the diagram, relative to the repository}"""
    named = set()
    stack = []                        # (indent, folder path)
    for line in diagram():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent < DESC_COL:
            while stack and stack[-1][0] >= indent:
                stack.pop()
            first = line.split()[0]
            if first.endswith("/"):
                path = (stack[-1][1] if stack else "") + first
                stack.append((indent, path))
                if GENERIC in path or "*" in path or (ROOT / path / "__init__.py").exists():
                    named.add(path + "__init__.py")
                elif not (ROOT / path).is_dir():
                    named.add(path + " (a folder)")   # a folder that is not there: extra
        here = stack[-1][1] if stack else ""
        for word in re.findall(r"[\w/<>*]+\.py\b", line):
            if word == line.split()[0] and "/" in word:
                named.add(word)       # a top-level file written with its path
            else:
                named.add(here + word)
    return named


def actual_modules():
    out = set()
    for top in DIAGRAM_DIRS:
        for p in (ROOT / top).rglob("*.py"):
            if "__pycache__" not in p.parts:
                out.add(str(p.relative_to(ROOT)))
    return out


def split_games(paths):
    """(modules outside the game folders, {game id: {module}}) of firmware/fathom/games/<id>/."""
    games, rest = {}, set()
    for p in paths:
        m = re.match(r"firmware/fathom/games/([^/]+)/([^/]+\.py)$", p)
        if m:
            games.setdefault(m.group(1), set()).add(m.group(2))
        elif p.startswith("firmware/"):
            rest.add(p)
    return rest, games


def test_the_diagram_parses_into_the_layers_it_draws():
    named = named_modules()
    for path in ("firmware/main.py", "firmware/fathom/app.py", "firmware/fathom/ui/font.py",
                 "firmware/fathom/games/<id>/engine.py", "firmware/fathom/link/frame.py",
                 "firmware/fathom/hal/records.py", "firmware/twins/hub.py"):
        assert path in named, path


def test_every_firmware_module_is_named_in_the_architecture_and_every_name_exists():
    named, named_games = split_games(named_modules())
    actual, actual_games = split_games(actual_modules())
    generic = named_games.pop(GENERIC)
    missing = sorted(actual - named)
    extra = sorted(named - actual)
    for gid in sorted(set(actual_games) | set(named_games)):
        if gid not in named_games:
            missing.append("firmware/fathom/games/%s/ (the game has no line of its own)" % gid)
            continue
        own = named_games[gid] - {"__init__.py"}
        missing += ["firmware/fathom/games/%s/%s" % (gid, m)
                    for m in sorted(actual_games.get(gid, set()) - own - generic)]
        extra += ["firmware/fathom/games/%s/%s" % (gid, m)
                  for m in sorted(own - actual_games.get(gid, set()))]
    extra += ["firmware/fathom/games/<id>/%s (no game has it)" % m
              for m in sorted(generic) if not any(m in g for g in actual_games.values())]
    msg = []
    if missing:
        msg.append("modules docs/ARCHITECTURE.md's layer diagram does not name (add each with"
                   " a few words on its job):\n  " + "\n  ".join(missing))
    if extra:
        msg.append("names in the diagram with no such module (renamed or gone?):\n  "
                   + "\n  ".join(extra))
    assert not msg, "\n".join(msg)
