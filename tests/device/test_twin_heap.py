# The 32-bit runtimes keep what the twins allocate (while they hold the probe) in a heap area of
# their own: on a board those are C drivers' buffers, not the MicroPython heap. So -X heapsize is
# the firmware's heap alone and gc.mem_alloc counts only it; and fathomprobe.reach, the heap
# watch's breakdown, charges a structure the blocks it reaches.
import subprocess

import pytest

from fathom_host import runtime

pytestmark = pytest.mark.slow  # may build the frozen runtime first


def run(code, heap="96k"):
    r = subprocess.run([str(runtime.ensure("frozen")), "-X", "heapsize=" + heap, "-c", code],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return [int(x) for x in r.stdout.split()]


def test_held_blocks_live_outside_the_units_heap():
    used, free_before, free_after, own = run("""
import gc, fathomprobe
gc.collect(); a = gc.mem_alloc(); f = gc.mem_free()
fathomprobe.hold(1)
twin = [bytearray(1000) for i in range(300)]  # 300 KB: three times the unit's heap
fathomprobe.hold(0)
gc.collect(); used = gc.mem_alloc() - a; f2 = gc.mem_free()
mine = bytearray(1000)
gc.collect()
print(used, f, f2, gc.mem_alloc() - a - used)
""")
    # 300 KB held: none of it counted (a global or two may grow the module dict a little)
    assert used <= 64 and free_before - free_after <= 64
    assert 1000 <= own <= 1200                        # a block outside a hold is the unit's


def test_reach_charges_a_structure_its_blocks_and_stops_at_others():
    whole, alone, stopped, excluded = run("""
import fathomprobe
shared = bytearray(2000)
a = [bytearray(1000), shared]
b = [a, bytearray(500)]
print(fathomprobe.reach(b), fathomprobe.reach(a), fathomprobe.reach(b, [], [a]),
      fathomprobe.reach(b, [a]))
""", heap="1m")
    assert 3000 <= alone <= 3000 + 300          # a's list, its 1000 B and the shared 2000 B
    assert whole >= alone + 500
    assert 500 <= stopped <= 600 + 64           # b without entering a
    assert stopped == excluded                  # a charged already: the same
