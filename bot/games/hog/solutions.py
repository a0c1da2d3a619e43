"""Solved rule sets on disk, so the bot never solves the same game twice.

One ``.npz`` file per rule set, rule version and goal. A file that cannot be read is solved again
and replaced; files are written atomically, so a crash never leaves half a solution.
"""

from __future__ import annotations

import os
import tempfile
import threading
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np

from hog_core.kernel import LayerDims
from hog_core.rulesets import RuleSet
from hog_core.solver import Solution, solve


class SolutionCache:
    """Solutions on disk, and the ones in use in memory (a few MB each), so a click reads nothing."""

    def __init__(self, directory: Path, in_memory: int = 16) -> None:
        self.directory = directory
        self._memory: OrderedDict[tuple[str, int, int], Solution] = OrderedDict()
        self._in_memory = in_memory
        self._lock = threading.Lock()  # get() runs in worker threads

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

    def in_memory(self, rules: RuleSet, goal: int = 100) -> Solution | None:
        """The solution if it is in memory (no disk, no solving: safe on the event loop)."""
        key = (rules.id, rules.version, goal)
        with self._lock:
            solution = self._memory.get(key)
            if solution is not None:
                self._memory.move_to_end(key)
            return solution

    def get(self, rules: RuleSet, goal: int = 100) -> Solution:
        """The solution of ``rules`` to ``goal``: from memory, else loaded, else solved and stored."""
        key = (rules.id, rules.version, goal)
        if (solution := self.in_memory(rules, goal)) is not None:
            return solution
        solution = self.load(rules, goal)
        if solution is None:  # two threads may both solve it: the file is written atomically
            solution = solve(rules, goal)
            self.save(solution, rules, goal)
        with self._lock:
            self._memory[key] = solution
            while len(self._memory) > self._in_memory:
                self._memory.popitem(last=False)
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
