# Browser twin of `os`: the WebAssembly port's own module plus getenv, which it lacks. The page
# hands each unit its environment (FATHOM_UNIT, FATHOM_BOARD...) as the emulator's processes get
# theirs, so the firmware and the twins read it the same way.
import sys

_path = sys.path[:]
sys.path.clear()  # with no path, the import below finds the built-in module, not this file
try:
    from os import *  # noqa: F401,F403
finally:
    sys.path.extend(_path)
del _path

environ = {}


def getenv(key, default=None):
    return environ.get(key, default)


def urandom(n):
    """n bytes from the browser's cryptographic generator (crypto.getRandomValues), as the
    unix port's come from the OS's and a board's from its hardware generator."""
    import page
    from binascii import unhexlify
    return unhexlify(page.random_hex(n))
