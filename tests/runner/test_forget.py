# Dropping a module leaves no path to it: not in sys.modules, not on its package.
import sys

import pytest

pytestmark = pytest.mark.micropython


def test_forget_drops_a_module_from_sys_modules_and_its_package():
    import fathom.ui
    import fathom.ui.dialog  # noqa: F401
    from fathom import forget
    assert "fathom.ui.dialog" in sys.modules and hasattr(fathom.ui, "dialog")
    forget("fathom.ui.dialog")
    assert "fathom.ui.dialog" not in sys.modules
    assert not hasattr(fathom.ui, "dialog")
    forget("fathom.ui.dialog")  # twice is fine
    import fathom.ui.dialog as again  # and it comes back on the next import
    assert again.Message


def test_unloading_a_game_leaves_a_live_engine_working():
    # Unloading drops every part of a game (engine, board, track, bot, screen...) but keeps its
    # declaration, which the menus read; an engine still in use keeps the modules it imported.
    # Once the engine was the package itself and forgetting `track` stripped it from the live
    # engine's globals (NameError mid-game); now parts are modules beside the declaration.
    from fathom import games
    from fathom.prng import Prng
    eng = games.engine("ping")
    games.part("ping", "screen")
    games.unload("ping")
    assert "fathom.games.ping" in sys.modules
    assert not [m for m in sys.modules if m.startswith("fathom.games.ping.")]
    pub = eng.new_game(eng.options({}), 2, Prng(b"s", b"game"))
    assert pub["turns"] == 0
    assert games.engine("ping") is not eng   # the next game imports it afresh
