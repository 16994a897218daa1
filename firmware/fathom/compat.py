# `const` for firmware that also runs on CPython (host tools, tests, the emulator's twins).
# MicroPython's parser folds `NAME = const(value)` by the name `const` alone, wherever it was
# imported from, so taking it from here costs a board nothing; a `_NAME` is then not even a
# global. Ints, strs, bytes, True/False/None fold (MicroPython 1.28 parse.c); on CPython it is
# the identity.
try:
    from micropython import const
except ImportError:
    def const(x):
        return x
