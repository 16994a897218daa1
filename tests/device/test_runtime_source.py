# Where the 32-bit runtimes' MicroPython 1.28 source comes from on a machine that has only the
# clone: a tarball is checked by its pinned SHA-256, a fetched clone by the pinned commit of tag
# v1.28.0; the fetch is the `git clone --branch v1.28.0 --depth 1` README names (run here against
# a local repository standing for the network); with no source and no network the tests that
# need it fail with one line saying how to get it.
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from fathom_host import FathomError, runtime

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _git(cwd, *args):
    return subprocess.run(["git", "-C", str(cwd)] + list(args), check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def upstream(tmp_path):
    """A bare repository with a 1.28.0 tree tagged v1.28.0 and a commit after it: the
    'network'. Returns (file URL, the tag's commit)."""
    work = tmp_path / "upstream-work"
    (work / "py").mkdir(parents=True)
    (work / "py" / "gc.c").write_text("/* gc */\n")
    (work / "py" / "mpconfig.h").write_text("#define MICROPY_VERSION_MAJOR 1\n"
                                            "#define MICROPY_VERSION_MINOR 28\n"
                                            "#define MICROPY_VERSION_MICRO 0\n")
    _git(tmp_path, "init", "-q", str(work))
    for k, v in (("user.email", "t@example.org"), ("user.name", "t")):
        _git(work, "config", k, v)
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "older")
    (work / "py" / "gc.c").write_text("/* gc, 1.28 */\n")
    _git(work, "commit", "-qam", "release")
    _git(work, "tag", "v1.28.0")
    tagged = _git(work, "rev-parse", "HEAD")
    (work / "later.txt").write_text("after the tag\n")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "later")
    bare = tmp_path / "micropython.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    return "file://%s" % bare, tagged


@pytest.fixture(autouse=True)
def fresh_fetch(monkeypatch):
    monkeypatch.setattr(runtime, "_fetch_failed", None)


def test_the_fetch_is_the_clone_readme_names(tmp_path):
    cmd = runtime.fetch_command(runtime.GIT_URL, tmp_path / "mp")
    assert cmd[0] == "git"
    assert cmd[cmd.index("clone"):] == ["clone", "--quiet", "--branch", "v1.28.0", "--depth", "1",
                                        "https://github.com/micropython/micropython",
                                        str(tmp_path / "mp")]
    readme = (ROOT / "README.md").read_text()
    assert "git clone --branch v1.28.0 --depth 1" in readme
    assert runtime.TAG_COMMIT in readme


def test_a_fetch_clones_the_tag_alone_and_checks_its_commit(tmp_path, upstream, capsys):
    url, tagged = upstream
    dest = tmp_path / "build" / "micropython-1.28.0"
    got = runtime.fetch_source(url, dest, commit=tagged)
    assert got == dest
    assert _git(dest, "rev-parse", "HEAD") == tagged
    assert _git(dest, "rev-parse", "--is-shallow-repository") == "true"   # --depth 1
    assert not (dest / "later.txt").exists()                                # the tag, not main
    assert not dest.with_name(dest.name + ".part").exists()
    err = capsys.readouterr().err
    assert "fetching it: git clone --branch v1.28.0 --depth 1 %s %s.part" % (url, dest) in err
    assert "commit %s... (tag v1.28.0) as pinned" % tagged[:12] in err
    assert runtime.check_source(dest, commit=tagged) == dest


def test_a_clone_at_another_commit_than_the_pin_is_refused(tmp_path, upstream):
    url, tagged = upstream
    dest = tmp_path / "mp"
    with pytest.raises(FathomError) as e:
        runtime.fetch_source(url, dest)                 # pinned: upstream's e0e9fbb...
    assert "is at commit %s, not %s (tag v1.28.0)" % (tagged[:12], runtime.TAG_COMMIT[:12]) \
        in str(e.value)
    assert not dest.exists() and not (tmp_path / "mp.part").exists()


def test_no_network_is_one_line_saying_how_to_get_the_source(tmp_path):
    with pytest.raises(runtime.SourceMissing) as e:
        runtime.fetch_source("file://%s/nowhere.git" % tmp_path, tmp_path / "mp")
    text = str(e.value)
    assert "\n" not in text
    assert text.startswith("no MicroPython 1.28 source, and fetching it failed (")
    assert "make setup" in text and runtime.TARBALL in text and "--source" in text
    with pytest.raises(runtime.SourceMissing):          # not tried again in this process
        runtime.fetch_source(runtime.GIT_URL, tmp_path / "mp")


def test_a_tarball_must_have_the_pinned_digest(tmp_path):
    wrong = tmp_path / runtime.TARBALL
    wrong.write_bytes(b"not the source")
    with pytest.raises(FathomError) as e:
        runtime.check_source(wrong)
    assert "is not the pinned MicroPython 1.28 source" in str(e.value)
    assert runtime.TARBALL_SHA256 in str(e.value)
    if runtime.DEFAULT_SOURCE.exists():
        assert runtime.check_source(runtime.DEFAULT_SOURCE) == runtime.DEFAULT_SOURCE


def test_a_tree_that_is_not_1_28_is_refused(tmp_path):
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "mpconfig.h").write_text("#define MICROPY_VERSION_MAJOR 1\n"
                                                "#define MICROPY_VERSION_MINOR 27\n"
                                                "#define MICROPY_VERSION_MICRO 0\n")
    with pytest.raises(FathomError) as e:
        runtime.check_source(tmp_path)
    assert "is not a MicroPython 1.28.0 tree (py/mpconfig.h says 1.27.0)" in str(e.value)


@pytest.mark.slow   # a whole pytest run in a copy of the repository
def test_a_bare_clone_without_network_fails_its_runtime_tests_with_one_line(tmp_path):
    """The repository copied alone (no ../shared beside it), no network: the tests needing the
    32-bit runtime fail, each with the one line, and the summary says how to get the source."""
    clone = tmp_path / "only" / "fathom"
    for part in ("firmware", "host_tools", "tests", "boards"):
        shutil.copytree(ROOT / part, clone / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copy(ROOT / "pytest.ini", clone / "pytest.ini")
    assert not (clone.parent.parent / "shared").exists()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FATHOM_", "PYTEST_"))}
    env.update(PYTHONPATH=str(clone / "host_tools"),
               FATHOM_MP_GIT="file://%s/no-network.git" % tmp_path)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                           "tests/device/test_manifest.py"], cwd=str(clone), env=env,
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Traceback" not in out and "runtime.py:" not in out, out
    line = [x for x in out.splitlines() if x.startswith("2 tests need the MicroPython 1.28 source")]
    assert len(line) == 1, out
    assert "fetching it failed" in line[0] and "make setup" in line[0]
    assert not (clone / "build" / "micropython-1.28.0").exists()
