"""Solve and load times per rule set, and simulation speed, measured in one run.

    python bench/solver.py
    python bench/solver.py --all    # every semester: the perfect house's exact chance and the time to solve

``--all`` prints, for every rule set and a few of one's own, the first mover's exact chance to win
from 0-0 when both play perfectly, the chance shared/RULES.md states beside it, and the seconds to
build its kernel and solve it (what a rule set of one's own costs on first use).

Simulation speed is always_roll(4) vs always_roll(6) under fa18, beside two baselines run here
too: a plain Python loop (the course's ``play``) and a straightforward numpy batch (every game
rolls its dice as arrays each turn and applies the rules with ``np.where``).
"""

from __future__ import annotations

import asyncio
import sys
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


STATED = {
    "sp14": 0.500272882365, "sp15": 0.506214374779, "su15": 0.502480437725, "fa17": 0.502208775776,
    "fa17_contest": 0.503946379171, "sp18": 0.502733956568, "su18": 0.500355039531,
    "fa18_contest": 0.500309816249, "sp19": 0.501136075492, "su19": 0.510385530732, "fa19": 0.522596407227,
    "sp20": 0.506776700082, "su20": 0.500515968974, "fa20": 0.531915246142, "fa21": 0.534434726268,
    "su22": 0.541571523784, "fa22": 0.517357435145, "fa23": 0.569240345216,
}  # fmt: skip
"""shared/RULES.md section 7: the first mover's value at 0-0, optimal against optimal."""
APART = {"su22": "the course's own fuzz games count a total of 1 as prime (1 -> 2); RULES.md read it not"}
"""Where our figure and RULES.md's differ, and why."""
OWN = ("fa23+time_trot", "sp21~more_boar", "fa22+swine_swap", "fa18+hog_wild+pork_chop", "fa19~swine_swap")


def every_rule_set() -> None:
    print(f"{'rule set':24s} {'first mover, exact':>18s} {'RULES.md':>14s} {'solve':>8s}")
    for rules in [*RULE_SETS, *OWN]:
        start = time.perf_counter()
        solution = solve(RULE_SETS[rules], 100)
        took = time.perf_counter() - start
        value = float(solution.value[solution.dims.index(0, False, False, False), 0, 0])
        stated = f"{STATED[rules]:.12f}" if rules in STATED else ""
        print(f"{rules:24s} {value:18.12f} {stated:>14s} {took:7.2f}s  {APART.get(rules, '')}".rstrip())


def main() -> None:
    if "--all" in sys.argv[1:]:
        every_rule_set()
        return
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
