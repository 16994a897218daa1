# The slice of pytest that tests marked `micropython` may use, for running them on the unix port.
import re

CASES = {}  # test function -> list of keyword-argument dicts from parametrize


class Skipped(Exception):
    pass


def skip(msg=""):
    raise Skipped(msg)


class _Raises:
    def __init__(self, exc, match):
        self.exc = exc
        self.match = match
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            raise AssertionError("DID NOT RAISE " + str(self.exc))
        if not issubclass(et, self.exc):
            return False
        if self.match and not re.search(self.match, str(ev)):
            raise AssertionError("%r does not match %r" % (str(ev), self.match))
        self.value = ev
        return True


def raises(exc, match=None):
    return _Raises(exc, match)


class _Mark:
    def __init__(self, name, args=()):
        self.name = name
        self.args = args

    def __call__(self, *args, **kw):
        if len(args) == 1 and callable(args[0]) and not kw and not self.args:
            return args[0]
        m = _Mark(self.name, args)
        return m._decorate if self.name == "parametrize" else (lambda f: f)

    def _decorate(self, f):
        names, values = self.args[0], self.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        cases = CASES.get(f, [{}])
        new = []
        for case in cases:
            for v in values:
                if len(names) == 1:
                    v = (v,)
                d = dict(case)
                for n, x in zip(names, v):
                    d[n] = x
                new.append(d)
        CASES[f] = new  # MicroPython functions take no attributes
        return f


class _MarkGen:
    def __getattr__(self, name):
        return _Mark(name)


mark = _MarkGen()
