# The sealed deal's primes are data: each must be a safe prime (p and q = (p-1)/2 prime), and the
# first one after its public label, so that no one chose it (CPython: Miller-Rabin on big ints).
import pytest

from fathom.sealed.group import BITS, PRIMES, Group, group_start

_SMALL = [p for p in range(3, 20000) if all(p % d for d in range(2, int(p ** 0.5) + 1))]


def _probable_prime(n, rounds=40):
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _SMALL[:rounds]:       # fixed bases: deterministic, and 2**-80 for a composite
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@pytest.mark.parametrize("bits", sorted(PRIMES))
def test_each_prime_is_a_safe_prime_of_its_size_from_its_label(bits):
    offset, p = PRIMES[bits]
    q = (p - 1) // 2
    assert p.bit_length() == bits
    assert q == group_start(bits) + offset
    assert _probable_prime(q) and _probable_prime(p)


def test_the_generator_has_order_q():
    g = Group()
    assert g.bits == BITS
    assert pow(g.g, g.q, g.p) == 1 and g.g != 1


def _first_after(q):
    while True:
        if all(q % s and (2 * q + 1) % s for s in _SMALL) and \
                pow(2, q - 1, q) == 1 and pow(2, 2 * q, 2 * q + 1) == 1:
            return q
        q += 1


@pytest.mark.slow
def test_the_games_prime_is_the_first_after_its_label():
    """Nothing up the sleeve: the search from the label stops exactly at the stored offset."""
    offset, _p = PRIMES[BITS]
    assert _first_after(group_start(BITS)) - group_start(BITS) == offset


@pytest.mark.bench  # 30-40 s of primality tests for the prime the games do not use
def test_the_1024_bit_prime_is_the_first_after_its_label():
    offset, _p = PRIMES[1024]
    assert _first_after(group_start(1024)) - group_start(1024) == offset
