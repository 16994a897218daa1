# For the host tools' tests: run the real `fathom` command line in a subprocess; the stand-in
# firmware tree to deploy (kit/host_fixtures.py makes it, and a twin to deploy to).
import os
import subprocess
import sys

from kit.paths import HOST_TOOLS, ROOT  # noqa: F401  (ROOT: for the tests that import it here)
if str(HOST_TOOLS) not in sys.path:
    sys.path.insert(0, str(HOST_TOOLS))


def fathom(*argv, env=None, timeout=60):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(HOST_TOOLS), e.get("PYTHONPATH", "")])
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "fathom_host.cli"] + list(argv),
                          capture_output=True, text=True, env=e, timeout=timeout)


STAND_IN = {
    "main.py": "from fathom import home\nhome.run()\n",
    "fathom/__init__.py": "",
    "fathom/home.py": ("import time\n"
                       "def run():\n"
                       "    print('fathom: home')\n"
                       "    while True:\n"
                       "        time.sleep(0.05)\n"),
    "twins/machine.py": "BOARD = False\n",
}
