# The app clock wraps like ticks_ms (every 2**30 ms on a 32-bit port) so it stays a small int;
# every timer must work across the wrap. The clock is started just below it here.
import pytest

from fathom.hal import clock
from fathom.hal.clock import MAX_TICKS, ticks_add, ticks_diff
from fathom.link.channel import LOST_MS, RTO_MIN_MS, Channel
from fathom.link.session import REVEAL_TIMEOUT_MS, GameSetup

pytestmark = pytest.mark.micropython

KEY = bytes(range(32))
SID = 0x7777
NEAR_WRAP = MAX_TICKS - 2000  # two seconds before the clock wraps


def test_now_ms_starts_where_told_and_wraps_to_small_values():
    clock.start_at(NEAR_WRAP)
    try:
        a = clock.now_ms()
        assert 0 <= ticks_diff(a, NEAR_WRAP) < 1000
        clock.start_at(MAX_TICKS)
        clock.sleep_ms(3)
        b = clock.now_ms()
        assert 0 <= b < 1000  # past the wrap: small again, not MAX_TICKS + 3
        assert ticks_diff(b, MAX_TICKS) >= 3
    finally:
        clock.start_at(0)


def test_clock_stays_a_small_int_across_the_wrap():
    import sys
    if sys.implementation.name != "micropython":
        pytest.skip("heap_lock is MicroPython's")
    import micropython
    clock.start_at(MAX_TICKS)
    try:
        micropython.heap_lock()
        try:
            for _ in range(3):
                t = clock.now_ms()
                ticks_diff(t, MAX_TICKS)
                ticks_add(t, 150)
        finally:
            micropython.heap_unlock()
    finally:
        clock.start_at(0)


def _pair(start):
    """Two keyed channels with a lossy hop from a to b: drop[0] frames are lost first."""
    drop = [0]
    boxes = ([], [])

    def a_out(f):
        if drop[0]:
            drop[0] -= 1
        else:
            boxes[1].append(f)

    a = Channel(a_out, KEY, SID, start, 0)
    b = Channel(boxes[0].append, KEY, SID, start, 1)
    return a, b, boxes, drop


def _run(a, b, boxes, now, ms, step=10):
    got = []
    for _ in range(ms // step):
        now = ticks_add(now, step)
        a.poll(now)
        b.poll(now)
        while boxes[1]:
            b.on_frame(boxes[1].pop(0))
        while boxes[0]:
            a.on_frame(boxes[0].pop(0))
        m = b.recv()
        while m is not None:
            got.append(m)
            m = b.recv()
    return now, got


def test_retransmission_heartbeat_and_link_state_work_across_the_wrap():
    now = ticks_add(MAX_TICKS, -RTO_MIN_MS // 2)   # the first retransmission falls after it
    a, b, boxes, drop = _pair(now)
    drop[0] = 1
    a.send(b"across")
    now, got = _run(a, b, boxes, now, 3000)
    assert got == [b"across"]
    assert a.stats["retransmits"] >= 1
    assert now < NEAR_WRAP  # we did cross
    assert a.state == "linked" and b.state == "linked"
    sent = a.stats["frames_sent"]
    now, _ = _run(a, b, boxes, now, 2500)
    assert a.stats["frames_sent"] > sent  # heartbeats keep going after the wrap


def test_silence_across_the_wrap_is_lost_and_stays_lost():
    now = NEAR_WRAP
    a, b, boxes, drop = _pair(now)
    a.send(b"x")
    now, got = _run(a, b, boxes, now, 200)
    assert got == [b"x"] and a.state == "linked"
    for step in (LOST_MS + 10, 1 << 28, 1 << 28, 1 << 28):  # past half a period of silence
        now = ticks_add(now, step)
        a.poll(now)
        assert a.state == "lost"


def test_reveal_timeout_counts_across_the_wrap():
    g = GameSetup(0, b"n" * 16)
    g.state = "reveal"  # waiting on the peer's reveal, the only state whose wait is timed
    now = ticks_add(MAX_TICKS, -REVEAL_TIMEOUT_MS // 2)
    for _ in range(REVEAL_TIMEOUT_MS // 1000 + 2):
        g.poll(now, True)
        now = ticks_add(now, 1000)
    assert g.state == "forfeit"
