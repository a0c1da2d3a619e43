"""Solve and load times per rule set, and simulation speed, measured in one run.

    python bench/solver.py

Simulation speed is always_roll(4) vs always_roll(6) under fa18, beside two baselines run here
too: a plain Python loop (the course's ``play``) and a straightforward numpy batch (every game
rolls its dice as arrays each turn and applies the rules with ``np.where``).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import numpy as np

from bot.games.hog.solutions import SolutionCache
from hog_core.classic import always_roll, play
from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS
from hog_core.simulate import Chain, simulate
from hog_core.solver import solve
from hog_core.strategies import tabulate
from storage.shelves import FolderShelf


def best_of(n: int, fn: object) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def naive_numpy(games: int, rng: np.random.Generator) -> float:
    """fa18, always_roll(4) vs always_roll(6), the plain way: A's win rate, A moving first."""
    score = np.zeros((games, 2), dtype=np.int64)
    mover = np.zeros(games, dtype=np.int64)
    rolls = np.array([4, 6])
    active = np.ones(games, dtype=bool)
    idx = np.arange(games)
    while active.any():
        i = idx[active]
        m = mover[i]
        k = rolls[m]
        dice = rng.integers(1, 7, size=(len(i), 6))
        used = np.arange(6)[None, :] < k[:, None]
        ones = ((dice == 1) & used).any(axis=1)
        points = np.where(ones, 1, (dice * used).sum(axis=1))
        cur = score[i, m] + points
        opp = score[i, 1 - m]
        swap = np.abs(cur // 10 % 10 - cur % 10) == np.abs(opp // 10 % 10 - opp % 10)
        score[i, m] = np.where(swap, opp, cur)
        score[i, 1 - m] = np.where(swap, cur, opp)
        mover[i] = 1 - m
        active[i] = (score[i] < 100).all(axis=1)
    return float((score[:, 0] >= 100).mean())


def main() -> None:
    print("rule set   solve (kernel + sweep)   load from cache")
    with tempfile.TemporaryDirectory() as tmp:
        cache = SolutionCache(FolderShelf(Path(tmp)))
        for rules, rs in RULE_SETS.items():
            solve_s = best_of(3, lambda rs=rs: solve(rs, 100))
            asyncio.run(cache.put(solve(rs, 100), rs, 100))
            load_s = best_of(20, lambda rs=rs: asyncio.run(cache.load(rs, 100)))
            print(f"{rules:9s} {solve_s * 1000:10.0f} ms {load_s * 1000:18.2f} ms")

    kernel = Kernel(RULE_SETS["fa18"], 100)
    chain = Chain(kernel, tabulate(always_roll(4), kernel), tabulate(always_roll(6), kernel))
    rng = np.random.default_rng(2026)
    simulate(chain, 100_000, rng)  # warm up
    n = 4_000_000
    vectorized = n / best_of(3, lambda: simulate(chain, n, rng))
    python_loop = 20_000 / best_of(1, lambda: [play(always_roll(4), always_roll(6)) for _ in range(20_000)])
    plain_numpy = 1_000_000 / best_of(3, lambda: naive_numpy(1_000_000, rng))
    print()
    print("fa18 always_roll(4) vs always_roll(6), games per second:")
    print(f"  plain Python loop      {python_loop:12,.0f}")
    print(f"  straightforward numpy  {plain_numpy:12,.0f}")
    ratios = f"{vectorized / plain_numpy:.1f}x numpy, {vectorized / python_loop:.0f}x Python"
    print(f"  hog_core.simulate      {vectorized:12,.0f}  ({ratios})")


if __name__ == "__main__":
    main()
