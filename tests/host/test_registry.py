# The host tools read their games from the registry and the games' declarations, so a sixth
# game registered from elsewhere (the toy, tests/toy, through FATHOM_GAMES as a developer writing
# a game would) gets its docs pictures from `fathom screenshot --all`, its linked cases in
# `fathom bench device --link`'s plan, and `fathom sim` games, on the host and in the emulated
# units; nothing in host_tools names a game.
import argparse
import ast
import json
import os
import pathlib
import subprocess
import sys

import pytest

from fathom import games
from fathom_host import FathomError, screenshot
from fathom_host.bench import device, device_link

TOY = pathlib.Path(__file__).resolve().parents[1] / "toy"
ROOT = TOY.parent.parent


@pytest.fixture
def toy():
    games.register("toy")
    yield "toy"
    games.unregister("toy")


def fathom(*argv, timeout=300, games_env=str(TOY)):
    env = dict(os.environ, FATHOM_GAMES=games_env)
    return subprocess.run([sys.executable, "-m", "fathom_host.cli"] + list(argv), env=env,
                          capture_output=True, text=True, timeout=timeout)


def link_args(**kw):
    a = argparse.Namespace(runtime=None, game_given=False, game=None)
    for k, v in kw.items():
        setattr(a, k, v)
    return a


def test_the_device_link_plan_has_the_registered_game(toy):
    planned = device_link.cases()
    assert planned["toy"] == ("toy", 2, ())
    assert "toy" in device_link.plan(link_args())
    assert device_link.plan(link_args(game="toy", game_given=True)) == ("toy",)
    # every registered game and group size the declarations allow, nothing else
    want = set()
    for gid in games.IDS:
        lo, hi = games.declaration(gid).PLAYERS
        want |= set((gid, n) for n in (2, 4, hi) if max(lo, 2) <= n <= hi)
    assert set((c[0], c[1]) for c in planned.values()) == want


def test_a_group_case_plays_the_declared_quick_options(toy):
    for name, (gid, n, options) in device_link.cases().items():
        quick = getattr(games.declaration(gid), "QUICK", ())
        assert len(options) == (len(quick) if n > 2 else 0), (name, options)
        labels = dict((o[0], o[1]) for o in games.declaration(gid).OPTIONS)
        assert [label for label, _v in options] == [labels[k] for k, _v in quick][:len(options)]


def test_the_device_link_plan_refuses_a_game_by_name():
    with pytest.raises(FathomError, match="no linked case plays nosuch"):
        device_link.plan(link_args(game="nosuch", game_given=True))


def test_a_game_without_pictures_or_long_bots_gets_the_defaults(toy):
    assert screenshot.recipe("toy") == screenshot.DEFAULT_SHOTS
    assert screenshot.top_level("toy") == "random"   # it has no bots of its own
    assert device.long_level("toy") is None
    with pytest.raises(FathomError, match="unknown game"):
        screenshot.top_level("nosuch")


@pytest.mark.slow   # pictures of every game and linked sim runs: make test, not the fast loop
def test_fathom_screenshot_all_makes_the_registered_games_pictures(tmp_path):
    out = fathom("screenshot", "--all", str(tmp_path), "--game", "toy")
    assert out.returncode == 0, out.stderr[-2000:]
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(["home_128x64.png", "home_72x40.png"] + [
        "toy_%s_%s.png" % (shot, size) for shot in ("board", "menu", "help")
        for size in ("128x64", "72x40")]), made
    home = [line for line in out.stdout.splitlines() if "home_128x64" in line][0]
    assert "Toy" in home, home            # the unit registered it too: its home menu lists it
    board = [line for line in out.stdout.splitlines() if "toy_board_128x64" in line][0]
    assert "Toy" in board and "guess" in board, board


@pytest.mark.slow   # pictures of every game and linked sim runs: make test, not the fast loop
def test_fathom_sim_plays_the_registered_game_on_the_host_and_on_linked_units():
    for argv in (["--games", "6"], ["--games", "1", "--link", "espnow"]):
        out = fathom("sim", "--game", "toy", *argv)
        assert out.returncode == 0, out.stderr[-2000:]
        stats = json.loads(out.stdout.strip().splitlines()[-1])
        assert stats["game"] == "toy" and stats["completed"] == stats["games"], stats
        assert stats["desyncs"] == stats["audit_failures"] == stats["crashes"] == 0, stats


def test_fathom_games_names_a_folder_that_is_not_a_game():
    out = fathom("sim", "--game", "toy", games_env=str(TOY.parent / "mpshim"))
    assert out.returncode == 1
    assert "FATHOM_GAMES" in out.stderr and "not a game folder" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_no_host_tool_names_a_game():
    """Game ids appear in host_tools only in comments, help texts and docstrings."""
    ids = set(games.IDS)
    found = []
    for path in sorted((ROOT / "host_tools" / "fathom_host").rglob("*.py")):
        tree = ast.parse(path.read_text())
        docs = set(id(n.value) for n in ast.walk(tree)
                   if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
        helps = set(id(kw.value) for n in ast.walk(tree) if isinstance(n, ast.Call)
                    for kw in n.keywords if kw.arg == "help")
        for n in ast.walk(tree):
            if (isinstance(n, ast.Constant) and n.value in ids and id(n) not in docs
                    and id(n) not in helps):
                found.append("%s:%d %r" % (path.relative_to(ROOT), n.lineno, n.value))
    assert not found, found
