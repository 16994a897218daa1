# A long game must not die in its save, as one that re-encoded the whole game into one buffer
# per event did. Measured here under the 32-bit runtime (an ESP32's object sizes): a long game
# through Runner and Seat with storage writes at most one small record at a time, as small late
# in the game as early, and (with the project runtime's fathomprobe) no heap block requested
# during play, resume or the audit's replay exceeds 1 KB, however long the game.
import json
import os
import shutil
import subprocess

import pytest

from kit.paths import FIRMWARE, TESTS

pytestmark = pytest.mark.slow  # long games on the 32-bit runtime: make test, not the fast loop


WRITE_MAX = 400        # bytes: one record (an event with its hash and action) and its header;
#                        the largest is a sealed shuffle event: one card, two 96-byte elements
ALLOC_MAX = 1024       # bytes: the brief's "no allocation during play larger than 1 KB"


def runtime32():
    """The project's 32-bit stock runtime, with fathomprobe (built on first use)."""
    from fathom_host import runtime
    return runtime.ensure("stock")


def long_game(tmp_path, gid, min_events, heap):
    root = tmp_path / gid
    env = dict(os.environ, MICROPYPATH="%s:%s" % (FIRMWARE, TESTS))
    proc = subprocess.run([str(runtime32()), "-X", "heapsize=" + heap,
                           str(TESTS / "kit" / "probe_longgame.py"), gid, str(root), str(min_events)],
                          capture_output=True, text=True, env=env, timeout=600)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("longgame ")]
    assert proc.returncode == 0 and lines, proc.stdout[-2000:] + proc.stderr[-3000:]
    shutil.rmtree(root, ignore_errors=True)
    out = json.loads(lines[-1][len("longgame "):])
    print("%s: %d events (%d of my actions), journal %d bytes, largest write %d then %d bytes, "
          "largest heap block: play %s then %s, resume %s, audit %s" % (
              gid, out["events"], out["actions"], out["journal_bytes"], out["halves"][0],
              out["halves"][1], out["play_alloc"][0], out["play_alloc"][1],
              out["resume_alloc"], out["audit_alloc"]))
    return out


# One process holds both seats and compiles the firmware from source, so it gets more heap than
# a unit; whether a unit completes a game in 96 KB is `fathom bench device`'s figure.
# The stock runtime holds every module's bytecode on the heap, so a heap that fits it says little:
# what this test holds is the size of each write and allocation (the frozen runtime's heap
# budgets are tests/device's).
@pytest.mark.parametrize("gid,min_events,heap", [("ping", 300, "192k"),
                                                 ("periplus", 100, "192k")])
def test_a_long_game_writes_and_allocates_only_small_pieces(tmp_path, gid, min_events, heap):
    out = long_game(tmp_path, gid, min_events, heap)
    assert out["events"] >= min_events
    assert out["verdicts"] == [{"1": None}, {"0": None}]
    assert out["resumed_equal"] and out["audit_again"] == {"1": None}
    # the largest write late in the game is no bigger than early on: it does not grow
    early, late = out["halves"]
    assert 0 < early <= WRITE_MAX and 0 < late <= WRITE_MAX
    assert out["journal_bytes"] > 20 * max(early, late)   # the game is far bigger than a write
    if out["play_alloc"][1] is not None:                  # the runtime counts allocations
        for k in ("resume_alloc", "audit_alloc"):
            assert out[k] <= ALLOC_MAX, out
        assert max(out["play_alloc"]) <= ALLOC_MAX, out


# A journal in RAM (tests, `fathom sim`'s units, a seat without storage) must not hold a game in
# one growing block either: a sim unit with 3 MB of its 4 MB heap free failed to grow such a
# list to 16 KB, its long-lived small objects scattered over the whole heap.
RAM_JOURNAL = """
import fathomprobe
from fathom.journal import MemJournal
j = MemJournal()
fathomprobe.reset()
for i in range(3000):
    j.append(["e", i % 2, ["x", i], b"h" * 8])
j.replace(1234, ["forged"])
n = 0
for pos, _end, rec in j.read():
    assert rec == (["forged"] if pos == 1234 else ["e", pos % 2, ["x", pos], b"h" * 8]), pos
    n += 1
print(fathomprobe.max_alloc(), n, j.first()[2][1])
"""


def test_a_ram_journal_holds_a_long_game_in_small_blocks():
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE))
    proc = subprocess.run([str(runtime32()), "-X", "heapsize=2m", "-c", RAM_JOURNAL],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    biggest, n, first = proc.stdout.split()
    assert (n, first) == ("3000", "0")
    print("3,000 records in RAM: largest heap block %s bytes" % biggest)
    assert int(biggest) <= ALLOC_MAX
