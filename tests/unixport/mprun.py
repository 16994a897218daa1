# Runs one test module's functions under MicroPython, each parametrize case on its own (only the
# cases listed in the file named by the second argument, when there is one: those the pytest
# session selected), and prints a line per case (tab-separated; the case key as
# tests/conftest.py's _case_key makes it):
#   @@ <function> <case key> ok|fail|skip <message on one line>
# tests/conftest.py starts this with the unix port and turns the lines into pytest results.
import sys
import io

import pytest  # the shim beside this file, tests/unixport/pytest.py


def key(v):
    if isinstance(v, (list, tuple)):
        return "(" + ",".join(key(x) for x in v) + ")"
    if v is None or isinstance(v, (bool, int, str, bytes)):
        return repr(v)
    return getattr(v, "__name__", type(v).__name__)


def case_key(case):
    return ";".join("%s=%s" % (n, key(case[n])) for n in sorted(case))


def one_line(s):
    return s.replace("\t", "\\t").replace("\n", "\\n")


path = sys.argv[1]
selected = None
if len(sys.argv) > 2:
    with open(sys.argv[2]) as f:
        selected = set(line.rstrip("\n") for line in f)
name = path.split("/")[-1][:-3]
mod = __import__(name)
for attr in sorted(dir(mod)):
    if not attr.startswith("test_"):
        continue
    fn = getattr(mod, attr)
    if not callable(fn):
        continue
    for case in pytest.CASES.get(fn, [{}]):
        if selected is not None and attr + "\t" + case_key(case) not in selected:
            continue
        status = "ok"
        msg = ""
        try:
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
        print("\t".join(("@@", attr, case_key(case), status, one_line(msg))))
