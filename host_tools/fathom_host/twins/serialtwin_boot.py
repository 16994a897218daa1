# Runs inside the MicroPython unix port for the serial twin (serialtwin.py): makes the unit's
# folder the device filesystem, runs main.py as a board would, then executes the code the host
# side hands it. Not firmware: it is never deployed.
# argv: boot.py UNIT_DIR TWINS_DIR main|nomain.  Host -> here: b"<mode><len>\n<code>" on stdin,
# mode x = exec, s = REPL line. Here -> host: output on stdout, with MARK+letter lines:
# R ready, E error text follows, D command done, X soft reset wanted (sys.exit()).
import sys
import vfs
import os

MARK = b"\x00\x1b\x1dTWIN:"
_out = sys.stdout.buffer
_in = sys.stdin.buffer


def mark(letter):
    _out.write(MARK + letter + b"\n")


def error_text(e):
    import io
    buf = io.StringIO()
    sys.print_exception(e, buf)
    # Hide this file's own frames: a board's traceback starts at the user's code.
    return "\n".join(l for l in buf.getvalue().split("\n") if "serialtwin_boot" not in l)


def run(source, mode, env):
    """Run code; returns True when it asked for a soft reset."""
    err = ""
    try:
        if mode == "s":
            exec(compile(source, "<stdin>", "single"), env)
        else:
            exec(source, env)
    except SystemExit:
        return True
    except BaseException as e:  # noqa: B036 - a REPL shows every exception, as a board does
        err = error_text(e)
    mark(b"E")
    _out.write(err.encode())
    mark(b"D")
    return False


def read_command():
    head = _in.readline()
    if not head:
        return None, None
    mode = chr(head[0])
    n = int(head[1:])
    data = b""
    while len(data) < n:
        chunk = _in.read(n - len(data))
        if not chunk:
            return None, None
        data += chunk
    return mode, data.decode()


def main():
    unit_dir, twins_dir, with_main = sys.argv[1], sys.argv[2], sys.argv[3] == "main"
    vfs.mount(vfs.VfsPosix(unit_dir), "/")
    vfs.mount(vfs.VfsPosix(twins_dir), "/_twins")
    sys.path[:] = ["", ".frozen", "/_twins", "/", "/lib"]
    os.chdir("/")
    env = {"__name__": "__main__"}
    if with_main:
        try:
            os.stat("main.py")
            has_main = True
        except OSError:
            has_main = False
        if has_main:
            try:
                exec(open("main.py").read(), env)
            except SystemExit:
                mark(b"X")
                return
            except BaseException as e:  # noqa: B036
                _out.write(error_text(e).encode())
    while True:
        mark(b"R")
        try:
            mode, source = read_command()
        except KeyboardInterrupt:  # a late Ctrl-C from the host, after the code had finished
            continue
        if mode is None:
            return
        if run(source, mode, env):
            mark(b"X")
            return


main()
