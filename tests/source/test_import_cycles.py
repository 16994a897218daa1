# No import circle in the firmware or the host tools: every `import` and `from ... import`
# anywhere in a module (at its top, or lazily inside a function) is an edge of the module graph,
# and a strongly connected part of more than one module is a circle. A lazy import hides a
# circle until the day someone hoists it to the top of its file, or a module's import order
# changes: then the half-initialised module raises ImportError on one path only.
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# (folder whose files are top-level modules, the packages under it) for each tree
TREES = {
    "firmware": [ROOT / "firmware", ROOT / "firmware" / "twins"],
    "host_tools": [ROOT / "host_tools"],
}


def modules(roots):
    """module name -> its file, for every .py under the roots (a package's __init__ is the
    package's name)."""
    out = {}
    for root in roots:
        for path in root.rglob("*.py"):
            rel = path.relative_to(root).with_suffix("")
            parts = rel.parts
            if any(p.startswith(".") or p.endswith(".egg-info") for p in parts):
                continue
            if any(o != root and root in o.parents and o in path.parents for o in roots):
                continue   # a folder that is a root of its own (the twins), not a package
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if not parts or not all(p.isidentifier() for p in parts):
                continue
            out.setdefault(".".join(parts), path)
    return out


def _resolve(name, known):
    """The deepest known module `name` names, or None (the standard library, a C module)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(modname, path, known):
    """The known modules `modname` imports, anywhere in its file."""
    tree = ast.parse(path.read_text(), str(path))
    is_pkg = path.name == "__init__.py"
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = modname.split(".")
                pkg = pkg if is_pkg else pkg[:-1]
                pkg = pkg[:len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            # `from pkg import mod` imports the submodule; `from mod import name`, the module
            targets = [base + "." + a.name if base + "." + a.name in known else base
                       for a in node.names]
        elif (isinstance(node, ast.Call) and node.args
              and (isinstance(node.func, ast.Name) and node.func.id == "__import__"
                   or isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            targets = [node.args[0].value]
        else:
            continue
        for t in targets:
            hit = _resolve(t, known)
            if hit is not None and hit != modname:
                out.add(hit)
    return out


def graph(tree):
    known = modules(TREES[tree])
    return {m: imports(m, p, known) for m, p in known.items()}


def cycles(g):
    """Each strongly connected set of more than one module (Tarjan), as a sorted list."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(g[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        part.append(w)
                        if w == node:
                            break
                    if len(part) > 1:
                        out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def path_round(g, part):
    """One circle through the set, for the message: a -> b -> ... -> a."""
    members = set(part)
    start = part[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(g[v]):
            if w == start:
                chain = [v]
                while prev[chain[-1]] is not None:
                    chain.append(prev[chain[-1]])
                return " -> ".join(list(reversed(chain)) + [start])
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return " <-> ".join(part)


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_import_circle(tree):
    g = graph(tree)
    assert len(g) > 20, sorted(g)   # the walk found the tree
    found = ["%s (e.g. %s)" % (", ".join(part), path_round(g, part)) for part in cycles(g)]
    assert not found, "import circles in %s:\n  %s" % (tree, "\n  ".join(found))


def test_the_walk_sees_a_lazy_circle(tmp_path):
    """The check itself: a circle closed only by an import inside a function is found."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from pkg.c import g\n    return g\n")
    (pkg / "c.py").write_text("def g():\n    from . import a\n    return a\n")
    known = modules([tmp_path])
    g = {m: imports(m, p, known) for m, p in known.items()}
    assert cycles(g) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert path_round(g, ["pkg.a", "pkg.b", "pkg.c"]) == "pkg.a -> pkg.b -> pkg.c -> pkg.a"
