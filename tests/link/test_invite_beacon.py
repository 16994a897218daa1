# The invitation a discovery beacon carries (its fifth field), fuzzed with hypothesis (CPython):
# any value in that field, well-formed or not, lists the unit as its four-field beacon does and
# never raises; only a well-formed one invites, to exactly the game and group size it names.
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from fathom import codec
from fathom.link import frame
from fathom.link.session import beacon, parse_beacon, parse_invite

MAC = b"\x24\x6f\x28\x00\x00\x0a"
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=24)
    | st.binary(max_size=24),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8)


def with_fifth(v):
    return frame.encode(frame.BEACON, 0, 0, 0,
                        codec.encode(["fathom", frame.VERSION, "Ann", MAC, v]))


def well_formed(v):
    return (isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)
            and 0 < len(v[0].encode()) <= 16 and type(v[1]) is int and 2 <= v[1] <= 255)


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@FUZZ
@given(values)
def test_any_fifth_field_lists_the_unit_and_invites_only_when_well_formed(v):
    data = with_fifth(v)
    if len(data) > frame.MAX_FRAME:
        return  # not a frame any radio carries
    assert parse_beacon(data) == ("Ann", MAC, frame.VERSION)
    inv = parse_invite(data)
    if well_formed(v):
        assert inv == ("Ann", MAC, v[0], v[1])
    else:
        assert inv is None


@pytest.mark.slow   # hundreds of fuzzed cases: make test, not the fast loop
@FUZZ
@given(st.text(min_size=1, max_size=16).filter(lambda g: len(g.encode()) <= 16),
       st.integers(2, 255))
def test_an_invitation_round_trips(game, players):
    assert parse_invite(beacon("Ann", MAC, game=game, players=players)) == \
        ("Ann", MAC, game, players)


@FUZZ
@given(st.integers(0, 255), st.integers(0, 7), st.binary(max_size=300))
def test_a_damaged_invitation_is_none_or_the_sent_one(i, bit, junk):
    data = bytearray(beacon("Ann", MAC, game="sugardog", players=5))
    data[i % len(data)] ^= 1 << bit
    assert parse_invite(bytes(data)) is None  # a flipped bit fails the CRC
    r = parse_invite(junk)  # and junk never raises
    assert r is None or (len(r) == 4 and isinstance(r[2], str) and 2 <= r[3] <= 255)
