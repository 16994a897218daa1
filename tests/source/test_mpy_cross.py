# Every firmware file compiles with mpy-cross, as it would for the device (globbed at test time,
# so files added later are covered too).
import pathlib
import subprocess

import pytest

from fathom_host.deploy import mpy_cross_exe

FIRMWARE = pathlib.Path(__file__).resolve().parents[2] / "firmware"
FILES = sorted(FIRMWARE.rglob("*.py"))


def test_there_is_firmware_to_compile():
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIRMWARE)) for p in FILES])
def test_compiles_with_mpy_cross(path):
    exe = mpy_cross_exe()   # fails loudly when there is none
    proc = subprocess.run([exe, "-o", "/dev/null", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr or proc.stdout
