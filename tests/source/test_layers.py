# The layers hold: read every firmware module's imports (the lazy ones inside functions too) and
# check that only screens import the UI, that the widget kit (fathom.ui) reaches up to no flow,
# runner, peer or link, that only the app and the flows import a flow, that no engine imports
# its words, and that the firmware a board runs imports nothing that exists only on the host.
from test_import_cycles import ROOT, TREES, imports, modules

FIRMWARE = ROOT / "firmware"

# the import walk is test_import_cycles.py's (which also finds the circles); the twins stand in
# for a board's own modules (machine, espnow), so an import of one is the board's, not the host's
TWINS = FIRMWARE / "twins"
_KNOWN = modules(TREES["firmware"])
MODS = {m: p for m, p in _KNOWN.items()
        if TWINS not in p.parents and m not in ("main", "manifest")}
GRAPH = {m: imports(m, p, _KNOWN) & MODS.keys() - {m} for m, p in MODS.items()}
# may import fathom.ui: the UI itself, the app that runs it, and each game's screen/companion
UI_USERS = ("fathom.ui", "fathom.flow", "fathom.app", "hostmodes.uxplayer")  # the last reads
UI_PARTS = ("screen", "companion", "replay")                              # what screens draw
# above the widget kit: what it must never import (a game's screen reaches the screens around
# the game through App.game_flow(), not by import)
ABOVE_KIT = ("fathom.flow", "fathom.app", "fathom.runner", "fathom.peers", "fathom.link",
             "fathom.streams", "fathom.journal")
FLOW_USERS = ("fathom.flow", "fathom.app")


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


def test_an_engine_never_imports_its_words():
    # the words import the engine for its names (games.describe finds them by the registry)
    engines = [m for m in GRAPH if m.startswith("fathom.games.") and m.endswith(".engine")]
    assert len(engines) >= 5
    bad = {m: sorted(d for d in GRAPH[m] if d.endswith(".say")) for m in engines}
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_firmware_imports_nothing_host_only():
    bad = {m: sorted(d for d in deps if not d.startswith("fathom"))
           for m, deps in GRAPH.items() if m.startswith("fathom")}
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_checks_can_fail():
    # the reader finds real edges (lazy imports included), and the layer check names a breach
    assert "fathom.games" in GRAPH["fathom.games.bots"]
    assert "fathom.ui.listview" in GRAPH["fathom.ui.menu"]
    assert "fathom.runner" in GRAPH["fathom.flow.pairing"]
    assert above({"fathom.ui.x": {"fathom.flow.play"}}, lambda m: True, ABOVE_KIT) == {
        "fathom.ui.x": ["fathom.flow.play"]}
    assert "fathom.games.seat" in GRAPH["hostmodes.seatcopy"]
