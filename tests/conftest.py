# Test set-up shared by the whole suite, and the dual-runtime plugin: every test module marked
# `pytestmark = pytest.mark.micropython` runs a second time under the real MicroPython unix port
# (FATHOM_RUNTIME picks the wheel's 64-bit build or the 32-bit stock/frozen ones), so nothing
# CPython-only sneaks into the firmware.
#
# How it runs: one `micropython -X heapsize=8m tests/unixport/mprun.py MODULE` process per module, once
# per test session (with xdist, the first worker to need a module runs it under a file lock and
# the other reads its results), calling each test function with each of its parametrize cases
# that the session selected (tests/unixport/pytest.py is the pytest the module sees there). The
# layout of tests/ and where a new test goes: tests/README.md.
# How results are reported: one pytest item per CPython item, named `NAME[micropython]` or, for
# a parametrized case, `NAME[ID-micropython]`, with the CPython item's own marks (a `slow` or
# `bench` test is one in both runtimes); its outcome is that case's under MicroPython. A
# module that fails to import, or a process that dies (a MemoryError outside a test, a crash,
# the 600 s limit), fails every item of the module with the process's output.
# What cannot run there: fixtures of any kind (tmp_path, monkeypatch, yield fixtures: the
# function is called with its parametrize arguments only; a fixture-only module must not be
# marked), pytest features beyond the shim (raises, skip, mark.parametrize), hypothesis,
# CPython-only modules (subprocess, threading, pathlib), and anything needing more than the 8 MB
# heap. A test that must differ (fewer seeds, no heap_lock on CPython) reads
# sys.implementation.name. Cases are matched to pytest's by their parameter values (str, int,
# bytes, bool, None, tuples/lists of those, or a function's name): two cases with equal values
# share one result. Skips (pytest.skip) are reported as skips.
import fcntl
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import uuid

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
FIRMWARE = TESTS.parent / "firmware"
for p in (str(FIRMWARE), str(TESTS)):   # fathom, and the test kit (`from kit.play import ...`)
    if p not in sys.path:
        sys.path.insert(0, p)
try:
    import framebuf  # noqa: F401
except ImportError:  # CPython: the screens draw through the pure-Python stand-in
    sys.path.append(str(TESTS / "cpython_shims"))

from kit.runtimes import micropython_exe, runtime  # noqa: E402


_results = {}


def _case_key(params):
    """A case's parameters as one string, the same from CPython and from mprun.py."""
    def k(v):
        if isinstance(v, (list, tuple)):
            return "(" + ",".join(k(x) for x in v) + ")"
        if v is None or isinstance(v, (bool, int, str, bytes)):
            return repr(v)
        return getattr(v, "__name__", type(v).__name__)
    return ";".join("%s=%s" % (n, k(params[n])) for n in sorted(params))


def _run(path, selected):
    exe = micropython_exe()
    if exe is None:
        pytest.fail("no micropython executable: run `make setup`")
    env = dict(os.environ)
    here = [str(TESTS / "unixport"), str(pathlib.Path(path).parent)]
    if runtime() == "frozen":  # firmware/ before .frozen would shadow the frozen fathom
        here += [str(TESTS), ".frozen", str(FIRMWARE)]
    else:
        here += [str(FIRMWARE), str(TESTS), ".frozen"]
    env["MICROPYPATH"] = os.pathsep.join(here)
    with tempfile.NamedTemporaryFile("w", suffix=".cases", delete=False) as f:
        f.write("".join("%s\t%s\n" % case for case in sorted(selected)))
    try:
        proc = subprocess.run([exe, "-X", "heapsize=8m", str(TESTS / "unixport" / "mprun.py"), str(path),
                               f.name], capture_output=True, text=True, env=env, timeout=600)
        return {"rc": proc.returncode, "out": proc.stdout, "err": proc.stderr}
    except subprocess.TimeoutExpired as e:
        return {"rc": "timeout after 600 s", "out": (e.stdout or b"").decode(errors="replace"),
                "err": (e.stderr or b"").decode(errors="replace")}
    finally:
        os.unlink(f.name)


def _shared_dir():
    """Where xdist workers share module results, or None outside xdist."""
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not uid:
        return None
    d = pathlib.Path(tempfile.gettempdir()) / ("fathom-mp-" + uid)
    d.mkdir(exist_ok=True)
    return d


