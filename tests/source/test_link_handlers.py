# No handler in link/ swallows every exception: a peer's bad input is refused by name, a bug
# surfaces. Reads the sources: an `except Exception`, `except BaseException` or bare `except`
# (alone or in a tuple) must either raise, or bind the exception and use it (`except Exception
# as e: self.refused = str(e)`): what it refused is then recorded, shown or passed on.
import ast
import pathlib

LINK = pathlib.Path(__file__).resolve().parents[2] / "firmware" / "fathom" / "link"
BROAD = ("Exception", "BaseException")


def _names(t):
    if t is None:
        return ["(bare)"]
    if isinstance(t, ast.Tuple):
        return [n for e in t.elts for n in _names(e)]
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, ast.Attribute):
        return [t.attr]
    return []


def _broad(handler):
    return any(n in BROAD or n == "(bare)" for n in _names(handler.type))


def _raises(handler):
    return any(isinstance(n, ast.Raise) for b in handler.body for n in ast.walk(b))


def _names_it(handler):
    """The handler binds the exception and its body reads it."""
    if not handler.name:
        return False
    return any(isinstance(n, ast.Name) and n.id == handler.name and isinstance(n.ctx, ast.Load)
               for b in handler.body for n in ast.walk(b))


def swallowing(source, filename="<src>"):
    """(file:line, what it catches) of every broad handler that neither raises nor names what
    it refused."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ExceptHandler) and _broad(node) and not _raises(node) and \
                not _names_it(node):
            out.append("%s:%d except %s" % (filename, node.lineno, "/".join(_names(node.type))))
    return out


def test_no_handler_in_link_swallows_every_exception():
    found = []
    for p in sorted(LINK.glob("*.py")):
        found += swallowing(p.read_text(), p.name)
    assert found == []


def test_the_check_finds_what_it_forbids_and_passes_what_it_allows():
    bad = ("try:\n    f()\nexcept Exception:\n    self.dropped += 1\n"
           "try:\n    f()\nexcept:\n    pass\n"
           "try:\n    f()\nexcept (ValueError, Exception) as e:\n    count += 1\n")
    assert len(swallowing(bad)) == 3
    good = ("try:\n    f()\nexcept Exception as e:\n    self.refused = str(e)\n"
            "try:\n    f()\nexcept Exception:\n    raise SessionError('bad')\n"
            "try:\n    f()\nexcept (frame.FrameError, SessionError):\n    return None\n")
    assert swallowing(good) == []
