# Which MicroPython runs the unix-port tier and the tests that start one (CPython only).
import os
import pathlib
import shutil
import sys


def runtime():
    """FATHOM_RUNTIME: wheel (default, the PyPI build), stock or frozen (32-bit builds)."""
    return os.environ.get("FATHOM_RUNTIME") or "wheel"


def micropython_exe():
    if runtime() != "wheel":
        from fathom_host import runtime as rt
        return str(rt.ensure(runtime()))
    venv = pathlib.Path(sys.executable).parent / "micropython"
    return str(venv) if venv.exists() else shutil.which("micropython")
