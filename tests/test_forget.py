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
    # A package re-imported after a partial unload comes after its submodules in sys.modules;
    # unloading in that order once stripped `track` from the PING package while an engine
    # still used it (NameError in a live game). Parents are forgotten before their children.
    from fathom import forget, games
    from fathom.prng import Prng
    import fathom.games.ping  # noqa: F401
    forget("fathom.games.ping")            # the package goes, its submodules stay loaded
    import fathom.games.ping as ping       # and comes back, after them
    eng = ping.ENGINE
    games.unload("ping")
    assert "fathom.games.ping" not in sys.modules
    assert not [m for m in sys.modules if m.startswith("fathom.games.ping.")]
    pub = eng.new_game(eng.options({}), 2, Prng(b"s", b"game"))
    assert pub["turns"] == 0
