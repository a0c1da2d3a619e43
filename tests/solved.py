"""Solutions put where a bot looks for them, so that no test waits for a rule set to be solved."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.hog.solutions import SolutionCache
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from storage.shelves import Shelf

SHELVED = ("fa18", "sp22", "sp16", "porkchop", "sp21", "contest", "fa23")
"""The rule sets the platform's tests play: a test of another solves it on first use, as a bot does
(a Feral Hogs solution is 18 MB: every test's shelf need not hold them all)."""


async def shelve(shelf: Shelf, solutions: dict[str, Solution], wanted: Sequence[str] = SHELVED) -> None:
    """Put the solutions of ``wanted`` (by default ``SHELVED``; from the ``solutions`` fixture, which
    solves each once per run) on ``shelf``, as a bot that had solved them would have."""
    cache = SolutionCache(shelf)
    for rules in wanted:
        await cache.put(solutions[rules], RULE_SETS[rules], 100)
