"""The vectorized simulation agrees with exact evaluation within sampling error."""

from __future__ import annotations

import numpy as np
import pytest

from hog_core.kernel import Kernel
from hog_core.simulate import Chain, simulate
from hog_core.solver import Policy, Solution, win_rate
from hog_core.strategies import always_roll, house_policy, tabulate


@pytest.mark.parametrize(
    ("rules", "a", "b"),
    [
        ("fa18", "always_roll(4)", "always_roll(6)"),
        ("sp16", "perfect", "medium"),
        ("porkchop", "perfect", "easy"),
        ("contest", "medium", "perfect"),
        ("sp22", "perfect", "easy"),
    ],
)
def test_simulation_agrees_with_exact_evaluation(
    kernels: dict[str, Kernel], solutions: dict[str, Solution], rules: str, a: str, b: str
) -> None:
    kernel = kernels[rules]

    def policy(name: str) -> Policy:
        if name.startswith("always_roll"):
            return tabulate(always_roll(int(name[12:-1])), kernel)
        return house_policy(name, kernel, solutions[rules])

    pa, pb = policy(a), policy(b)
    seen: list[int] = []
    result = simulate(Chain(kernel, pa, pb), 200_000, np.random.default_rng(7), batch=50_000, progress=seen.append)
    exact = win_rate(kernel, pa, pb)
    assert sum(seen) == 200_000 and result.games_first + result.games_second == 200_000
    assert result.draws == 0
    assert abs(result.win_rate - exact.average) < 4 * result.standard_error
    assert abs(result.wins_first / result.games_first - exact.first) < 4 * 2 * result.standard_error


def test_looping_strategies_are_counted_as_draws(kernels: dict[str, Kernel]) -> None:
    """sp22: open with a roll, then Hefty Hogs forever; some games settle into a 0-point loop.

    Exact evaluation values a loop as half a win; the simulation stops it at the turn limit."""
    kernel = kernels["sp22"]
    a = tabulate(lambda score, opp: 1 if score == 0 else 0, kernel)
    b = tabulate(lambda score, opp: 3 if score == 0 else 0, kernel)
    result = simulate(Chain(kernel, a, b), 100_000, np.random.default_rng(3))
    assert 0.05 < result.draws / 100_000 < 0.25
    with_half_draws = result.win_rate + 0.5 * result.draws / 100_000
    assert abs(with_half_draws - win_rate(kernel, a, b).average) < 4 * result.standard_error
