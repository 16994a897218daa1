# The layers hold: read every firmware module's imports (the lazy ones inside functions too) and
# check that no import runs in a circle, that only screens import the UI, that the widget kit
# (fathom.ui) reaches up to no flow, runner, peer or link, that only the app and the flows import
# a flow, and that the firmware a board runs imports nothing that exists only on the host.
import ast
import pathlib

FIRMWARE = pathlib.Path(__file__).resolve().parents[2] / "firmware"
# may import fathom.ui: the UI itself, the app that runs it, and each game's screen/companion
UI_USERS = ("fathom.ui", "fathom.flow", "fathom.app", "hostmodes.uxplayer")  # the last reads
UI_PARTS = ("screen", "companion", "replay")                              # what screens draw
# above the widget kit: what it must never import (a game's screen reaches the screens around
# the game through App.game_flow(), not by import)
ABOVE_KIT = ("fathom.flow", "fathom.app", "fathom.runner", "fathom.peers", "fathom.link",
             "fathom.streams", "fathom.journal")
FLOW_USERS = ("fathom.flow", "fathom.app")


def modules():
    out = {}
    for p in FIRMWARE.rglob("*.py"):
        parts = list(p.relative_to(FIRMWARE).with_suffix("").parts)
        if parts[0] == "twins" or parts in (["main"], ["manifest"]):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODS = modules()


def resolve(name):
    while name and name not in MODS:
        name = name.rpartition(".")[0]
    return name or None


def imports(path):
    deps = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module + "." + a.name for a in node.names] + [node.module]
        else:
            continue
        for n in names:
            r = resolve(n)
            if r:
                deps.add(r)
    return deps


GRAPH = {m: imports(p) - {m} for m, p in MODS.items()}


def circles(graph):
    """Every import circle a depth-first search closes (a package importing its own parts is
    not one)."""
    state, stack, found = {}, [], []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if d.startswith(m + ".") or d not in graph:
                continue
            if state.get(d) == 1:
                found.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def test_no_import_runs_in_a_circle():
    assert circles(GRAPH) == []


def test_only_screens_import_the_ui():
    bad = {}
    for m, deps in GRAPH.items():
        if m.startswith(UI_USERS) or m.rpartition(".")[2] in UI_PARTS:
            continue
        ui = sorted(d for d in deps if d.startswith("fathom.ui"))
        if ui:
            bad[m] = ui
    assert bad == {}


def above(graph, users, forbidden):
    """{module: the forbidden modules it imports} for every module `users` accepts."""
    bad = {}
    for m, deps in graph.items():
        if users(m):
            hit = sorted(d for d in deps if d.startswith(forbidden))
            if hit:
                bad[m] = hit
    return bad


def test_the_widget_kit_imports_nothing_above_it():
    assert above(GRAPH, lambda m: m.startswith("fathom.ui"), ABOVE_KIT) == {}


def test_only_the_app_and_the_flows_import_a_flow():
    def below(m):
        return m.startswith("fathom") and not m.startswith(FLOW_USERS)
    assert above(GRAPH, below, ("fathom.flow",)) == {}


def test_the_firmware_imports_nothing_host_only():
    bad = {m: sorted(d for d in deps if not d.startswith("fathom"))
           for m, deps in GRAPH.items() if m.startswith("fathom")}
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_checks_can_fail():
    # the reader finds real edges (lazy imports included), and the search finds a circle
    assert "fathom.games" in GRAPH["fathom.games.bots"]
    assert "fathom.ui.listview" in GRAPH["fathom.ui.menu"]
    assert "fathom.runner" in GRAPH["fathom.flow.pairing"]
    assert above({"fathom.ui.x": {"fathom.flow.play"}}, lambda m: True, ABOVE_KIT) == {
        "fathom.ui.x": ["fathom.flow.play"]}
    assert "fathom.games.seat" in GRAPH["hostmodes.seatcopy"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"p": {"p.x"}, "p.x": {"p"}}) == []   # a package and its own part
