# Fuzzing the sealed deal's decoders of peer-supplied values (hypothesis, CPython): whatever a
# peer sends, the public table refuses it with SealedError or takes it; nothing else escapes.
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fathom.sealed import deal
from fathom.sealed.group import Group, SealedError
from hostmodes.sealedtable import Table
from hostmodes import sealedplay as sp

GRP = Group()
_G = sp.Game(sp.secrets_for(b"fuzz"), 16)
sp.ping_deal(_G)
LOG = list(_G.log)

elements = st.one_of(
    st.binary(min_size=0, max_size=GRP.nbytes + 2),
    st.integers(min_value=0, max_value=(1 << (8 * GRP.nbytes)) - 1).map(GRP.to_bytes),
    st.sampled_from([GRP.to_bytes(0), GRP.to_bytes(1), GRP.to_bytes(GRP.q),
                     GRP.to_bytes(GRP.q + 1), GRP.to_bytes(GRP.p - 1)]))
scalars = st.one_of(st.integers(min_value=-3, max_value=60), st.none(), st.text(max_size=3),
                    st.booleans())
values = st.recursive(st.one_of(elements, scalars), lambda c: st.lists(c, max_size=6), max_leaves=20)
events = st.one_of(
    st.lists(values, max_size=5),
    st.tuples(st.sampled_from(["sk", "ss", "so"]), values, values, values).map(list),
    st.tuples(st.just("ss"), st.integers(0, 1), st.integers(0, 17), st.lists(elements, max_size=8)).map(list),
    st.tuples(st.just("so"), st.just(0), st.lists(st.integers(-1, 17), max_size=3),
              st.lists(elements, max_size=3)).map(list))


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(LOG)), st.integers(-1, 2), events)
def test_any_event_at_any_point_is_taken_or_refused_with_sealed_error(cut, author, ev):
    t = Table(GRP, _G.commits, {0: list(range(16))})
    for a, e in LOG[:cut]:
        t.apply(a, e)
    try:
        t.apply(author, ev)
    except SealedError:
        pass


@settings(max_examples=400, deadline=None)
@given(elements)
def test_element_decoding_is_a_range_check(b):
    try:
        x = GRP.element(b)
    except SealedError:
        return
    assert 1 < x <= GRP.q and GRP.to_bytes(x) == b


@settings(max_examples=200, deadline=None)
@given(elements, elements, elements)
def test_opening_with_any_shares_gives_a_card_or_minus_one_or_sealed_error(c2, a, b):
    try:
        k = deal.reveal(GRP, c2, a, b, 16)
    except SealedError:
        return
    assert -1 <= k < 16