def run_module_under_micropython(path, selected):
    """{(function, case key): (status, message)} plus "__proc__": the run's exit and output.
    `selected`: the (function, case key) pairs this session runs (a case deselected by a
    marker, `-k` or a node id is not run under MicroPython either)."""
    if path in _results:
        return _results[path]
    shared = _shared_dir()
    if shared is None:
        raw = _run(path, selected)
    else:
        # every worker collects and selects alike; the selection is in the name all the same
        name = "%s-%s" % (runtime(), hashlib.sha256(
            ("%s\n%r" % (path, sorted(selected))).encode()).hexdigest()[:16])
        with open(shared / (name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)   # the other worker waits, then reads
            done = shared / (name + ".json")
            if done.exists():
                raw = json.loads(done.read_text())
            else:
                raw = _run(path, selected)
                done.write_text(json.dumps(raw))
    res = {}
    for line in raw["out"].splitlines():
        if line.startswith("@@\t"):
            _, fn, key, status, msg = line.split("\t", 4)
            res[(fn, key)] = (status, msg.replace("\\n", "\n").replace("\\t", "\t"))
    res["__proc__"] = raw
    _results[path] = res
    return res


class MicroPythonItem(pytest.Item):
    def __init__(self, *, funcname, key, **kw):
        super().__init__(**kw)
        self.funcname = funcname
        self.key = key

    def runtest(self):
        path = str(self.path)
        res = _results.get(path) or run_module_under_micropython(path, {
            (i.funcname, i.key) for i in self.session.items
            if isinstance(i, MicroPythonItem) and str(i.path) == path})
        if (self.funcname, self.key) not in res:
            proc = res["__proc__"]
            raise AssertionError("micropython did not run %s [%s] (exit %s)\n%s\n%s" % (
                self.funcname, self.key, proc["rc"], proc["out"][-2000:], proc["err"][-4000:]))
        status, msg = res[(self.funcname, self.key)]
        if status == "skip":
            pytest.skip(msg)
        if status != "ok":
            raise AssertionError("under micropython:\n" + msg)

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, 0, self.name


def pytest_configure(config):
    # one run id for every worker, chosen here so the controller can clear the shared results
    if not hasattr(config, "workerinput") and hasattr(config.option, "testrunuid") \
            and config.option.testrunuid is None:
        config.option.testrunuid = uuid.uuid4().hex


def pytest_sessionfinish(session):
    uid = getattr(session.config.option, "testrunuid", None)
    if uid and not hasattr(session.config, "workerinput"):
        shutil.rmtree(pathlib.Path(tempfile.gettempdir()) / ("fathom-mp-" + uid),
                      ignore_errors=True)


# A clone with no MicroPython 1.28 source beside it and no network to fetch one: each test that
# needs the 32-bit runtime fails with the one line saying how to get the source (not a
# traceback), and the summary says it once for all of them.
_NO_SOURCE = "fathom: no MicroPython 1.28 source"
_no_source = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.excinfo is None:
        return
    from fathom_host.runtime import SourceMissing
    if isinstance(call.excinfo.value, SourceMissing):
        outcome.get_result().longrepr = "fathom: %s" % call.excinfo.value


def pytest_runtest_logreport(report):
    if report.failed and str(report.longrepr).startswith(_NO_SOURCE):
        _no_source.append(str(report.longrepr))


def pytest_terminal_summary(terminalreporter):
    if _no_source:
        terminalreporter.write_line("%d test%s need the MicroPython 1.28 source: %s" % (
            len(_no_source), "" if len(_no_source) == 1 else "s", _no_source[0][len("fathom: "):]),
            red=True, bold=True)


# `make test` hands whole files to its workers (--dist loadfile) in the order collected here
# (--no-loadscope-reorder): the heaviest first, so that the last worker does not finish a long
# file alone while the others sit idle (xdist's own order, most tests first, left single-test
# files of a minute for the end). The slowest files of `make test` on 2 cores (2026-11-28,
# --durations=0 summed per file, its MicroPython run included), heaviest first; the rest
# follow in collection order. A listed file that no longer exists fails
# tests/source/test_heavy_first.py.
HEAVY_FIRST = (
    "engines/test_every_game.py",
    "engines/test_sugardog_groups.py",
    "e2e/test_play_e2e.py",
    "e2e/test_ashtapada_e2e.py",
    "e2e/test_reboot_e2e.py",
    "bench/test_bench_fast.py",
    "e2e/test_pinned_down_e2e.py",
    "device/test_device_budget.py",
    "sealed/test_sealed_games.py",
    "e2e/test_peer_attacks_e2e.py",
    "runner/test_resume_gap.py",
    "runner/test_group_auth.py",
    "e2e/test_group_withhold_e2e.py",
    "runner/test_journal_memory.py",
    "engines/test_pinned_down_play.py",
    "e2e/test_sugardog_e2e.py",
    "companion/test_companion_screen.py",
    "ui/test_pinned_down_screen.py",
    "ui/test_replay.py",
    "e2e/test_companion_e2e.py",
    "web/test_web_group.py",
)


def _heavy_rank(item):
    name = item.path.relative_to(TESTS).as_posix()
    return _RANK.get(name, len(_RANK))


_RANK = {name: i for i, name in enumerate(HEAVY_FIRST)}


def pytest_collection_modifyitems(session, config, items):
    out = []
    for item in items:
        out.append(item)
        if not isinstance(item, pytest.Function) or item.get_closest_marker("micropython") is None:
            continue
        cs = getattr(item, "callspec", None)
        params = dict(cs.params) if cs else {}
        name = "%s[%s-micropython]" % (item.originalname, cs.id) if cs else \
            item.originalname + "[micropython]"
        twin = MicroPythonItem.from_parent(item.parent, name=name, funcname=item.originalname,
                                           key=_case_key(params))
        for m in item.own_markers:   # the function's and its case's marks (slow, bench)
            if m.name != "parametrize":
                twin.add_marker(getattr(pytest.mark, m.name)(*m.args, **m.kwargs))
        out.append(twin)
    out.sort(key=_heavy_rank)  # stable: every file's tests stay in their order
    items[:] = out
