"""Digit and prime arithmetic that the rule sets are written in."""

from __future__ import annotations


def tens(n: int) -> int:
    """The tens digit of ``n`` (104 -> 0)."""
    return n // 10 % 10


def ones(n: int) -> int:
    """The ones digit of ``n``."""
    return n % 10


def digits(n: int) -> tuple[int, ...]:
    """The decimal digits of a non-negative ``n``, ones digit first (0 -> (0,))."""
    out = [n % 10]
    n //= 10
    while n:
        out.append(n % 10)
        n //= 10
    return tuple(out)


def leading_pair(n: int) -> tuple[int, int]:
    """The two leading digits of ``n``; a single digit is padded with a 0 (6 -> (0, 6))."""
    d = digits(n)
    if len(d) == 1:
        return 0, d[0]
    return d[-1], d[-2]


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    f = 2
    while f * f <= n:
        if n % f == 0:
            return False
        f += 1
    return True


def next_prime(n: int) -> int:
    """The smallest prime greater than ``n``."""
    n += 1
    while not is_prime(n):
        n += 1
    return n
