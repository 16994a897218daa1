# Property: any messages through a channel whose frames are lost, duplicated, reordered and
# corrupted at random arrive complete, once each, in order (hypothesis, CPython only).
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from fathom.link.channel import Channel
from hostmodes.wire import Wire, pair, step, bench, STEP_MS

KEY = bytes(range(32))
PROP = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def drive(w, chans, want, limit_ms):
    got = [[] for _ in chans]
    now = w.now
    while now < limit_ms and any(len(g) < n for g, n in zip(got, want)):
        now += STEP_MS
        step(w, chans, now)
        for c, g in zip(chans, got):
            m = c.recv()
            while m is not None:
                g.append(m)
                m = c.recv()
    # let late duplicates arrive: nothing more may be delivered
    for _ in range(300):
        now += STEP_MS
        step(w, chans, now)
        for c, g in zip(chans, got):
            m = c.recv()
            while m is not None:
                g.append(m)
                m = c.recv()
    return got


@PROP
@given(st.lists(st.binary(max_size=600), max_size=25), st.lists(st.binary(max_size=80), max_size=10),
       st.integers(0, 400), st.integers(0, 300), st.integers(0, 400), st.integers(0, 300),
       st.binary(min_size=1, max_size=8), st.booleans())
def test_delivered_exactly_once_in_order(to_b, to_a, loss, dup, reorder, corrupt, seed, keyed):
    w = Wire(seed, loss=loss, dup=dup, reorder=reorder, corrupt=corrupt)
    a, b = pair(w, KEY if keyed else None, 7 if keyed else 0)
    for m in to_b:
        a.send(m)
    for m in to_a:
        b.send(m)
    got_a, got_b = drive(w, (a, b), (len(to_a), len(to_b)), 3600000)
    assert got_b == to_b and got_a == to_a


def test_resume_mid_exchange_of_500_messages_at_30_percent_loss():
    w = Wire(b"soak", loss=300, dup=100, reorder=200, corrupt=100)
    a, b = pair(w, KEY, 0x77)
    to_b = [b"move %d" % i + bytes(i % 50) for i in range(500)]
    to_a = [b"ack %d" % i for i in range(500)]
    for m in to_b:
        a.send(m)
    got_a, got_b = [], []
    now = 0
    rebooted = False
    while (len(got_b) < 500 or len(got_a) < 500) and now < 7200000:
        now += STEP_MS
        step(w, (a, b), now)
        m = b.recv()
        while m is not None:
            got_b.append(m)
            b.send(to_a[len(got_b) - 1])   # answer each move, as a game does
            m = b.recv()
        m = a.recv()
        while m is not None:
            got_a.append(m)
            m = a.recv()
        if not rebooted and len(got_b) >= 250:
            # b persists after handling, then both units lose power with frames in the air
            sa, sb = a.save(), b.save()
            w.q = []
            a = Channel.restore(sa, w.sender(0), now)
            b = Channel.restore(sb, w.sender(1), now)
            w.ends[0], w.ends[1] = a, b
            rebooted = True
    assert rebooted
    assert got_b == to_b and got_a == to_a


@pytest.mark.parametrize("loss", [0, 0.1, 0.3])
def test_bench_reports_wire_cost(loss):
    r = bench(loss, n=60)
    assert r["delivered_ok"]
    assert r["frames_per_msg"] >= 1 and r["bytes_per_msg"] > r["size"]
    if loss == 0:
        assert r["retransmits"] == 0 and r["bytes_per_msg"] < r["size"] + 25
    else:
        assert r["retransmits"] > 0
