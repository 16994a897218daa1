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
