"""The compiled pair evaluation against the numpy solver, games played by the engine, and what must hold exactly."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hog_core.classic import play
from hog_core.kernel import CONTESTABLE, Kernel
from hog_core.pairs import Pairs
from hog_core.solver import Policy, Solution, win_rate
from hog_core.strategies import always_roll, bacon_strategy, tabulate


def varied(kernel: Kernel, seed: int) -> Policy:
    """A strategy of the totals alone with every kind of move the rule set allows, seeded."""
    rng = np.random.default_rng(seed)
    lowest = -1 if kernel.rules.pork_chop else 0
    table = rng.integers(lowest, kernel.rules.max_dice + 1, size=(kernel.goal, kernel.goal))
    return tabulate(lambda score, opponent: int(table[score, opponent]), kernel)


PAIRED = ["fa18", "sp22", "sp16", "porkchop", "sp21", "contest", "sp14", "fa17_contest", "fa18_contest", "fa20", "fa23"]
"""Every shape of table the pairs' sweep reads (the six first rule sets; Hog Wild beside another swap,
Time Trot mod 8 and mod 5 without eight-sided dice, extra turns from the totals, a gain after the add):
the other contestable semesters differ from these only in the numbers their rules put in the tables."""


@pytest.fixture(scope="module")
def pairs(kernels: dict[str, Kernel]) -> dict[str, Pairs]:
    return {rules: Pairs(kernels[rules]) for rules in PAIRED}


@pytest.mark.parametrize("rules", ["sp15", "fa19", "sp20", "su20"])
def test_no_contest_is_run_in_a_rule_set_whose_strategies_need_more_than_the_totals(
    rules: str, kernels: dict[str, Kernel]
) -> None:
    assert rules not in CONTESTABLE
    with pytest.raises(ValueError, match="no contest is run in these rules"):
        Pairs(kernels[rules])


@pytest.mark.parametrize("rules", PAIRED)
def test_fixed_pairs_match_the_solver(rules: str, kernels: dict[str, Kernel], pairs: dict[str, Pairs]) -> None:
    kernel = kernels[rules]
    a, b = varied(kernel, 1), tabulate(lambda s, o: bacon_strategy(s, o, rules=rules), kernel)
    fast, slow = pairs[rules].rate(a, b), win_rate(kernel, a, b)
    assert fast.first == pytest.approx(slow.first, abs=1e-12)
    assert fast.second == pytest.approx(slow.second, abs=1e-12)


@pytest.mark.parametrize("rules", PAIRED)
def test_best_response_and_perfect_match_the_solver(
    rules: str, kernels: dict[str, Kernel], pairs: dict[str, Pairs], solutions: dict[str, Solution]
) -> None:
    kernel = kernels[rules]
    entry = varied(kernel, 2)
    assert pairs[rules].exploitability(entry) == pytest.approx(win_rate(kernel, None, entry).average, abs=1e-12)
    perfect = solutions[rules].moves
    assert pairs[rules].rate(perfect, entry).average == pytest.approx(
        win_rate(kernel, perfect, entry).average, abs=1e-12
    )


def test_many_pairs_at_once_match_one_at_a_time(kernels: dict[str, Kernel], pairs: dict[str, Pairs]) -> None:
    kernel = kernels["contest"]
    policies = [varied(kernel, seed) for seed in range(4)]
    wanted = [(0, 1), (2, 3), (1, 3), (3, 0), (2, 2)]
    together = pairs["contest"].rates(policies, wanted)
    assert together == [pairs["contest"].rate(policies[a], policies[b]) for a, b in wanted]


def test_a_strategy_against_itself_is_even_over_the_coin_flip(
    kernels: dict[str, Kernel], pairs: dict[str, Pairs]
) -> None:
    kernel = kernels["contest"]
    four = tabulate(always_roll(4), kernel)
    rate = pairs["contest"].rate(four, four)
    assert rate.first != pytest.approx(0.5, abs=1e-3)  # moving first matters ...
    assert rate.average == pytest.approx(0.5, abs=1e-15)  # ... and the coin flip evens it out


@pytest.mark.parametrize("rules", ["contest", "porkchop", "sp22"])
def test_the_perfect_strategy_is_never_beaten(
    rules: str, kernels: dict[str, Kernel], pairs: dict[str, Pairs], solutions: dict[str, Solution]
) -> None:
    kernel = kernels[rules]
    entries = [varied(kernel, seed) for seed in range(3)] + [tabulate(always_roll(n), kernel) for n in (0, 4, 6)]
    rates = pairs[rules].rates([solutions[rules].moves, *entries], [(0, i) for i in range(1, len(entries) + 1)])
    assert min(r.average for r in rates) >= 0.5


@pytest.mark.parametrize("seed", [3, 4])
def test_games_played_by_the_engine_agree_within_four_standard_errors(seed: int, pairs: dict[str, Pairs]) -> None:
    """Independent of the kernel's tables: whole games played by ``decide``/``evolve`` (the course's
    ``play``), with seeded dice, half with each side moving first."""
    kernel = pairs["contest"].kernel
    table = np.random.default_rng(seed).integers(0, 11, size=(kernel.goal, kernel.goal))
    entry = lambda score, opponent: int(table[score, opponent])  # noqa: E731
    fives = always_roll(5)
    exact = pairs["contest"].rate(tabulate(entry, kernel), tabulate(fives, kernel)).average
    rng = random.Random(seed)
    dice = lambda sides: rng.randint(1, sides)  # noqa: E731
    games, wins = 8_000, 0
    for n in range(games):
        first, second = (entry, fives) if n % 2 == 0 else (fives, entry)
        scores = play(first, second, rules="contest", dice=dice)
        wins += scores[n % 2] > scores[1 - n % 2]
    standard_error = (exact * (1 - exact) / games) ** 0.5
    assert abs(wins / games - exact) <= 4 * standard_error
