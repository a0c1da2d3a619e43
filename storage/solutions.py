"""Solved rule sets on disk, so the bot never solves the same game twice.

One ``.npz`` file per rule set, rule version and goal. A file that cannot be read is solved again
and replaced; files are written atomically, so a crash never leaves half a solution.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from hog_core.kernel import LayerDims
from hog_core.rulesets import RuleSet
from hog_core.solver import Solution, solve


class SolutionCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, rules: RuleSet, goal: int) -> Path:
        return self.directory / f"{rules.id}-v{rules.version}-goal{goal}.npz"

    def load(self, rules: RuleSet, goal: int) -> Solution | None:
        """The stored solution, or ``None`` when there is none or it is unreadable."""
        try:
            with np.load(self.path(rules, goal)) as data:
                period, extra, chop = (int(x) for x in data["dims"])
                return Solution(
                    rules.id,
                    rules.version,
                    goal,
                    LayerDims(period, bool(extra), bool(chop)),
                    data["value"],
                    data["moves"],
                )
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
            return None

    def get(self, rules: RuleSet, goal: int = 100) -> Solution:
        """The solution of ``rules`` to ``goal``: loaded when stored, else solved and stored."""
        found = self.load(rules, goal)
        if found is not None:
            return found
        solution = solve(rules, goal)
        self.save(solution, rules, goal)
        return solution

    def save(self, solution: Solution, rules: RuleSet, goal: int) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        dims = np.array([solution.dims.turn_period, solution.dims.extra, solution.dims.pork_chop])
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, value=solution.value, moves=solution.moves, dims=dims)
            os.replace(tmp, self.path(rules, goal))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
