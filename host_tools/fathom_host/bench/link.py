# `fathom bench link` and the link's end-to-end tests: two real unit processes (the firmware's
# headless linktest mode, firmware/hostmodes/linktest.py) pair over the emulated ESP-NOW or UART
# and soak N messages each way through the ether's faults; this collects their JSON lines and
# the ether's counters into per-message wire costs, retransmissions and throughput.
import json
import os
import signal
import subprocess
import tempfile
import threading
import time

from fathom_host import BOARDS, FathomError
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import boot_script, default_runtime, micropython_exe, runtime_env

PREFIX = "fathom-linktest "
LOSSES = (0.0, 0.1, 0.3)
LINKS = ("espnow", "uart")
BENCH_N = 200            # messages each way per run of the bench
FAST_N = 24              # the fast form's (`make test`): two rounds of the 12 sizes
RUN_TIMEOUT_S = 120      # one pair of units finishing N messages each way


class LinkUnit:
    """One headless unit process in linktest mode; its JSON lines land in `events`."""

    def __init__(self, index, ether, kind, n, workdir, env=None):
        self.index = index
        self.ether = ether
        self.kind = kind
        self.n = n
        self.dir = os.path.join(str(workdir), "unit%d" % index)
        self.extra = dict(env or {})
        self.proc = None
        self.events = []
        self.lines = []
        self.cond = threading.Condition()
        os.makedirs(self.dir, exist_ok=True)

    def env(self):
        e = dict(os.environ)
        e.update({
            "FATHOM_UNIT": str(self.index), "FATHOM_DIR": self.dir,
            "FATHOM_BOARD": str(BOARDS / "host.json"), "FATHOM_ETHER": self.ether.address,
            "FATHOM_LINKTEST": "1", "FATHOM_LINKTEST_N": str(self.n), "FATHOM_LINK": self.kind,
        })
        e.update(runtime_env(default_runtime()))
        e.pop("FATHOM_HUB", None)
        e.update(self.extra)
        return e

    def start(self):
        script, cwd = boot_script(default_runtime(), self.dir)
        self.proc = subprocess.Popen(
            [micropython_exe(), "-X", "heapsize=4m", str(script)], env=self.env(), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            stdin=subprocess.DEVNULL, start_new_session=True)
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()
        return self

    def _read(self, proc):
        for line in proc.stdout:
            line = line.rstrip("\n")
            with self.cond:
                self.lines.append(line)
                if line.startswith(PREFIX):
                    try:
                        self.events.append(json.loads(line[len(PREFIX):]))
                    except ValueError:
                        pass
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def kill(self):
        """Pull the power: SIGKILL, nothing flushed, nothing said goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(5)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def find(self, event, pred=None):
        with self.cond:
            for e in self.events:
                if e.get("event") == event and (pred is None or pred(e)):
                    return e
        return None

    def wait(self, event, pred=None, timeout=RUN_TIMEOUT_S):
        """The first event of that kind matching pred; FathomError on timeout or exit."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                got = self.find(event, pred)
                if got is not None:
                    return got
                if self.proc.poll() is not None and not self._reading():
                    raise FathomError("unit %d exited without %s:\n%s" % (
                        self.index, event, self.tail()))
                left = end - time.monotonic()
                if left <= 0:
                    raise FathomError("unit %d: no %s in %ss:\n%s" % (
                        self.index, event, timeout, self.tail()))
                self.cond.wait(min(left, 0.2))

    def _reading(self):
        return self.proc.stdout is not None and not self.proc.stdout.closed and \
            self.proc.poll() is None

    def tail(self, n=25):
        with self.cond:
            return "\n".join(self.lines[-n:])

    def result(self):
        return self.find("result")


class LinkRun:
    """Two units (0 and 1) on one ether with faults; a context manager that cleans up."""

    def __init__(self, kind, n, seed=1, workdir=None, **knobs):
        if kind not in LINKS:
            raise FathomError("link is espnow or uart, not %r" % kind)
        self.kind = kind
        self.n = n
        self.ether = Ether(seed=seed, **knobs)
        self.tmp = None
        if workdir is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="fathom-linktest-")
            workdir = self.tmp.name
        self.workdir = workdir
        self.units = []

    def __enter__(self):
        self.ether.start()
        self.units = [LinkUnit(i, self.ether, self.kind, self.n, self.workdir) for i in (0, 1)]
        for u in self.units:
            u.start()
        return self

    def __exit__(self, *exc):
        for u in self.units:
            u.kill()
        self.ether.stop()
        if self.tmp is not None:
            self.tmp.cleanup()

    def restart(self, i):
        """Kill unit i and boot it again on the same storage."""
        u = self.units[i]
        u.kill()
        v = LinkUnit(i, self.ether, self.kind, self.n, self.workdir, u.extra)
        self.units[i] = v
        return v.start(), u

    def results(self, timeout=RUN_TIMEOUT_S):
        return [u.wait("result", timeout=timeout) for u in self.units]


def measure(kind, loss, n=BENCH_N, seed=1, timeout=RUN_TIMEOUT_S, **knobs):
    """One bench cell: N messages each way at `loss`, as costs per delivered message.

    frames/bytes count what the two keyed channels sent (the soak and the few set-up
    messages); wire_bytes is what the ether carried from pairing to the end, UART byte
    framing included; the rate is messages delivered in both directions per second, from
    pairing to the later unit's last message."""
    t0 = time.monotonic()
    with LinkRun(kind, n, seed=seed, loss=loss, **knobs) as run:
        try:
            res = run.results(timeout)
        except FathomError as e:
            return {"loss": loss, "error": str(e).splitlines()[0]}
        wire = run.ether.counters[kind]
    delivered = sum(r["recv"] for r in res)
    if not delivered:
        return {"loss": loss, "error": "nothing delivered"}
    st = [r["stats"] for r in res]
    retx = sum(s["retransmits"] for s in st)
    ms = max(r["ms"] for r in res)
    out = {
        "loss": loss, "ok": all(r["ok"] for r in res), "delivered": delivered,
        "frames_per_msg": round(sum(s["frames_sent"] for s in st) / delivered, 2),
        "bytes_per_msg": round(sum(s["bytes_sent"] for s in st) / delivered, 1),
        "wire_bytes_per_msg": round(wire["bytes"] / delivered, 1),
        "retransmits": retx,
        "retransmits_per_msg": round(retx / delivered, 3),
        "msgs_per_s": round(delivered * 1000.0 / ms, 1) if ms else None,
        "wall_s": round(time.monotonic() - t0, 1),
    }
    out.update(knobs)
    return out


def add_arguments(p):
    from fathom_host.bench import runtime_option
    runtime_option(p)


def collect(args):
    n = getattr(args, "messages", None) or int(os.environ.get("FATHOM_BENCH_LINK_N", BENCH_N))
    if getattr(args, "fast", False):
        n = FAST_N
    out = {"messages_each_way": n, "payload_bytes": "1 to 700; 4 sizes in 12 span 2 to 4 frames"}
    for kind in LINKS:
        for loss in LOSSES:
            out["%s_loss%d" % (kind, round(loss * 100))] = measure(kind, loss, n)
    return out
