# Shared by tests/test_hosttools_*.py: run the real `fathom` command line in a subprocess.
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOST_TOOLS = ROOT / "host_tools"
if str(HOST_TOOLS) not in sys.path:
    sys.path.insert(0, str(HOST_TOOLS))


def fathom(*argv, env=None, timeout=60):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(HOST_TOOLS), e.get("PYTHONPATH", "")])
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "fathom_host.cli"] + list(argv),
                          capture_output=True, text=True, env=e, timeout=timeout)
