# Test set-up shared by the whole suite, and the plugin that runs `micropython`-marked test
# modules a second time under the real MicroPython unix port (one run per module, one pytest
# result per test function), so nothing CPython-only sneaks into the firmware.
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
TESTS = ROOT / "tests"
for p in (str(FIRMWARE), str(TESTS)):
    if p not in sys.path:
        sys.path.insert(0, p)


def runtime():
    """FATHOM_RUNTIME: wheel (default, the PyPI build), stock or frozen (32-bit builds)."""
    return os.environ.get("FATHOM_RUNTIME") or "wheel"


def micropython_exe():
    if runtime() != "wheel":
        from fathom_host import runtime as rt
        return str(rt.ensure(runtime()))
    venv = pathlib.Path(sys.executable).parent / "micropython"
    return str(venv) if venv.exists() else shutil.which("micropython")


_results = {}


def run_module_under_micropython(path):
    if path in _results:
        return _results[path]
    exe = micropython_exe()
    if exe is None:
        pytest.fail("no micropython executable: run `make setup`")
    env = dict(os.environ)
    here = [str(TESTS / "mpshim"), str(pathlib.Path(path).parent)]
    if runtime() == "frozen":  # firmware/ before .frozen would shadow the frozen fathom
        here += [str(TESTS), ".frozen", str(FIRMWARE)]
    else:
        here += [str(FIRMWARE), str(TESTS), ".frozen"]
    env["MICROPYPATH"] = os.pathsep.join(here)
    proc = subprocess.run([exe, "-X", "heapsize=8m", str(TESTS / "mprun.py"), str(path)],
                          capture_output=True, text=True, env=env, timeout=600)
    res = {}
    for line in proc.stdout.splitlines():
        if line.startswith("@@ "):
            parts = line[3:].split(" ", 2)
            res[parts[0]] = (parts[1], parts[2].replace("\\n", "\n") if len(parts) > 2 else "")
    res["__proc__"] = proc
    _results[path] = res
    return res


class MicroPythonItem(pytest.Item):
    def __init__(self, *, funcname, **kw):
        super().__init__(**kw)
        self.funcname = funcname

    def runtest(self):
        res = run_module_under_micropython(str(self.path))
        if self.funcname not in res:
            proc = res["__proc__"]
            raise AssertionError("micropython did not run %s (exit %s)\n%s\n%s" % (
                self.funcname, proc.returncode, proc.stdout[-2000:], proc.stderr[-4000:]))
        status, msg = res[self.funcname]
        if status == "skip":
            pytest.skip(msg)
        if status != "ok":
            raise AssertionError("under micropython:\n" + msg)

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, 0, "%s[micropython]" % self.funcname


def pytest_collection_modifyitems(session, config, items):
    out = []
    seen = set()
    for item in items:
        out.append(item)
        if not isinstance(item, pytest.Function) or item.get_closest_marker("micropython") is None:
            continue
        key = (str(item.path), item.originalname)
        if key in seen:
            continue
        seen.add(key)
        out.append(MicroPythonItem.from_parent(
            item.parent, name=item.originalname + "[micropython]", funcname=item.originalname))
    items[:] = out
