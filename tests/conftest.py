"""Shared, expensive fixtures: each rule set's kernel and perfect strategy, built once per run."""

from __future__ import annotations

import pytest

from hog_core.kernel import Kernel
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution, sweep


@pytest.fixture(scope="session")
def kernels() -> dict[str, Kernel]:
    return {rules: Kernel(rs, 100) for rules, rs in RULE_SETS.items()}


@pytest.fixture(scope="session")
def solutions(kernels: dict[str, Kernel]) -> dict[str, Solution]:
    solved = {}
    for rules, kernel in kernels.items():
        result = sweep(kernel)
        rs = kernel.rules
        solved[rules] = Solution(rules, rs.version, 100, kernel.dims, result.value_a, result.moves_a)
    return solved
