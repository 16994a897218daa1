# firmware/manifest.py, read by MicroPython's own manifest tool: it freezes exactly the fathom
# package's modules, no host-only code (twins, hostmodes) and no data files, and an ESP32 build
# still gets its port's own frozen modules.
import sys

import pytest

from kit.host import ROOT
from fathom_host import runtime

FIRMWARE = ROOT / "firmware"


@pytest.fixture(scope="module")
def manifestfile():
    runtime.ensure("frozen")         # extracts the MicroPython tree that holds the tool
    tools = str(runtime.BUILD_DIR / "src" / "tools")
    sys.path.insert(0, tools)
    try:
        import manifestfile as m
        yield m
    finally:
        sys.path.remove(tools)


def _frozen(m, top, port_dir):
    mf = m.ManifestFile(m.MODE_FREEZE, {"PORT_DIR": str(port_dir), "MPY_DIR": "/nowhere",
                                           "MPY_LIB_DIR": None, "BOARD_DIR": None})
    mf.execute(str(top))
    return sorted(r.target_path for r in mf.files())


def test_freezes_the_fathom_package_only(manifestfile, tmp_path):
    top = tmp_path / "manifest.py"
    top.write_text("include(%r, port_modules=False)\n" % str(FIRMWARE / "manifest.py"))
    got = _frozen(manifestfile, top, tmp_path)
    want = sorted(p.relative_to(FIRMWARE).as_posix()
                  for p in (FIRMWARE / "fathom").rglob("*.py"))
    assert got == want
    assert "fathom/res.py" in got and "fathom/games/pinned_down/cards.py" in got
    assert not [t for t in got if not t.startswith("fathom/")]


def test_a_board_build_includes_its_port_modules(manifestfile, tmp_path):
    port = tmp_path / "esp32"
    (port / "boards").mkdir(parents=True)
    (port / "boards" / "manifest.py").write_text("module('neopixel.py', base_path=%r)\n"
                                                 % str(port))
    (port / "neopixel.py").write_text("")
    got = _frozen(manifestfile, FIRMWARE / "manifest.py", port)
    assert "neopixel.py" in got and "fathom/app.py" in got
