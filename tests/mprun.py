# Runs one test module's functions under MicroPython and prints a line per function:
#   @@ name ok|fail|skip message-as-one-line
# tests/conftest.py starts this with the unix port and turns the lines into pytest results.
import sys
import io

import pytest  # the shim in tests/mpshim

path = sys.argv[1]
name = path.split("/")[-1][:-3]
mod = __import__(name)
for attr in sorted(dir(mod)):
    if not attr.startswith("test_"):
        continue
    fn = getattr(mod, attr)
    if not callable(fn):
        continue
    status = "ok"
    msg = ""
    try:
        cases = pytest.CASES.get(fn, [{}])
        for case in cases:
            fn(**case)
    except Exception as e:
        if type(e).__name__ == "Skipped":
            status = "skip"
            msg = str(e)
        else:
            status = "fail"
            buf = io.StringIO()
            sys.print_exception(e, buf)
            msg = buf.getvalue()
    print("@@", attr, status, msg.replace("\n", "\\n"))
