"""Digit and prime arithmetic that the rule sets are written in."""

from __future__ import annotations

import functools
import math


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


def lead(n: int) -> int:
    """The leftmost digit of a non-negative ``n`` (7 -> 7, 108 -> 1, 0 -> 0)."""
    while n >= 10:
        n //= 10
    return n


def is_square(n: int) -> bool:
    root = math.isqrt(n)
    return n >= 0 and root * root == n


def next_square(n: int) -> int:
    """The smallest perfect square greater than ``n``."""
    return (math.isqrt(n) + 1) ** 2


def factor_count(n: int) -> int:
    """How many positive whole numbers divide ``n`` (1 -> 1, 6 -> 4)."""
    count, f = 0, 1
    while f * f <= n:
        if n % f == 0:
            count += 1 if f * f == n else 2
        f += 1
    return count


@functools.cache
def _pi_digits(count: int) -> str:
    """Pi's first ``count`` digits, "31415…", by Machin's formula in whole numbers (guard digits added)."""
    scale = 10 ** (count + 10)

    def arctan_inverse(x: int) -> int:
        total, term, n, sign = 0, scale // x, 1, 1
        while term:
            total += sign * (term // n)
            term //= x * x
            n += 2
            sign = -sign
        return total

    return str(4 * (4 * arctan_inverse(5) - arctan_inverse(239)))[:count]


def pi_digit(n: int) -> int:
    """The ``n``-th digit of pi after the decimal point, and 3 (the whole part) for ``n == 0``."""
    size = 128
    while size <= n:
        size *= 2
    return int(_pi_digits(size)[n])


def seventh_digit(n: int) -> int:
    """The ``n``-th digit of 1/7 = 0.142857… after the decimal point (``n >= 1``)."""
    return int("142857"[(n - 1) % 6])
