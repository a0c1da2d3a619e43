"""The contest's speed (issue 28), under the contest rule set, with seeded entries that look like real
ones (the perfect strategy's table with a share of its cells changed, always-roll tables, mixes):

- one pair's exact evaluation (both seat orders) by the compiled sweep, beside the straightforward
  per-pair evaluation (``solver.win_rate``, numpy) of the same pair: the anchor;
- a new entry placed among 100 existing ones (its 100 + 5 pairs and its exploitability), on one core
  (target: <= 2 s);
- a full round robin of 100 entries: 4,950 pairs, both seat orders (target: <= 20 s), on one core and
  on every core; then the whole standings (references and exploitabilities too).

    python bench/contest.py [--entries 100]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bot.games.hog.contest.arena import Arena, shared  # noqa: E402
from bot.games.hog.contest.entries import Contest, Entry  # noqa: E402
from hog_core.contest import SIZE, Table  # noqa: E402
from hog_core.rulesets import CONTEST  # noqa: E402
from hog_core.solver import solve, win_rate  # noqa: E402
from hog_core.strategies import from_table  # noqa: E402


def entries(perfect: Table, n: int, seed: int = 28) -> dict[str, Entry]:
    """``n`` seeded entries: perfect's table with 2-60% of its cells changed, or a fixed roll with some zeros."""
    rng = np.random.default_rng(seed)
    found = {}
    for i in range(n):
        if i % 3:
            table = perfect.copy()
            changed = rng.random((SIZE, SIZE)) < rng.uniform(0.02, 0.6)
            table[changed] = rng.integers(0, 11, size=int(changed.sum()))
        else:
            table = np.full((SIZE, SIZE), rng.integers(3, 8), dtype=np.int8)
            table[rng.random((SIZE, SIZE)) < 0.2] = 0
        found[f"team {i}"] = Entry(f"team {i}", f"p{i}", f"Player {i}", table.astype(np.int8), i + 1)
    return found


def timed(work: object) -> float:
    started = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=100)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    solution = solve(CONTEST)
    arena = Arena(CONTEST, solution)
    start = arena.kernel.dims.index(0, False, False, False)
    field = entries(solution.moves[start], args.entries + 1)
    newcomer = field.pop(f"team {args.entries}")
    policies = [from_table(e.table, arena.kernel) for e in field.values()]
    arena.pairs.rates(policies[:2], [(0, 1)])  # compiled (or read from numba's cache) before timing

    print(f"contest rules, {args.entries} entries, {cores} cores")
    a, b = policies[0], policies[1]
    arena.threads = 1
    fast = min(timed(lambda: arena.pairs.rate(a, b)) for _ in range(5))
    slow = min(timed(lambda: win_rate(arena.kernel, a, b)) for _ in range(2))
    fast_rate, slow_rate = arena.pairs.rate(a, b), win_rate(arena.kernel, a, b)
    agree = max(abs(fast_rate.first - slow_rate.first), abs(fast_rate.second - slow_rate.second))
    print(f"one pair, both seat orders: compiled {fast * 1000:.1f} ms, numpy per pair {slow * 1000:.0f} ms "
          f"({slow / fast:.0f}x); they agree to {agree:.1e}")  # fmt: skip

    pairs = [(i, j) for i in range(len(policies)) for j in range(i + 1, len(policies))]
    for threads in sorted({1, cores}):
        took = timed(lambda n=threads: shared(arena.pairs, policies, pairs, (), n))
        print(f"round robin, {len(pairs):,} pairs on {threads} core{'s' if threads > 1 else ''}: {took:.1f} s "
              f"({took / len(pairs) * 1000:.2f} ms a pair; target 20 s)")  # fmt: skip

    arena.threads = cores
    contest = Contest("contest")
    took = timed(lambda: arena.results(contest, field))
    print(f"the whole standings of {len(field)} entries and {len(arena.references)} references "
          f"(exploitabilities too), from nothing, on {cores} cores: {took:.1f} s")  # fmt: skip
    arena.threads = 1
    grown = {**field, newcomer.team: newcomer}
    took = timed(lambda: arena.results(contest, grown))
    print(f"a new entry placed among {len(field)} on one core: {took:.2f} s (target 2 s)")


if __name__ == "__main__":
    main()
